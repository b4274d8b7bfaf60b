package executor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/toolscript/toolscript/internal/proc"
	"github.com/toolscript/toolscript/internal/wire"
)

// ProcessConfig configures a ProcessBackend. The zero value works.
type ProcessConfig struct {
	// MaxWorkers is the number of child processes, each running one
	// function at a time. Default: GOMAXPROCS.
	MaxWorkers int
	// Path is the executable to start. Default: os.Executable(), this
	// binary, whose main must begin with MaybeServeChild.
	Path string
	// Args are the child's command-line arguments (after the program name).
	// Default: none.
	Args []string
	// Env is the child's environment besides the variable marking it as a
	// child: nothing of the host's environment is passed unless listed here
	// ("KEY=value" entries). Default: empty.
	Env []string
	// Stdout receives what functions print to standard output. Default:
	// discarded.
	Stdout io.Writer
	// Stderr receives a copy of the children's standard error. Default:
	// discarded. The first and last 4 KiB of a child's standard error are
	// kept in any case, and the last 2 KiB quoted in the error of a call
	// whose child died.
	Stderr io.Writer
	// StartTimeout bounds the start of a child up to its hello message,
	// and a call's wait for a child replacing one that died. Default: 20s,
	// the isolated runtime's too.
	StartTimeout time.Duration
	// CancelGrace is how long a cancelled or timed-out call may take to
	// answer a cooperative cancel message before its child is killed.
	// Default: 0, kill at once.
	CancelGrace time.Duration
}

// ProcessBackend runs registered functions in a pool of warm child processes
// of the same binary (the Python ToolRegistry's
// ProcessPoolBackend). Arguments and results
// cross as JSON, so they must be JSON-encodable, and results come back as
// the types encoding/json decodes into any (float64, string, bool, nil,
// []any, map[string]any). Cancellation and timeouts are hard: the child's
// process group is killed, and a fresh child replaces it. A child that
// crashes fails its call with an error wrapping ErrChildExited, quoting how
// it ended and its standard error, and is replaced too.
//
// It is safe for concurrent use. Use NewProcessBackend.
type ProcessBackend struct {
	cfg  ProcessConfig
	d    dispatcher
	pool *proc.Pool[*proc.Child]
}

var _ Backend = (*ProcessBackend)(nil)

// childRole is the role of a ProcessBackend child.
const childRole = "executor"

func init() {
	proc.Register(childRole, proc.Role{Serve: func(in, out *os.File) error { return serve(in, out) }})
}

// NewProcessBackend starts cfg.MaxWorkers children, waits until each has
// answered, and returns the backend. It fails when a child cannot start or
// does not answer (typically because main does not call MaybeServeChild),
// and inside a child process, so that a binary missing the hook cannot start
// children recursively.
func NewProcessBackend(cfg ProcessConfig) (*ProcessBackend, error) {
	if proc.InChild() {
		return nil, errors.New("executor: NewProcessBackend called in a child process; does main call executor.MaybeServeChild first?")
	}
	if cfg.MaxWorkers <= 0 {
		cfg.MaxWorkers = runtime.GOMAXPROCS(0)
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = proc.DefaultStartTimeout
	}
	pool, err := proc.NewPool(proc.Config{
		Role: childRole, Size: cfg.MaxWorkers, Path: cfg.Path, Args: cfg.Args, Env: cfg.Env,
		StartTimeout: cfg.StartTimeout, Stdout: cfg.Stdout, Stderr: cfg.Stderr,
		Hint: " (does main call executor.MaybeServeChild first?)",
	}, func(c *proc.Child) *proc.Child { return c })
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrChildExited, err)
	}
	b := &ProcessBackend{cfg: cfg, pool: pool}
	b.d.init(cfg.MaxWorkers, nil)
	for range cfg.MaxWorkers {
		w := &worker{}
		b.d.add(w)
		go b.work(w)
	}
	return b, nil
}

// MaxWorkers returns the number of children.
func (b *ProcessBackend) MaxWorkers() int { return b.d.max }

// Submit queues the registered function fn (a Named, or the registered
// function value) with kwargs, encoded to JSON now, and returns its handle.
// An unregistered function, arguments that do not encode, or a Submit after
// Shutdown give a Failed handle.
func (b *ProcessBackend) Submit(fn any, kwargs map[string]any, opts ...SubmitOption) Handle {
	t := NewTask(opts...)
	if err := t.prepareRemote(fn, kwargs); err != nil {
		t.Fail(err)
		return t
	}
	if !b.d.push(t) {
		t.Fail(ErrShutdown)
	}
	return t
}

func (t *Task) prepareRemote(fn any, kwargs map[string]any) error {
	var name string
	switch f := fn.(type) {
	case Named:
		if _, ok := lookupFunc(string(f)); !ok {
			return notRegistered(f)
		}
		name = string(f)
	default:
		if kindOf(fn) == kindBad {
			return badFunc(fn)
		}
		n, ok := registeredName(fn)
		if !ok {
			return fmt.Errorf("%w: the process backend runs only functions registered with RegisterFunc, given as the registered value or executor.Named(name)", ErrNotRegistered)
		}
		name = n
	}
	args, err := json.Marshal(kwargs)
	var body []byte
	if err == nil {
		body, err = json.Marshal(&wire.Call{Name: name, Args: args, ExecID: t.ID()})
	}
	if err != nil {
		return fmt.Errorf("executor: arguments of %q do not encode to JSON: %w", name, err)
	}
	t.args = body
	return nil
}

