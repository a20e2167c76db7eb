// name: claims
// One row of claims.csv in its own transaction: the Claim node with its typed properties (the
// benchmark's naive path).
//
// param id: string — the node's key
// param properties: map — the row's typed properties
MERGE (n:Claim {claim_id: $id})
SET n += $properties;
