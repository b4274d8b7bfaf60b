//go:build linux

package proc

import (
	"os"
	"syscall"
)

// attr puts a child in its own process group and has the kernel kill it
// when the thread that started it (the Spawner's) ends.
func attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// framePipe returns the pipe of the frames a child sends: its read end is
// a blocking descriptor the runtime's poller does not watch. A pipe from
// os.Pipe is registered with epoll, edge-triggered, even once its reader
// reads it otherwise (Worker.Read spins on it with its own reads): every
// frame arriving in an empty pipe then woke a thread of the runtime
// blocked in epoll_wait, for nothing, on every tool call (28-31 % of the
// host's CPU in a round trip).
func framePipe() (r, w *os.File, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}
