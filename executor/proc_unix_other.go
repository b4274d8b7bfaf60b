//go:build unix && !linux

package executor

import "syscall"

// childAttr puts the child in its own process group. Without Pdeathsig the
// child notices the parent's death when its input pipe closes.
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
