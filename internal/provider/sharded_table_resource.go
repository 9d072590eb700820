package provider

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/migration"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// Default operation timeouts.
const (
	defaultCreateTimeout = 30 * time.Minute
	defaultUpdateTimeout = 60 * time.Minute
	defaultDeleteTimeout = 10 * time.Minute
	defaultReadTimeout   = 5 * time.Minute
)

var (
	_ resource.Resource                   = (*shardedTableResource)(nil)
	_ resource.ResourceWithConfigure      = (*shardedTableResource)(nil)
	_ resource.ResourceWithImportState    = (*shardedTableResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*shardedTableResource)(nil)
	_ resource.ResourceWithValidateConfig = (*shardedTableResource)(nil)
)

// NewShardedTableResource returns the dynamokeys_sharded_table resource.
func NewShardedTableResource() resource.Resource { return &shardedTableResource{} }

type shardedTableResource struct {
	data *providerData
}

func (r *shardedTableResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_sharded_table"
}

func (r *shardedTableResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := map[string]rschema.Attribute{}
	maps.Copy(attrs, designInputAttributes())
	attrs["replicas"] = resourceReplicasAttribute()
	maps.Copy(attrs, designOutputAttributes())
	attrs["id"] = rschema.StringAttribute{Computed: true, Description: "The table name.",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	attrs["arn"] = rschema.StringAttribute{Computed: true, Description: "The table's ARN.",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	// No UseStateForUnknown: a refresh can record UPDATING (an autoscaler at work), while an apply ends
	// with ACTIVE after its waits; the status is known after each apply.
	attrs["status"] = rschema.StringAttribute{Computed: true, Description: "The table status DynamoDB reported last, e.g. ACTIVE."}
	attrs["name"] = rschema.StringAttribute{Required: true,
		Description:   "Table name: " + limitText(model.MinNameLength) + " to " + limitText(model.MaxNameLength) + " characters of letters, digits, underscore, dot or hyphen.",
		PlanModifiers: []planmodifier.String{protectedString{stringplanmodifier.RequiresReplace()}}}
	attrs["billing_mode"] = rschema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(dynamo.BillingPayPerRequest),
		Description: "PAY_PER_REQUEST (on-demand, the default) or PROVISIONED (set read_capacity and write_capacity).",
		Validators:  []validator.String{stringvalidator.OneOf(dynamo.BillingPayPerRequest, dynamo.BillingProvisioned)}}
	attrs["read_capacity"] = rschema.NumberAttribute{Optional: true, Description: "Provisioned read capacity units per second (PROVISIONED only), a whole number of at least 1.",
		Validators: []validator.Number{wholeNumberValidator()}}
	attrs["write_capacity"] = rschema.NumberAttribute{Optional: true, Description: "Provisioned write capacity units per second (PROVISIONED only), a whole number of at least 1.",
		Validators: []validator.Number{wholeNumberValidator()}}
	attrs["ttl"] = ttlAttribute()
	attrs["deletion_protection"] = rschema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(true),
		Description: "Whether DynamoDB refuses to delete the table. Defaults to true: set it to false and apply before destroying or replacing the table."}
	attrs["table_class"] = rschema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(dynamo.TableClassStandard),
		Description: "STANDARD (the default) or STANDARD_INFREQUENT_ACCESS.",
		Validators:  []validator.String{stringvalidator.OneOf(dynamo.TableClassStandard, dynamo.TableClassStandardInfrequentAccess)}}
	attrs["tags"] = rschema.MapAttribute{Optional: true, ElementType: types.StringType,
		Description: "Tags of the table, merged over the provider's default_tags (see tags_all).",
		Validators:  []validator.Map{tagsValidator{what: "tags"}}}
	attrs["tags_all"] = tagsAllAttribute()
	maps.Copy(attrs, tableSettingsAttributes())
	attrs["timeouts"] = timeouts.Attributes(ctx, timeouts.Opts{Create: true, Read: true, Update: true, Delete: true})
	attrs = withSchemaNotes(ctx, attrs)
	if t, ok := attrs["timeouts"].(rschema.SingleNestedAttribute); ok {
		t.Description = timeoutsDescription()
		attrs["timeouts"] = t
	}
	resp.Schema = rschema.Schema{
		Description: "Manages a DynamoDB table whose keys follow a dynamokeys key design. The templates, segments, sharding " +
			"and traffic are design metadata: the plan computes capacity, shard counts and routing from them and enforces " +
			"the key-design policies before any API call; changing them never touches the table.",
		Attributes: attrs,
		Version:    shardedTableSchemaVersion,
	}
}

