//go:build linux

package proc

import "syscall"

// Attr puts a child in its own process group and has the kernel kill it
// when the thread that started it (the Spawner's) ends.
func Attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
