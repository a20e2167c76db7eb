// name: digest_context
// What the digest needs beside the changes: the lineage of the watched
// papers (the works they build on, up to two citation steps), the works each listed claim
// cites (through its sources), and the titles of the papers named.
//
// param claim_ids: list — claim_ids of the claims concerned
// param paper_ids: list — paper_ids of the papers concerned
// param watched: list — paper_ids of the watched papers
CALL () {
  UNWIND $watched AS paper_id
  MATCH (:Paper {paper_id: paper_id})-[:CITES*1..2]->(ancestor:Paper)
  RETURN collect(DISTINCT ancestor.paper_id) AS lineage
}
CALL () {
  UNWIND $claim_ids AS claim_id
  MATCH (:Claim {claim_id: claim_id})-[:CITES]->(:Source)-[:REFERS_TO]->(w:Paper)
  WITH claim_id, collect(DISTINCT w.paper_id) AS works
  RETURN collect([claim_id, works]) AS claim_works
}
CALL () {
  UNWIND $paper_ids AS paper_id
  MATCH (p:Paper {paper_id: paper_id})
  RETURN collect([p.paper_id, p.title, p.year]) AS titles
}
RETURN lineage, claim_works, titles;