func (r *shardedTableResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	data, diags := providerDataFrom(req.ProviderData)
	resp.Diagnostics.Append(diags...)
	r.data = data
}

// ValidateConfig catches table settings that contradict each other, before any plan.
func (r *shardedTableResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m shardedTableModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	validateNoReplicas(m.Replicas, &resp.Diagnostics)
	if m.BillingMode.IsUnknown() {
		return
	}
	provisioned := m.BillingMode.ValueString() == dynamo.BillingProvisioned
	validateTableSettings(ctx, m, provisioned, &resp.Diagnostics)
	validateSettingCombinations(ctx, m, &resp.Diagnostics)
	for attrName, v := range map[string]types.Number{"read_capacity": m.ReadCapacity, "write_capacity": m.WriteCapacity} {
		switch {
		case provisioned && v.IsNull():
			resp.Diagnostics.AddAttributeError(path.Root(attrName), "Missing provisioned capacity",
				fmt.Sprintf("billing_mode = \"PROVISIONED\" needs %s: set both read_capacity and write_capacity, or use PAY_PER_REQUEST.", attrName))
		case !provisioned && !v.IsNull() && !v.IsUnknown():
			resp.Diagnostics.AddAttributeError(path.Root(attrName), "Capacity without PROVISIONED billing",
				fmt.Sprintf("%s applies only to billing_mode = \"PROVISIONED\"; remove it or set billing_mode = \"PROVISIONED\".", attrName))
		}
	}
	if !m.GlobalSecondaryIndexes.IsNull() && !m.GlobalSecondaryIndexes.IsUnknown() {
		for name, v := range m.GlobalSecondaryIndexes.Elements() {
			obj, _ := v.(types.Object) // the schema makes every element an object
			var g gsiModel
			if !objectAs(ctx, obj, &g, &resp.Diagnostics) {
				continue
			}
			for attrName, c := range map[string]types.Number{"read_capacity": g.ReadCapacity, "write_capacity": g.WriteCapacity} {
				p := path.Root("global_secondary_indexes").AtMapKey(name).AtName(attrName)
				switch {
				case provisioned && c.IsNull():
					resp.Diagnostics.AddAttributeError(p, "Missing index capacity", fmt.Sprintf("GSI %q of a PROVISIONED table needs %s.", name, attrName))
				case !provisioned && !c.IsNull() && !c.IsUnknown():
					resp.Diagnostics.AddAttributeError(p, "Index capacity without PROVISIONED billing",
						fmt.Sprintf("%s of GSI %q applies only to billing_mode = \"PROVISIONED\"; remove it.", attrName, name))
				}
			}
			at := path.Root("global_secondary_indexes").AtMapKey(name)
			validateUnits(at, "GSI "+name, map[string]types.Object{"on_demand_throughput": g.OnDemandThroughput, "warm_throughput": g.WarmThroughput}, &resp.Diagnostics)
			validateThroughputSettings(ctx, at, "GSI "+name, g.OnDemandThroughput, g.Autoscaling, g.ReadCapacity, g.WriteCapacity, provisioned, &resp.Diagnostics)
		}
	}
	if ttl := (ttlModel{}); objectAs(ctx, m.TTL, &ttl, &resp.Diagnostics) {
		enabled := ttl.Enabled.IsNull() || ttl.Enabled.ValueBool()
		if enabled && !ttl.AttributeName.IsUnknown() && ttl.AttributeName.ValueString() == "" {
			resp.Diagnostics.AddAttributeError(path.Root("ttl").AtName("attribute_name"), "Missing TTL attribute",
				"ttl is enabled but has no attribute_name: name the attribute that holds the expiry time in epoch seconds, e.g. attribute_name = \"expires_at\".")
		}
	}
}

