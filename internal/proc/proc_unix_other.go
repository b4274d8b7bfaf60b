//go:build unix && !linux

package proc

import (
	"os"
	"syscall"
)

// attr puts a child in its own process group. Without Pdeathsig a child
// notices the host's death when its input pipe closes.
func attr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// framePipe returns the pipe of the frames a child sends.
func framePipe() (r, w *os.File, err error) { return os.Pipe() }
