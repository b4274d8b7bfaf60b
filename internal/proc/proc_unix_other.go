//go:build unix && !linux

package proc

import "syscall"

// attr puts a child in its own process group. Without Pdeathsig a child
// notices the host's death when its input pipe closes.
func attr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
