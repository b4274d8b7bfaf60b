package isolated

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/toolscript/toolscript/internal/proc"
	"github.com/toolscript/toolscript/internal/wire"
)

// Errors of the package.
var (
	// ErrClosed reports use of a closed Pool.
	ErrClosed = errors.New("sandbox: pool is closed")
	// ErrStart reports a worker that did not start or did not say hello.
	ErrStart = errors.New("sandbox: worker did not start")
)

// Config configures a Pool. Its zero value works in a binary whose main
// hands worker processes to Serve (for the engine: engine.MaybeServeWorker).
type Config struct {
	// Role tells the started process which worker to be; Role returns it
	// there. Default "worker".
	Role string
	// Size is the number of worker processes kept started. Default:
	// GOMAXPROCS.
	Size int
	// Path is the executable to start. Default: os.Executable(), this
	// binary.
	Path string
	// Args are the worker's command-line arguments after the program name.
	// Default: none.
	Args []string
	// Limits are applied by each worker to itself at start.
	Limits Limits
	// StartTimeout bounds a worker's start up to its hello. Default: 20s.
	StartTimeout time.Duration
	// Stderr receives a copy of the workers' standard error. Default:
	// discarded (the last 4 KiB of each worker's are kept for Exit).
	Stderr io.Writer
}

// Pool keeps Size worker processes started. A caller takes an idle worker
// with Get and gives it back with Put, or ends it with Kill (which starts a
// replacement in the background). Close ends every worker. A Pool is safe
// for concurrent use.
type Pool struct {
	cfg     Config
	idle    chan *Worker
	spawner *proc.Spawner // starts every worker from one OS thread
	done    chan struct{} // closed by Close
	wg      sync.WaitGroup

	mu      sync.Mutex
	live    map[*Worker]struct{}
	closed  bool
	lastErr error
}

// NewPool starts cfg.Size workers, waits until each has said hello, and
// returns the pool. It fails if a worker does not start (typically because
// main does not hand workers to Serve).
func NewPool(cfg Config) (*Pool, error) {
	if IsWorker() {
		return nil, errors.New("sandbox: NewPool called in a worker process")
	}
	if cfg.Role == "" {
		cfg.Role = "worker"
	}
	if cfg.Size <= 0 {
		cfg.Size = runtime.GOMAXPROCS(0)
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 20 * time.Second
	}
	if cfg.Path == "" {
		p, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("sandbox: find executable: %w", err)
		}
		cfg.Path = p
	}
	cfg.Args = append([]string(nil), cfg.Args...)
	cfg.Limits = cfg.Limits.WithDefaults()
	p := &Pool{
		cfg: cfg, idle: make(chan *Worker, cfg.Size), spawner: proc.NewSpawner(),
		done: make(chan struct{}), live: map[*Worker]struct{}{},
	}
	workers := make([]*Worker, cfg.Size)
	errs := make([]error, cfg.Size)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() { workers[i], errs[i] = p.start() })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		_ = p.Close()
		return nil, err
	}
	for _, w := range workers {
		p.idle <- w
	}
	return p, nil
}

// Get returns an idle worker, waiting for one if all are busy or starting.
// It fails with ctx's error or ErrClosed.
func (p *Pool) Get(ctx context.Context) (*Worker, error) {
	select {
	case w := <-p.idle:
		return w, nil
	default:
	}
	select {
	case w := <-p.idle:
		return w, nil
	case <-ctx.Done():
		p.mu.Lock()
		err := p.lastErr
		p.mu.Unlock()
		if err != nil {
			return nil, fmt.Errorf("%w (last start failure: %v)", ctx.Err(), err)
		}
		return nil, ctx.Err()
	case <-p.done:
		return nil, ErrClosed
	}
}

// Put gives an idle worker back to the pool. A worker that has died, or
// any worker after Close, is ended (and replaced if the pool is open).
func (p *Pool) Put(w *Worker) {
	if w.exited() {
		p.Kill(w, "")
		return
	}
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		w.kill("")
		p.forget(w)
		return
	}
	p.idle <- w // never blocks: at most Size workers exist
}

