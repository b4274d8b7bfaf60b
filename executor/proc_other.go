//go:build !unix

package executor

import (
	"os/exec"
	"syscall"
)

func childAttr() *syscall.SysProcAttr { return nil }

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
