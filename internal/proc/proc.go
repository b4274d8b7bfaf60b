// Package proc starts the child processes of toolscript's process backends
// (the executor's children and the sandbox's workers): each in its own
// process group, killed by the kernel when the host dies (on Linux), and
// started from one OS thread that lives as long as the backend.
package proc

import (
	"errors"
	"os/exec"
	"runtime"
	"sync"
)

// ErrClosed is returned by Start once the Spawner is closed.
var ErrClosed = errors.New("proc: spawner closed")

// Spawner starts commands from one locked OS thread. On Linux the
// parent-death signal fires when the thread that forked the child exits,
// and the Go runtime ends a thread when a goroutine locked to it exits;
// forking from a thread the Spawner holds until Close keeps children from
// being killed by an unrelated thread's exit.
type Spawner struct {
	starts chan startReq
	done   chan struct{} // closed by Close
	exited chan struct{} // closed when the thread's goroutine has returned
	once   sync.Once
}

type startReq struct {
	cmd *exec.Cmd
	err chan error
}

// NewSpawner starts the spawning goroutine; Close ends it.
func NewSpawner() *Spawner {
	s := &Spawner{starts: make(chan startReq), done: make(chan struct{}), exited: make(chan struct{})}
	go s.loop()
	return s
}

func (s *Spawner) loop() {
	defer close(s.exited)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for {
		select {
		case r := <-s.starts:
			r.err <- r.cmd.Start()
		case <-s.done:
			return
		}
	}
}

// Start starts cmd in its own process group, tied to the host's life
// where the OS allows (see Attr), and returns cmd.Start's error, or
// ErrClosed after Close.
func (s *Spawner) Start(cmd *exec.Cmd) error {
	cmd.SysProcAttr = Attr()
	req := startReq{cmd: cmd, err: make(chan error, 1)}
	select {
	case s.starts <- req:
		return <-req.err
	case <-s.done:
		return ErrClosed
	}
}

// Close stops the spawning goroutine and waits for it to return. Children
// already started keep running. Close may be called more than once.
func (s *Spawner) Close() {
	s.once.Do(func() { close(s.done) })
	<-s.exited
}