// Kill ends w's whole process group, reaps it, and starts a replacement in
// the background unless the pool is closed. reason, when not empty, is
// why the host killed it and becomes Exit.Cause. It returns how the
// worker ended.
func (p *Pool) Kill(w *Worker, reason string) Exit {
	e := w.kill(reason)
	p.forget(w)
	p.mu.Lock()
	closed := p.closed
	if !closed {
		p.wg.Add(1)
	}
	p.mu.Unlock()
	if !closed {
		go p.replace()
	}
	return e
}

// replace starts a worker for a slot, retrying with back-off until it
// succeeds or the pool closes.
func (p *Pool) replace() {
	defer p.wg.Done()
	backoff := 50 * time.Millisecond
	for {
		w, err := p.start()
		if err == nil {
			p.Put(w)
			return
		}
		p.mu.Lock()
		p.lastErr = err
		p.mu.Unlock()
		select {
		case <-p.done:
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

func (p *Pool) forget(w *Worker) {
	p.mu.Lock()
	delete(p.live, w)
	p.mu.Unlock()
}

// PIDs returns the process ids of the live workers, for tests and
// monitoring.
func (p *Pool) PIDs() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]int, 0, len(p.live))
	for w := range p.live {
		out = append(out, w.pid)
	}
	return out
}

// Size returns the number of workers the pool keeps started.
func (p *Pool) Size() int { return p.cfg.Size }

// Close ends every worker: idle ones are asked to exit and killed if they
// have not within a second; busy ones are killed. It returns when every
// worker process group has been killed or has exited and been reaped, and
// their directories removed. Get and Put fail or end workers afterwards.
// Close may be called more than once.
func (p *Pool) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		p.wg.Wait()
		return nil
	}
	p.closed = true
	close(p.done)
	p.mu.Unlock()
	p.wg.Wait() // replacements have stopped
	p.spawner.Close()
	var wg sync.WaitGroup
	for {
		select {
		case w := <-p.idle:
			wg.Go(func() { w.stop(); p.forget(w) })
			continue
		default:
		}
		break
	}
	wg.Wait()
	p.mu.Lock()
	busy := make([]*Worker, 0, len(p.live))
	for w := range p.live {
		busy = append(busy, w)
	}
	p.mu.Unlock()
	for _, w := range busy {
		w.kill("pool closed")
		p.forget(w)
	}
	return nil
}

// Worker is one worker process seen from the host. Its frames are read by
// a goroutine of its own into Frames.
type Worker struct {
	cmd     *exec.Cmd
	pid     int
	dir     string
	w       *wire.Writer
	wf, rf  *os.File // host ends of the pipes
	frames  chan wire.Frame
	quit    chan struct{} // closed when the worker is ended; stops the reader
	readEnd chan struct{} // closed when the reader has returned
	stderr  *tailBuffer
	once    sync.Once
	exit    Exit
	handler atomic.Pointer[Handler]
	readErr atomic.Pointer[error] // why the reading ended; set before frames closes
}

// ReadErr returns why the reading of w's frames ended, once Frames is
// closed: nil at the end of the stream, else the error, such as a
// *wire.FrameSizeError for a frame over the limit. While the reading goes
// on it returns nil.
func (w *Worker) ReadErr() error {
	if p := w.readErr.Load(); p != nil {
		return *p
	}
	return nil
}

// Handler takes frames of a worker on the goroutine that reads them (see
// Worker.SetHandler). It is called once per frame, in order, and must
// return quickly: it returns nil to leave the frame to Frames, or the
// function that handles the frame, which may block.
type Handler func(f wire.Frame) (handle func())

// HandoffDelay is how long a handling function returned by a Handler may
// block the reading of a worker's frames: past it (up to twice as long:
// one timer serves a run of quick handlings), another goroutine takes
// over the reading, and the function goes on alone.
const HandoffDelay = 500 * time.Microsecond

