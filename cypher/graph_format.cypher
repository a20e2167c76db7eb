// name: graph_format
// The graph's format stamp (the GraphFormat node: the format version of the paperkg release
// that wrote it, and that release), whether the graph holds documents or papers, whether it
// keeps Evidence of paper identity, and what a reset would delete.
OPTIONAL MATCH (f:GraphFormat)
RETURN f.version AS version, f.written_by AS written_by,
       EXISTS { MATCH (:Document) } OR EXISTS { MATCH (:Paper) } AS holds_data,
       EXISTS { MATCH (:Evidence) } AS keeps_evidence,
       COUNT { (:Paper) } AS papers, COUNT { (:Claim) } AS claims, COUNT { (:Document) } AS documents,
       COUNT { (:IngestRun) } AS runs;
