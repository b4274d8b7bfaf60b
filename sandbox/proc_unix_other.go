//go:build unix && !linux

package sandbox

import "syscall"

// workerAttr puts the worker in its own process group. Without Pdeathsig
// the worker notices the host's death when its input pipe closes.
func workerAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
