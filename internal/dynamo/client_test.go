package dynamo

import (
	"errors"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil/localddb"
)

func TestMain(m *testing.M) {
	_ = os.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	undo := localddb.StopAllOnInterrupt()
	code := m.Run()
	undo()
	localddb.StopAll()
	os.Exit(code)
}

// sharedDynoxide is one dynoxide for the package's tests (tables named per test), started by the first test
// that asks; TestMain stops it.
var sharedDynoxide = sync.OnceValues(func() (*localddb.Server, error) { return localddb.Start(localddb.Dynoxide, localddb.Options{}) })

// localEndpoint is the endpoint of the package's shared dynoxide; it skips the test without TF_ACC.
func localEndpoint(t *testing.T) string {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("needs a local DynamoDB server: set TF_ACC=1 (make testacc)")
	}
	s, err := sharedDynoxide()
	if err != nil {
		t.Fatal(err)
	}
	return s.Endpoint
}

func localClient(t *testing.T) *Client {
	t.Helper()
	return NewClient(Config{Region: "us-east-1", Endpoint: localEndpoint(t), AccessKey: "test", SecretKey: "test"})
}

func TestClientReachesEndpoint(t *testing.T) {
	ctx := t.Context()
	c := localClient(t)
	api, err := c.API(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"alpha", "beta"} {
		_, err := api.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName:            aws.String(name),
			BillingMode:          types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		})
		if err != nil {
			t.Fatalf("creating %s: %v", name, err)
		}
	}
	out, err := api.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(out.TableNames, "alpha") || !slices.Contains(out.TableNames, "beta") {
		t.Errorf("ListTables = %v, want alpha and beta", out.TableNames)
	}
}

// TestClientIsLazy shows that creating a client touches nothing: an unreachable endpoint only fails on
// the first call.
func TestClientIsLazy(t *testing.T) {
	c := NewClient(Config{Region: "us-east-1", Endpoint: "http://127.0.0.1:1", AccessKey: "a", SecretKey: "b", MaxRetries: new(int)})
	if c.api != nil {
		t.Fatal("the SDK client was built eagerly")
	}
	api, err := c.API(t.Context())
	if err != nil {
		t.Fatalf("building the SDK client must not contact the endpoint: %v", err)
	}
	if _, err := api.ListTables(t.Context(), &dynamodb.ListTablesInput{}); err == nil {
		t.Fatal("a call to a closed port must fail")
	}
}

func TestClientWithoutRegionSaysWhatToSet(t *testing.T) {
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
	_, err := NewClient(Config{AccessKey: "a", SecretKey: "b"}).API(t.Context())
	if !errors.Is(err, ErrNoRegion) {
		t.Errorf("err = %v, want ErrNoRegion", err)
	}
}

func TestClientHonoursEndpointEnvironment(t *testing.T) {
	endpoint := localEndpoint(t)
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", endpoint)
	t.Setenv("AWS_REGION", "eu-west-1")
	t.Setenv("AWS_ACCESS_KEY_ID", "env")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "env")
	api, err := NewClient(Config{}).API(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := api.ListTables(t.Context(), &dynamodb.ListTablesInput{}); err != nil {
		t.Errorf("a client configured only from the environment cannot reach %s: %v", endpoint, err)
	}
}
