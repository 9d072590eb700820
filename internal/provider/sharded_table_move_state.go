package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
)

var _ resource.ResourceWithMoveState = (*shardedTableResource)(nil)

// Source of `moved { from = aws_dynamodb_table.x  to = dynamokeys_sharded_table.x }`: the AWS provider's
// table resource. Its state schema version has been 1 since before AWS provider v5; v5 and v6 differ only
// in attributes (v6 adds global_secondary_index.key_schema for multi-attribute keys, warm_throughput,
// global_table_witness), which the conversion reads by name.
const (
	awsTableTypeName      = "aws_dynamodb_table"
	awsTableSchemaVersion = 1
)

// awsProviderAddresses are the addresses under which Terraform and OpenTofu install the AWS provider.
var awsProviderAddresses = []string{"registry.terraform.io/hashicorp/aws", "registry.opentofu.org/hashicorp/aws"}

// MoveState converts the state of an aws_dynamodb_table into a dynamokeys_sharded_table without any API
// call. Design metadata (templates, segments, sharding, traffic, GSI cardinalities) does not exist in the
// AWS resource: it stays null and comes from the configuration, so the first plan after the move is an
// in-place update of that metadata.
func (r *shardedTableResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{{StateMover: moveFromAWSTable}}
}

func moveFromAWSTable(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
	if req.SourceTypeName != awsTableTypeName || !slices.Contains(awsProviderAddresses, req.SourceProviderAddress) {
		return // not ours: the framework reports that no mover handled the source
	}
	if req.SourceSchemaVersion != awsTableSchemaVersion || req.SourceRawState == nil || req.SourceRawState.JSON == nil {
		resp.Diagnostics.AddError("Unsupported aws_dynamodb_table state",
			fmt.Sprintf("The state of this aws_dynamodb_table has schema version %d; dynamokeys_sharded_table can move state of schema version %d, "+
				"which the AWS provider v5 and v6 write. Remove the moved block, run terraform apply -refresh-only with a current AWS provider "+
				"so that it upgrades the state, then add the moved block again.", req.SourceSchemaVersion, awsTableSchemaVersion))
		return
	}
	moved, diags := convertAWSTable(ctx, req.SourceRawState.JSON)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	for _, a := range moved.attributes() {
		resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root(a.name), a.value)...)
	}
}

// awsTable is the part of the AWS provider's aws_dynamodb_table state the conversion reads. Sets and
// single blocks are JSON arrays in the state; unset strings are "" or null.
type awsTable struct {
	ID                 string            `json:"id"`
	Name               string            `json:"name"`
	ARN                string            `json:"arn"`
	HashKey            string            `json:"hash_key"`
	RangeKey           string            `json:"range_key"`
	Attribute          []awsAttribute    `json:"attribute"`
	BillingMode        string            `json:"billing_mode"`
	ReadCapacity       *int64            `json:"read_capacity"`
	WriteCapacity      *int64            `json:"write_capacity"`
	GSIs               []awsGSI          `json:"global_secondary_index"`
	LSIs               []awsLSI          `json:"local_secondary_index"`
	TTL                []awsTTL          `json:"ttl"`
	PITR               []awsPITR         `json:"point_in_time_recovery"`
	SSE                []awsSSE          `json:"server_side_encryption"`
	StreamEnabled      *bool             `json:"stream_enabled"`
	StreamViewType     string            `json:"stream_view_type"`
	StreamARN          string            `json:"stream_arn"`
	StreamLabel        string            `json:"stream_label"`
	DeletionProtection *bool             `json:"deletion_protection_enabled"`
	TableClass         string            `json:"table_class"`
	Tags               map[string]string `json:"tags"`
	TagsAll            map[string]string `json:"tags_all"`
	Replicas           []awsReplica      `json:"replica"`
	Witness            []awsReplica      `json:"global_table_witness"`
	OnDemand           []awsOnDemand     `json:"on_demand_throughput"`
	Warm               []awsWarm         `json:"warm_throughput"`
}

type awsAttribute struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

type awsKeySchemaElement struct {
	AttributeName string `json:"attribute_name"`
	KeyType       string `json:"key_type"`
}