// SetHandler installs h for the frames w sends from now on, or removes
// the handler when h is nil. A frame the handler takes costs no switch
// between goroutines: it is handled where it was read, which is what a
// tool call's round trip needs; while a handler is installed, the reader
// also spins briefly for the next frame before it blocks. The reading
// stays live whatever the handling functions do: one that has not
// returned within HandoffDelay hands the reading to a new goroutine, and
// so on, so a slow function delays the frames after it by about that
// much, once.
func (w *Worker) SetHandler(h Handler) {
	if h == nil {
		w.handler.Store(nil)
		return
	}
	w.handler.Store(&h)
}

// PID returns the worker's process id (also its process group id).
func (w *Worker) PID() int { return w.pid }

// Send writes one frame to the worker.
func (w *Worker) Send(f wire.Frame) error { return w.w.Write(f) }

// Writer returns the writer of frames to the worker, safe for concurrent
// use.
func (w *Worker) Writer() *wire.Writer { return w.w }

// Frames returns the frames the worker sends. It is closed when the
// worker's pipe ends (the worker exited or was killed).
func (w *Worker) Frames() <-chan wire.Frame { return w.frames }

func (w *Worker) exited() bool {
	select {
	case <-w.readEnd:
		return true
	default:
		return false
	}
}

// start starts a worker and waits for its hello.
func (p *Pool) start() (*Worker, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrStart, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("%w: %v", ErrStart, err)
	}
	dir, err := os.MkdirTemp("", "toolscript-worker-")
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("%w: working directory: %v", ErrStart, err)
	}
	cmd := exec.Command(p.cfg.Path, p.cfg.Args...)
	cmd.Env = []string{workerEnv + "=" + p.cfg.Role, limitsEnv + "=" + p.cfg.Limits.encode()}
	cmd.Dir = dir
	cmd.ExtraFiles = []*os.File{inR, outW} // fd 3: frames in, fd 4: frames out
	w := &Worker{
		cmd: cmd, dir: dir, w: wire.NewWriter(inW), wf: inW, rf: outR,
		frames: make(chan wire.Frame, 64), quit: make(chan struct{}), readEnd: make(chan struct{}),
		stderr: &tailBuffer{max: 4096},
	}
	cmd.Stderr = w.stderr
	if p.cfg.Stderr != nil {
		cmd.Stderr = io.MultiWriter(w.stderr, p.cfg.Stderr)
	}
	cmd.WaitDelay = time.Second
	select {
	case <-p.done:
		err = ErrClosed
	default:
		if err = p.spawner.Start(cmd); errors.Is(err, proc.ErrClosed) {
			err = ErrClosed
		}
	}
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: %s: %v", ErrStart, p.cfg.Path, err)
	}
	w.pid = cmd.Process.Pid
	// Read the worker's frames with blocking reads on a thread of their
	// own rather than through the network poller: a tool-call round
	// trip wakes the reader directly, several microseconds sooner.
	_ = outR.Fd()
	p.mu.Lock()
	p.live[w] = struct{}{}
	p.mu.Unlock()
	go w.read()

	timer := time.NewTimer(p.cfg.StartTimeout)
	defer timer.Stop()
	const hint = " (does main hand workers to sandbox.Serve, e.g. engine.MaybeServeWorker first?)"
	fail := func(msg string) (*Worker, error) {
		e := w.kill("")
		p.forget(w)
		return nil, fmt.Errorf("%w: %s: %s%s", ErrStart, msg, e, hint)
	}
	select {
	case f, ok := <-w.frames:
		if !ok {
			return fail("exited before its hello")
		}
		var h wire.Hello
		if f.Type != wire.TypeHello || f.Decode(&h) != nil {
			return fail(fmt.Sprintf("sent %v instead of hello", f.Type))
		}
		if h.Version != wire.Version {
			return fail(fmt.Sprintf("speaks protocol version %d, want %d", h.Version, wire.Version))
		}
	case <-timer.C:
		return fail(fmt.Sprintf("no hello within %v", p.cfg.StartTimeout))
	case <-p.done:
		return fail("pool closed")
	}
	return w, nil
}

