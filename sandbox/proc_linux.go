//go:build linux

package sandbox

import "syscall"

// workerAttr puts the worker in its own process group and has the kernel
// kill it when the thread that started it (the pool's spawner) ends.
func workerAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
