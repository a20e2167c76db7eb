// name: refold_contested
// After a write, the properties of papers in the graph that the batch's
// statements state with another value than the node has (write_papers returns them). A write
// only adds statements, so each such property either keeps its value, when an earlier
// statement outranks the batch's best statement of it (a smaller precedence: the order is
// write.precedence's), or takes that statement's value. Looking for one
// statement that outranks it stops at the first found, where refolding reads every statement
// of the paper: most new statements of a popular paper come from references, which its own
// card or an earlier reference outranks.
// Each row names a paper and, per contested property, the batch's best statement of it:
// {key, precedence, value}.
//
// param rows: list — one map per row to write, as paperkg/graph/rows.py builds them
UNWIND $rows AS row
MATCH (p:Paper {paper_id: row.paper_id})
CALL (p, row) {
  UNWIND row.keys AS best
  WITH best WHERE NOT EXISTS {
    MATCH (:Document)-[m:MENTIONS]->(p)
    WHERE m[best.key] IS NOT NULL AND m.precedence < best.precedence
  }
  SET p[best.key] = best.value
};
