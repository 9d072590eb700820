package provider

import (
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/report"
)

// limitText formats a limit or default for a schema description, so descriptions read the numbers from the bundle's
// data file instead of repeating them.
func limitText[T int64 | float64](v T) string { return report.FormatNumber(float64(v)) }