// frameReader is the reading of a worker's frames by one goroutine; it
// is handed to another when a handling function blocks (see SetHandler).
type frameReader struct {
	w     *Worker
	r     *wire.Reader
	state atomic.Int32 // readReading, readHandling or readHandedOff
	since atomic.Int64 // start of the current handling, in clock()
	armed atomic.Bool  // the timer is set
	timer *time.Timer  // runs check
}

// newFrameReader returns a reader of r for w, with its timer stopped.
func newFrameReader(w *Worker, r *wire.Reader) *frameReader {
	fr := &frameReader{w: w, r: r}
	fr.timer = time.AfterFunc(time.Hour, fr.check)
	fr.timer.Stop()
	return fr
}

var epoch = time.Now()

// clock is a cheap monotonic time in nanoseconds.
func clock() int64 { return int64(time.Since(epoch)) }

const (
	readReading = iota
	readHandling
	readHandedOff
)

// read forwards the worker's frames until its pipe ends or it is ended.
func (w *Worker) read() {
	spin := func() bool { return w.handler.Load() != nil }
	newFrameReader(w, wire.NewReader(newSpinReader(w.rf, spin))).loop()
}

// loop reads frames until the stream ends, or until a handling function
// outlasts HandoffDelay: then the reading goes on in another goroutine
// and loop returns once the function has.
func (fr *frameReader) loop() {
	w := fr.w
	for {
		f, err := fr.r.Read()
		if err != nil {
			fr.stop()
			if err != io.EOF {
				w.readErr.Store(&err)
			}
			close(w.frames)
			close(w.readEnd)
			return
		}
		if h := w.handler.Load(); h != nil {
			if handle := (*h)(f); handle != nil {
				if !fr.handle(handle) {
					return
				}
				continue
			}
		}
		select {
		case w.frames <- f:
		case <-w.quit:
			fr.stop()
			close(w.frames)
			close(w.readEnd)
			return
		}
	}
}

// stop stops the timer of a reader that is done.
func (fr *frameReader) stop() {
	fr.timer.Stop()
}

// handle runs a handling function under the hand-off timer and reports
// whether this goroutine still owns the reading. The timer is not reset
// for each handling (setting a timer can wake a thread of the runtime):
// once set, it checks the handling of the moment when it fires.
func (fr *frameReader) handle(handle func()) bool {
	fr.since.Store(clock())
	fr.state.Store(readHandling)
	if fr.armed.CompareAndSwap(false, true) {
		fr.timer.Reset(HandoffDelay)
	}
	handle()
	return fr.state.CompareAndSwap(readHandling, readReading)
}

// check runs on the timer: it hands the reading to a new goroutine (this
// one, the timer's) when a handling has lasted HandoffDelay, and sets
// itself again while one is under way.
func (fr *frameReader) check() {
	fr.armed.Store(false)
	if fr.state.Load() != readHandling {
		return
	}
	if left := HandoffDelay - time.Duration(clock()-fr.since.Load()); left > 0 {
		if fr.armed.CompareAndSwap(false, true) {
			fr.timer.Reset(left)
		}
		return
	}
	if fr.state.CompareAndSwap(readHandling, readHandedOff) {
		newFrameReader(fr.w, fr.r).loop()
	}
}

// kill kills w's process group, reaps it and releases its pipes and
// directory. It is idempotent and returns how w ended.
func (w *Worker) kill(reason string) Exit {
	w.once.Do(func() {
		proc.KillGroup(w.cmd)
		w.finish(reason)
	})
	return w.exit
}

// stop asks w to exit, waits a second for it, then kills it anyway.
func (w *Worker) stop() {
	w.once.Do(func() {
		_ = w.w.Send(wire.TypeShutdown, 0, nil)
		w.wf.Close()
		timer := time.NewTimer(time.Second)
		defer timer.Stop()
		for exited := false; !exited; {
			select {
			case _, ok := <-w.frames:
				exited = !ok
			case <-timer.C:
				exited = true
			}
		}
		proc.KillGroup(w.cmd) // the group may hold stragglers
		w.finish("")
	})
}

