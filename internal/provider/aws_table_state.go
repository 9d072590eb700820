package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
)

// The AWS provider's aws_dynamodb_table state, as the move from it reads it (sharded_table_move_state.go):
// the schema of that resource (AWS provider v5 and v6), as data.

// awsTable is the part of the AWS provider's aws_dynamodb_table state the conversion reads. Sets and
// single blocks are JSON arrays in the state; unset strings are "" or null, unset numbers 0 or null.
type awsTable struct {
	Name               string            `json:"name"`
	ARN                string            `json:"arn"`
	HashKey            string            `json:"hash_key"`
	RangeKey           string            `json:"range_key"`
	Attribute          []awsBlock        `json:"attribute"`
	BillingMode        string            `json:"billing_mode"`
	ReadCapacity       *int64            `json:"read_capacity"`
	WriteCapacity      *int64            `json:"write_capacity"`
	GSIs               []awsIndex        `json:"global_secondary_index"`
	LSIs               []awsIndex        `json:"local_secondary_index"`
	TTL                []awsBlock        `json:"ttl"`
	PITR               []awsBlock        `json:"point_in_time_recovery"`
	SSE                []awsBlock        `json:"server_side_encryption"`
	StreamEnabled      bool              `json:"stream_enabled"`
	StreamViewType     string            `json:"stream_view_type"`
	StreamARN          string            `json:"stream_arn"`
	StreamLabel        string            `json:"stream_label"`
	DeletionProtection *bool             `json:"deletion_protection_enabled"`
	TableClass         string            `json:"table_class"`
	Tags               map[string]string `json:"tags"`
	TagsAll            map[string]string `json:"tags_all"`
	Replicas           []awsBlock        `json:"replica"`
	Witness            []awsBlock        `json:"global_table_witness"`
	OnDemand           []awsBlock        `json:"on_demand_throughput"`
	Warm               []awsBlock        `json:"warm_throughput"`
}

// awsIndex is a global_secondary_index, or a local_secondary_index (name, range_key and projection only).
type awsIndex struct {
	Name             string     `json:"name"`
	HashKey          string     `json:"hash_key"`
	RangeKey         string     `json:"range_key"`
	KeySchema        []awsBlock `json:"key_schema"`
	ProjectionType   string     `json:"projection_type"`
	NonKeyAttributes []string   `json:"non_key_attributes"`
	ReadCapacity     *int64     `json:"read_capacity"`
	WriteCapacity    *int64     `json:"write_capacity"`
	OnDemand         []awsBlock `json:"on_demand_throughput"`
	Warm             []awsBlock `json:"warm_throughput"`
}

// awsBlock is any other nested block of the state (attribute, key_schema, ttl, point_in_time_recovery,
// server_side_encryption, replica, on_demand_throughput, warm_throughput): each fills the fields it has.
type awsBlock struct {
	Name, Type           string // attribute
	AttributeName        string `json:"attribute_name"` // key_schema, ttl
	KeyType              string `json:"key_type"`
	Enabled              bool   `json:"enabled"` // ttl, point_in_time_recovery, server_side_encryption
	RecoveryPeriodInDays *int64 `json:"recovery_period_in_days"`
	KMSKeyARN            string `json:"kms_key_arn"`
	RegionName           string `json:"region_name"` // replica, global_table_witness
	MaxReadRequestUnits  *int64 `json:"max_read_request_units"`
	MaxWriteRequestUnits *int64 `json:"max_write_request_units"`
	ReadUnitsPerSecond   *int64 `json:"read_units_per_second"`
	WriteUnitsPerSecond  *int64 `json:"write_units_per_second"`
}

// awsAttributesNotMoved are the top-level attributes of aws_dynamodb_table that have no field in awsTable
// on purpose: identity, region, how the table was made, timeouts. Any other attribute without a field that
// holds a value is reported as a warning, so that a setting added to the AWS provider later is never
// dropped silently.
var awsAttributesNotMoved = []string{"id", "import_table", "region", "restore_date_time", "restore_source_name",
	"restore_source_table_arn", "restore_to_latest_time", "timeouts"}

