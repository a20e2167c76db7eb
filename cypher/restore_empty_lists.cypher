// name: restore_empty_lists
// Neo4j-admin import cannot write an empty list (an empty field is no
// property), so after `paperkg export --admin-import` the lists that ingestion always sets
// come back as [] here, as ingestion writes them. Auto-commit (CALL ... IN TRANSACTIONS).
MATCH (c:Claim) WHERE c.quotes IS NULL OR c.flags IS NULL OR c.flag_reasons IS NULL OR c.also_stated_in IS NULL
CALL (c) {
  SET c.quotes = coalesce(c.quotes, []), c.flags = coalesce(c.flags, []),
      c.flag_reasons = coalesce(c.flag_reasons, []), c.also_stated_in = coalesce(c.also_stated_in, [])
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (d:Document) WHERE d.warnings IS NULL
CALL (d) { SET d.warnings = [] } IN TRANSACTIONS OF 10000 ROWS;
