package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestReadDesignReportsNonObjectElements: a map element that is not an object (which the schema never
// produces) becomes an error diagnostic on that element, not a panic.
func TestReadDesignReportsNonObjectElements(t *testing.T) {
	t.Parallel()
	notObjects := types.MapValueMust(types.StringType, map[string]attr.Value{"day": types.StringValue("time")})
	for name, m := range map[string]designInputModel{
		"segments":                 {Segments: notObjects},
		"local_secondary_indexes":  {LocalSecondaryIndexes: notObjects},
		"global_secondary_indexes": {GlobalSecondaryIndexes: notObjects},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, diags := readDesign(m)
			if diags.ErrorsCount() != 1 {
				t.Fatalf("%d errors, want 1: %v", diags.ErrorsCount(), diags)
			}
			if detail := diags.Errors()[0].Detail(); !strings.Contains(detail, name+".day: must be an object") {
				t.Errorf("detail = %q", detail)
			}
		})
	}
}
