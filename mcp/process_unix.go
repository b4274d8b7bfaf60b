//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// A stdio server leads a process group of its own (proc.StartTied), so
// that stopping it also stops the processes it started (npx starting
// node, say).

// terminateGroup sends SIGTERM to the server's process group.
func terminateGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	}
}

// killGroup sends SIGKILL to the server's process group and the server.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Process.Kill()
	}
}
