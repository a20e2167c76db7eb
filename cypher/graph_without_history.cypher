// name: graph_without_history
// Whether a run starting now builds the whole graph: there is no knowledge in it (no
// documents, no papers) and no change history. Such a run, like an offline import, stores
// one change set that holds counts (paperkg/graph/changes.py, "whole"): everything it leaves
// in the graph is what it added.
RETURN NOT EXISTS { MATCH (:Document) } AND NOT EXISTS { MATCH (:Paper) }
       AND NOT EXISTS { MATCH (:ChangeSet) } AS whole;
