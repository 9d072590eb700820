package main

import (
	"strings"
)

// The plugin SDKs log at TRACE unless a TF_LOG variable sets their level, and Terraform and OpenTofu discard
// every line a provider writes unless a TF_LOG variable asks for it. The framework writes trace lines for
// each validator of each attribute value it validates, so formatting lines nobody reads was about a fifth
// of the provider's CPU in a plan of 40 single-table designs.

// silencedLoggers are the loggers of this provider's process, by the variable that sets each one's level:
// the plugin SDK's root and protocol loggers (terraform-plugin-go), the framework's, and the provider's own
// (tflog, named by the provider's type).
var silencedLoggers = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_DYNAMOKEYS"}

// silenceUnreadLogs turns those loggers off when no TF_LOG variable of the environment is set (TF_LOG_PATH
// and TF_LOG_CORE alone enable no provider log): then no line they write is kept. With any other TF_LOG
// variable set (TF_LOG, TF_LOG_PROVIDER, TF_LOG_SDK_FRAMEWORK, ...) they stay as the SDKs set them. Names
// are compared in upper case, as Windows reads them. Only for a provider that Terraform or OpenTofu starts:
// one started with -debug writes to the developer's terminal.
func silenceUnreadLogs(environ []string, setenv func(name, value string) error) error {
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		name = strings.ToUpper(name)
		if strings.HasPrefix(name, "TF_LOG") && name != "TF_LOG_PATH" && name != "TF_LOG_CORE" && value != "" {
			return nil
		}
	}
	for _, name := range silencedLoggers {
		if err := setenv(name, "OFF"); err != nil {
			return err
		}
	}
	return nil
}
