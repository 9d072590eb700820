// Package replicas is the global-table stage of the analysis: it checks `replicas` and states each Region's
// share of the writes, which every replica performs.
package replicas

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/lazyregexp"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/textfmt"
)

// Replicas: a global table (DynamoDB's global-tables guide, "How DynamoDB global tables work",
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/V2globaltables_HowItWorks.html).
//
// Every replica performs every write: a write made in one Region is replicated to, and performed by, every
// other replica. So the write demand a partition sees in each Region is the sum of all Regions' writes to
// its key (plus the TTL deletes, which are replicated too), while reads are served where they are issued
// and stay per Region. With replicas:
//   - traffic.writes_per_second (and its average) is the writes of all Regions together, which each
//     Region's write_share splits; or each Region gives its own writes_per_second and their sum is the
//     table's writes;
//   - traffic.reads_per_second (and its average) is the reads of each Region: the busiest Region's peak for
//     the capacity rules, and each Region's reads for the cost.
//
// Multi-Region strong consistency (MRSC) has limits of its own (the same page, "Consistency modes"): exactly
// three Regions (three replicas, or two and a witness) within one Region set, no LSIs, no TTL, no
// transactions, and the table must be empty. DK604 and DK605 check the first four; the last is a fact of
// the table's data that no plan shows.

// writeShareTolerance is how far the write shares may sum from 1 (float noise: 1/3 + 1/3 + 1/3).
const writeShareTolerance = 1e-6

// regionName is the shape of an AWS Region code (us-east-1, ap-southeast-5, us-gov-west-1).
var regionName = lazyregexp.New(`^[a-z]{2}(-[a-z]+)+-[0-9]+$`)

// WithRegionWrites returns the input with traffic.writes_per_second (and its average, scaled alike) set to
// the sum of the Regions' writes when the Regions give theirs: every later stage then reads the global
// figure. The caller's input is not changed.
func WithRegionWrites(in *model.Input) (*model.Input, bool) {
	r := in.Replicas
	if !r.HasReplicas() || in.Traffic.WritesPerSecond != nil {
		return in, false
	}
	sum, given := 0.0, false
	for _, reg := range r.Regions {
		if reg.WritesPerSecond != nil {
			sum += *reg.WritesPerSecond
			given = true
		}
	}
	if !given || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return in, false
	}
	cp := *in
	cp.Traffic.WritesPerSecond = &sum
	return &cp, true
}

// Validate checks `replicas`: known consistency, Region codes, a witness that is not also a
// replica, one way of giving the writes, shares and rates in range, and prices for every Region.
// writesFromRegions says that traffic.writes_per_second is the Regions' sum (WithRegionWrites).
func Validate(m *model.Model, writesFromRegions bool) model.FieldErrors {
	var errs model.FieldErrors
	r := m.Input.Replicas
	if r == nil {
		return nil
	}
	if r.Consistency != "" && !slices.Contains(model.ReplicaConsistencies, r.Consistency) {
		errs.Add(model.Path{"replicas", "consistency"}, "unknown consistency %q: use one of %s", r.Consistency, strings.Join(model.ReplicaConsistencies, ", "))
	}
	if v := r.TTLDeletesPerSecond; v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0 || *v > model.MaxRequestsPerSecond) {
		errs.Add(model.Path{"replicas", "ttl_deletes_per_second"}, "must be a finite number between 0 and %s per second, got %v", textfmt.Thousands(model.MaxRequestsPerSecond), *v)
	}
	shares, rates := 0, 0
	for _, name := range slices.Sorted(maps.Keys(r.Regions)) {
		reg, p := r.Regions[name], model.Path{"replicas", "regions", name}
		if !regionName.MatchString(name) {
			errs.Add(p, "%q is not an AWS Region code such as us-east-1", name)
		}
		if reg.WriteShare != nil {
			shares++
			if v := *reg.WriteShare; math.IsNaN(v) || v < 0 || v > 1 {
				errs.Add(append(p, "write_share"), "is the Region's share of traffic.writes_per_second and must be between 0 and 1, got %v", v)
			}
		}
		if reg.WritesPerSecond != nil {
			rates++
			if v := *reg.WritesPerSecond; math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > model.MaxRequestsPerSecond {
				errs.Add(append(p, "writes_per_second"), "must be a finite number between 0 and %s per second, got %v", textfmt.Thousands(model.MaxRequestsPerSecond), v)
			}
		}
		if reg.WriteShare != nil && reg.WritesPerSecond != nil {
			errs.Add(p, "gives both write_share and writes_per_second: give one")
		}
		for attr, v := range model.SortedByName(reg.Prices.ByName()) {
			if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0 || *v > model.MaxPriceUSD) {
				errs.Add(append(p, "prices", attr), "must be a price in dollars between 0 and %s, got %v", textfmt.Thousands(model.MaxPriceUSD), *v)
			}
		}
	}
	switch {
	case shares > 0 && rates > 0:
		errs.Add(model.Path{"replicas", "regions"}, "mixes write_share and writes_per_second: give every Region a write_share of traffic.writes_per_second, or every Region its writes_per_second")
	case rates > 0 && m.Input.Traffic.WritesPerSecond != nil && !writesFromRegions:
		errs.Add(model.Path{"traffic", "writes_per_second"}, "is set while the replica Regions give their own writes_per_second: the table's writes are their sum; remove one")
	case rates > 0 && m.Input.Entities != nil:
		errs.Add(model.Path{"replicas", "regions"}, "entities give the writes per entity: split them with each Region's write_share, not writes_per_second")
	}
	if w := r.Witness; w != nil {
		switch _, dup := r.Regions[*w]; {
		case dup:
			errs.Add(model.Path{"replicas", "witness"}, "%s is also a replica Region: a witness is a Region of its own (two replicas and a witness make MRSC's three Regions)", *w)
		case !regionName.MatchString(*w):
			errs.Add(model.Path{"replicas", "witness"}, "%q is not an AWS Region code such as us-east-2", *w)
		}
	}
	if p := m.Input.Pricing; p != nil && p.RegionSource == "pricing" && len(r.Regions) > 0 && !m.IsUnknown("pricing.region") {
		if _, ok := r.Regions[p.Region]; !ok {
			errs.Add(model.Path{"pricing", "region"}, "%s is not one of replicas.regions (%s): a global table is priced in its replica Regions",
				p.Region, strings.Join(slices.Sorted(maps.Keys(r.Regions)), ", "))
		}
	}
	return append(errs, validatePrices(m)...)
}

