// name: paper_endpoints
// The Paper nodes the sampled relationships join, written before the timed rows (untimed; the
// benchmark's naive path).
//
// param ids: list — the nodes' keys
UNWIND $ids AS id
MERGE (:Paper {paper_id: id});
