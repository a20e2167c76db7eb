// name: graph_outdated
// Whether the graph was written by a paperkg that kept no evidence of identity
// (papers but no Evidence nodes), which this one cannot resolve against.
RETURN EXISTS { MATCH (:Paper) } AND NOT EXISTS { MATCH (:Evidence) } AS outdated;
