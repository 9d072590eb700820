package policy

import (
	"bytes"
	"encoding/json"
	"regexp"

	"github.com/open-policy-agent/opa/v1/util"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"
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

// placeholder is a reference to a limit in a METADATA text: ${partition_write_units}.
var placeholder = regexp.MustCompile(`\$\{([a-z_]+)\}`)

// ExpandLimits replaces each ${name} in a METADATA text with the limit of that name from the data file,
// formatted as the rules format numbers in messages (lib.expand does the same in Rego). An unknown name is
// left as it is, which TestEveryRuleHasCompleteMetadata reports.
func ExpandLimits(text string) string {
	data, err := BundleData()
	if err != nil {
		return text
	}
	file, _ := data["dynamokeys"].(map[string]any)
	limits, _ := file["limits"].(map[string]any)
	return placeholder.ReplaceAllStringFunc(text, func(ref string) string {
		switch v := limits[placeholder.FindStringSubmatch(ref)[1]].(type) {
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