// ModifyPlan evaluates the key design against the policies and fills in the computed design attributes,
// so that an error finding stops the plan before any API call. Replacement is decided by the attributes'
// plan modifiers (replace_protected.go).
func (r *shardedTableResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() { // destroy
		var state shardedTableModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if state.DeletionProtection.ValueBool() {
			resp.Diagnostics.AddError("Table has deletion protection",
				fmt.Sprintf("Table %s has deletion_protection = true, so it cannot be destroyed. Set deletion_protection = false and apply, then destroy.", state.Name.ValueString()))
			return
		}
		resp.Diagnostics.Append(destroyFindings(ctx, policySettingsOf(r.data), state)...)
		return
	}
	var plan shardedTableModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var prior *model.Document
	var priorState *shardedTableModel
	var change *model.Change
	if !req.State.Raw.IsNull() {
		var state shardedTableModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		priorState = &state
		// A plan that replaces the table starts from an empty one: no items to migrate, no scheme to keep.
		replacedBy := replacementPaths(ctx, state, plan)
		if len(replacedBy) == 0 {
			prior, _ = priorDocument(state)
		}
		change = planChange(ctx, state, plan, replacedBy)
	}

	in, diags := readTableDesign(plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	in.Prior, in.Change = prior, change
	out, diags, ok := designOutputs(ctx, policySettingsOf(r.data), in, plan.Enforce)
	resp.Diagnostics.Append(diags...)
	if !ok {
		return
	}
	plan.designOutputModel = out
	plan.TagsAll, diags = planTagsAll(ctx, defaultTagsOf(r.data), plan.Tags)
	resp.Diagnostics.Append(diags...)
	validateTagsAll(plan.TagsAll, &resp.Diagnostics)
	planStreamIdentity(ctx, priorState, &plan, &resp.Diagnostics)
	planTableSize(priorState, change, &plan)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// destroyFindings are the change rules' findings on destroying the table of state (DK002: what goes with
// it), as warnings: a destroy is meant, and the plan goes on. A state without a readable design is judged
// as the table it shows.
func destroyFindings(ctx context.Context, settings policySettings, state shardedTableModel) diag.Diagnostics {
	doc, ok := priorDocument(state)
	if !ok {
		return nil
	}
	doc.Change = destroyChange(state)
	findings, diags := evaluateDesign(ctx, settings, doc)
	if diags.HasError() {
		return diags
	}
	diags.Append(findingDiagnostics(findings, false)...)
	diags.Append(changeSectionDiagnostic(doc, findings)...)
	return diags
}

// lsisEqual compares LSI maps as DynamoDB sees them: null and empty maps alike, a null projection_type as
// ALL, and non_key_attributes as a set (null, empty and any order alike). A state that did not come from
// this configuration (an imported or moved table) then matches a configuration that describes the same
// indexes. Values unknown at plan time compare strictly.
func lsisEqual(ctx context.Context, a, b types.Map) bool {
	if len(a.Elements()) == 0 && len(b.Elements()) == 0 {
		return true
	}
	if a.Equal(b) {
		return true
	}
	var before, after map[string]lsiModel
	if a.ElementsAs(ctx, &before, false).HasError() || b.ElementsAs(ctx, &after, false).HasError() || len(before) != len(after) {
		return false
	}
	for name, x := range before {
		y, ok := after[name]
		if !ok || !sameLSI(ctx, x, y) {
			return false
		}
	}
	return true
}

func sameLSI(ctx context.Context, a, b lsiModel) bool {
	var aKeys, bKeys []string
	if a.SortKey.IsUnknown() || b.SortKey.IsUnknown() || a.ProjectionType.IsUnknown() || b.ProjectionType.IsUnknown() ||
		a.NonKeyAttributes.IsUnknown() || b.NonKeyAttributes.IsUnknown() ||
		a.NonKeyAttributes.ElementsAs(ctx, &aKeys, false).HasError() || b.NonKeyAttributes.ElementsAs(ctx, &bKeys, false).HasError() {
		return false
	}
	projection := func(p types.String) string { return cmp.Or(p.ValueString(), model.ProjectionAll) }
	return a.SortKey.Equal(b.SortKey) && projection(a.ProjectionType) == projection(b.ProjectionType) &&
		slices.Equal(slices.Sorted(slices.Values(aKeys)), slices.Sorted(slices.Values(bKeys)))
}

func (r *shardedTableResource) client() (*dynamo.Client, diag.Diagnostics) {
	var diags diag.Diagnostics
	if r.data == nil {
		diags.AddError("Provider not configured", "The dynamokeys provider was not configured. Please report this issue.")
		return nil, diags
	}
	return r.data.dynamo, diags
}

func warningDiagnostics(warnings dynamo.Warnings) diag.Diagnostics {
	var diags diag.Diagnostics
	for _, w := range warnings {
		diags.AddWarning("Optional table feature not available", w+" The rest of the table was managed as configured.")
	}
	return diags
}

func (r *shardedTableResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan shardedTableModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	client, diags := r.client()
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultCreateTimeout)
	resp.Diagnostics.Append(diags...)
	table, diags := expandTable(ctx, plan)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(refuseVectorIndexes(table)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	read, warnings, err := client.CreateTable(ctx, table)
	resp.Diagnostics.Append(warningDiagnostics(warnings)...)
	var exists *dynamo.TableExistsError
	switch {
	case errors.As(err, &exists):
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Table name already in use", err.Error()+".")
		return
	case err != nil && read != nil:
		// This apply created the table and a later step failed: record it, so that Terraform marks it
		// tainted and replaces it, instead of leaving a table nobody manages. Only the table this call
		// created (read is its own CreateTable response) is ever recorded.
		setComputed(&plan, read)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		r.setIdentityOf(ctx, client, read, resp.Identity, &resp.Diagnostics)
		resp.Diagnostics.AddError("Creating the DynamoDB table failed",
			err.Error()+"\n\nThe table was created and is recorded in the state as tainted. To finish its settings in place, run "+
				"terraform untaint on this resource and apply again; to have Terraform replace it instead, set deletion_protection = false first "+
				"(a protected table cannot be deleted).")
		return
	case err != nil:
		resp.Diagnostics.AddError("Creating the DynamoDB table failed", err.Error()+"\n\nNo table was created.")
		return
	}
	setComputed(&plan, read)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	r.setIdentityOf(ctx, client, read, resp.Identity, &resp.Diagnostics)
}

// setIdentityOf records the identity of a table this apply created or updated.
func (r *shardedTableResource) setIdentityOf(ctx context.Context, client *dynamo.Client, t *dynamo.Table, into *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	id, dg := identityOf(ctx, client, t)
	diags.Append(dg...)
	if !dg.HasError() {
		diags.Append(setIdentity(ctx, into, id)...)
	}
}

// priorDocument is the document of a state as a plan's prior: the state's design, analysed again, with the
// furthest migration phase its recorded document reached. ok is false when the state holds no valid design.
func priorDocument(state shardedTableModel) (*model.Document, bool) {
	in, diags := readTableDesign(state)
	if diags.HasError() {
		return nil, false
	}
	prior, errs := keydesign.Analyze(in)
	if len(errs) > 0 || prior == nil {
		return nil, false
	}
	if in.PartitionKey.Template == nil {
		// An imported table has no recorded design: the scheme its items follow is unknown, so a
		// configured sharding is not a change of scheme (DK402 stays silent).
		prior.Unknown = append(prior.Unknown, "sharding", "derived.shard_count", "derived.layout")
	}
	carryMigrationReach(prior, state.DesignDocument)
	return prior, true
}

// refreshDesignDocument recomputes the design outputs (design_document, findings, report, …) from the
// refreshed state, whose table settings (a capacity an ignore_changes keeps, for example) may differ from
// those the last plan saw, under this provider version's rules. The state is its own prior, as it is for the
// next plan of the same configuration, so that plan computes the same outputs and shows no change: not after
// an apply (a new-table finding such as DK602 no longer applies), not after a provider upgrade that reworded
// a finding, and not after an import or a move, whose state has no outputs yet: they come from what the
// table shows, as the plan of a configuration that describes the table as it is computes them. Diagnostics
// are the next plan's to report, not the refresh's.
func refreshDesignDocument(ctx context.Context, settings policySettings, state *shardedTableModel) {
	if state.DesignDocument.IsUnknown() {
		return
	}
	in, diags := readTableDesign(*state)
	if diags.HasError() {
		return
	}
	prior, ok := priorDocument(*state)
	if !ok {
		return
	}
	in.Prior = prior
	out, _, ok := designOutputs(ctx, settings, in, state.Enforce)
	if !ok || out.DesignDocument.IsUnknown() {
		return
	}
	state.designOutputModel = out
}

// setComputed fills the attributes only DynamoDB knows.
func setComputed(m *shardedTableModel, t *dynamo.Table) {
	m.ID = types.StringValue(t.Name)
	m.ARN = types.StringValue(t.ARN)
	m.Status = types.StringValue(t.Status)
	if m.TagsAll.IsUnknown() {
		m.TagsAll = types.MapNull(types.StringType)
		if t.Tags != nil {
			m.TagsAll = stringMap(t.Tags)
		}
	}
	// An update keeps the figures its plan took from the last refresh; a new table's are read now.
	if m.ItemCount.IsUnknown() || m.TableSizeBytes.IsUnknown() {
		m.ItemCount, m.TableSizeBytes = types.Int64PointerValue(t.ItemCount), types.Int64PointerValue(t.SizeBytes)
	}
	m.StreamARN, m.StreamLabel = types.StringNull(), types.StringNull()
	if t.Stream != nil && t.Stream.Enabled {
		m.StreamARN, m.StreamLabel = types.StringValue(t.StreamARN), types.StringValue(t.StreamLabel)
	}
}

func (r *shardedTableResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state shardedTableModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	client, diags := r.client()
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := state.Timeouts.Read(ctx, defaultReadTimeout)
	resp.Diagnostics.Append(diags...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// The identity in the state or of an import: a table of another Region or account is another table, and
	// is neither read nor removed from the state.
	want, diags := identityFrom(ctx, req.Identity)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(checkIdentityRegion(ctx, client, want)...)
	if resp.Diagnostics.HasError() {
		return
	}
	table, err := client.FindTable(ctx, state.Name.ValueString())
	if errors.Is(err, dynamo.ErrTableNotFound) {
		resp.Diagnostics.AddWarning("Table no longer exists",
			fmt.Sprintf("Table %s was not found, so it is removed from the state and the plan will create it again.", state.Name.ValueString()))
		resp.State.RemoveResource(ctx)
		// The framework wants an identity even with the state removed; a state written before identities
		// (or by a CLI without them) has none, so the name and the Region stand for it.
		if want.Name.IsNull() {
			want.Name = state.Name
			if region, err := client.Region(ctx); err == nil {
				want.Region = types.StringValue(region)
			}
		}
		resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, want)...)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Reading the DynamoDB table failed", err.Error())
		return
	}
	got, diags := identityOf(ctx, client, table)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(checkIdentityAccount(want, got)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(flattenTable(ctx, table, &state)...)
	state.ItemCount, state.TableSizeBytes = types.Int64PointerValue(table.ItemCount), types.Int64PointerValue(table.SizeBytes)
	readTags(table.Tags, defaultTagsOf(r.data), &state)
	refreshDesignDocument(ctx, policySettingsOf(r.data), &state)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, got)...)
}

