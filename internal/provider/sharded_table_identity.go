package provider

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
)

var _ resource.ResourceWithIdentity = (*shardedTableResource)(nil)

// tableIdentity is the resource identity of a table (Terraform ≥ 1.12, OpenTofu ≥ 1.12): the account, the
// Region and the name, which together name one table, as the AWS provider's aws_dynamodb_table identity does.
// An import needs only the name: the account and the Region default to the provider's, and when given they
// must be the provider's, so that an import never reads another table of the same name.
type tableIdentity struct {
	AccountID types.String `tfsdk:"account_id"`
	Region    types.String `tfsdk:"region"`
	Name      types.String `tfsdk:"name"`
}

func (r *shardedTableResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"account_id": identityschema.StringAttribute{OptionalForImport: true,
				Description: "The AWS account that owns the table (the account in its ARN). Defaults to the account of the provider's credentials; another account is an error."},
			"region": identityschema.StringAttribute{OptionalForImport: true,
				Description: "The Region of the table. Defaults to the provider's region; another Region is an error (configure a provider for that Region)."},
			"name": identityschema.StringAttribute{RequiredForImport: true, Description: "The table name."},
		},
	}
}

// identityOf is the identity of a table read through client: the account from its ARN (what DynamoDB itself
// says; local servers report one too), the Region the client calls (a local server's ARN may name a pseudo
// Region such as ddblocal), and the name.
func identityOf(ctx context.Context, client *dynamo.Client, t *dynamo.Table) (tableIdentity, diag.Diagnostics) {
	var diags diag.Diagnostics
	region, err := client.Region(ctx)
	if err != nil {
		diags.AddError("Reading the provider's region failed", err.Error())
		return tableIdentity{}, diags
	}
	arn, err := dynamo.ParseTableARN(t.ARN)
	if err != nil {
		diags.AddError("Unreadable table ARN", fmt.Sprintf("DynamoDB reported table %s with ARN %q, which names no account: %v.", t.Name, t.ARN, err))
		return tableIdentity{}, diags
	}
	return tableIdentity{AccountID: types.StringValue(arn.Account), Region: types.StringValue(region), Name: types.StringValue(t.Name)}, diags
}

// checkIdentityRegion refuses an identity of another Region than the provider's, before any call: the table
// of that name in the provider's Region is another table.
func checkIdentityRegion(ctx context.Context, client *dynamo.Client, want tableIdentity) diag.Diagnostics {
	var diags diag.Diagnostics
	if want.Region.IsNull() || want.Region.IsUnknown() {
		return diags
	}
	region, err := client.Region(ctx)
	if err != nil {
		diags.AddError("Reading the provider's region failed", err.Error())
		return diags
	}
	if want.Region.ValueString() != region {
		// No attribute path: region is the identity's, not an attribute of the resource or its configuration.
		diags.AddError("Table identity in another Region",
			fmt.Sprintf("The identity of table %s names Region %s, but this provider calls %s: the table of that name here is another table, so nothing was read. "+
				"Use a provider configured with region = %q (an aliased provider block and provider = dynamokeys.<alias> on the resource), or leave region out of the identity.",
				want.Name.ValueString(), want.Region.ValueString(), region, want.Region.ValueString()))
	}
	return diags
}

// checkIdentityAccount refuses a table read in another account than the identity names: the credentials are
// another account's, whose table of that name is another table.
func checkIdentityAccount(want, got tableIdentity) diag.Diagnostics {
	var diags diag.Diagnostics
	if want.AccountID.IsNull() || want.AccountID.IsUnknown() || want.AccountID.Equal(got.AccountID) {
		return diags
	}
	diags.AddError("Table identity in another account",
		fmt.Sprintf("The identity of table %s names account %s, but the provider's credentials read it in account %s: that is another table, so it is not imported or refreshed. "+
			"Use credentials (profile, assume_role) of account %s, or leave account_id out of the identity.",
			want.Name.ValueString(), want.AccountID.ValueString(), got.AccountID.ValueString(), want.AccountID.ValueString()))
	return diags
}

// identityFrom reads the identity a request carries; nil or all null (a state written before identities, an
// import by ID) is the zero identity.
func identityFrom(ctx context.Context, id *tfsdk.ResourceIdentity) (tableIdentity, diag.Diagnostics) {
	out := tableIdentity{AccountID: types.StringNull(), Region: types.StringNull(), Name: types.StringNull()}
	if id == nil || id.Raw.IsNull() {
		return out, nil
	}
	diags := id.Get(ctx, &out)
	return out, diags
}

// setIdentity writes the identity into a response's identity, which the framework gives only when the CLI
// knows identities.
func setIdentity(ctx context.Context, into *tfsdk.ResourceIdentity, id tableIdentity) diag.Diagnostics {
	if into == nil {
		return nil
	}
	return into.Set(ctx, id)
}

// movedIdentity is the identity of a table moved from aws_dynamodb_table, without any call (the provider is
// not configured for a move): the AWS provider's own identity when it sent one, else its state's region
// attribute (AWS provider v6) and the ARN's account and Region.
func movedIdentity(req resource.MoveStateRequest, raw []byte) (tableIdentity, bool) {
	var src struct {
		Name   string `json:"name"`
		ARN    string `json:"arn"`
		Region string `json:"region"`
	}
	if json.Unmarshal(raw, &src) != nil || src.Name == "" {
		return tableIdentity{}, false
	}
	var source struct {
		AccountID string `json:"account_id"`
		Region    string `json:"region"`
	}
	if req.SourceIdentity != nil && req.SourceIdentity.JSON != nil {
		_ = json.Unmarshal(req.SourceIdentity.JSON, &source)
	}
	arn, err := dynamo.ParseTableARN(src.ARN)
	account, region := cmp.Or(source.AccountID, arn.Account), cmp.Or(source.Region, src.Region, arn.Region)
	if (err != nil && source.AccountID == "") || region == "" {
		return tableIdentity{}, false // the refresh after the move sets it from DynamoDB
	}
	return tableIdentity{AccountID: types.StringValue(account), Region: types.StringValue(region), Name: types.StringValue(src.Name)}, true
}
