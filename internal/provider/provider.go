// Package provider is the Terraform glue of dynamokeys: schemas, models ⇄ domain types, diagnostics.
package provider

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/policy"
)

// DefaultEvalTimeout bounds one policy evaluation when the provider does not set policy.eval_timeout.
const DefaultEvalTimeout = 2 * time.Second

var (
	_ provider.Provider                  = (*dynamokeysProvider)(nil)
	_ provider.ProviderWithFunctions     = (*dynamokeysProvider)(nil)
	_ provider.ProviderWithListResources = (*dynamokeysProvider)(nil)
)

// New returns the provider factory for main and the tests.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &dynamokeysProvider{version: version} }
}

type dynamokeysProvider struct {
	version string
}

// providerModel is the provider block: AWS client settings and the policy settings. No attribute is
// required; the AWS client is built lazily.
type providerModel struct {
	Region             types.String `tfsdk:"region"`
	Endpoint           types.String `tfsdk:"endpoint"`
	CloudWatchEndpoint types.String `tfsdk:"cloudwatch_endpoint"`
	Profile            types.String `tfsdk:"profile"`
	AccessKey          types.String `tfsdk:"access_key"`
	SecretKey          types.String `tfsdk:"secret_key"`
	MaxRetries         types.Int64  `tfsdk:"max_retries"`
	RequestTimeout     types.String `tfsdk:"request_timeout"`
	Policy             *policyModel `tfsdk:"policy"`

	// Tags and credentials shared by every resource.
	DefaultTags *defaultTagsModel `tfsdk:"default_tags"`
	AssumeRole  *assumeRoleModel  `tfsdk:"assume_role"`
}

type policyModel struct {
	Enforce       types.Bool   `tfsdk:"enforce"`
	DisabledRules types.List   `tfsdk:"disabled_rules"`
	PolicyDirs    types.List   `tfsdk:"policy_dirs"`
	EvalTimeout   types.String `tfsdk:"eval_timeout"`
}

// providerData is what Configure hands to data sources and resources.
type providerData struct {
	dynamo *dynamo.Client
	policy policySettings

	defaultTags defaultTags
}

// policySettings are the provider-wide policy options.
type policySettings struct {
	enforce       bool
	disabledRules map[string]bool
	evalTimeout   time.Duration
	evaluator     policy.Evaluator
	// providerVersion is the provider's version string, recorded in each design document.
	providerVersion string
	// pricingRegion is the provider's region (or AWS_REGION, AWS_DEFAULT_REGION), where designs are priced
	// unless their pricing says otherwise.
	pricingRegion string
}

func (p *dynamokeysProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "dynamokeys"
	resp.Version = p.version
}

