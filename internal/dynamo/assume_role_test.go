package dynamo

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// isolateFromAWSFiles keeps the developer's AWS configuration out of a test.
func isolateFromAWSFiles(t *testing.T) {
	t.Helper()
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
}

// TestAssumeRoleConfigUsesTheSTSProvider: with assume_role, the configuration's credentials are the SDK's
// STS assume-role provider behind a credentials cache; without it, they are not. Nothing is called.
func TestAssumeRoleConfigUsesTheSTSProvider(t *testing.T) {
	isolateFromAWSFiles(t)
	role := &AssumeRole{RoleARN: "arn:aws:iam::123456789012:role/deployer", SessionName: "terraform", ExternalID: "ext-42", Duration: time.Hour}
	cfg, err := NewClient(Config{Region: "us-east-1", AccessKey: "base", SecretKey: "base", AssumeRole: role}).loadConfig(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, cached := cfg.Credentials.(*aws.CredentialsCache); !cached {
		t.Errorf("credentials are %T, want an *aws.CredentialsCache", cfg.Credentials)
	}
	if !aws.IsCredentialsProvider(cfg.Credentials, (*stscreds.AssumeRoleProvider)(nil)) {
		t.Errorf("credentials %T do not wrap a stscreds.AssumeRoleProvider", cfg.Credentials)
	}
	var o stscreds.AssumeRoleOptions
	assumeRoleOptions(*role)(&o)
	if o.RoleSessionName != "terraform" || aws.ToString(o.ExternalID) != "ext-42" || o.Duration != time.Hour {
		t.Errorf("options = %+v", o)
	}

	plain, err := NewClient(Config{Region: "us-east-1", AccessKey: "base", SecretKey: "base"}).loadConfig(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if aws.IsCredentialsProvider(plain.Credentials, (*stscreds.AssumeRoleProvider)(nil)) {
		t.Error("without assume_role the credentials must not assume a role")
	}
	if _, err := NewClient(Config{Region: "us-east-1", AssumeRole: &AssumeRole{}}).loadConfig(t.Context()); !errors.Is(err, ErrAssumeRoleWithoutARN) {
		t.Errorf("an assume_role without a role ARN: err = %v, want ErrAssumeRoleWithoutARN", err)
	}
}

// TestAssumeRoleSignsWithTheRolesCredentials runs the whole path against two local HTTP servers standing
// in for STS and DynamoDB (no real STS is called): the client calls AssumeRole once, lazily, signed with
// the base credentials and with the configured role, session name, external id and duration; DynamoDB
// calls are signed with the assumed credentials, which the cache reuses.
func TestAssumeRoleSignsWithTheRolesCredentials(t *testing.T) {
	isolateFromAWSFiles(t)
	var mu sync.Mutex
	var assumeCalls []url.Values
	var stsAuth string
	fakeSTS := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		form, _ := url.ParseQuery(string(body))
		mu.Lock()
		assumeCalls = append(assumeCalls, form)
		stsAuth = r.Header.Get("Authorization")
		mu.Unlock()
		w.Header().Set("Content-Type", "text/xml")
		_, _ = fmt.Fprint(w, `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult>
<Credentials><AccessKeyId>ASIAASSUMED</AccessKeyId><SecretAccessKey>assumed-secret</SecretAccessKey>
<SessionToken>assumed-token</SessionToken><Expiration>2099-01-01T00:00:00Z</Expiration></Credentials>
<AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/deployer/terraform</Arn><AssumedRoleId>AROAEXAMPLE:terraform</AssumedRoleId></AssumedRoleUser>
</AssumeRoleResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></AssumeRoleResponse>`)
	}))
	defer fakeSTS.Close()
	var ddbAuth []string
	var ddbTokens []string
	fakeDDB := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		ddbAuth = append(ddbAuth, r.Header.Get("Authorization"))
		ddbTokens = append(ddbTokens, r.Header.Get("X-Amz-Security-Token"))
		mu.Unlock()
		const body = `{"TableNames":[]}`
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(body))), 10))
		_, _ = fmt.Fprint(w, body)
	}))
	defer fakeDDB.Close()
	t.Setenv("AWS_ENDPOINT_URL_STS", fakeSTS.URL)

	c := NewClient(Config{Region: "eu-west-1", Endpoint: fakeDDB.URL, AccessKey: "AKIABASE", SecretKey: "base-secret",
		AssumeRole: &AssumeRole{RoleARN: "arn:aws:iam::123456789012:role/deployer", SessionName: "terraform", ExternalID: "ext-42", Duration: 2 * time.Hour}})
	api, err := c.API(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(assumeCalls) != 0 {
		t.Fatal("building the client must not call STS")
	}
	for range 2 {
		if _, err := api.ListTables(t.Context(), &dynamodb.ListTablesInput{}); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(assumeCalls) != 1 {
		t.Fatalf("AssumeRole was called %d times, want once (the cache keeps the session)", len(assumeCalls))
	}
	got := assumeCalls[0]
	for k, want := range map[string]string{"Action": "AssumeRole", "RoleArn": "arn:aws:iam::123456789012:role/deployer",
		"RoleSessionName": "terraform", "ExternalId": "ext-42", "DurationSeconds": "7200"} {
		if got.Get(k) != want {
			t.Errorf("AssumeRole %s = %q, want %q", k, got.Get(k), want)
		}
	}
	if !strings.Contains(stsAuth, "Credential=AKIABASE/") || !strings.Contains(stsAuth, "/eu-west-1/sts/") {
		t.Errorf("STS was called with Authorization %q, want the base credentials in eu-west-1", stsAuth)
	}
	for i, auth := range ddbAuth {
		if !strings.Contains(auth, "Credential=ASIAASSUMED/") || ddbTokens[i] != "assumed-token" {
			t.Errorf("DynamoDB call %d signed with %q (token %q), want the assumed role's credentials", i, auth, ddbTokens[i])
		}
	}
}
