package testutil

import (
	"fmt"
	"os"
	"syscall"
)

// LockFile takes an exclusive lock on path (created if missing), waiting while another process holds it,
// and returns its release. Test processes of several packages run at once (`go test ./...`); a step that
// installs or builds into the working tree (npm ci, a compiled launcher) runs under such a lock so that
// only one of them does it and the others then find it done.
func LockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the lock %s: %w", path, err)
	}
	defer Watch("waiting for the lock " + path + " (another test process is installing or building)")()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	}, nil
}