func (p *dynamokeysProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "The dynamokeys provider computes DynamoDB partition-key designs (capacity units, shard counts, " +
			"shard routing) and enforces key-design policies at plan time. No attribute is required: the data source " +
			"and the functions work offline, and the AWS client is only built when a table is managed.",
		Attributes: map[string]schema.Attribute{
			"region": schema.StringAttribute{
				Optional:    true,
				Description: "AWS region of the managed tables. Defaults to AWS_REGION or the region of the AWS profile.",
			},
			"endpoint": schema.StringAttribute{
				Optional: true,
				Description: "Absolute http(s) URL of a DynamoDB-API endpoint, e.g. a local server. Defaults to " +
					"AWS_ENDPOINT_URL_DYNAMODB, then AWS_ENDPOINT_URL, then the regional AWS endpoint.",
				Validators: []validator.String{absoluteHTTPURL()},
			},
			"cloudwatch_endpoint": schema.StringAttribute{
				Optional: true,
				Description: "Absolute http(s) URL of the CloudWatch endpoint that `dynamokeys_observed_traffic` reads live metrics and " +
					"Contributor Insights reports from, e.g. a local emulator. Defaults to AWS_ENDPOINT_URL_CLOUDWATCH, then " +
					"AWS_ENDPOINT_URL, then the regional AWS endpoint.",
				Validators: []validator.String{absoluteHTTPURL()},
			},
			"profile": schema.StringAttribute{
				Optional:    true,
				Description: "Named profile of the shared AWS config and credentials files. Defaults to AWS_PROFILE.",
			},
			"access_key": schema.StringAttribute{
				Optional:    true,
				Description: "AWS access key ID. Requires secret_key. Defaults to the standard AWS credential chain.",
				Validators:  []validator.String{stringvalidator.AlsoRequires(path.MatchRoot("secret_key"))},
			},
			"secret_key": schema.StringAttribute{
				Optional:    true,
				Sensitive:   true,
				Description: "AWS secret access key. Requires access_key.",
				Validators:  []validator.String{stringvalidator.AlsoRequires(path.MatchRoot("access_key"))},
			},
			"max_retries": schema.Int64Attribute{
				Optional:    true,
				Description: "Maximum number of retries of a throttled or failed AWS call by the SDK's standard retryer. Defaults to 10; 0 disables retries.",
				Validators:  []validator.Int64{int64validator.AtLeast(0)},
			},
			"request_timeout": schema.StringAttribute{
				Optional: true,
				Description: "Time limit of one HTTP attempt of a DynamoDB API call, as a Go duration such as \"30s\". An attempt " +
					"that runs out is retried like any transport error, up to max_retries times. Defaults to 30s. Waits for a " +
					"table to change state are bounded by the resource's timeouts instead.",
				Validators: []validator.String{positiveDuration()},
			},
			"default_tags": defaultTagsAttribute(),
			"assume_role":  assumeRoleAttribute(),
			"policy": schema.SingleNestedAttribute{
				Optional:    true,
				Description: "Settings of the plan-time key-design policies.",
				Attributes: map[string]schema.Attribute{
					"enforce": schema.BoolAttribute{
						Optional: true,
						Description: "Provider-wide default of `enforce`: when true (the default), error findings fail the plan; " +
							"when false, every finding is a warning.",
					},
					"disabled_rules": schema.ListAttribute{
						Optional:    true,
						ElementType: types.StringType,
						Description: "Rule ids whose findings are dropped, e.g. [\"DK305\"].",
					},
					"policy_dirs": schema.ListAttribute{
						Optional:    true,
						ElementType: types.StringType,
						Description: "Directories of extra Rego policies (packages dynamokeys.custom.*), loaded once when the provider is configured. " +
							"A relative path is relative to the directory Terraform runs in (the -chdir directory, if given), not to the module that configures the provider.",
					},
					"eval_timeout": schema.StringAttribute{
						Optional:    true,
						Description: "Time limit of one policy evaluation, as a Go duration such as \"2s\" or \"500ms\". Defaults to 2s.",
						Validators:  []validator.String{positiveDuration()},
					},
				},
			},
		},
	}
}

