package localddb

import "syscall"

// processAttributes puts the server in its own process group (stopped as a whole) and has the kernel
// kill it if the test process dies without stopping it.
func processAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
