// name: unverifiable_claims
// Claims that cite sources none of which could be checked: no source was checked (N is 0
// or absent) although the claim lists sources or counts some (M > 0). A cited source can't
// be checked when it couldn't be matched to a record; matched sources beyond N were not
// checked either.
//
// precomputed
// alias: claims with status = 'unverifiable'
// columns: title, year, arxiv_id, doi, claim_id, claim, kind, basis, section, substantial, sources_total, sources, matched
