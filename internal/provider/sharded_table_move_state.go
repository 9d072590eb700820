package provider

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
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
	m, diags := movedTableModel(ctx, req.SourceRawState.JSON)
	resp.Diagnostics.Append(diags...)
	if !diags.HasError() {
		resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
		if id, ok := movedIdentity(req, req.SourceRawState.JSON); ok {
			resp.Diagnostics.Append(setIdentity(ctx, resp.TargetIdentity, id)...)
		}
	}
}

// movedTableModel converts the JSON state of an aws_dynamodb_table the way Read records a table: decoded
// into the table the AWS adapter reads, then written by the same flatten, onto a model whose every
// attribute is null (no configuration, no prior state). Every setting that the AWS resource holds and
// dynamokeys_sharded_table cannot represent is an error naming the source attribute, all reported at once.
func movedTableModel(ctx context.Context, raw []byte) (shardedTableModel, diag.Diagnostics) {
	var m shardedTableModel
	var src awsTable
	if err := json.Unmarshal(raw, &src); err != nil {
		var diags diag.Diagnostics
		diags.AddError("Unreadable aws_dynamodb_table state", "The state of the aws_dynamodb_table could not be read: "+err.Error()+"."+refreshFirst)
		return m, diags
	}
	diags := checkUnknownAWSAttributes(raw)
	table, dg := src.table()
	diags.Append(dg...)
	if diags.HasError() {
		return m, diags
	}
	var resp resource.SchemaResponse
	(&shardedTableResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	m, dg = nullTableModel(ctx, resp.Schema.Type().TerraformType(ctx))
	diags.Append(dg...)
	diags.Append(flattenTable(ctx, &table, &m)...)
	// tags_all is what is on the table, including the AWS provider's default_tags. All of them move into
	// tags (the AWS provider's default_tags are not dynamokeys' default_tags) and into tags_all, so that a
	// configuration that lists them plans no change.
	readTags(table.Tags, defaultTags{}, &m)
	return m, diags
}

// nullTableModel is a model whose every attribute is null (no configuration, no prior state), of the
// resource's state type typ.
func nullTableModel(ctx context.Context, typ tftypes.Type) (shardedTableModel, diag.Diagnostics) {
	var m shardedTableModel
	var resp resource.SchemaResponse
	(&shardedTableResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	obj, _ := typ.(tftypes.Object) // a resource schema is always an object
	nulls := make(map[string]tftypes.Value, len(obj.AttributeTypes))
	for name, t := range obj.AttributeTypes {
		nulls[name] = tftypes.NewValue(t, nil)
	}
	state := tfsdk.State{Schema: resp.Schema, Raw: tftypes.NewValue(obj, nulls)}
	diags := state.Get(ctx, &m)
	return m, diags
}

// refreshFirst is the remedy for a state the conversion cannot read.
const refreshFirst = " Run terraform apply -refresh-only with the AWS provider, then move it again."

// table is the DynamoDB table the state describes, as FindTable would report it: the AWS provider's
// defaults (PROVISIONED billing, the STANDARD class, projection ALL) resolved, zero capacities and caps
// read as not set. Warm throughput is carried for the warnings only: an unconfigured one is not managed.
func (src awsTable) table() (dynamo.Table, diag.Diagnostics) {
	diags := src.checkUnrepresentable()
	types := map[string]string{}
	for _, a := range src.Attribute {
		types[a.Name] = a.Type
	}
	key := func(where, name string) dynamo.KeyAttribute {
		if _, ok := types[name]; !ok {
			diags.AddError("Key attribute without a type in aws_dynamodb_table",
				fmt.Sprintf("%s names %q, which has no entry in the attribute set, so its type (S, N or B) is unknown. "+
					"Add attribute { name = %q, type = ... } to the aws_dynamodb_table, apply it with the AWS provider, then move it again.", where, name, name))
		}
		return dynamo.KeyAttribute{Name: name, Type: types[name]}
	}
	if src.Name == "" || src.HashKey == "" {
		diags.AddError("aws_dynamodb_table state without a name or hash_key", "The state has no table name or no hash_key."+refreshFirst)
	}
	t := dynamo.Table{Name: src.Name, ARN: src.ARN, BillingMode: cmp.Or(src.BillingMode, dynamo.BillingProvisioned),
		TableClass: cmp.Or(src.TableClass, dynamo.TableClassStandard), PartitionKey: key("hash_key", src.HashKey),
		DeletionProtection: src.DeletionProtection, Warm: firstWarm(src.Warm), Tags: src.TagsAll}
	if len(t.Tags) == 0 {
		t.Tags = maps.Collect(maps.All(src.Tags)) // FindTable reports no tags as an empty map, never nil
	}
	provisioned := t.BillingMode == dynamo.BillingProvisioned
	if provisioned {
		t.ReadCapacity, t.WriteCapacity = src.ReadCapacity, src.WriteCapacity
	} else {
		t.OnDemand = firstCaps(src.OnDemand)
	}
	if src.RangeKey != "" {
		t.SortKey = new(key("range_key", src.RangeKey))
	}
	for _, l := range src.LSIs {
		t.LSIs = append(t.LSIs, dynamo.Index{Name: l.Name, SortKey: []dynamo.KeyAttribute{key(fmt.Sprintf("local_secondary_index %q range_key", l.Name), l.RangeKey)},
			ProjectionType: cmp.Or(l.ProjectionType, model.ProjectionAll), NonKeyAttributes: l.NonKeyAttributes})
	}
	for _, g := range src.GSIs {
		idx := dynamo.Index{Name: g.Name, ProjectionType: cmp.Or(g.ProjectionType, model.ProjectionAll), NonKeyAttributes: g.NonKeyAttributes,
			Warm: firstWarm(g.Warm)}
		var err error
		if idx.PartitionKey, idx.SortKey, err = g.keys(func(name string) dynamo.KeyAttribute {
			return key(fmt.Sprintf("global_secondary_index %q", g.Name), name)
		}); err != nil {
			diags.AddError("Unreadable global_secondary_index in aws_dynamodb_table",
				fmt.Sprintf("Index %q of the aws_dynamodb_table state cannot be read: %v.%s", g.Name, err, refreshFirst))
		}
		if provisioned {
			idx.ReadCapacity, idx.WriteCapacity = g.ReadCapacity, g.WriteCapacity
		} else {
			idx.OnDemand = firstCaps(g.OnDemand)
		}
		t.GSIs = append(t.GSIs, idx)
	}
	if ttl := first(src.TTL); ttl.Enabled {
		t.TTL = &dynamo.TTL{AttributeName: ttl.AttributeName, Enabled: true}
	}
	if pitr := first(src.PITR); pitr.Enabled {
		t.PointInTimeRecovery = &dynamo.PITR{Enabled: true}
		if days := pitr.RecoveryPeriodInDays; positive(days) {
			t.PointInTimeRecovery.RecoveryPeriodDays = new(int32(*days))
		}
	}
	if src.StreamEnabled {
		t.Stream = &dynamo.Stream{Enabled: true, ViewType: src.StreamViewType}
		t.StreamARN, t.StreamLabel = src.StreamARN, src.StreamLabel
	}
	if sse := first(src.SSE); sse.Enabled {
		// The AWS provider records the ARN of the key in use, the AWS managed one included; carried as the
		// configured key, a configuration that names none plans an in-place update that changes nothing.
		t.Encryption = &dynamo.Encryption{Enabled: true, KMSKeyARN: sse.KMSKeyARN}
	}
	diags.Append(warmNotCarried(t)...)
	return t, diags
}

// keys reads an index's key attributes from the multi-attribute key_schema (AWS provider v6.29 and later),
// else from hash_key and range_key. The AWS provider fills both for a single-attribute key; they must agree.
func (g awsIndex) keys(key func(name string) dynamo.KeyAttribute) (hash, rng []dynamo.KeyAttribute, err error) {
	schema := g.KeySchema
	if len(schema) == 0 {
		schema = slices.DeleteFunc([]awsBlock{{AttributeName: g.HashKey, KeyType: "HASH"}, {AttributeName: g.RangeKey, KeyType: "RANGE"}},
			func(b awsBlock) bool { return b.AttributeName == "" })
	}
	var hashNames, rangeNames []string
	for i, k := range schema {
		switch k.KeyType {
		case "HASH":
			hashNames, hash = append(hashNames, k.AttributeName), append(hash, key(k.AttributeName))
		case "RANGE":
			rangeNames, rng = append(rangeNames, k.AttributeName), append(rng, key(k.AttributeName))
		default:
			return nil, nil, fmt.Errorf("key_schema[%d] has key_type %q; expected HASH or RANGE", i, k.KeyType)
		}
	}
	switch {
	case len(hash) == 0:
		return nil, nil, fmt.Errorf("it has neither hash_key nor a HASH element in key_schema")
	case g.HashKey != "" && !slices.Equal(hashNames, []string{g.HashKey}):
		return nil, nil, fmt.Errorf("hash_key %q disagrees with key_schema %v", g.HashKey, hashNames)
	case g.RangeKey != "" && !slices.Equal(rangeNames, []string{g.RangeKey}):
		return nil, nil, fmt.Errorf("range_key %q disagrees with key_schema %v", g.RangeKey, rangeNames)
	}
	return hash, rng, nil
}

func positive(p *int64) bool { return p != nil && *p > 0 }

// first is a single nested block of the state, or a zero one when it is not set.
func first(blocks []awsBlock) awsBlock {
	if len(blocks) == 0 {
		return awsBlock{}
	}
	return blocks[0]
}

// firstCaps reads an on_demand_throughput block: a side of 0 or less (or none) is not capped.
func firstCaps(blocks []awsBlock) *dynamo.Throughput {
	read, write := first(blocks).MaxReadRequestUnits, first(blocks).MaxWriteRequestUnits
	switch {
	case !positive(read) && !positive(write):
		return nil
	case !positive(read):
		read = nil
	case !positive(write):
		write = nil
	}
	return &dynamo.Throughput{Read: read, Write: write}
}

func firstWarm(blocks []awsBlock) *dynamo.Throughput {
	if len(blocks) == 0 {
		return nil
	}
	return &dynamo.Throughput{Read: blocks[0].ReadUnitsPerSecond, Write: blocks[0].WriteUnitsPerSecond}
}

// checkUnrepresentable reports the settings dynamokeys_sharded_table cannot hold yet: a global table.
func (src awsTable) checkUnrepresentable() diag.Diagnostics {
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
	if witness := first(src.Witness).RegionName; witness != "" {
		diags.AddError("Cannot move a global table: global_table_witness",
			fmt.Sprintf("aws_dynamodb_table %s has a global_table_witness in %s. dynamokeys_sharded_table manages single-region tables only. %s",
				src.Name, witness, keep))
	}
	return diags
}

// warmNotCarried warns about warm throughput, which the table and its indexes keep (it never decreases)
// but which is not managed until the configuration sets it.
func warmNotCarried(t dynamo.Table) diag.Diagnostics {
	var diags diag.Diagnostics
	for _, g := range t.GSIs {
		if g.Warm != nil {
			diags.AddWarning("Warm throughput is not carried over: global_secondary_index.warm_throughput",
				fmt.Sprintf("Index %s of aws_dynamodb_table %s has warm throughput of %s. The index keeps it (warm throughput never decreases), "+
					"which stays on the index; set warm_throughput on the index in dynamokeys_sharded_table to manage it.", g.Name, t.Name, g.Warm))
		}
	}
	if t.Warm != nil {
		diags.AddWarning("Warm throughput is not carried over: warm_throughput",
			fmt.Sprintf("aws_dynamodb_table %s has warm throughput of %s. The table keeps it (warm throughput never decreases); "+
				"set warm_throughput on dynamokeys_sharded_table to manage it.", t.Name, t.Warm))
	}
	return diags
}
