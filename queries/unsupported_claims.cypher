// name: unsupported_claims
// Claims checked against at least one cited source where no checked source supports them.
// A claim also counted as checked against sources the page doesn't list (N of M says more
// checks than are shown) is left out: the page shows no verdict for those checks and counts
// them as supported, so the claim is `checked_unlisted`, not unsupported. Statuses are the
// ones `claim_support_summary` counts.
//
// precomputed
// alias: claims with status = 'unsupported'
// columns: title, year, arxiv_id, doi, claim_id, claim, kind, basis, section, substantial, sources_checked, sources_total, checks
