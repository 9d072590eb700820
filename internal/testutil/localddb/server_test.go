package localddb

import (
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestServersStartOnLoopbackAndStopByPID(t *testing.T) {
	for _, kind := range []Kind{Dynoxide, Dynalite} {
		t.Run(string(kind), func(t *testing.T) {
			s, err := Start(kind, Options{CreateTableMs: 100, UpdateTableMs: 100, DeleteTableMs: 100})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Stop() })
			if !strings.HasPrefix(s.Endpoint, "http://127.0.0.1:") {
				t.Fatalf("endpoint %s is not on 127.0.0.1", s.Endpoint)
			}
			req, _ := http.NewRequest(http.MethodPost, s.Endpoint, strings.NewReader("{}"))
			req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("server does not answer: %v", err)
			}
			_ = resp.Body.Close()

			if err := s.Stop(); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Kill(s.PID, 0); err == nil {
				t.Errorf("process %d still exists after Stop", s.PID)
			}
			if c, err := net.DialTimeout("tcp", strings.TrimPrefix(s.Endpoint, "http://"), 200*time.Millisecond); err == nil {
				_ = c.Close()
				t.Error("port still accepts connections after Stop")
			}
		})
	}
}