// validatePrices requires prices for every replica Region: the price table's for the table class,
// the Region's own prices, or (for the pricing Region) pricing.prices.
func validatePrices(m *model.Model) model.FieldErrors {
	var errs model.FieldErrors
	if m.IsUnknown("pricing") || m.HasUnknownUnder("pricing") || m.IsUnknown("replicas") || m.HasUnknownUnder("replicas") {
		return nil
	}
	class := model.TableClassStandard
	if m.Input.Pricing != nil && m.Input.Pricing.TableClass != "" {
		class = m.Input.Pricing.TableClass
	}
	if !slices.Contains(model.TableClasses, class) {
		return nil // reported on pricing.table_class
	}
	for _, name := range slices.Sorted(maps.Keys(m.Input.Replicas.Regions)) {
		if _, _, missing := model.ResolvePrices(name, class, m.Input.RegionPrices(name)); len(missing) > 0 {
			errs.Add(model.Path{"replicas", "regions", name, "prices"},
				"the price table has no %s prices for %s (it has %s): give %s",
				class, name, strings.Join(slices.Sorted(maps.Keys(model.PriceTable.Regions)), ", "), strings.Join(missing, ", "))
		}
	}
	return errs
}

// Facts are the global table's facts (Derived.Replicas), nil for a table in one Region, and the derived
// paths they leave unknown. global is the table's writes, every Region's together (WithRegionWrites).
func Facts(m *model.Model, global *float64) (*model.ReplicasFacts, []string) {
	r := m.Input.Replicas
	var unknown []string
	if m.IsUnknown("replicas") || m.HasUnknownUnder("replicas") {
		// The cost stage marks derived.cost (replicas is one of its inputs).
		unknown = []string{"derived.replicas", "derived.capacity", "derived.shard_count", "derived.required_shards"}
	}
	if !r.HasReplicas() {
		return nil, unknown
	}
	f := &model.ReplicasFacts{Consistency: cmp.Or(r.Consistency, model.ConsistencyEventual), Witness: r.Witness,
		Regions: []model.ReplicaFacts{}, DuplicateRegions: []string{}, TTLDeletesPerSecond: r.TTLDeletesPerSecond,
		TTL: r.TTLDeletesPerSecond != nil}
	names := slices.Sorted(maps.Keys(r.Regions))
	f.RegionCount = len(names)
	if r.Witness != nil {
		f.RegionCount++
	}
	f.GlobalWritesPerSecond = global
	f.WritesBasis = model.ReplicaWritesEqual
	for _, name := range names {
		switch reg := r.Regions[name]; {
		case reg.WriteShare != nil:
			f.WritesBasis = model.ReplicaWritesShare
		case reg.WritesPerSecond != nil:
			f.WritesBasis = model.ReplicaWritesPerRegion
		}
	}
	for _, name := range names {
		reg := r.Regions[name]
		rf := model.ReplicaFacts{Region: name, RegionSet: model.RegionSetOf(name)}
		switch f.WritesBasis {
		case model.ReplicaWritesShare:
			if reg.WriteShare != nil {
				rf.WriteShare = *reg.WriteShare
			}
		case model.ReplicaWritesPerRegion:
			if reg.WritesPerSecond != nil && global != nil && *global > 0 {
				rf.WriteShare = *reg.WritesPerSecond / *global
			}
		default:
			rf.WriteShare = 1 / float64(len(names))
		}
		f.WriteShareSum += rf.WriteShare
		if global != nil {
			local := *global * rf.WriteShare
			replicated := *global - local
			if ttl := r.TTLDeletesPerSecond; ttl != nil {
				replicated += *ttl * (1 - rf.WriteShare)
			}
			rf.WritesPerSecond, rf.ReplicatedWritesPerSecond = model.Ptr(local), model.Ptr(math.Max(0, replicated))
		}
		f.Regions = append(f.Regions, rf)
	}
	// With writes per Region the shares are their parts of the sum: 1 by construction (0 without writes).
	f.WriteSharesSumToOne = math.Abs(f.WriteShareSum-1) <= writeShareTolerance ||
		(f.WritesBasis == model.ReplicaWritesPerRegion && (global == nil || *global == 0)) || len(names) == 0
	return f, unknown
}
