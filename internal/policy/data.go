package policy

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/open-policy-agent/opa/v1/util"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/lazyregexp"
	"github.com/dynamokeys/terraform-provider-dynamokeys/policies"
)

// BundleData is the bundle's data file as the rules see it, under data.dynamokeys. OPA gets it from the
// generated module data.rego (DataModule), which is one of the bundle's modules; no evaluation puts the
// data file in its store, where it would clash with the module's rules.
func BundleData() (map[string]any, error) {
	var file map[string]any
	if err := util.NewJSONDecoder(bytes.NewReader(policies.DataJSON)).Decode(&file); err != nil {
		return nil, err
	}
	return map[string]any{"dynamokeys": file}, nil
}

// dataLimits are the data file's limits as the rules read them (numbers as json.Number), decoded once: the
// catalogue expands several texts of every rule.
var dataLimits = sync.OnceValue(func() map[string]any {
	data, err := BundleData()
	if err != nil {
		return nil
	}
	file, _ := data["dynamokeys"].(map[string]any)
	limits, _ := file["limits"].(map[string]any)
	return limits
})

// placeholder is a reference to a limit in a METADATA text: ${partition_write_units}.
var placeholder = lazyregexp.New(`\$\{([a-z_]+)\}`)

// ExpandLimits replaces each ${name} in a METADATA text with the limit of that name from the data file,
// formatted as the rules format numbers in messages (lib.expand does the same in Rego). An unknown name is
// left as it is, which TestEveryRuleHasCompleteMetadata reports.
func ExpandLimits(text string) string {
	return placeholder.ReplaceAllStringFunc(text, func(ref string) string {
		switch v := dataLimits()[placeholder.FindStringSubmatch(ref)[1]].(type) {
		case string:
			return v
		case json.Number:
			if f, err := v.Float64(); err == nil {
				return report.FormatNumber(f)
			}
		}
		return ref
	})
}
