//go:build unix

package sandbox

import (
	"os/exec"
	"syscall"
)

// killGroup kills the worker's whole process group (the worker leads it).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Process.Kill()
	}
}
