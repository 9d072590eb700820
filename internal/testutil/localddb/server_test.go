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
	t.Parallel()
	for _, kind := range []Kind{Dynoxide, Dynalite, DynamoDBLocal} {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel() // DynamoDB Local's JVM takes seconds to start
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
			if addr := notLoopback(s.Endpoint); addr != "" {
				t.Errorf("the server also answers on %s: it must bind 127.0.0.1 only", addr)
			}

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

// notLoopback returns an address of this host outside the loopback network on which the server's port
// accepts connections, or "".
func notLoopback(endpoint string) string {
	_, port, err := net.SplitHostPort(strings.TrimPrefix(endpoint, "http://"))
	if err != nil {
		return endpoint
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		ip, ok := a.(*net.IPNet)
		if !ok || ip.IP.IsLoopback() || ip.IP.IsLinkLocalUnicast() {
			continue
		}
		hostPort := net.JoinHostPort(ip.IP.String(), port)
		if c, err := net.DialTimeout("tcp", hostPort, 200*time.Millisecond); err == nil {
			_ = c.Close()
			return hostPort
		}
	}
	return ""
}
