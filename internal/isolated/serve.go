package isolated

import (
	"errors"
	"fmt"
	"os"

	"github.com/toolscript/toolscript/internal/wire"
)

// Environment of a worker: the only variables it gets from the host.
const (
	workerEnv = "TOOLSCRIPT_SANDBOX_WORKER" // the role, e.g. "engine"
	limitsEnv = "TOOLSCRIPT_SANDBOX_LIMITS" // JSON of Limits
)

// Exit statuses of a worker, besides those of the Go runtime (2 for a
// fatal error or an unrecovered panic).
const (
	// ExitSetup means the worker could not apply its limits or open its
	// pipes.
	ExitSetup = 3
	// ExitCPU means the worker exceeded the CPU time of its run.
	ExitCPU = 152
)

const cpuMessage = "sandbox: CPU time limit exceeded"

// IsWorker reports whether this process was started as a sandbox worker.
func IsWorker() bool { return os.Getenv(workerEnv) != "" }

// Role returns the role the host gave this worker ("" in the host).
func Role() string { return os.Getenv(workerEnv) }

// Conn is a worker's connection to its host: frames in, frames out.
type Conn struct {
	// R reads the host's frames; only one goroutine at a time may use it.
	R *wire.Reader
	// W writes frames to the host; it is safe for concurrent use.
	W *wire.Writer

	arrived func() bool // the pipe holds bytes; nil when unknown
}

// Pollable reports whether Pending can tell that a frame has arrived.
// Outside Linux it cannot (Pending always reports false).
func (c *Conn) Pollable() bool { return c.arrived != nil }

// Pending reports whether a frame, or part of one, has arrived: R holds
// bytes of it or the pipe does. When it has, R.Read returns without
// waiting for the host (beyond the rest of a frame it is writing). Only
// the goroutine that may use R may call it; it costs one system call
// when R holds nothing.
func (c *Conn) Pending() bool {
	if c.R.Buffered() > 0 {
		return true
	}
	return c.arrived != nil && c.arrived()
}

// ServeConfig is the worker side of a pool: what Serve runs.
type ServeConfig struct {
	// Warm runs after the limits are applied and before the hello, so the
	// pool counts the worker as ready only once it is (for example, after
	// building symbol tables). Optional.
	Warm func() error
	// Serve handles the connection until the host closes it or asks for
	// a shutdown; its error ends the worker with exit status 1.
	Serve func(c *Conn) error
}

// Serve is the whole life of a worker process: it reads the limits the
// host passed, applies them to this process (see Limits), clears the
// environment, runs cfg.Warm, opens the pipes of file descriptors 3 (from
// the host) and 4 (to the host), sends a wire hello and runs cfg.Serve.
// It returns the process's exit status; the caller exits with it. Outside
// a worker it returns an error at once.
func Serve(cfg ServeConfig) (int, error) {
	if !IsWorker() {
		return ExitSetup, errors.New("sandbox: Serve called outside a worker")
	}
	role := Role()
	l, err := decodeLimits(os.Getenv(limitsEnv))
	if err != nil {
		return ExitSetup, err
	}
	os.Clearenv()
	if err := applyLimits(l); err != nil {
		return ExitSetup, err
	}
	if cfg.Warm != nil {
		if err := cfg.Warm(); err != nil {
			return ExitSetup, fmt.Errorf("sandbox: warm up: %w", err)
		}
	}
	in, out := os.NewFile(3, "sandbox-in"), os.NewFile(4, "sandbox-out")
	if in == nil || out == nil {
		return ExitSetup, errors.New("sandbox: the host's pipes (fd 3 and 4) are missing")
	}
	// Closing the pipes tells the host at once that this worker is done.
	defer in.Close()
	defer out.Close()
	src, arrived := newPipeReader(in)
	c := &Conn{R: wire.NewReader(src), W: wire.NewWriter(out), arrived: arrived}
	if err := c.W.Send(wire.TypeHello, 0, &wire.Hello{Version: wire.Version, PID: os.Getpid(), Role: role}); err != nil {
		return ExitSetup, fmt.Errorf("sandbox: send hello: %w", err)
	}
	if cfg.Serve == nil {
		return 0, nil
	}
	if err := cfg.Serve(c); err != nil {
		return 1, err
	}
	return 0, nil
}
