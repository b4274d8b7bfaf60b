package isolated

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/toolscript/toolscript/internal/proc"
	"github.com/toolscript/toolscript/internal/wire"
)

// limitsEnv is the variable of a worker's environment that carries its
// Limits (JSON), besides proc.RoleEnv, which names its role; the worker
// clears both before it runs anything of the host's.
const limitsEnv = "TOOLSCRIPT_ISOLATED_LIMITS"

// Exit statuses of a worker, besides those of the Go runtime (2 for a
// fatal error or an unrecovered panic): those of every child process.
const (
	// ExitSetup means the worker could not apply its limits or open its
	// pipes.
	ExitSetup = proc.ExitSetup
	// ExitCPU means the worker exceeded the CPU time of its run.
	ExitCPU = proc.ExitCPU
)

const cpuMessage = proc.CPULimitMessage

// Conn is a worker's connection to its host: frames in, frames out.
type Conn struct {
	// R reads the host's frames; only one goroutine at a time may use it.
	R *wire.Reader
	// W writes frames to the host; it is safe for concurrent use.
	W *wire.Writer

	arrived func() bool   // the pipe holds bytes; nil when unknown
	out     *lockedWriter // W's stream, for WriteFrames
}

// lockedWriter serialises the writes to a worker's pipe: W's, one frame
// each, and WriteFrames', several at once.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// WriteFrames writes frames in one write to the pipe, so that the host
// reads them with one wake-up, in order and with nothing between them.
// A frame over MaxFrameBytes is not written: it fails as W.Write fails
// (a *wire.FrameSizeError), and so do the frames after it.
func (c *Conn) WriteFrames(fs ...wire.Frame) error {
	if c.out == nil {
		for _, f := range fs {
			if err := c.W.Write(f); err != nil {
				return err
			}
		}
		return nil
	}
	n := 0
	for i, f := range fs {
		if f.Type == 0 || len(f.Body)+wire.HeaderSize-4 > MaxFrameBytes {
			// W.Write refuses it with its error; those before go first.
			if err := c.WriteFrames(fs[:i]...); err != nil {
				return err
			}
			return c.W.Write(f)
		}
		n += wire.HeaderSize + len(f.Body)
	}
	b := make([]byte, 0, n)
	for _, f := range fs {
		b = wire.AppendFrame(b, f)
	}
	_, err := c.out.Write(b)
	return err
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

// ServeConfig is the worker side of a pool: what a worker of a role
// (Register) runs.
type ServeConfig struct {
	// Warm runs after the limits are applied and before the hello, so the
	// pool counts the worker as ready only once it is (for example, after
	// building symbol tables). Optional.
	Warm func() error
	// Serve handles the connection until the host closes it or asks for
	// a shutdown; its error ends the worker with exit status 1.
	Serve func(c *Conn) error
}

// Register makes this binary serve the workers started for the named
// role (Config.Role) with cfg: a child role of package internal/proc,
// whose hook opens the pipes of file descriptors 3 and 4 and sends the
// hello. Such a worker reads the limits the host passed, clears its
// environment, applies the limits to itself (see Limits), runs cfg.Warm,
// then cfg.Serve. Call it at init; it panics on a name registered twice.
func Register(name string, cfg ServeConfig) { proc.Register(name, cfg.role()) }

// role is cfg as a child role of package internal/proc.
func (cfg ServeConfig) role() proc.Role {
	var prof *workerProfile // see ProfileEnv
	return proc.Role{
		Setup: func() error {
			l, err := decodeLimits(os.Getenv(limitsEnv))
			if err != nil {
				return err
			}
			if prof, err = startProfile(); err != nil {
				return err
			}
			os.Clearenv()
			if err := applyLimits(l); err != nil {
				return err
			}
			if cfg.Warm != nil {
				if err := cfg.Warm(); err != nil {
					return fmt.Errorf("isolated: warm up: %w", err)
				}
			}
			return nil
		},
		Serve: func(in, out *os.File) error {
			if cfg.Serve == nil {
				return nil
			}
			// Stopped before the pipes close: the host kills what is
			// left of the worker once they have.
			defer prof.stop()
			src, arrived := newPipeReader(in)
			lw := &lockedWriter{w: out}
			return cfg.Serve(&Conn{R: wire.NewReader(src), W: wire.NewWriter(lw), arrived: arrived, out: lw})
		},
		ServeShared: func(r *proc.RingReader, w *proc.RingWriter) error {
			if cfg.Serve == nil {
				return nil
			}
			defer prof.stop()
			lw := &lockedWriter{w: w}
			arrived := func() bool { return r.Buffered() > 0 }
			return cfg.Serve(&Conn{R: wire.NewReader(r), W: wire.NewWriter(lw), arrived: arrived, out: lw})
		},
	}
}
