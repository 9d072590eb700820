// Package dynamo is the aws-sdk-go-v2 DynamoDB adapter of dynamokeys: client configuration, and the
// table calls the resource makes. It knows nothing of Terraform.
package dynamo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// DefaultMaxRetries is used when the provider does not set max_retries. DynamoDB control-plane calls
// throttle readily (LimitExceededException), so the default is more generous than the SDK's 2.
const DefaultMaxRetries = 10

// DefaultRequestTimeout bounds one HTTP attempt of an API call when the provider does not set
// request_timeout. DynamoDB control-plane calls answer in well under a second; the bound is for an endpoint
// that accepts a connection and never answers, which would otherwise hold plan and apply forever.
const DefaultRequestTimeout = 30 * time.Second

// maxDialTimeout bounds connecting, within the request timeout.
const maxDialTimeout = 10 * time.Second

// Config is what the provider block says about reaching DynamoDB. Empty fields defer to the standard
// AWS chain: AWS_REGION, AWS_PROFILE, shared config and credentials files, AWS_ENDPOINT_URL_DYNAMODB,
// AWS_ENDPOINT_URL.
type Config struct {
	Region     string
	Endpoint   string
	Profile    string
	AccessKey  string
	SecretKey  string
	MaxRetries *int
	// RequestTimeout bounds each HTTP attempt; zero means DefaultRequestTimeout. The SDK retries an attempt
	// that timed out, up to MaxRetries times, and every call also ends with its context.
	RequestTimeout time.Duration
	// Polling paces the waits for table and index transitions; the zero value means DefaultPolling.
	Polling Polling
	// AssumeRole, when set, is the role whose credentials sign every call.
	AssumeRole *AssumeRole
	// CloudWatchEndpoint overrides the CloudWatch endpoint (else AWS_ENDPOINT_URL_CLOUDWATCH, AWS_ENDPOINT_URL).
	CloudWatchEndpoint string
}

// Client builds its SDK client on first use, so that configuring the provider, the data source and the
// functions never read credentials or touch the network.
type Client struct {
	cfg  Config
	once sync.Once
	api  *dynamodb.Client
	err  error

	cloudwatch lazyCloudWatch
}

// NewClient returns a client that is built lazily from cfg.
func NewClient(cfg Config) *Client {
	if cfg.Polling.Sleep == nil {
		cfg.Polling = DefaultPolling()
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	return &Client{cfg: cfg}
}

// ErrNoRegion says that no region was configured anywhere in the chain.
var ErrNoRegion = errors.New("no AWS region is configured: set region in the provider block, or AWS_REGION, or a region in the AWS profile")

// API returns the SDK client, building it on the first call.
func (c *Client) API(ctx context.Context) (*dynamodb.Client, error) {
	c.once.Do(func() { c.api, c.err = c.build(ctx) })
	return c.api, c.err
}

func (c *Client) build(ctx context.Context) (*dynamodb.Client, error) {
	awsCfg, err := c.loadConfig(ctx)
	if err != nil {
		return nil, err
	}
	return dynamodb.NewFromConfig(awsCfg, func(o *dynamodb.Options) {
		if c.cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(c.cfg.Endpoint)
		}
	}), nil
}

// loadConfig is the SDK configuration of the DynamoDB client: the standard chain with the provider's
// settings, and the assumed role's credentials when one is configured.
func (c *Client) loadConfig(ctx context.Context) (aws.Config, error) {
	maxRetries := DefaultMaxRetries
	if c.cfg.MaxRetries != nil {
		maxRetries = *c.cfg.MaxRetries
	}
	httpClient := awshttp.NewBuildableClient().WithTimeout(c.cfg.RequestTimeout).
		WithDialerOptions(func(d *net.Dialer) { d.Timeout = min(c.cfg.RequestTimeout, maxDialTimeout) })
	opts := []func(*config.LoadOptions) error{
		config.WithHTTPClient(httpClient),
		config.WithRetryer(func() aws.Retryer {
			return retry.NewStandard(func(o *retry.StandardOptions) { o.MaxAttempts = maxRetries + 1 })
		}),
	}
	if c.cfg.Region != "" {
		opts = append(opts, config.WithRegion(c.cfg.Region))
	}
	if c.cfg.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(c.cfg.Profile))
	}
	if c.cfg.AccessKey != "" {
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(c.cfg.AccessKey, c.cfg.SecretKey, "")))
	}
	awsCfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("loading the AWS configuration: %w", err)
	}
	if awsCfg.Region == "" {
		return aws.Config{}, ErrNoRegion
	}
	if c.cfg.AssumeRole != nil {
		if awsCfg.Credentials, err = assumeRoleCredentials(awsCfg, *c.cfg.AssumeRole); err != nil {
			return aws.Config{}, err
		}
	}
	return awsCfg, nil
}
