//go:build !unix

package proc

import (
	"os/exec"
	"syscall"
)

// Attr has nothing to set outside Unix.
func Attr() *syscall.SysProcAttr { return nil }

// KillGroup kills a started child; outside Unix there is no group.
func KillGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