func (r *shardedTableResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan shardedTableModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	client, diags := r.client()
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, defaultUpdateTimeout)
	resp.Diagnostics.Append(diags...)
	want, diags := expandTable(ctx, plan)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(refuseVectorIndexes(want)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	current, err := client.FindTable(ctx, want.Name)
	if err != nil {
		resp.Diagnostics.AddError("Reading the DynamoDB table before the update failed", err.Error())
		return
	}
	read, warnings, err := client.UpdateTable(ctx, *current, want)
	resp.Diagnostics.Append(warningDiagnostics(warnings)...)
	if err != nil {
		resp.Diagnostics.AddError("Updating the DynamoDB table failed",
			err.Error()+"\n\nChanges applied before the failure are kept; run terraform plan to see what remains.")
		return
	}
	setComputed(&plan, read)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	r.setIdentityOf(ctx, client, read, resp.Identity, &resp.Diagnostics)
}

func (r *shardedTableResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state shardedTableModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	client, diags := r.client()
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := state.Timeouts.Delete(ctx, defaultDeleteTimeout)
	resp.Diagnostics.Append(diags...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := client.DeleteTable(ctx, state.Name.ValueString())
	if errors.Is(err, dynamo.ErrDeletionProtected) {
		resp.Diagnostics.AddError("Table has deletion protection",
			fmt.Sprintf("Table %s has deletion protection on, so it was not deleted. Set deletion_protection = false and apply, then destroy.", state.Name.ValueString()))
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Deleting the DynamoDB table failed", err.Error())
	}
}

// ImportState imports a table by name, or by identity (an import block's identity = { name = ..., and
// optionally account_id and region }). Design metadata (templates, segments, sharding, traffic, GSI
// cardinalities) is not stored in DynamoDB and comes from the configuration on the next plan. The Read that
// follows checks the identity's account against the table's ARN; a Region is checked here, before any call.
func (r *shardedTableResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	name := strings.TrimSpace(req.ID)
	if req.ID == "" && req.Identity != nil && !req.Identity.Raw.IsNull() {
		id, diags := identityFrom(ctx, req.Identity)
		resp.Diagnostics.Append(diags...)
		if client, dg := r.client(); !dg.HasError() && !diags.HasError() {
			resp.Diagnostics.Append(checkIdentityRegion(ctx, client, id)...)
		}
		if resp.Diagnostics.HasError() {
			return
		}
		name = strings.TrimSpace(id.Name.ValueString())
	}
	if name == "" {
		resp.Diagnostics.AddError("Invalid import ID", "Import a dynamokeys_sharded_table by its table name, e.g. terraform import dynamokeys_sharded_table.events events, "+
			"or with an import block's identity = { name = \"events\" }.")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), name)...)
}

// carryMigrationReach gives the prior state's document the furthest migration phase its recorded
// design_document reached: analysed again from the state's attributes, it knows only its current phase, and
// a rollback is judged against the furthest phase (a phase before read_new after done reads deleted items).
func carryMigrationReach(prior *model.Document, recorded types.String) {
	if prior == nil || prior.Derived.Migration == nil || recorded.IsNull() || recorded.IsUnknown() {
		return
	}
	js, err := model.DecodeAttribute(recorded.ValueString())
	if err != nil {
		return
	}
	var doc struct {
		Derived struct {
			Migration *model.MigrationDoc `json:"migration"`
		} `json:"derived"`
	}
	if json.Unmarshal(js, &doc) != nil || doc.Derived.Migration == nil {
		return
	}
	if m := prior.Derived.Migration; migration.SameLayout(doc.Derived.Migration.From, m.From) {
		m.ReachedPhaseIndex = max(m.ReachedPhaseIndex, doc.Derived.Migration.ReachedPhaseIndex)
	}
}
