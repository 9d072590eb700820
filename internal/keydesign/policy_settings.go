package keydesign

// PolicySettings are the policy settings the provider evaluated a design under: the effective enforce (the
// block's own, else the provider's policy.enforce) and policy.disabled_rules, sorted. They travel in the
// design document so that the policy bundle on plan JSON disables the same rules and, when enforce is
// false, reports error findings as warnings, as the provider did.
type PolicySettings struct {
	Enforce       bool     `json:"enforce"`
	DisabledRules []string `json:"disabled_rules"`
}
