package keydesign

import (
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// WithPricingDefaults fills what the design's `pricing` leaves out: the provider's region, and on a table the
// table's own class and PITR setting. The provider and the TFLint ruleset both call it.
func WithPricingDefaults(in *model.Input, providerRegion, tableClass string, pitr bool) {
	if in.Pricing == nil {
		in.Pricing = &model.PricingInput{}
	}
	p := in.Pricing
	if p.Region == "" && providerRegion != "" {
		p.Region, p.RegionSource = providerRegion, "provider"
	}
	if p.TableClass == "" {
		p.TableClass = tableClass
	}
	p.PointInTimeRecovery = p.PointInTimeRecovery || pitr
}
