package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The access_patterns input of the keydesign data source and the resource: the application's queries,
// design metadata like traffic, which never touches the table (no plan modifier replaces it, and the table
// an update sends to DynamoDB does not carry it). keydesign matches each with the keys; rules DK801–DK808
// judge the result.

// accessPatternsAttribute is the `access_patterns` map, keyed by pattern name.
func accessPatternsAttribute() rschema.MapNestedAttribute {
	return rschema.MapNestedAttribute{Optional: true,
		Description: "The application's queries, keyed by pattern name: what each knows, how it sorts and how often it runs. " +
			"The provider finds the key that serves each (the table key, an LSI or a GSI), computes its Queries per call and read units, " +
			"adds its reads to the read demand of the table or index it reads, and reports rules DK801–DK808. Design metadata: it never changes the table.",
		NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			"index": optionalString("The key the query reads: \"" + model.TableKeyIndex + "\" for the table's own key, or the name of an LSI or a GSI. " +
				"Omit it to let the provider pick the key that serves the pattern best (a Query before a Scan, an expressible sort condition, " +
				"the needed attributes projected, fewest Queries per call, then fewest read units); the report names the key picked."),
			"equals": rschema.ListAttribute{Optional: true, ElementType: types.StringType,
				Description: "What the query knows exactly: segments of a key template (customer_id for CUSTOMER#{customer_id}), attribute names of a " +
					"GSI key, or the name of a whole key attribute. A Query needs every part of a partition key ({shard} aside); known sort " +
					"parts are matched from the first one. Empty or omitted: the query knows nothing, a Scan."},
			"sort": rschema.SingleNestedAttribute{Optional: true,
				Description: "The condition on the sort key: on the sort segment or sort attribute that follows the known ones.",
				Attributes: map[string]rschema.Attribute{
					"on": requiredString("Sort segment (order_date of ORDER#{order_date}#{order_id}) or sort attribute (an LSI's, or a GSI's next sort attribute) the condition is on."),
					"condition": rschema.StringAttribute{Required: true, Description: "One of " + strings.Join(model.SortConditions, ", ") +
						" (begins_with on string and binary keys only).", Validators: []validator.String{stringvalidator.OneOf(model.SortConditions...)}},
				}},
			"reads_per_second": rschema.NumberAttribute{Optional: true, Validators: []validator.Number{finiteNumberValidator()},
				Description: "Peak calls per second of this query, above 0. A call that fans out over shards counts once. Omitted, the pattern " +
					"is still matched with the key that serves it, and adds no read demand."},
			"items": optionalInt("Items one Query returns (the page the application asks for), 1 or more. Defaults to 1. A fan-out call reads this many from every shard."),
			"item_size_bytes": optionalInt("Size of one item the query reads, 1 to " + limitText(model.MaxItemSizeBytes) +
				" bytes. Defaults to traffic.item_size_bytes. Give the index entry's size for a KEYS_ONLY or INCLUDE index."),
			"consistency": optionalString("eventual (the default, 0.5 RCU per 4 KB), strong (1 RCU; not on a GSI) or transactional (2 RCU).",
				stringvalidator.OneOf(model.ReadConsistencies...)),
			"attributes": rschema.ListAttribute{Optional: true, ElementType: types.StringType, Validators: []validator.List{listvalidator.SizeAtLeast(1)},
				Description: "Attributes the caller needs, checked against the index's projection (rule DK805). Omit to skip the check."},
			"hot_key_share": optionalFloat("Share (0 to 1) of this query's calls on its busiest partition-key value, e.g. 1 when every reader asks " +
				"for status PENDING. Defaults to 1 / the number of values the known parts can take (an id: 0, no hot key)."),
			"entities": rschema.ListAttribute{Optional: true, ElementType: types.StringType, Validators: []validator.List{listvalidator.SizeAtLeast(1)},
				Description: "The entities the query reads, in a design with entities: it is matched against the keys as the first writes them, knows " +
					"a key attribute whose template it can fill in every entity it reads (customer_id fills CUSTOMER#{customer_id}; PROFILE needs " +
					"nothing), and reads their item size by default. Rule DK110 warns when its Query also returns another entity's items."},
			"vector_search": vectorSearchAttribute,
		}},
	}
}
