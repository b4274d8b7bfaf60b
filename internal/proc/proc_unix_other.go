//go:build unix && !linux

package proc

import "syscall"

// Attr puts a child in its own process group. Without Pdeathsig a child
// notices the host's death when its input pipe closes.
func Attr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
