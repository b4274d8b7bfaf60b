// Package proc is toolscript's one mechanism for child processes: the
// executor's process backend and the isolated runtime's workers are both
// pools of children of one binary, started, greeted, replaced, killed and
// classified here.
//
// # Host side
//
// A [Pool] keeps [Config].Size children of one role started. Each child
// is the same binary (or Config.Path) with [RoleEnv] naming its role and
// no other environment than Config.Env, in its own process group, killed
// by the kernel when the host dies (on Linux; everywhere it also ends
// when its input pipe closes), started from one OS thread that lives as
// long as the pool. Frames of package internal/wire travel on two pipes,
// file descriptors 3 (host to child) and 4 (child to host). A child
// counts as started once it has sent its hello (protocol version and
// role) within Config.StartTimeout ([DefaultStartTimeout], 20s);
// otherwise NewPool, or the replacement, fails with a [*StartError]. A
// child the caller kills (Pool.Kill) or that dies is reaped with its
// whole process group and replaced in the background. How it ended is an
// [Exit]: the host's reason, a limit, a crash read from its standard
// error, or its status.
//
// # Child side: one hook for every role
//
// Each package that starts children registers its role at init
// ([Register]): the executor's "executor", the isolated runtime's
// "engine". A binary's main calls one hook first, [MaybeServe] (which
// engine.MaybeServeWorker and executor.MaybeServeChild both are); in a
// child it runs the role RoleEnv names, whichever package registered it,
// and exits; in the host it returns at once. A binary that uses both the
// isolated runtime and the process backend therefore calls either hook,
// once.
package proc

import (
	"os/exec"
	"runtime"
	"sync"
)

// spawner starts commands from one locked OS thread. On Linux the
// parent-death signal fires when the thread that forked the child exits,
// and the Go runtime ends a thread when a goroutine locked to it exits;
// forking from a thread the spawner holds until close keeps children from
// being killed by an unrelated thread's exit.
type spawner struct {
	starts chan startReq
	done   chan struct{} // closed by close
	exited chan struct{} // closed when the thread's goroutine has returned
	once   sync.Once
}

type startReq struct {
	cmd *exec.Cmd
	err chan error
}

// newSpawner starts the spawning goroutine; close ends it.
func newSpawner() *spawner {
	s := &spawner{starts: make(chan startReq), done: make(chan struct{}), exited: make(chan struct{})}
	go s.loop()
	return s
}

func (s *spawner) loop() {
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

// start starts cmd in its own process group, tied to the host's life
// where the OS allows (see attr), and returns cmd.Start's error, or
// ErrClosed after close.
func (s *spawner) start(cmd *exec.Cmd) error {
	cmd.SysProcAttr = attr()
	req := startReq{cmd: cmd, err: make(chan error, 1)}
	select {
	case s.starts <- req:
		return <-req.err
	case <-s.done:
		return ErrClosed
	}
}

// close stops the spawning goroutine and waits for it to return. Children
// already started keep running. close may be called more than once.
func (s *spawner) close() {
	s.once.Do(func() { close(s.done) })
	<-s.exited
}