func (p *dynamokeysProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	dcfg := dynamo.Config{
		Region:             cfg.Region.ValueString(),
		Endpoint:           cfg.Endpoint.ValueString(),
		CloudWatchEndpoint: cfg.CloudWatchEndpoint.ValueString(),
		Profile:            cfg.Profile.ValueString(),
		AccessKey:          cfg.AccessKey.ValueString(),
		SecretKey:          cfg.SecretKey.ValueString(),

		AssumeRole: expandAssumeRole(cfg.AssumeRole),
	}
	if d, err := time.ParseDuration(cfg.RequestTimeout.ValueString()); err == nil && d > 0 {
		dcfg.RequestTimeout = d
	}
	if !cfg.MaxRetries.IsNull() && !cfg.MaxRetries.IsUnknown() {
		n := int(cfg.MaxRetries.ValueInt64())
		dcfg.MaxRetries = &n
	}
	data := &providerData{
		dynamo: dynamo.NewClient(dcfg),
		policy: defaultPolicySettings(),
	}
	var diags diag.Diagnostics
	data.defaultTags, diags = expandDefaultTags(ctx, cfg.DefaultTags)
	resp.Diagnostics.Append(diags...)
	data.policy.providerVersion = p.version
	data.policy.pricingRegion = pricingRegion(cfg.Region.ValueString(), os.Getenv)
	var policyDirs []string
	if pm := cfg.Policy; pm != nil {
		if !pm.Enforce.IsNull() && !pm.Enforce.IsUnknown() {
			data.policy.enforce = pm.Enforce.ValueBool()
		}
		if d, err := time.ParseDuration(pm.EvalTimeout.ValueString()); err == nil && d > 0 {
			data.policy.evalTimeout = d
		}
		var disabled []string
		resp.Diagnostics.Append(pm.DisabledRules.ElementsAs(ctx, &disabled, false)...)
		for _, id := range disabled {
			data.policy.disabledRules[id] = true
		}
		resp.Diagnostics.Append(pm.PolicyDirs.ElementsAs(ctx, &policyDirs, false)...)
	}
	engine, diags := loadPolicyEngine(ctx, policyDirs)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	data.policy.evaluator = engine
	for _, i := range engine.EmptyPolicyDirs() {
		resp.Diagnostics.AddAttributeWarning(path.Root("policy").AtName("policy_dirs").AtListIndex(i), "No policies in policy_dirs entry",
			fmt.Sprintf("policy.policy_dirs[%d] = %q holds no .rego file (test files aside), so it adds no rule. Check the path: it is "+
				"relative to the directory terraform runs in.", i, policyDirs[i]))
	}
	if len(policyDirs) == 0 && allRulesDisabled(engine, data.policy.disabledRules) {
		// Nothing could survive the filter: skip the evaluation altogether.
		data.policy.evaluator = nil
	}
	for id := range data.policy.disabledRules {
		if !engine.HasRule(id) {
			resp.Diagnostics.AddAttributeWarning(path.Root("policy").AtName("disabled_rules"), "Unknown rule id in disabled_rules",
				fmt.Sprintf("%q is not a dynamokeys rule id, so disabling it has no effect. Rule ids look like DK303; see the rule reference guide.", id))
		}
	}
	resp.DataSourceData = data
	resp.ResourceData = data
	resp.ListResourceData = data
}

func allRulesDisabled(engine *policy.Engine, disabled map[string]bool) bool {
	for _, r := range engine.Catalogue() {
		if !disabled[r.ID] {
			return false
		}
	}
	return true
}

// loadPolicyEngine returns the built-in engine (compiled once per process) or, with policy_dirs, one that
// also holds the user policies, compiled in the same sandbox.
func loadPolicyEngine(ctx context.Context, dirs []string) (*policy.Engine, diag.Diagnostics) {
	var diags diag.Diagnostics
	if len(dirs) == 0 {
		engine, err := policy.Builtin()
		if err != nil {
			diags.AddError("Built-in policies failed to compile", fmt.Sprintf("%v. Please report this issue.", err))
		}
		return engine, diags
	}
	engine, err := policy.NewEngine(ctx, policy.Options{PolicyDirs: dirs})
	if err != nil {
		diags.AddAttributeError(path.Root("policy").AtName("policy_dirs"), "Policies in policy_dirs cannot be loaded",
			fmt.Sprintf("%v\n\nUser policies are Rego v1 modules in packages dynamokeys.custom.*, and may not call network, time, "+
				"randomness or runtime built-ins (http.send, net.lookup_ip_addr, time.now_ns, rand.intn, opa.runtime, ...).", err))
	}
	return engine, diags
}

func (p *dynamokeysProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{NewShardedTableResource}
}

func (p *dynamokeysProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{NewShardedTableList}
}

func (p *dynamokeysProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{NewKeydesignDataSource, NewObservedTrafficDataSource}
}

func (p *dynamokeysProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{NewShardFunction, NewShardSuffixFunction, NewRenderKeyFunction, NewShardKeysFunction, NewDecodeDesignDocumentFunction,
		NewFromMCPSchemaFunction, NewFromWorkbenchModelFunction, NewFromOneTableSchemaFunction}
}

// pricingRegion is the region designs are priced in unless their pricing says: the provider's region, else
// AWS_REGION, else AWS_DEFAULT_REGION, the environment variables the AWS SDK reads, in its order. It reads
// no shared config file and makes no call, so offline data sources keep working; a profile's region (read
// by the SDK for the AWS calls) does not reach pricing: set region or pricing.region.
func pricingRegion(configured string, getenv func(string) string) string {
	return cmp.Or(configured, getenv("AWS_REGION"), getenv("AWS_DEFAULT_REGION"))
}