type awsGSI struct {
	Name             string                `json:"name"`
	HashKey          string                `json:"hash_key"`
	RangeKey         string                `json:"range_key"`
	KeySchema        []awsKeySchemaElement `json:"key_schema"`
	ProjectionType   string                `json:"projection_type"`
	NonKeyAttributes []string              `json:"non_key_attributes"`
	ReadCapacity     *int64                `json:"read_capacity"`
	WriteCapacity    *int64                `json:"write_capacity"`
	OnDemand         []awsOnDemand         `json:"on_demand_throughput"`
	Warm             []awsWarm             `json:"warm_throughput"`
}

type awsLSI struct {
	Name             string   `json:"name"`
	RangeKey         string   `json:"range_key"`
	ProjectionType   string   `json:"projection_type"`
	NonKeyAttributes []string `json:"non_key_attributes"`
}

type awsTTL struct {
	AttributeName string `json:"attribute_name"`
	Enabled       bool   `json:"enabled"`
}

type awsPITR struct {
	Enabled              bool   `json:"enabled"`
	RecoveryPeriodInDays *int64 `json:"recovery_period_in_days"`
}

type awsSSE struct {
	Enabled   bool   `json:"enabled"`
	KMSKeyARN string `json:"kms_key_arn"`
}

type awsReplica struct {
	RegionName string `json:"region_name"`
}

type awsOnDemand struct {
	MaxReadRequestUnits  *int64 `json:"max_read_request_units"`
	MaxWriteRequestUnits *int64 `json:"max_write_request_units"`
}

type awsWarm struct {
	ReadUnitsPerSecond  *int64 `json:"read_units_per_second"`
	WriteUnitsPerSecond *int64 `json:"write_units_per_second"`
}

// awsTableAttributes are the top-level attributes of aws_dynamodb_table the conversion knows: converted,
// checked, or dropped on purpose. An attribute outside this list that holds a value is reported as a
// warning, so that a setting added to the AWS provider later is never dropped silently.
var awsTableAttributes = []string{
	"arn", "attribute", "billing_mode", "deletion_protection_enabled", "global_secondary_index", "global_table_witness",
	"hash_key", "id", "import_table", "local_secondary_index", "name", "on_demand_throughput", "point_in_time_recovery",
	"range_key", "read_capacity", "region", "replica", "restore_date_time", "restore_source_name", "restore_source_table_arn",
	"restore_to_latest_time", "server_side_encryption", "stream_arn", "stream_enabled", "stream_label", "stream_view_type",
	"table_class", "tags", "tags_all", "timeouts", "ttl", "warm_throughput", "write_capacity",
}

// movedTable is the converted state, as the values of dynamokeys_sharded_table's attributes. Everything
// else (design metadata, computed design outputs, status, timeouts) stays null.
type movedTable struct {
	id, name, arn, billingMode, tableClass        types.String
	readCapacity, writeCapacity                   types.Number
	partitionKey, sortKey, ttl                    types.Object
	localSecondaryIndexes, globalSecondaryIndexes types.Map
	pointInTimeRecovery                           types.Object
	deletionProtection                            types.Bool
	stream, encryption, onDemand                  types.Object
	streamARN, streamLabel                        types.String
	tags, tagsAll                                 types.Map
}

type namedValue struct {
	name  string
	value attr.Value
}

func (m movedTable) attributes() []namedValue {
	return []namedValue{
		{"id", m.id}, {"name", m.name}, {"arn", m.arn}, {"billing_mode", m.billingMode}, {"read_capacity", m.readCapacity},
		{"write_capacity", m.writeCapacity}, {"partition_key", m.partitionKey}, {"sort_key", m.sortKey},
		{"local_secondary_indexes", m.localSecondaryIndexes}, {"global_secondary_indexes", m.globalSecondaryIndexes},
		{"ttl", m.ttl}, {"point_in_time_recovery", m.pointInTimeRecovery}, {"deletion_protection", m.deletionProtection},
		{"table_class", m.tableClass}, {"tags", m.tags}, {"tags_all", m.tagsAll},
		{"stream", m.stream}, {"stream_arn", m.streamARN}, {"stream_label", m.streamLabel},
		{"server_side_encryption", m.encryption}, {"on_demand_throughput", m.onDemand},
	}
}

