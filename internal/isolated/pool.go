package isolated

import (
	"io"
	"sync/atomic"
	"time"

	"github.com/toolscript/toolscript/internal/proc"
	"github.com/toolscript/toolscript/internal/wire"
)

// Errors of the package.
var (
	// ErrClosed reports use of a closed Pool.
	ErrClosed = proc.ErrClosed
	// ErrStart is matched by the error of a worker that did not start or
	// did not say hello (a *proc.StartError).
	ErrStart = proc.ErrStart
)

// Config configures a Pool. Its zero value works in a binary whose main
// calls the hook of child processes (engine.MaybeServeWorker) first.
type Config struct {
	// Role is the role the workers are started for: the one the hook runs
	// for them (see package internal/proc). Default "worker".
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
	// StartTimeout bounds a worker's start up to its hello. Default:
	// proc.DefaultStartTimeout (20s), the executor's children's too.
	StartTimeout time.Duration
	// Stderr receives a copy of the workers' standard error. Default:
	// discarded (the first and last 4 KiB of each worker's are kept for
	// Exit).
	Stderr io.Writer
	// Pipes has the frames cross the pipes even where they could cross
	// in shared memory (Linux on amd64 and arm64; see
	// proc.Config.SharedMemory), to compare the two or to test the pipes.
	Pipes bool
}

// Pool keeps Size worker processes started: the one pool of child
// processes of package internal/proc, the executor's process backend's
// too. A caller takes an idle worker with Get and gives it back with Put,
// or ends it with Kill (which starts a replacement in the background).
// Close ends every worker. A Pool is safe for concurrent use.
type Pool = proc.Pool[*Worker]

// NewPool starts cfg.Size workers, waits until each has said hello, and
// returns the pool. It fails if a worker does not start (typically because
// main does not call the hook, engine.MaybeServeWorker).
func NewPool(cfg Config) (*Pool, error) {
	if cfg.Role == "" {
		cfg.Role = "worker"
	}
	l := cfg.Limits.WithDefaults()
	return proc.NewPool(proc.Config{
		Role: cfg.Role, Size: cfg.Size, Path: cfg.Path, Args: cfg.Args,
		Env: append([]string{limitsEnv + "=" + l.encode()}, profileEnv()...), TempDir: true, Limited: true,
		StartTimeout: cfg.StartTimeout, Stderr: cfg.Stderr, SharedMemory: !cfg.Pipes,
		Hint: " (does main call engine.MaybeServeWorker first?)",
	}, func(c *proc.Child) *Worker { return &Worker{Child: c} })
}

// Worker is one worker process seen from the host: a child of package
// internal/proc (its PID, Send, Writer, Frames and ReadErr), whose frames
// a goroutine of its own reads, handing them to its Handler or to Frames.
type Worker struct {
	*proc.Child
	handler atomic.Pointer[Handler]
	lists   []string // the keys of the tool lists the worker holds (keptLists); its caller's
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

// readSpin is how long the reading of a worker's frames spins for data
// after the last it got, while a handler is installed.
const readSpin = 50 * time.Microsecond

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

// Read forwards the worker's frames until its pipe ends or it is ended;
// the pool runs it once the worker has said hello.
func (w *Worker) Read() {
	// Read the worker's frames with blocking reads on a thread of their
	// own rather than through the network poller: a tool-call round
	// trip wakes the reader directly, several microseconds sooner.
	spin := func() bool { return w.handler.Load() != nil }
	if ring := w.Ring(); ring != nil {
		// Shared memory: the reader spins on the ring's words alone.
		ring.SetSpin(spin, readSpin)
		newFrameReader(w, wire.NewReader(ring)).loop()
		return
	}
	_ = w.Out().Fd()
	newFrameReader(w, wire.NewReader(newSpinReader(w.Out(), spin))).loop()
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
			w.EndFrames(err)
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
		if !w.Deliver(f) {
			fr.stop()
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

// Exit describes how a worker ended (see proc.Exit).
type Exit = proc.Exit
