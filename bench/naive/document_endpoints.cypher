// name: document_endpoints
// The Document nodes the sampled relationships join, written before the timed rows (untimed;
// the benchmark's naive path).
//
// param ids: list — the nodes' keys
UNWIND $ids AS id
MERGE (:Document {doc_id: id});
