package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// globalTableModule is the example module that creates a global table from a key design.
const globalTableModule = "examples/modules/multi-region-table"

// replicasAttribute is the design's `replicas`: the Regions of a global table (keydesign/replicas.go).
func replicasAttribute() rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Optional: true,
		Description: "The Regions of a global table. Every replica performs every Region's writes, so the design's partition write " +
			"demand, shard count and hot-key rules use every Region's writes together, while reads stay per Region " +
			"(traffic.reads_per_second is each Region's); `cost` prices every Region. Design metadata only: dynamokeys_keydesign " +
			"reads it, and the module " + globalTableModule + " passes it to aws_dynamodb_table's replica blocks " +
			"(dynamokeys_sharded_table does not create replicas). An empty `regions` is a single-Region table.",
		Attributes: map[string]rschema.Attribute{
			"regions": rschema.MapNestedAttribute{Optional: true,
				Description: "Every replica Region, the table's own included, keyed by Region code (us-east-1). Give each Region a " +
					"write_share of traffic.writes_per_second, or each its writes_per_second (and leave traffic.writes_per_second out); " +
					"with neither the writes are split equally. Rule DK606 checks that the shares sum to 1.",
				NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
					"write_share":       optionalFloat("The Region's share (0 to 1) of traffic.writes_per_second: where the application writes."),
					"writes_per_second": optionalFloat("The writes per second the application makes in this Region, instead of a write_share."),
					"prices": rschema.SingleNestedAttribute{Optional: true,
						Description: "Prices in this Region for `cost`; each one left out comes from the price table, which has " + regionList() +
							" (another Region needs every price). In the pricing Region, pricing.prices applies too.",
						Attributes: pricesAttributes()},
				}}},
			"consistency": optionalString("eventual (multi-Region eventual consistency, the default) or strong (multi-Region strong "+
				"consistency, MRSC: exactly "+limitText(model.MRSCRegions)+" Regions counting a witness, within one Region set, "+
				"no LSIs, TTL or transactions; rules DK604 and DK605).", stringvalidator.OneOf(model.ReplicaConsistencies...)),
			"witness": optionalString("The witness Region of an MRSC table with two replicas: it holds the recent writes for the quorum " +
				"and serves no reads or writes. Not one of `regions`."),
			"ttl_deletes_per_second": optionalFloat("Items TTL deletes per second, when the table uses TTL: each delete is replicated to " +
				"every other Region like a write (and costs nothing where the item expires). Setting it says the table uses TTL (DK605)."),
		}}
}

// resourceReplicasAttribute is `replicas` on dynamokeys_sharded_table: the same shape, so that a design moved
// from the data source is read, and refused with the way to go.
func resourceReplicasAttribute() rschema.SingleNestedAttribute {
	a := replicasAttribute()
	a.Description = "Not supported: dynamokeys_sharded_table does not create replicas (no local server runs a global table, so " +
		"the resource could not test them). Declaring replicas is an error that points to the module " + globalTableModule +
		", which checks the design with dynamokeys_keydesign and creates the global table with aws_dynamodb_table."
	return a
}

// validateNoReplicas is the resource's answer to `replicas`: it does not create replicas (no local server
// runs global tables, and the resource claims nothing it cannot test), so they are an error that points to
// the module that does.
func validateNoReplicas(v types.Object, diags *diag.Diagnostics) {
	if v.IsNull() {
		return
	}
	diags.AddAttributeError(path.Root("replicas"), "dynamokeys_sharded_table does not create replicas",
		fmt.Sprintf("replicas describe a global table, which this resource does not manage. Check the design with the data source "+
			"dynamokeys_keydesign and create the table with aws_dynamodb_table and its replica blocks, as the module %s does; "+
			"or remove replicas here.", globalTableModule))
}
