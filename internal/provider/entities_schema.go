package provider

import (
	"context"
	"maps"
	"slices"

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
		}},
	}
}

type entityModel struct {
	Keys    types.Map    `tfsdk:"keys"`
	Traffic types.Object `tfsdk:"traffic"`
}

type entityTrafficModel struct {
	WritesPerSecond         types.Number `tfsdk:"writes_per_second"`
	AverageWritesPerSecond  types.Number `tfsdk:"average_writes_per_second"`
	ReadsPerSecond          types.Number `tfsdk:"reads_per_second"`
	ItemSizeBytes           types.Number `tfsdk:"item_size_bytes"`
	ItemCount               types.Number `tfsdk:"item_count"`
	MaxItemsPerPartitionKey types.Number `tfsdk:"max_items_per_partition_key"`
	TransactionalWrites     types.Bool   `tfsdk:"transactional_writes"`
}

// expandEntities reads the entities, sorted by name; an unknown value is left out and listed in Unknown.
func (e *expander) expandEntities(ctx context.Context, v types.Map) []model.Entity {
	if !e.known(v, model.Path{"entities"}) {
		return nil
	}
	elements := v.Elements()
	out := make([]model.Entity, 0, len(elements))
	for _, name := range slices.Sorted(maps.Keys(elements)) {
		p := model.Path{"entities", name}
		var m entityModel
		if !element(e, elements[name], p, &m) {
			continue
		}
		entity := model.Entity{Name: name, Keys: map[string]string{}}
		if e.known(m.Keys, append(p, "keys")) {
			for attr, t := range m.Keys.Elements() {
				if s, ok := t.(types.String); ok && e.known(s, append(p, "keys", attr)) {
					entity.Keys[attr] = s.ValueString()
				} else if ok && s.IsUnknown() {
					entity.Keys[attr] = ""
				}
			}
		}
		var tm entityTrafficModel
		if e.known(m.Traffic, append(p, "traffic")) && objectAs(ctx, m.Traffic, &tm, &e.diags) {
			tp := func(attr string) model.Path { return append(append(model.Path(nil), p...), "traffic", attr) }
			entity.Traffic = model.EntityTraffic{
				WritesPerSecond:         e.floatPtr(tm.WritesPerSecond, tp("writes_per_second")),
				AverageWritesPerSecond:  e.floatPtr(tm.AverageWritesPerSecond, tp("average_writes_per_second")),
				ReadsPerSecond:          e.floatPtr(tm.ReadsPerSecond, tp("reads_per_second")),
				ItemSizeBytes:           e.int64Ptr(tm.ItemSizeBytes, tp("item_size_bytes")),
				ItemCount:               e.int64Ptr(tm.ItemCount, tp("item_count")),
				MaxItemsPerPartitionKey: e.int64Ptr(tm.MaxItemsPerPartitionKey, tp("max_items_per_partition_key")),
				TransactionalWrites:     e.boolPtr(tm.TransactionalWrites, tp("transactional_writes")),
			}
		}
		out = append(out, entity)
	}
	return out
}
