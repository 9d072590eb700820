package dynamo

import (
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// AssumeRole is an IAM role the client assumes through STS, with the credentials of the standard chain (or
// the static ones of Config) as the caller. Empty fields take the SDK's defaults: a generated session name,
// no external id, a 15-minute session.
type AssumeRole struct {
	RoleARN     string
	SessionName string
	ExternalID  string
	Duration    time.Duration
}

// ErrAssumeRoleWithoutARN says that assume_role was configured with a role ARN that is not known (yet).
var ErrAssumeRoleWithoutARN = errors.New("assume_role has no role_arn: the value is not known when the provider is " +
	"configured. Give role_arn a value known at plan time")

// assumeRoleOptions are the options of the STS credentials provider for r.
func assumeRoleOptions(r AssumeRole) func(*stscreds.AssumeRoleOptions) {
	return func(o *stscreds.AssumeRoleOptions) {
		if r.SessionName != "" {
			o.RoleSessionName = r.SessionName
		}
		if r.ExternalID != "" {
			o.ExternalID = aws.String(r.ExternalID)
		}
		if r.Duration > 0 {
			o.Duration = r.Duration
		}
	}
}

// assumeRoleCredentials replaces the loaded credentials by the role's: an STS client built from the loaded
// configuration (so STS is called with the chain's credentials, region and retryer) calls AssumeRole on the
// first signed request, and the cache refreshes the session before it expires.
func assumeRoleCredentials(loaded aws.Config, r AssumeRole) (aws.CredentialsProvider, error) {
	if r.RoleARN == "" {
		return nil, ErrAssumeRoleWithoutARN
	}
	provider := stscreds.NewAssumeRoleProvider(sts.NewFromConfig(loaded), r.RoleARN, assumeRoleOptions(r))
	return aws.NewCredentialsCache(provider), nil
}
