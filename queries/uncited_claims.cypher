// name: uncited_claims
// Claims with no cited support: the page lists and counts no source for them, and either
// their basis is `none given` or `reasoning`, or a support note says the paper relies on
// them without support or states them as an assumption. (A claim whose basis is `none
// given` but which does cite sources is judged by those sources instead.)
//
// precomputed
// alias: claims with status = 'uncited'
// columns: title, year, arxiv_id, doi, claim_id, claim, kind, basis, section, substantial, support_note, rests_on_assumption, flags, flag_reasons
