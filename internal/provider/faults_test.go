package provider

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil/localddb"
)

// The bounds these tests check are behaviour, not speed: each is far below what the fault would cost (a
// create retried until its timeout, a call without a request timeout that waits forever) and far above what a
// busy machine needs; testutil.Scaled stretches it further where a slow CI asks for it.
const faultBound = 3 * time.Minute

// clashCreateTimeout is the create timeout of the name-clash test: a create that retried the clash would
// run until it.
const clashCreateTimeout = 10 * time.Minute

// TestAccNameClashNeverAdoptsTheOtherTable: a table of the same name exists already (another configuration's).
// The create fails at once with a clear error, records nothing, and the other table is untouched — it would
// be destroyed at the end of the test if it had been recorded, since this configuration turns deletion
// protection off.
func TestAccNameClashNeverAdoptsTheOtherTable(t *testing.T) {
	endpoint := testAccDynoxide(t)
	api := testAPI(t, endpoint)
	name := "clash-orders"
	out, err := api.CreateTable(t.Context(), &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		t.Fatal(err)
	}
	otherARN := aws.ToString(out.TableDescription.TableArn)
	var start time.Time // set when the step starts: a parallel test first waits for the serial ones
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if elapsed := time.Since(start); elapsed >= clashCreateTimeout {
				t.Errorf("the clash took %v to report; it must fail at once, not retry until the %v create timeout", elapsed, clashCreateTimeout)
			}
			got, err := api.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
			if err != nil {
				return fmt.Errorf("the other table is gone: %w", err)
			}
			if aws.ToString(got.Table.TableArn) != otherARN || aws.ToString(got.Table.KeySchema[0].AttributeName) != "id" {
				return fmt.Errorf("the other table changed: %+v", got.Table)
			}
			return nil
		},
		Steps: []resource.TestStep{{
			PreConfig:   func() { start = time.Now() },
			Config:      smallTable(endpoint, name, `deletion_protection = false`+"\n"+fmt.Sprintf(`timeouts = { create = %q }`, clashCreateTimeout)),
			ExpectError: expectError(`Table name already in use.*a table named clash-orders already exists in this account and region.*import it`),
		}},
	})
}

// silentEndpoint accepts connections and never answers; it stops with the test.
func silentEndpoint(t *testing.T) string {
	t.Helper()
	endpoint, _ := silentEndpointCalled(t)
	return endpoint
}

// silentEndpointCalled is silentEndpoint, and a channel closed when the first request connects: a test that
// must act while a call is in flight waits for it.
func silentEndpointCalled(t *testing.T) (string, <-chan struct{}) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	called := make(chan struct{})
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			if len(conns) == 0 {
				close(called)
			}
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return "http://" + l.Addr().String(), called
}

func silentProviderBlock(endpoint, requestTimeout string) string {
	return providerBlockWith(endpoint, fmt.Sprintf("max_retries = 1\n  request_timeout = %q", requestTimeout))
}

// TestSilentEndpointBoundsApply: the create ends with its timeout although the endpoint never answers, and
// nothing is recorded (the create cannot have been made). The request timeout is far longer than the create
// timeout, so only the create timeout can have ended the apply within the request timeout.
func TestSilentEndpointBoundsApply(t *testing.T) {
	t.Parallel() // mostly waiting on the silent endpoint
	endpoint := silentEndpoint(t)
	const requestTimeout = 10 * time.Minute
	start := time.Now()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: silentProviderBlock(endpoint, requestTimeout.String()) + `
resource "dynamokeys_sharded_table" "t" {
  name          = "silent-orders"
  partition_key = { name = "pk" }
  timeouts      = { create = "3s" }
}`,
			ExpectError: expectError(`Creating the DynamoDB table failed.*No table was created`),
		}},
	})
	if elapsed := time.Since(start); elapsed >= requestTimeout {
		t.Errorf("apply against a silent endpoint took %v; the 3s create timeout must end it before the %v request timeout", elapsed, requestTimeout)
	}
}

// TestAccSilentEndpointBoundsRefresh: a table in state, then its endpoint goes silent: the refresh of the
// next plan fails within request_timeout × attempts instead of waiting forever.
func TestAccSilentEndpointBoundsRefresh(t *testing.T) {
	endpoint := testAccDynoxide(t)
	silent := silentEndpoint(t)
	name := "silent-refresh"
	table := func(provider string) string {
		return provider + fmt.Sprintf(`
resource "dynamokeys_sharded_table" "t" {
  name                = %q
  partition_key       = { name = "pk" }
  deletion_protection = false
}`, name)
	}
	var refreshStart time.Time
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: table(providerBlock(endpoint))},
			{
				PreConfig:   func() { refreshStart = time.Now() },
				Config:      table(silentProviderBlock(silent, "1s")),
				ExpectError: expectError(`Reading the DynamoDB table failed`),
			},
			{
				PreConfig: func() {
					if refreshTook, bound := time.Since(refreshStart), testutil.Scaled(faultBound); refreshTook > bound {
						t.Errorf("refresh against a silent endpoint took %v (bound %v, %s raises it); request_timeout 1s with 1 retry must end it", refreshTook, bound, testutil.WaitScaleEnv)
					}
				},
				Config: table(providerBlock(endpoint)),
			},
		},
	})
}

// TestAccServerKilledAndRestartedConverges: the server dies while a change is applied (the apply fails, with
// nothing half-recorded), comes back on the same data, and the same configuration applied again converges to
// an empty plan. dynoxide makes tables ACTIVE at once, so the kill lands at the start of the apply step.
func TestAccServerKilledAndRestartedConverges(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make testacc) to run it against a local DynamoDB server")
	}
	dbPath := filepath.Join(t.TempDir(), "tables.db")
	server, err := localddb.Start(localddb.Dynoxide, localddb.Options{DBPath: dbPath})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = server.Stop() })
	u, err := url.Parse(server.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}
	name := "killed-orders"
	gsis := func(names ...string) string {
		var b strings.Builder
		b.WriteString("deletion_protection = false\n  global_secondary_indexes = {\n")
		for _, n := range names {
			fmt.Fprintf(&b, "    %s = { partition_key = [{ name = %q }] }\n", n, n+"_key")
		}
		b.WriteString("  }")
		return b.String()
	}
	noRetries := strings.Replace(smallTable(server.Endpoint, name, gsis("by_region", "by_status", "by_day")),
		providerBlock(server.Endpoint), providerBlockWith(server.Endpoint, "max_retries = 0"), 1)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: smallTable(server.Endpoint, name, gsis("by_region"))},
			{
				PreConfig:   func() { _ = server.Stop() },
				Config:      noRetries,
				ExpectError: expectError(`connection refused`),
			},
			{
				PreConfig: func() {
					server, err = localddb.Start(localddb.Dynoxide, localddb.Options{DBPath: dbPath, Port: port})
					if err != nil {
						t.Fatalf("restarting dynoxide on the same data: %v", err)
					}
				},
				Config: smallTable(server.Endpoint, name, gsis("by_region", "by_status", "by_day")),
				Check:  checkTable(testAPI(t, server.Endpoint), name, []string{"by_day", "by_region", "by_status"}, map[string]string{}, "PAY_PER_REQUEST"),
			},
			{
				Config:   smallTable(server.Endpoint, name, gsis("by_region", "by_status", "by_day")),
				PlanOnly: true,
			},
		},
	})
}