// work runs tasks on one child at a time: the one it took from the pool,
// until that child dies or is killed.
func (b *ProcessBackend) work(w *worker) {
	defer b.d.exit(w)
	var (
		c   *proc.Child
		seq uint64 // call ids, unique per child
	)
	for t := b.d.next(w); t != nil; t = b.d.next(w) {
		if c == nil {
			var err error
			if c, err = b.child(t); err != nil {
				t.Fail(err)
				continue
			}
		}
		seq++
		if !b.exec(c, t, seq) {
			c = nil // killed; the pool starts a replacement
		}
	}
	if c != nil {
		b.pool.Put(c)
	}
}

// child takes a child from the pool for t, waiting up to StartTimeout
// (for a replacement) unless t ends first.
func (b *ProcessBackend) child(t *Task) (*proc.Child, error) {
	ctx, cancel := context.WithTimeout(context.Background(), b.cfg.StartTimeout)
	defer cancel()
	go func() {
		select {
		case <-t.Done():
			cancel()
		case <-ctx.Done():
		}
	}()
	c, err := b.pool.Get(ctx)
	if err != nil {
		if errors.Is(err, proc.ErrClosed) {
			return nil, ErrShutdown
		}
		return nil, fmt.Errorf("%w: no child within %v: %w", ErrChildExited, b.cfg.StartTimeout, err)
	}
	return c, nil
}

// exec runs t in c as call id and reports whether c is still usable;
// when it is not, exec has killed it.
func (b *ProcessBackend) exec(c *proc.Child, t *Task, id uint64) bool {
	if _, ok := t.start(false); !ok {
		return true
	}
	if err := c.Send(wire.Frame{Type: wire.TypeCall, ID: id, Body: t.args}); err != nil {
		t.Fail(b.died(c, "write call: "+err.Error()))
		return false
	}
	done := t.Done()
	for {
		select {
		case f, ok := <-c.Frames():
			if !ok {
				t.Fail(b.died(c, ""))
				return false
			}
			if f.ID != id {
				continue
			}
			switch f.Type {
			case wire.TypeProgress:
				var p wire.Progress
				if f.Decode(&p) == nil {
					t.Report(Progress{Fraction: p.Fraction, Message: p.Message, Detail: decodeAny(p.Detail)})
				}
			case wire.TypeResult:
				v, err := decodeResult(f)
				t.Finish(v, err)
				return true
			}
		case <-done:
			if b.cancelGrace(c, t, id) {
				return true
			}
			b.pool.Kill(c, "cancelled")
			return false
		}
	}
}

// cancelGrace asks c to cancel call id and waits up to CancelGrace for its
// answer; it reports whether c is still usable.
func (b *ProcessBackend) cancelGrace(c *proc.Child, t *Task, id uint64) bool {
	if b.cfg.CancelGrace <= 0 {
		return false
	}
	reason := "cancelled"
	if _, err := t.Result(0); errors.Is(err, ErrTimeout) {
		reason = "timeout"
	}
	if c.Writer().Send(wire.TypeCancel, id, &wire.Cancel{Reason: reason}) != nil {
		return false
	}
	timer := time.NewTimer(b.cfg.CancelGrace)
	defer timer.Stop()
	for {
		select {
		case f, ok := <-c.Frames():
			if !ok {
				return false
			}
			if f.ID == id && f.Type == wire.TypeResult {
				return true
			}
		case <-timer.C:
			return false
		}
	}
}

// died kills c, which died or broke its pipe, and describes how it ended.
func (b *ProcessBackend) died(c *proc.Child, what string) error {
	msg := b.pool.Kill(c, "").Quote()
	if what != "" {
		msg = what + "; " + msg
	}
	return fmt.Errorf("%w: %s", ErrChildExited, msg)
}

func decodeAny(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	return v
}

func decodeResult(f wire.Frame) (any, error) {
	var r wire.Result
	if err := f.Decode(&r); err != nil {
		return nil, fmt.Errorf("executor: bad result from child: %w", err)
	}
	if e := r.Error; e != nil {
		switch e.Kind {
		case wire.KindPanic:
			return nil, &FuncPanicError{Value: e.Message, Stack: e.Stack}
		case wire.KindUnknown:
			return nil, fmt.Errorf("%w in the child: %s", ErrNotRegistered, e.Message)
		case wire.KindError:
			return nil, &RemoteError{Message: e.Message}
		default:
			return nil, &RemoteError{Message: "executor: " + e.Kind + ": " + e.Message}
		}
	}
	return decodeAny(r.Value), nil
}

// Shutdown stops the backend: later Submits fail with ErrShutdown. With
// wait, queued and running executions finish first; without wait they are
// Cancelled (cause ErrShutdown) and running children are killed. Either way
// Shutdown returns when every child has exited and been reaped; children
// that do not exit within a second of being asked are killed. Shutdown may
// be called more than once.
func (b *ProcessBackend) Shutdown(wait bool) {
	b.d.shutdown(wait, true)
	_ = b.pool.Close()
}
