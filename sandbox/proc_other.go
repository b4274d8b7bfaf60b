//go:build !unix

package sandbox

import (
	"os/exec"
	"syscall"
)

func workerAttr() *syscall.SysProcAttr { return nil }

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
