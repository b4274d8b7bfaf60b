//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// killGroup kills a started child's whole process group (the child leads
// it), then the child itself.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Process.Kill()
	}
}
