//go:build !unix

package proc

import (
	"os"
	"os/exec"
	"syscall"
)

// attr has nothing to set outside Unix.
func attr() *syscall.SysProcAttr { return nil }

// killGroup kills a started child; outside Unix there is no group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// framePipe returns the pipe of the frames a child sends.
func framePipe() (r, w *os.File, err error) { return os.Pipe() }
