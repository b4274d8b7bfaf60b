package executor

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
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
	// discarded. The last 2 KiB of a child's standard error are kept in any
	// case and quoted in the error of a call whose child died.
	Stderr io.Writer
	// StartTimeout bounds the start of a child up to its hello message.
	// Default: 10s.
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
// crashes fails its call with an error wrapping ErrChildExited, quoting its
// exit status and standard error, and is replaced too.
//
// It is safe for concurrent use. Use NewProcessBackend.
type ProcessBackend struct {
	cfg     ProcessConfig
	d       dispatcher
	mu      sync.Mutex
	pids    map[int]struct{} // live children
	spawner *proc.Spawner    // starts every child from one OS thread
}

var _ Backend = (*ProcessBackend)(nil)

// childEnv marks a child process; MaybeServeChild looks for it.
const childEnv = "TOOLSCRIPT_EXECUTOR_CHILD"

// NewProcessBackend starts cfg.MaxWorkers children, waits until each has
// answered, and returns the backend. It fails when a child cannot start or
// does not answer (typically because main does not call MaybeServeChild),
// and inside a child process, so that a binary missing the hook cannot start
// children recursively.
func NewProcessBackend(cfg ProcessConfig) (*ProcessBackend, error) {
	if IsChild() {
		return nil, errors.New("executor: NewProcessBackend called in a child process; does main call executor.MaybeServeChild first?")
	}
	if cfg.MaxWorkers <= 0 {
		cfg.MaxWorkers = runtime.GOMAXPROCS(0)
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 10 * time.Second
	}
	if cfg.Path == "" {
		p, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("executor: find executable: %w", err)
		}
		cfg.Path = p
	}
	cfg.Args = append([]string(nil), cfg.Args...)
	cfg.Env = append([]string{childEnv + "=1"}, cfg.Env...)
	b := &ProcessBackend{cfg: cfg, pids: map[int]struct{}{}, spawner: proc.NewSpawner()}
	b.d.init(cfg.MaxWorkers, nil)

	children := make([]*child, cfg.MaxWorkers)
	errs := make([]error, cfg.MaxWorkers)
	var wg sync.WaitGroup
	for i := range children {
		wg.Go(func() { children[i], errs[i] = b.spawn() })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, c := range children {
			if c != nil {
				b.kill(c)
			}
		}
		b.spawner.Close()
		return nil, err
	}
	for _, c := range children {
		w := &worker{c: c}
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
			return fmt.Errorf("%w: %q", ErrNotRegistered, string(f))
		}
		name = string(f)
	default:
		if kindOf(fn) == kindBad {
			return fmt.Errorf("%w: %T; want %s", ErrBadFunc, fn, shapes)
		}
		n, ok := registeredName(fn)
		if !ok {
			return fmt.Errorf("%w: the process backend runs only functions registered with RegisterFunc, given as the registered value or executor.Named(name)", ErrNotRegistered)
		}
		name = n
	}
	args, err := json.Marshal(kwargs)
	if err != nil {
		return fmt.Errorf("executor: arguments of %q do not encode to JSON: %w", name, err)
	}
	body, err := json.Marshal(&wire.Call{Name: name, Args: args, ExecID: t.ID()})
	if err != nil {
		return fmt.Errorf("executor: arguments of %q do not encode to JSON: %w", name, err)
	}
	t.args = body
	return nil
}

func (b *ProcessBackend) work(w *worker) {
	defer b.d.exit(w)
	for t := b.d.next(w); t != nil; t = b.d.next(w) {
		if w.c == nil {
			c, err := b.spawn()
			if err != nil {
				t.Fail(err)
				continue
			}
			w.c = c
		}
		if !b.exec(w.c, t) {
			b.kill(w.c)
			w.c = nil
			if !b.d.isClosed() {
				w.c, _ = b.spawn() // keep the pool warm; on error retry at the next call
			}
		}
	}
	if w.c != nil {
		b.stop(w.c)
		w.c = nil
	}
}