// convertAWSTable converts the JSON state of an aws_dynamodb_table. Every setting that the AWS resource
// holds and dynamokeys_sharded_table cannot represent is an error naming the source attribute, so that
// nothing is moved that the next apply would change or forget; all of them are reported at once.
func convertAWSTable(ctx context.Context, raw []byte) (movedTable, diag.Diagnostics) {
	var diags diag.Diagnostics
	var src awsTable
	if err := json.Unmarshal(raw, &src); err != nil {
		diags.AddError("Unreadable aws_dynamodb_table state", "The state of the aws_dynamodb_table could not be read: "+err.Error()+
			". Run terraform apply -refresh-only with the AWS provider, then move it again.")
		return movedTable{}, diags
	}
	diags.Append(checkUnknownAWSAttributes(raw)...)
	diags.Append(checkUnrepresentable(src)...)

	types_ := map[string]string{}
	for _, a := range src.Attribute {
		types_[a.Name] = a.Type
	}
	typeOf := func(name, where string) types.String {
		t, ok := types_[name]
		if !ok {
			diags.AddError("Key attribute without a type in aws_dynamodb_table",
				fmt.Sprintf("%s names %q, which has no entry in the attribute set, so its type (S, N or B) is unknown. "+
					"Add attribute { name = %q, type = ... } to the aws_dynamodb_table, apply it with the AWS provider, then move it again.", where, name, name))
		}
		return types.StringValue(t)
	}

	m := movedTable{
		id: types.StringValue(src.Name), name: types.StringValue(src.Name), arn: types.StringValue(src.ARN),
		readCapacity: types.NumberNull(), writeCapacity: types.NumberNull(),
		sortKey: types.ObjectNull(tableKeyAttrTypes()), ttl: types.ObjectNull(ttlAttrTypes),
		pointInTimeRecovery: types.ObjectNull(pitrAttrTypes),
		stream:              types.ObjectNull(streamAttrTypes), streamARN: types.StringNull(), streamLabel: types.StringNull(),
		encryption: types.ObjectNull(encryptionAttrTypes), onDemand: types.ObjectNull(onDemandAttrTypes),
		deletionProtection: types.BoolValue(src.DeletionProtection != nil && *src.DeletionProtection),
		tableClass:         types.StringValue(orDefault(src.TableClass, dynamo.TableClassStandard)),
		tags:               types.MapNull(types.StringType), tagsAll: stringMap(nil),
	}
	if src.Name == "" {
		diags.AddError("aws_dynamodb_table state without a name", "The state has no table name. Run terraform apply -refresh-only with the AWS provider, then move it again.")
	}
	// The AWS provider defaults billing_mode to PROVISIONED; dynamokeys holds capacities only for PROVISIONED
	// tables, as its configuration must.
	billing := orDefault(src.BillingMode, dynamo.BillingProvisioned)
	provisioned := billing == dynamo.BillingProvisioned
	m.billingMode = types.StringValue(billing)
	if provisioned {
		m.readCapacity, m.writeCapacity = int64Value(src.ReadCapacity), int64Value(src.WriteCapacity)
	}

	var dg diag.Diagnostics
	if src.HashKey == "" {
		diags.AddError("aws_dynamodb_table state without hash_key", "The state has no hash_key. Run terraform apply -refresh-only with the AWS provider, then move it again.")
	}
	m.partitionKey, dg = types.ObjectValue(tableKeyAttrTypes(), map[string]attr.Value{
		"name": types.StringValue(src.HashKey), "type": typeOf(src.HashKey, "hash_key"), "template": types.StringNull()})
	diags.Append(dg...)
	if src.RangeKey != "" {
		m.sortKey, dg = types.ObjectValue(tableKeyAttrTypes(), map[string]attr.Value{
			"name": types.StringValue(src.RangeKey), "type": typeOf(src.RangeKey, "range_key"), "template": types.StringNull()})
		diags.Append(dg...)
	}

	m.localSecondaryIndexes, dg = convertLSIs(ctx, src.LSIs, typeOf)
	diags.Append(dg...)
	m.globalSecondaryIndexes, dg = convertGSIs(ctx, src.GSIs, provisioned, typeOf)
	diags.Append(dg...)

	if len(src.PITR) > 0 && src.PITR[0].Enabled {
		days := types.NumberNull() // DynamoDB's default period, which a configuration omits
		if p := src.PITR[0].RecoveryPeriodInDays; positive(p) && *p != int64(maxRecoveryDays) {
			days = int64Value(p)
		}
		m.pointInTimeRecovery, dg = types.ObjectValue(pitrAttrTypes, map[string]attr.Value{"enabled": types.BoolValue(true), "recovery_period_in_days": days})
		diags.Append(dg...)
	}
	if src.StreamEnabled != nil && *src.StreamEnabled {
		m.stream, dg = types.ObjectValue(streamAttrTypes, map[string]attr.Value{"enabled": types.BoolValue(true), "view_type": types.StringValue(src.StreamViewType)})
		diags.Append(dg...)
		m.streamARN, m.streamLabel = types.StringValue(src.StreamARN), types.StringValue(src.StreamLabel)
	}
	if len(src.SSE) > 0 && src.SSE[0].Enabled {
		// The AWS provider records the ARN of the key in use, the AWS managed one included; carried as the
		// configured key, a configuration that names none plans an in-place update that changes nothing.
		key := types.StringNull()
		if src.SSE[0].KMSKeyARN != "" {
			key = types.StringValue(src.SSE[0].KMSKeyARN)
		}
		m.encryption, dg = types.ObjectValue(encryptionAttrTypes, map[string]attr.Value{"enabled": types.BoolValue(true), "kms_key_arn": key})
		diags.Append(dg...)
	}
	if o := src.OnDemand; !provisioned && len(o) > 0 && (positive(o[0].MaxReadRequestUnits) || positive(o[0].MaxWriteRequestUnits)) {
		capOf := func(p *int64) types.Number {
			if positive(p) {
				return int64Value(p)
			}
			return types.NumberNull()
		}
		m.onDemand, dg = types.ObjectValue(onDemandAttrTypes, map[string]attr.Value{
			"max_read_request_units": capOf(o[0].MaxReadRequestUnits), "max_write_request_units": capOf(o[0].MaxWriteRequestUnits)})
		diags.Append(dg...)
	}
	if len(src.TTL) > 0 && src.TTL[0].Enabled {
		m.ttl, dg = types.ObjectValue(ttlAttrTypes, map[string]attr.Value{
			"attribute_name": types.StringValue(src.TTL[0].AttributeName), "enabled": types.BoolValue(true)})
		diags.Append(dg...)
	}

	// tags_all is what is on the table, including the AWS provider's default_tags. All of them move into
	// tags (the AWS provider's default_tags are not dynamokeys' default_tags) and into tags_all, so that a
	// configuration that lists them plans no change.
	tags := src.TagsAll
	if tags == nil {
		tags = src.Tags
	}
	m.tagsAll = stringMap(tags)
	if len(tags) > 0 {
		m.tags, dg = types.MapValueFrom(ctx, types.StringType, tags)
		diags.Append(dg...)
	}
	return m, diags
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// checkUnrepresentable reports the settings dynamokeys_sharded_table cannot hold yet (errors) and those it
// does not manage but that stay on the table unchanged (warnings).
func checkUnrepresentable(src awsTable) diag.Diagnostics {
	var diags diag.Diagnostics
	keep := "Keep this table in aws_dynamodb_table until dynamokeys_sharded_table supports it; nothing was moved."
	if len(src.Replicas) > 0 {
		regions := make([]string, 0, len(src.Replicas))
		for _, r := range src.Replicas {
			regions = append(regions, r.RegionName)
		}
		diags.AddError("Cannot move a global table: replica",
			fmt.Sprintf("aws_dynamodb_table %s has replica blocks (%s). dynamokeys_sharded_table manages single-region tables only. "+
				"Multi-region tables stay in aws_dynamodb_table; use the dynamokeys_keydesign data source to check their design. %s",
				src.Name, strings.Join(regions, ", "), keep))
	}
	if len(src.Witness) > 0 && src.Witness[0].RegionName != "" {
		diags.AddError("Cannot move a global table: global_table_witness",
			fmt.Sprintf("aws_dynamodb_table %s has a global_table_witness in %s. dynamokeys_sharded_table manages single-region tables only. %s",
				src.Name, src.Witness[0].RegionName, keep))
	}
	for _, g := range src.GSIs {
		if len(g.Warm) > 0 {
			diags.AddWarning("Warm throughput is not carried over: global_secondary_index.warm_throughput",
				fmt.Sprintf("Index %s of aws_dynamodb_table %s has warm throughput of %s. The index keeps it (warm throughput never decreases), "+
					"which stays on the index; set warm_throughput on the index in dynamokeys_sharded_table to manage it.", g.Name, src.Name, warmText(g.Warm[0])))
		}
	}
	if len(src.Warm) > 0 {
		diags.AddWarning("Warm throughput is not carried over: warm_throughput",
			fmt.Sprintf("aws_dynamodb_table %s has warm throughput of %s. The table keeps it (warm throughput never decreases); "+
				"set warm_throughput on dynamokeys_sharded_table to manage it.", src.Name, warmText(src.Warm[0])))
	}
	return diags
}

func positive(p *int64) bool { return p != nil && *p > 0 }

func positiveOrNil(p *int64) *int64 {
	if positive(p) {
		return p
	}
	return nil
}

func warmText(w awsWarm) string {
	return fmt.Sprintf("%d read and %d write units per second", valueOr0(w.ReadUnitsPerSecond), valueOr0(w.WriteUnitsPerSecond))
}

func valueOr0(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// checkUnknownAWSAttributes warns about top-level attributes this conversion does not know that hold a
// value: a setting added to the AWS provider after this version of dynamokeys.
func checkUnknownAWSAttributes(raw []byte) diag.Diagnostics {
	var diags diag.Diagnostics
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		return diags
	}
	var unknown []string
	for name, v := range all {
		if !slices.Contains(awsTableAttributes, name) && !emptyJSON(v) {
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

func emptyJSON(v json.RawMessage) bool {
	switch string(bytes.TrimSpace(v)) {
	case "", "null", `""`, "false", "0", "[]", "{}":
		return true
	}
	return false
}

func convertLSIs(ctx context.Context, lsis []awsLSI, typeOf func(name, where string) types.String) (types.Map, diag.Diagnostics) {
	var diags diag.Diagnostics
	elemType := lsiType
	if len(lsis) == 0 {
		return types.MapNull(elemType), diags
	}
	elems := map[string]attr.Value{}
	for _, l := range lsis {
		where := fmt.Sprintf("local_secondary_index %q range_key", l.Name)
		sortKey, dg := types.ObjectValue(lsiSortKeyType.AttrTypes, map[string]attr.Value{
			"name": types.StringValue(l.RangeKey), "type": typeOf(l.RangeKey, where)})
		diags.Append(dg...)
		nonKey, dg := nonKeyValue(ctx, l.NonKeyAttributes)
		diags.Append(dg...)
		obj, dg := types.ObjectValue(elemType.AttrTypes, map[string]attr.Value{
			"sort_key": sortKey, "projection_type": types.StringValue(orDefault(l.ProjectionType, "ALL")), "non_key_attributes": nonKey})
		diags.Append(dg...)
		elems[l.Name] = obj
	}
	out, dg := types.MapValue(elemType, elems)
	diags.Append(dg...)
	return out, diags
}

// nonKeyValue is null for no INCLUDE attributes, as the resource reads it back from DynamoDB.
func nonKeyValue(ctx context.Context, names []string) (types.List, diag.Diagnostics) {
	if len(names) == 0 {
		return types.ListNull(types.StringType), nil
	}
	return types.ListValueFrom(ctx, types.StringType, names)
}

// gsiKeys reads an index's key attributes from the multi-attribute key_schema (AWS provider v6), else
// from hash_key and range_key. The AWS provider v6 fills both for a single-attribute key; they must agree.
func gsiKeys(g awsGSI) (hash, rng []string, err error) {
	for i, k := range g.KeySchema {
		switch k.KeyType {
		case "HASH":
			hash = append(hash, k.AttributeName)
		case "RANGE":
			rng = append(rng, k.AttributeName)
		default:
			return nil, nil, fmt.Errorf("key_schema[%d] has key_type %q; expected HASH or RANGE", i, k.KeyType)
		}
	}
	if len(g.KeySchema) == 0 {
		if g.HashKey != "" {
			hash = []string{g.HashKey}
		}
		if g.RangeKey != "" {
			rng = []string{g.RangeKey}
		}
	}
	if len(hash) == 0 {
		return nil, nil, fmt.Errorf("it has neither hash_key nor a HASH element in key_schema")
	}
	if g.HashKey != "" && (len(hash) != 1 || hash[0] != g.HashKey) {
		return nil, nil, fmt.Errorf("hash_key %q disagrees with key_schema %v", g.HashKey, hash)
	}
	if g.RangeKey != "" && (len(rng) != 1 || rng[0] != g.RangeKey) {
		return nil, nil, fmt.Errorf("range_key %q disagrees with key_schema %v", g.RangeKey, rng)
	}
	return hash, rng, nil
}

func convertGSIs(ctx context.Context, gsis []awsGSI, provisioned bool, typeOf func(name, where string) types.String) (types.Map, diag.Diagnostics) {
	var diags diag.Diagnostics
	elemType := gsiType
	if len(gsis) == 0 {
		return types.MapNull(elemType), diags
	}
	pkType := gsiPartKeyType
	skType := gsiSortKeyType
	elems := map[string]attr.Value{}
	for _, g := range gsis {
		hash, rng, err := gsiKeys(g)
		if err != nil {
			diags.AddError("Unreadable global_secondary_index in aws_dynamodb_table",
				fmt.Sprintf("Index %q of the aws_dynamodb_table state cannot be read: %v. Run terraform apply -refresh-only with the AWS provider, then move it again.", g.Name, err))
			continue
		}
		where := fmt.Sprintf("global_secondary_index %q", g.Name)
		pk := make([]attr.Value, 0, len(hash))
		for _, name := range hash {
			obj, dg := types.ObjectValue(pkType.AttrTypes, map[string]attr.Value{
				"name": types.StringValue(name), "type": typeOf(name, where), "cardinality": types.NumberNull()})
			diags.Append(dg...)
			pk = append(pk, obj)
		}
		pkList, dg := types.ListValue(pkType, pk)
		diags.Append(dg...)
		skList := types.ListNull(skType)
		if len(rng) > 0 {
			sk := make([]attr.Value, 0, len(rng))
			for _, name := range rng {
				obj, dg := types.ObjectValue(skType.AttrTypes, map[string]attr.Value{"name": types.StringValue(name), "type": typeOf(name, where)})
				diags.Append(dg...)
				sk = append(sk, obj)
			}
			skList, dg = types.ListValue(skType, sk)
			diags.Append(dg...)
		}
		nonKey, dg := nonKeyValue(ctx, g.NonKeyAttributes)
		diags.Append(dg...)
		read, write := types.NumberNull(), types.NumberNull()
		if provisioned {
			read, write = int64Value(g.ReadCapacity), int64Value(g.WriteCapacity)
		}
		caps := types.ObjectNull(onDemandAttrTypes)
		if o := g.OnDemand; !provisioned && len(o) > 0 && (positive(o[0].MaxReadRequestUnits) || positive(o[0].MaxWriteRequestUnits)) {
			caps = onDemandValue(dynamo.Throughput{Read: positiveOrNil(o[0].MaxReadRequestUnits), Write: positiveOrNil(o[0].MaxWriteRequestUnits)}, &diags)
		}
		obj, dg := types.ObjectValue(elemType.AttrTypes, map[string]attr.Value{
			"partition_key": pkList, "sort_key": skList, "projection_type": types.StringValue(orDefault(g.ProjectionType, "ALL")),
			"non_key_attributes": nonKey, "read_capacity": read, "write_capacity": write,
			"on_demand_throughput": caps, "warm_throughput": types.ObjectNull(warmAttrTypes),
			"contributor_insights": types.ObjectNull(insightsAttrTypes), "autoscaling": types.ObjectNull(autoscalingType.AttrTypes)})
		diags.Append(dg...)
		elems[g.Name] = obj
	}
	out, dg := types.MapValue(elemType, elems)
	diags.Append(dg...)
	return out, diags
}
