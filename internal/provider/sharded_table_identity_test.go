package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	dtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/dynamo"
)

func identityValue(t *testing.T, accountID, region, name any) *tfprotov6.ResourceIdentityData {
	t.Helper()
	v := func(s any) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	dv, err := tfprotov6.NewDynamicValue(identityType, tftypes.NewValue(identityType, map[string]tftypes.Value{
		"account_id": v(accountID), "region": v(region), "name": v(name)}))
	if err != nil {
		t.Fatal(err)
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: &dv}
}

// TestImportByIdentity sends what Terraform ≥ 1.12 and OpenTofu ≥ 1.12 send for an import block with an
// identity (ImportResourceState, then ReadResource of the imported state) to the provider server, against
// a table on dynoxide: the name alone imports it and the read fills in the account (from the table's ARN)
// and the provider's Region; an identity of another Region is refused before any call, one of another
// account after the table's ARN says whose it is. Neither records any state.
func TestImportByIdentity(t *testing.T) {
	endpoint := testAccDynoxide(t)
	t.Parallel()
	name := "identity-orders"
	api := testAPI(t, endpoint)
	s := aws.String
	if _, err := api.CreateTable(t.Context(), &dynamodb.CreateTableInput{TableName: s(name), BillingMode: dtypes.BillingModePayPerRequest,
		AttributeDefinitions: []dtypes.AttributeDefinition{{AttributeName: s("pk"), AttributeType: dtypes.ScalarAttributeTypeS}},
		KeySchema:            []dtypes.KeySchemaElement{{AttributeName: s("pk"), KeyType: dtypes.KeyTypeHash}}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = api.DeleteTable(context.WithoutCancel(t.Context()), &dynamodb.DeleteTableInput{TableName: s(name)})
	})
	described, err := api.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: s(name)})
	if err != nil {
		t.Fatal(err)
	}
	arn, err := dynamo.ParseTableARN(aws.ToString(described.Table.TableArn))
	if err != nil {
		t.Fatal(err)
	}
	server, schemas := listServer(t, endpoint)
	resourceType := schemas.ResourceSchemas["dynamokeys_sharded_table"].ValueType()

	// importAndRead returns the diagnostics of the import, or else of the read that follows it, and the
	// identity and the state the read returned.
	importAndRead := func(t *testing.T, identity *tfprotov6.ResourceIdentityData) ([]string, map[string]any, map[string]any) {
		t.Helper()
		imported, err := server.ImportResourceState(t.Context(), &tfprotov6.ImportResourceStateRequest{TypeName: "dynamokeys_sharded_table", Identity: identity})
		if err != nil {
			t.Fatal(err)
		}
		if errs := diagnosticTexts(imported.Diagnostics, tfprotov6.DiagnosticSeverityError); len(errs) > 0 {
			return errs, nil, nil
		}
		if len(imported.ImportedResources) != 1 {
			t.Fatalf("imported %d resources", len(imported.ImportedResources))
		}
		r := imported.ImportedResources[0]
		read, err := server.ReadResource(t.Context(), &tfprotov6.ReadResourceRequest{TypeName: "dynamokeys_sharded_table",
			CurrentState: r.State, CurrentIdentity: r.Identity, Private: r.Private})
		if err != nil {
			t.Fatal(err)
		}
		if errs := diagnosticTexts(read.Diagnostics, tfprotov6.DiagnosticSeverityError); len(errs) > 0 {
			// An error discards the read (Terraform records nothing); the state returned is the one sent,
			// with nothing of the other table read into it.
			if read.NewState != nil {
				if state := decodeDynamic(t, read.NewState, resourceType); state["arn"] != nil {
					t.Errorf("the refused read recorded the table: arn %v", state["arn"])
				}
			}
			return errs, nil, nil
		}
		return nil, decodeDynamic(t, read.NewIdentity.IdentityData, identityType), decodeDynamic(t, read.NewState, resourceType)
	}

	t.Run("name only", func(t *testing.T) {
		t.Parallel()
		errs, identity, state := importAndRead(t, identityValue(t, nil, nil, name))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if identity["account_id"] != arn.Account || identity["region"] != "us-east-1" || identity["name"] != name {
			t.Errorf("identity %v; want account %s (the ARN's), us-east-1, %s", identity, arn.Account, name)
		}
		if state["name"] != name || state["arn"] != aws.ToString(described.Table.TableArn) {
			t.Errorf("state %v", state)
		}
	})
	t.Run("full identity", func(t *testing.T) {
		t.Parallel()
		if errs, identity, _ := importAndRead(t, identityValue(t, arn.Account, "us-east-1", name)); len(errs) > 0 || identity["name"] != name {
			t.Errorf("errors %v, identity %v", errs, identity)
		}
	})
	t.Run("another Region", func(t *testing.T) {
		t.Parallel()
		errs, _, _ := importAndRead(t, identityValue(t, nil, "eu-west-1", name))
		if len(errs) != 1 || !strings.Contains(errs[0], "Table identity in another Region") || !strings.Contains(errs[0], `region = "eu-west-1"`) {
			t.Errorf("errors %v; want one naming the Region", errs)
		}
	})
	t.Run("another account", func(t *testing.T) {
		t.Parallel()
		errs, _, _ := importAndRead(t, identityValue(t, "123456789012", nil, name))
		if len(errs) != 1 || !strings.Contains(errs[0], "Table identity in another account") || !strings.Contains(errs[0], "account "+arn.Account) {
			t.Errorf("errors %v; want one naming both accounts", errs)
		}
	})
	t.Run("no name", func(t *testing.T) {
		t.Parallel()
		errs, _, _ := importAndRead(t, identityValue(t, arn.Account, nil, nil))
		if len(errs) != 1 || !strings.Contains(errs[0], "identity = { name") {
			t.Errorf("errors %v; want one saying the name is needed", errs)
		}
	})
}
