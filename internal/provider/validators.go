package provider

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// absoluteHTTPURL accepts only absolute http or https URLs with a host.
func absoluteHTTPURL() validator.String { return httpURLValidator{} }

type httpURLValidator struct{}

func (httpURLValidator) Description(context.Context) string {
	return "must be an absolute http or https URL, such as http://127.0.0.1:8000"
}

func (v httpURLValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v httpURLValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	raw := req.ConfigValue.ValueString()
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid endpoint URL",
			fmt.Sprintf("%s = %q is not an absolute http(s) URL. Write the scheme and host, e.g. \"http://127.0.0.1:8000\" or \"https://dynamodb.us-east-1.amazonaws.com\".", req.Path, raw))
	}
}

// positiveDuration accepts Go durations above zero, such as "2s" or "500ms".
func positiveDuration() validator.String { return durationValidator{} }

type durationValidator struct{}

func (durationValidator) Description(context.Context) string {
	return "must be a positive Go duration such as \"2s\" or \"500ms\""
}

func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v durationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	raw := req.ConfigValue.ValueString()
	if d, err := time.ParseDuration(raw); err != nil || d <= 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid duration",
			fmt.Sprintf("%s = %q is not a positive duration. Use a number with a unit: \"2s\", \"500ms\", \"1m\".", req.Path, raw))
	}
}
