package provider

import (
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The entities input of the keydesign data source and the resource: the item types of a single-table
// design, each with the templates of the key attributes it writes and its traffic. Design metadata like
// traffic: it never touches the table. keydesign builds the entity model (collisions, collections, sparse
// indexes); rules DK109 and DK111 and the capacity rules judge it.

func entitiesAttribute() rschema.MapNestedAttribute {
	return rschema.MapNestedAttribute{Optional: true,
		Description: "The item types of a single-table design, keyed by entity name. Each gives the template of every key attribute its items " +
			"carry: the table's partition and sort key, and each index key attribute; an index whose key attributes an entity does not write " +
			"holds none of its items (a sparse index). With entities, the table's keys take no template and the table no traffic: the " +
			"busiest item collection (the entities whose partition keys can render the same value) is the table's busiest key. Rules DK109 " +
			"(two entities can write the same primary key) and DK111 (an index key template of the wrong type). Design metadata: it never changes the table.",
		NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			"keys": rschema.MapAttribute{Required: true, ElementType: types.StringType,
				Description: "Template of each key attribute the entity writes, keyed by attribute name: PK = \"CUSTOMER#{customer_id}\", SK = \"PROFILE\", " +
					"GSI1PK = \"EMAIL#{email}\". Placeholders are the shared segments (and {shard})."},
			"traffic": rschema.SingleNestedAttribute{Optional: true,
				Description: "The entity's traffic; every field is optional.",
				Attributes: map[string]rschema.Attribute{
					"writes_per_second":           optionalFloat("Peak writes per second of the entity's items."),
					"average_writes_per_second":   optionalFloat("Average writes per second over a month, for `cost`."),
					"reads_per_second":            optionalFloat("Peak eventually consistent reads per second of the entity's items, outside access_patterns."),
					"item_size_bytes":             optionalInt("Typical item size in bytes, 1 to " + limitText(model.MaxItemSizeBytes) + ". Defaults to " + limitText(model.DefaultItemSizeBytes) + "."),
					"item_count":                  optionalInt("Items of the entity in the table, for storage in `cost`."),
					"max_items_per_partition_key": optionalInt("Most items of the entity under one partition-key value. Omit for unbounded growth."),
					"transactional_writes":        optionalBool("Whether the entity's writes are transactional, which doubles their write units."),
				}},
			"vector_attributes": vectorAttributesAttribute,
		}},
	}
}