// exec runs t in c and reports whether c is still usable.
func (b *ProcessBackend) exec(c *child, t *Task) bool {
	if _, ok := t.start(false); !ok {
		return true
	}
	c.seq++
	id := c.seq
	if err := c.w.Write(wire.Frame{Type: wire.TypeCall, ID: id, Body: t.args}); err != nil {
		t.Fail(b.deathError(c, "write call: "+err.Error()))
		return false
	}
	done := t.Done()
	for {
		select {
		case f, ok := <-c.frames:
			if !ok {
				t.Fail(b.deathError(c, ""))
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
			return b.cancelGrace(c, t, id)
		}
	}
}

// cancelGrace asks c to cancel call id and waits up to CancelGrace for its
// answer; it reports whether c is still usable.
func (b *ProcessBackend) cancelGrace(c *child, t *Task, id uint64) bool {
	if b.cfg.CancelGrace <= 0 {
		return false
	}
	reason := "cancelled"
	if _, err := t.Result(0); errors.Is(err, ErrTimeout) {
		reason = "timeout"
	}
	if c.w.Send(wire.TypeCancel, id, &wire.Cancel{Reason: reason}) != nil {
		return false
	}
	timer := time.NewTimer(b.cfg.CancelGrace)
	defer timer.Stop()
	for {
		select {
		case f, ok := <-c.frames:
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

// deathError kills c and describes why it is gone.
func (b *ProcessBackend) deathError(c *child, what string) error {
	b.kill(c)
	msg := c.exitMsg
	if what != "" {
		msg = what + "; " + msg
	}
	if tail := strings.TrimSpace(c.stderr.String()); tail != "" {
		msg += "; stderr: " + tail
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
			return nil, &PanicError{Value: e.Message, Stack: e.Stack}
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
	b.spawner.Close()
}

// child is one worker process as seen from the host.
type child struct {
	cmd     *exec.Cmd
	pid     int
	w       *wire.Writer
	wf, rf  *os.File // host ends of the pipes
	frames  chan wire.Frame
	quit    chan struct{} // closed by kill; stops the reader
	readEnd chan struct{} // closed when the reader has returned
	stderr  *tailBuffer
	seq     uint64
	once    sync.Once
	exitMsg string
}

// spawn starts a child and waits for its hello.
func (b *ProcessBackend) spawn() (*child, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("executor: start child: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("executor: start child: %w", err)
	}
	cmd := exec.Command(b.cfg.Path, b.cfg.Args...)
	cmd.Env = b.cfg.Env
	cmd.ExtraFiles = []*os.File{inR, outW} // fd 3: calls in, fd 4: answers out
	cmd.Stdout = b.cfg.Stdout
	c := &child{
		cmd: cmd, w: wire.NewWriter(inW), wf: inW, rf: outR,
		frames: make(chan wire.Frame, 16), quit: make(chan struct{}), readEnd: make(chan struct{}),
		stderr: &tailBuffer{max: 2048},
	}
	cmd.Stderr = c.stderr
	if b.cfg.Stderr != nil {
		cmd.Stderr = io.MultiWriter(c.stderr, b.cfg.Stderr)
	}
	cmd.WaitDelay = time.Second
	err = b.spawner.Start(cmd)
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("%w: start %s: %v", ErrChildExited, b.cfg.Path, err)
	}
	c.pid = cmd.Process.Pid
	b.mu.Lock()
	b.pids[c.pid] = struct{}{}
	b.mu.Unlock()
	go c.read()

	timer := time.NewTimer(b.cfg.StartTimeout)
	defer timer.Stop()
	const hint = " (does main call executor.MaybeServeChild first?)"
	select {
	case f, ok := <-c.frames:
		if !ok {
			return nil, fmt.Errorf("%w before its hello%s", b.deathError(c, ""), hint)
		}
		var h wire.Hello
		if f.Type != wire.TypeHello || f.Decode(&h) != nil {
			b.kill(c)
			return nil, fmt.Errorf("%w: child sent %v instead of hello%s", ErrChildExited, f.Type, hint)
		}
		if h.Version != wire.Version {
			b.kill(c)
			return nil, fmt.Errorf("%w: child speaks protocol version %d, want %d", ErrChildExited, h.Version, wire.Version)
		}
	case <-timer.C:
		b.kill(c)
		return nil, fmt.Errorf("%w: no hello within %v%s", ErrChildExited, b.cfg.StartTimeout, hint)
	}
	return c, nil
}

// read forwards the child's frames until its pipe ends or it is killed.
func (c *child) read() {
	defer close(c.readEnd)
	defer close(c.frames)
	r := wire.NewReader(c.rf)
	for {
		f, err := r.Read()
		if err != nil {
			return
		}
		select {
		case c.frames <- f:
		case <-c.quit:
			return
		}
	}
}

// kill kills c's process group, reaps it and releases its pipes. It is
// idempotent and records how the child ended in c.exitMsg.
func (b *ProcessBackend) kill(c *child) {
	c.once.Do(func() {
		proc.KillGroup(c.cmd)
		err := c.cmd.Wait()
		c.exitMsg = exitString(err)
		b.release(c)
	})
}

// stop asks c to exit, waits a second for it, then kills it anyway.
func (b *ProcessBackend) stop(c *child) {
	c.once.Do(func() {
		_ = c.w.Send(wire.TypeShutdown, 0, nil)
		c.wf.Close()
		timer := time.NewTimer(time.Second)
		defer timer.Stop()
		exited := false
		for !exited {
			select {
			case _, ok := <-c.frames:
				exited = !ok
			case <-timer.C:
				proc.KillGroup(c.cmd)
				exited = true
			}
		}
		proc.KillGroup(c.cmd) // the group may hold grandchildren
		c.exitMsg = exitString(c.cmd.Wait())
		b.release(c)
	})
}

func (b *ProcessBackend) release(c *child) {
	close(c.quit)
	c.wf.Close()
	c.rf.Close()
	<-c.readEnd
	b.mu.Lock()
	delete(b.pids, c.pid)
	b.mu.Unlock()
}

func exitString(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
