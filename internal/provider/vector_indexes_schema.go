package provider

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The vector_indexes input of the keydesign data source and the resource, an entity's vector_attributes and an
// access pattern's vector_search: DynamoDB's vector indexes (searched with SearchVectors) and the key design of
// their partition key, the search schema's HASH. internal/keydesign/vectors derives the facts; rules DK504–DK512
// (policies/vectors.rego) judge them.

// vectorIndexesAttribute is the `vector_indexes` map, keyed by index name.
func vectorIndexesAttribute() rschema.MapNestedAttribute {
	return rschema.MapNestedAttribute{Optional: true,
		Description: "Vector indexes keyed by index name (at most " + limitText(model.MaxVectorIndexes) + " per table, on-demand tables only): " +
			"approximate nearest-neighbour search with SearchVectors. The optional partition_key (the search schema's HASH) confines a search to " +
			"one value, and each value is a unit of throughput: the provider computes the vector write bytes per second of its busiest value " +
			"from the entities' templates of it and their traffic, each entity's membership (an item without the HASH attribute is never " +
			"indexed), a search's response size and the index's cost; rules DK504–DK512 judge them. The resource creates them with the table or " +
			"adds them to it, one index at a time, each waited for until ACTIVE and backfilled. Nothing of an index changes in place: a changed " +
			"index is an in-place update of its entry that deletes the index and creates it again under its name (it answers no search until " +
			"backfilled), never a new table.",
		NestedObject: rschema.NestedAttributeObject{Attributes: vectorIndexAttributes()}}
}

// vectorIndexAttributes are the attributes of one vector index.
func vectorIndexAttributes() map[string]rschema.Attribute {
	return map[string]rschema.Attribute{
		"vector_attribute": requiredString("The attribute holding each item's vector: a list of numbers, stored as 32-bit floats. It is not a key " +
			"attribute (not in the table's attribute definitions)."),
		"dimensions": rschema.NumberAttribute{Required: true, Validators: []validator.Number{wholeNumberValidator()},
			Description: "The length of every vector, " + limitText(model.MinVectorDimensions) + " to " + limitText(model.MaxVectorDimensions) +
				" (rule DK506); indexes on the same vector attribute must have the same. A vector of another length is rejected."},
		"distance_function": rschema.StringAttribute{Required: true, Validators: []validator.String{stringvalidator.OneOf(model.DistanceFunctions...)},
			Description: "How neighbours are measured: " + strings.Join(model.DistanceFunctions, ", ") + "."},
		"partition_key": rschema.SingleNestedAttribute{Optional: true, Attributes: indexKeyAttributes(false),
			Description: "The search schema's HASH attribute (type S, N or B): every search gives one value, and each value is searched and " +
				"written on its own (more values, more throughput and better recall). With entities, each entity's keys give its template; " +
				"an entity whose keys lack it is never indexed. Omit for an index searched as a whole."},
		"inline_filters": rschema.ListNestedAttribute{Optional: true,
			Description:  "The search schema's INLINE_FILTER attributes, which a search can filter on; an item without one is still indexed.",
			NestedObject: rschema.NestedAttributeObject{Attributes: indexKeyAttributes(false)}},
		"projection_type":    defaultedString("ALL (the default), KEYS_ONLY or INCLUDE: what a search returns of each item.", model.ProjectionAll, projectionValidator),
		"non_key_attributes": rschema.ListAttribute{Optional: true, ElementType: types.StringType, Description: "Attributes projected by INCLUDE."},
	}
}

// vectorAttributesAttribute is an entity's `vector_attributes`.
var vectorAttributesAttribute = rschema.ListAttribute{Optional: true, ElementType: types.StringType,
	Description: "The vector attributes the entity's items carry, each a vector_indexes vector_attribute. An entity is in a vector index " +
		"only with its vector attribute and a template of the index's partition_key; without entities, the table's items carry every " +
		"index's vector attribute. Rule DK510 warns of an entity with the vector but no HASH: its items are never indexed."}

// vectorSearchAttribute is an access pattern's `vector_search`.
var vectorSearchAttribute = rschema.SingleNestedAttribute{Optional: true,
	Description: "Makes the pattern a SearchVectors call on a vector index instead of a Query: give the HASH value in `equals` " +
		"(its attribute or the segments of its template). The response, top_k projected items, must fit " +
		"16 MB (rule DK511); a search without the HASH value is rule DK512.",
	Attributes: map[string]rschema.Attribute{
		"index": requiredString("The vector index searched: a name in vector_indexes."),
		"top_k": rschema.NumberAttribute{Required: true, Validators: []validator.Number{wholeNumberValidator()},
			Description: "Neighbours one search returns, " + limitText(model.MinVectorTopK) + " to " + limitText(model.MaxVectorTopK) + " (rule DK507)."},
	}}

// vectorPricesAttribute is pricing's `vector_prices`.
var vectorPricesAttribute = rschema.SingleNestedAttribute{Optional: true,
	Description: "Vector index prices in dollars, replacing the price table's, which are unconfirmed list prices of us-east-1 only " +
		"(the cost output marks them unconfirmed); another Region needs all three.",
	Attributes: map[string]rschema.Attribute{
		"write_gb":         optionalFloat("Per GB of vector writes (VectorWriteRequestBytes)."),
		"search_gb":        optionalFloat("Per GB searched (VectorSearchRequestBytes)."),
		"storage_gb_month": optionalFloat("Per GB-month of vector index storage."),
	}}
