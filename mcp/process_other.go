//go:build !unix

package mcp

import "os/exec"

// terminateGroup kills the server: outside Unix there is no SIGTERM.
func terminateGroup(cmd *exec.Cmd) { killGroup(cmd) }

// killGroup kills the server; outside Unix there is no process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
