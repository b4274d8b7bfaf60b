package proc

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/toolscript/toolscript/internal/wire"
)

// RoleEnv is the one environment variable that marks a child process: its
// value is the role the host started it for (Config.Role).
const RoleEnv = "TOOLSCRIPT_CHILD"

// sharedEnv names, in a child's environment, the file descriptor of its
// shared memory when the host gave it some (Config.SharedMemory).
const sharedEnv = "TOOLSCRIPT_CHILD_SHM"

// Role is what a child process started for a role runs.
type Role struct {
	// Setup runs first, before the hello, so the host counts the child as
	// started only once it has returned: apply limits, warm up. An error
	// ends the child with ExitSetup. Optional.
	Setup func() error
	// Serve handles the host's pipes once the hello is sent: in carries
	// the host's frames, out takes the child's. It returns when the host
	// closes in or asks for a shutdown; an error ends the child with
	// ExitServe. Required.
	Serve func(in, out *os.File) error
	// ServeShared handles the host's frames when they come through
	// shared memory (Config.SharedMemory): r reads them, w writes the
	// child's, and r ends when the host closes its end of the pipes or
	// ends. A child started with shared memory whose role has no
	// ServeShared fails its setup. Optional.
	ServeShared func(r *RingReader, w *RingWriter) error
}

var (
	rolesMu sync.Mutex
	roles   = map[string]Role{}
	serving atomic.Bool // Serve has begun in this process
)

// Register makes this binary able to serve children of the named role.
// Packages call it at init, so that the hook a binary's main calls serves
// every role the binary links. It panics on an empty name, a nil
// r.Serve, or a name registered twice.
func Register(name string, r Role) {
	if name == "" || r.Serve == nil {
		panic("proc: Register needs a role name and a Serve function")
	}
	rolesMu.Lock()
	defer rolesMu.Unlock()
	if _, dup := roles[name]; dup {
		panic(fmt.Sprintf("proc: role %q registered twice", name))
	}
	roles[name] = r
}

// ChildRole returns the role this process was started for, "" in a host.
// A role's Setup may clear the environment; ChildRole reads it only.
func ChildRole() string { return os.Getenv(RoleEnv) }

// InChild reports whether this process was started as a child: RoleEnv
// is set, or Serve has begun.
func InChild() bool { return serving.Load() || ChildRole() != "" }

// MaybeServe is the hook of every child role: in a process started as a
// child it runs Serve and exits with its status (printing its error to
// standard error); otherwise it returns at once. Call it first in main,
// after every package's init (engine.MaybeServeWorker and
// executor.MaybeServeChild are this function).
func MaybeServe() {
	if ChildRole() == "" {
		return
	}
	code, err := Serve()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	os.Exit(code)
}

// Serve is the whole life of a child process: it finds the role RoleEnv
// names among those registered, runs its Setup, opens the pipes of file
// descriptors 3 (from the host) and 4 (to the host), sends the hello
// (wire.Version, this process's id, the role) and runs the role's Serve,
// then closes the pipes, which tells the host at once that the child is
// done. It returns the exit status (0, ExitServe or ExitSetup) and the
// error, if any; the caller exits with the status. Outside a child it
// fails at once.
func Serve() (int, error) {
	name := ChildRole()
	if name == "" {
		return ExitSetup, errors.New("proc: not started as a child process (" + RoleEnv + " is not set)")
	}
	serving.Store(true)
	shared := os.Getenv(sharedEnv) // before Setup, which may clear it
	os.Unsetenv(sharedEnv)         // the role sees only its own
	rolesMu.Lock()
	r, ok := roles[name]
	rolesMu.Unlock()
	if !ok {
		return ExitSetup, fmt.Errorf("proc: this binary has no child role %q", name)
	}
	var reg *region
	if shared != "" {
		if r.ServeShared == nil {
			return ExitSetup, fmt.Errorf("proc: child role %q cannot serve shared memory", name)
		}
		// Mapped before Setup's limits: a shared mapping is no data.
		f := os.NewFile(5, "toolscript-shm")
		var err error
		if shared != "5" || f == nil {
			err = fmt.Errorf("descriptor %q", shared)
		} else {
			reg, err = mapRegion(f)
			f.Close()
		}
		if err != nil {
			return ExitSetup, fmt.Errorf("proc: the host's shared memory: %w", err)
		}
	}
	if r.Setup != nil {
		if err := r.Setup(); err != nil {
			return ExitSetup, err
		}
	}
	in, out := os.NewFile(3, "toolscript-in"), os.NewFile(4, "toolscript-out")
	if in == nil || out == nil {
		return ExitSetup, errors.New("proc: the host's pipes (fd 3 and 4) are missing")
	}
	defer in.Close()
	defer out.Close()
	if err := wire.NewWriter(out).Send(wire.TypeHello, 0, &wire.Hello{Version: wire.Version, PID: os.Getpid(), Role: name}); err != nil {
		return ExitSetup, fmt.Errorf("proc: send hello: %w", err)
	}
	var err error
	if reg != nil {
		// The host's pipe ends when it closes it or exits: so does the
		// ring.
		go reg.watchEnd(in)
		rr, rw := reg.childEnds()
		err = r.ServeShared(rr, rw)
	} else {
		err = r.Serve(in, out)
	}
	if err != nil {
		return ExitServe, err
	}
	return 0, nil
}