func (w *Worker) finish(reason string) {
	err := w.cmd.Wait()
	close(w.quit)
	w.wf.Close()
	w.rf.Close()
	<-w.readEnd
	os.RemoveAll(w.dir)
	w.exit = classify(w.cmd.ProcessState, err, w.stderr.String(), reason)
}

// Exit describes how a worker ended.
type Exit struct {
	// Cause is what ended the worker, for people and models: "memory
	// limit", "stack overflow", "CPU time limit", "concurrent map
	// writes", "panic: ..." (a panic outside the script's guards), the
	// host's reason when the host killed it, or the exit status.
	Cause string
	// Status is the process status, e.g. "exit status 2" or "signal: killed".
	Status string
	// Stderr is the tail of the worker's standard error.
	Stderr string
}

// String renders "cause (status)".
func (e Exit) String() string {
	if e.Cause == e.Status || e.Status == "" {
		return e.Cause
	}
	return e.Cause + " (" + e.Status + ")"
}

// classify finds why a worker ended from its status and standard error.
func classify(st *os.ProcessState, waitErr error, stderr, reason string) Exit {
	e := Exit{Stderr: stderr, Status: "exited"}
	switch {
	case st != nil:
		e.Status = st.String()
	case waitErr != nil:
		e.Status = waitErr.Error()
	}
	has := func(s ...string) bool {
		for _, x := range s {
			if strings.Contains(stderr, x) {
				return true
			}
		}
		return false
	}
	switch {
	case reason != "":
		e.Cause = reason
	case st != nil && st.ExitCode() == ExitCPU || has(cpuMessage):
		e.Cause = "CPU time limit"
	case st != nil && isSignal(st, syscall.SIGKILL) && !has("fatal error", "panic:"):
		e.Cause = "killed by SIGKILL (CPU time limit or the kernel's out-of-memory killer)"
	case has("stack overflow", "stack exceeds"):
		e.Cause = "stack overflow"
	case has("out of memory", "cannot allocate memory", "ThreadSanitizer failed to allocate", "errno=12"):
		e.Cause = "memory limit"
	case has("failed to create new OS thread", "pthread_create failed"):
		// EAGAIN from thread creation is RLIMIT_NPROC, or (through libc,
		// as in race-enabled builds) a thread stack that RLIMIT_DATA
		// left no room for.
		e.Cause = "memory limit or process limit (no new OS thread)"
	case has("concurrent map"):
		e.Cause = firstLine(stderr, "fatal error: ")
	case has("panic: "):
		e.Cause = "panic: " + firstLine(stderr, "panic: ")
	case has("fatal error: "):
		e.Cause = firstLine(stderr, "fatal error: ")
	case st != nil && st.ExitCode() == ExitSetup:
		e.Cause = "setup failed: " + strings.TrimSpace(lastLine(stderr))
	default:
		e.Cause = e.Status
	}
	return e
}

func isSignal(st *os.ProcessState, sig syscall.Signal) bool {
	ws, ok := st.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}

// firstLine returns the rest of the first line that contains prefix.
func firstLine(s, prefix string) string {
	i := strings.Index(s, prefix)
	if i < 0 {
		return ""
	}
	s = s[i+len(prefix):]
	if j := strings.IndexByte(s, '\n'); j >= 0 {
		s = s[:j]
	}
	return strings.TrimSpace(s)
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// tailBuffer keeps the first head bytes and the last max bytes written to
// it: a fatal error's message comes first, the goroutine dump after.
type tailBuffer struct {
	mu   sync.Mutex
	max  int
	head []byte
	b    []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - len(t.head); room > 0 {
		t.head = append(t.head, p[:min(room, len(p))]...)
		return len(p), nil
	}
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.b) == 0 {
		return string(t.head)
	}
	return string(t.head) + "\n...\n" + string(t.b)
}
