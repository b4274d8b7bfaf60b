//go:build linux

package proc

import "syscall"

// attr puts a child in its own process group and has the kernel kill it
// when the thread that started it (the Spawner's) ends.
func attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
