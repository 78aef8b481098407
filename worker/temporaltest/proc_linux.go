package temporaltest

import "syscall"

// sysProcAttr asks the kernel to kill the server when the test process
// dies without calling Stop (a timeout's panic, a kill).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