// checkUnknownAWSAttributes warns about top-level attributes this conversion does not know that hold a
// value: a setting added to the AWS provider after this version of dynamokeys.
func checkUnknownAWSAttributes(raw []byte) diag.Diagnostics {
	var diags diag.Diagnostics
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		return diags
	}
	known := slices.Clone(awsAttributesNotMoved)
	for f := range reflect.TypeFor[awsTable]().Fields() {
		known = append(known, f.Tag.Get("json"))
	}
	var unknown []string
	for name, v := range all {
		if !slices.Contains(known, name) && !slices.Contains([]string{"", "null", `""`, "false", "0", "[]", "{}"}, string(bytes.TrimSpace(v))) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		diags.AddWarning("aws_dynamodb_table attributes not moved",
			fmt.Sprintf("The state has attributes that dynamokeys_sharded_table does not know: %s. They were not moved; "+
				"the table keeps them, but Terraform no longer manages them. Check them before applying.", strings.Join(unknown, ", ")))
	}
	return diags
}

// awsTableAttributes is a table as DynamoDB reports it, in the attributes of the AWS provider's
// aws_dynamodb_table as a plan holds them: the reverse of awsTable.table, for the bundle's plan adapter,
// which maps a table known only by what DynamoDB says of it (the audit of the list resource). A side of a
// throughput that is not set is left out, as the adapter reads a missing figure.
func awsTableAttributes(t dynamo.Table) map[string]any {
	types := map[string]string{t.PartitionKey.Name: t.PartitionKey.Type}
	keyNames := func(keys []dynamo.KeyAttribute) {
		for _, k := range keys {
			types[k.Name] = k.Type
		}
	}
	after := map[string]any{"name": t.Name, "billing_mode": t.BillingMode, "hash_key": t.PartitionKey.Name}
	if t.SortKey != nil {
		after["range_key"] = t.SortKey.Name
		keyNames([]dynamo.KeyAttribute{*t.SortKey})
	}
	setUnits(after, "read_capacity", t.ReadCapacity)
	setUnits(after, "write_capacity", t.WriteCapacity)
	lsis := []any{}
	for _, l := range t.LSIs {
		keyNames(l.SortKey)
		lsi := map[string]any{"name": l.Name, "projection_type": l.ProjectionType, "non_key_attributes": orEmpty(l.NonKeyAttributes)}
		if len(l.SortKey) > 0 {
			lsi["range_key"] = l.SortKey[0].Name
		}
		lsis = append(lsis, lsi)
	}
	gsis := []any{}
	for _, g := range t.GSIs {
		keyNames(g.PartitionKey)
		keyNames(g.SortKey)
		gsi := map[string]any{"name": g.Name, "projection_type": g.ProjectionType, "non_key_attributes": orEmpty(g.NonKeyAttributes)}
		if len(g.PartitionKey) == 1 && len(g.SortKey) <= 1 {
			gsi["hash_key"] = g.PartitionKey[0].Name
			if len(g.SortKey) == 1 {
				gsi["range_key"] = g.SortKey[0].Name
			}
		} else {
			schema := []any{}
			for _, side := range []struct {
				keyType string
				keys    []dynamo.KeyAttribute
			}{{"HASH", g.PartitionKey}, {"RANGE", g.SortKey}} {
				for _, k := range side.keys {
					schema = append(schema, map[string]any{"attribute_name": k.Name, "key_type": side.keyType})
				}
			}
			gsi["key_schema"] = schema
		}
		setUnits(gsi, "read_capacity", g.ReadCapacity)
		setUnits(gsi, "write_capacity", g.WriteCapacity)
		gsi["on_demand_throughput"] = throughputBlocks(g.OnDemand, "max_read_request_units", "max_write_request_units")
		gsi["warm_throughput"] = throughputBlocks(g.Warm, "read_units_per_second", "write_units_per_second")
		gsis = append(gsis, gsi)
	}
	attributes := []any{}
	for _, name := range slices.Sorted(maps.Keys(types)) {
		attributes = append(attributes, map[string]any{"name": name, "type": types[name]})
	}
	after["attribute"], after["local_secondary_index"], after["global_secondary_index"] = attributes, lsis, gsis
	after["on_demand_throughput"] = throughputBlocks(t.OnDemand, "max_read_request_units", "max_write_request_units")
	after["warm_throughput"] = throughputBlocks(t.Warm, "read_units_per_second", "write_units_per_second")
	after["ttl"] = []any{}
	if t.TTL != nil {
		after["ttl"] = []any{map[string]any{"enabled": t.TTL.Enabled, "attribute_name": t.TTL.AttributeName}}
	}
	return after
}

func setUnits(into map[string]any, name string, units *int64) {
	if units != nil {
		into[name] = *units
	}
}

func throughputBlocks(t *dynamo.Throughput, read, write string) []any {
	if t == nil {
		return []any{}
	}
	block := map[string]any{}
	setUnits(block, read, t.Read)
	setUnits(block, write, t.Write)
	return []any{block}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
