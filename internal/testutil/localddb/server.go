// Package localddb starts DynamoDB-API servers for tests and the demo: dynoxide (the most complete),
// dynalite (which shows CREATING/UPDATING/DELETING, for waiter tests) and DynamoDB Local (AWS's own
// emulator, with the service's request validation). Each binds 127.0.0.1 on a free port, is waited for
// until it answers, and is stopped by PID, with its whole process group.
package localddb

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/testutil"
)

// Kind names a server implementation.
type Kind string

// Server kinds, pinned in tools/dynamodb-local/package.json.
const (
	Dynoxide      Kind = "dynoxide"
	Dynalite      Kind = "dynalite"
	DynamoDBLocal Kind = "dynamodb-local"
)

// Options tune a server. The *Ms fields set how long dynalite keeps a table in a transitional state.
type Options struct {
	CreateTableMs int
	UpdateTableMs int
	DeleteTableMs int
	// StartTimeout, when set, bounds the wait until the server answers. By default there is no bound: the
	// wait ends when the server answers or exits, and a slow start is reported every 30 seconds (a JVM on a
	// busy machine can take minutes), so the caller's own deadline (`go test -timeout`, Ctrl-C) decides.
	StartTimeout time.Duration
	// DBPath keeps dynoxide's data in this SQLite file (DynamoDB Local's in this directory) instead of
	// memory, so that a server restarted on it finds its tables again.
	DBPath string
	// Port, when set, is the port to bind (to restart a server where its clients expect it); otherwise a
	// free port is chosen.
	Port int
}

// Server is a running DynamoDB-API server.
type Server struct {
	Kind     Kind
	Endpoint string // http://127.0.0.1:PORT
	PID      int

	cmd      *exec.Cmd
	done     chan struct{}
	stopOnce sync.Once
	stopErr  error
}

const toolsDir = "tools/dynamodb-local"

var (
	registryMu sync.Mutex
	running    = map[*Server]bool{}
	installMu  sync.Mutex
)

