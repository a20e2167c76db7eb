// name: refold_contested
// After a write, the properties of papers in the graph that the batch's
// statements state with another value than the node has (write_papers returns them). A write
// only adds statements, so each such property either keeps its value, when an earlier
// statement outranks the batch's best statement of it (the best-ranked document, ties by
// document id, as in refold_papers), or takes that statement's value. Looking for one
// statement that outranks it stops at the first found, where refolding reads every statement
// of the paper: most new statements of a popular paper come from references, which its own
// card or an earlier reference outranks.
// Each row names a paper and, per contested property, the batch's best statement of it:
// {key, rank, doc_id, unit (the evidence key), value}.
//
// param rows: list — one map per row to write, as ingest/graph/rows.py builds them
UNWIND $rows AS row
MATCH (p:Paper {paper_id: row.paper_id})
CALL (p, row) {
  UNWIND row.keys AS best
  WITH best WHERE NOT EXISTS {
    MATCH (d:Document)-[m:MENTIONS]->(p)
    WHERE m[best.key] IS NOT NULL AND (m.rank > best.rank OR (m.rank = best.rank AND
          (d.doc_id < best.doc_id OR (d.doc_id = best.doc_id AND m.key < best.unit))))
  }
  SET p[best.key] = best.value
};
