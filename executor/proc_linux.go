//go:build linux

package executor

import "syscall"

// childAttr puts the child in its own process group and has the kernel kill
// it when the parent dies.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