// Start launches a server of the given kind on a free loopback port and waits until it answers.
func Start(kind Kind, opts Options) (*Server, error) {
	argv, err := command(kind, opts)
	if err != nil {
		return nil, err
	}
	timeout := opts.StartTimeout
	var lastErr error
	for range 3 { // a port freed by freePort can be taken by someone else before the server binds it
		port, err := opts.Port, error(nil)
		if port == 0 {
			port, err = freePort()
		}
		if err != nil {
			return nil, err
		}
		s, err := launch(kind, append(argv, portArgs(kind, port)...), port, timeout)
		if err == nil {
			return s, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

func portArgs(kind Kind, port int) []string {
	if kind == DynamoDBLocal {
		return []string{"-port", strconv.Itoa(port)} // the launcher binds 127.0.0.1
	}
	return []string{"--host", "127.0.0.1", "--port", strconv.Itoa(port)}
}

func command(kind Kind, opts Options) ([]string, error) {
	root, err := testutil.RepoRoot()
	if err != nil {
		return nil, err
	}
	modules := filepath.Join(root, toolsDir, "node_modules")
	switch kind {
	case Dynoxide:
		bin := filepath.Join(modules, "@dynoxide", "linux-x64", "dynoxide")
		if err := ensureInstalled(root, bin); err != nil {
			return nil, err
		}
		if opts.DBPath != "" {
			return []string{bin, "serve", "--db-path", opts.DBPath}, nil
		}
		return []string{bin, "serve"}, nil
	case Dynalite:
		cli := filepath.Join(modules, "dynalite", "cli.js")
		if err := ensureInstalled(root, cli); err != nil {
			return nil, err
		}
		node, err := exec.LookPath("node")
		if err != nil {
			return nil, errors.New("dynalite needs node on PATH")
		}
		argv := []string{node, cli}
		for flag, ms := range map[string]int{"--createTableMs": opts.CreateTableMs, "--updateTableMs": opts.UpdateTableMs, "--deleteTableMs": opts.DeleteTableMs} {
			argv = append(argv, flag, strconv.Itoa(ms))
		}
		return argv, nil
	case DynamoDBLocal:
		return dynamoDBLocalCommand(root, opts)
	}
	return nil, fmt.Errorf("unknown server kind %q", kind)
}

// ensureInstalled runs `npm ci` in tools/dynamodb-local when the pinned packages are missing, so that a
// bare `go test` works on a fresh clone too. The test processes of several packages may get here at once:
// a file lock lets one install while the others wait, then find the packages there.
func ensureInstalled(root, file string) error {
	installMu.Lock()
	defer installMu.Unlock()
	if _, err := os.Stat(file); err == nil {
		return nil
	}
	unlock, err := testutil.LockFile(filepath.Join(root, toolsDir, ".install.lock"))
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := os.Stat(file); err == nil {
		return nil // installed by another process while this one waited
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--prefix", filepath.Join(root, toolsDir))
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("installing the local DynamoDB servers (npm ci in %s): %w\n%s", toolsDir, err, out)
	}
	if _, err := os.Stat(file); err != nil {
		return fmt.Errorf("npm ci in %s did not install %s", toolsDir, file)
	}
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free loopback port: %w", err)
	}
	defer func() { _ = l.Close() }()
	addr, ok := l.Addr().(*net.TCPAddr)
	if !ok {
		return 0, fmt.Errorf("finding a free loopback port: %v is not a TCP address", l.Addr())
	}
	return addr.Port, nil
}

func launch(kind Kind, argv []string, port int, timeout time.Duration) (*Server, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = processAttributes()
	var logBuf strings.Builder
	cmd.Stdout, cmd.Stderr = &logBuf, &logBuf
	cmd.Env = append(os.Environ(), "RUST_LOG=warn")
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", kind, err)
	}
	s := &Server{Kind: kind, Endpoint: "http://127.0.0.1:" + strconv.Itoa(port), PID: cmd.Process.Pid, cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(s.done) }()
	registryMu.Lock()
	running[s] = true
	registryMu.Unlock()

	if err := s.waitUntilAnswering(timeout); err != nil {
		_ = s.Stop()
		return nil, fmt.Errorf("%s on port %d: %w\n%s", kind, port, err, logBuf.String())
	}
	return s, nil
}

// waitUntilAnswering polls with an unsigned ListTables until the server answers over HTTP (an
// authentication error is an answer) or exits; a timeout of 0 sets no other bound.
func (s *Server) waitUntilAnswering(timeout time.Duration) error {
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	defer testutil.Watch(fmt.Sprintf("waiting for %s (pid %d) to answer on %s", s.Kind, s.PID, s.Endpoint))()
	client := &http.Client{Timeout: time.Second}
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.Endpoint+"/", strings.NewReader("{}"))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		if resp, err := client.Do(req); err == nil {
			_ = resp.Body.Close()
			return nil
		}
		select {
		case <-s.done:
			return errors.New("the server exited before it answered")
		case <-ctx.Done():
			return fmt.Errorf("no answer within %v", timeout)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Stop ends the server's process group: SIGTERM, then SIGKILL after 3 seconds.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		registryMu.Lock()
		delete(running, s)
		registryMu.Unlock()
		_ = syscall.Kill(-s.PID, syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(3 * time.Second):
			_ = syscall.Kill(-s.PID, syscall.SIGKILL)
			<-s.done
		}
	})
	return s.stopErr
}

// StopAll stops every server this process started.
func StopAll() {
	registryMu.Lock()
	servers := make([]*Server, 0, len(running))
	for s := range running {
		servers = append(servers, s)
	}
	registryMu.Unlock()
	for _, s := range servers {
		_ = s.Stop()
	}
}

// StopAllOnInterrupt stops every server when the process gets SIGINT or SIGTERM, then exits, so an
// interrupted `go test` leaves no server behind. The returned func undoes the handler.
func StopAllOnInterrupt() func() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	go func() {
		select {
		case <-sig:
			StopAll()
			os.Exit(130)
		case <-quit:
		}
	}()
	return func() { signal.Stop(sig); close(quit) }
}
