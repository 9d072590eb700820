package main

import (
	"maps"
	"slices"
	"testing"
)

func TestSilenceUnreadLogs(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		environ []string
		silent  bool
	}{
		"no TF_LOG variable":            {[]string{"HOME=/root", "TF_IN_AUTOMATION=1"}, true},
		"a log path alone enables none": {[]string{"TF_LOG_PATH=/tmp/tf.log"}, true},
		"core logs only":                {[]string{"TF_LOG_CORE=TRACE"}, true},
		"an empty TF_LOG is unset":      {[]string{"TF_LOG="}, true},
		"TF_LOG":                        {[]string{"TF_LOG=DEBUG"}, false},
		"every provider's logs":         {[]string{"TF_LOG_PROVIDER=TRACE"}, false},
		"this provider's logs":          {[]string{"TF_LOG_PROVIDER_DYNAMOKEYS=INFO"}, false},
		"the framework's logs":          {[]string{"TF_LOG_SDK_FRAMEWORK=TRACE", "TF_LOG_PATH=/tmp/tf.log"}, false},
		"the protocol's data files":     {[]string{"TF_LOG_SDK_PROTO_DATA_DIR=/tmp/proto"}, false},
		"a name in lower case":          {[]string{"tf_log=TRACE"}, false},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			set := map[string]string{}
			if err := silenceUnreadLogs(tc.environ, func(k, v string) error { set[k] = v; return nil }); err != nil {
				t.Fatal(err)
			}
			if !tc.silent {
				if len(set) > 0 {
					t.Errorf("set %v: someone reads the logs", set)
				}
				return
			}
			if got := slices.Sorted(maps.Keys(set)); !slices.Equal(got, slices.Sorted(slices.Values(silencedLoggers))) {
				t.Errorf("silenced %v, want %v", got, silencedLoggers)
			}
			for k, v := range set {
				if v != "OFF" {
					t.Errorf("%s=%s, want OFF", k, v)
				}
			}
		})
	}
}
