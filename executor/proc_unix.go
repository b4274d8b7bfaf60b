//go:build unix

package executor

import (
	"os/exec"
	"syscall"
)

// killGroup kills the child's whole process group (the child leads it).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Process.Kill()
	}
}
