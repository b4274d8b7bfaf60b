package executor

import (
	"context"
	"errors"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Handle controls and observes one submitted execution. All methods are
// safe for concurrent use.
type Handle interface {
	// ID returns the execution id: the one given with WithID, or one chosen
	// by the backend, unique within the process.
	ID() string
	// Status returns the current status.
	Status() Status
	// Result blocks until the execution ends or timeout passes (timeout <= 0
	// waits for ever). It returns the function's value, or its error
	// (*CancelledError, *TimeoutError, *FuncPanicError, ...);
	// ErrResultTimeout means the wait ended first and the execution goes on.
	Result(timeout time.Duration) (any, error)
	// Cancel requests cancellation and reports whether it took effect, that
	// is whether the execution was still Pending or Running; it is then
	// Cancelled at once, whatever the function still does.
	Cancel() bool
	// OnProgress registers a callback for progress reports. A callback
	// registered after reports were made is called at once with the latest.
	// Callbacks run one at a time, in report order, on the reporting
	// goroutine (or the registering one, for that first call); they must be
	// quick and must not call OnProgress on the same handle.
	OnProgress(cb func(Progress))
	// Done returns a channel closed when the status becomes final.
	Done() <-chan struct{}
}

// Progress is one progress report of an execution.
type Progress struct {
	Fraction float64 // in [0, 1]
	Message  string
	Detail   any // as reported; JSON-decoded for the process backend
}

var (
	taskSeq    atomic.Uint64
	closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()
)

// Task is the Handle implementation of this package's backends, exported so
// that custom backends can reuse it: create one with NewTask, call Start when
// the execution begins (it returns the ExecutionContext to pass to the
// function, see Invoke), then Finish with the function's results; Fail
// rejects or fails it. Task enforces the transitions documented on Status:
// calls that would make an illegal transition do nothing and return false.
type Task struct {
	seq uint64
	id  string

	// Set before the task is shared, read-only afterwards.
	fn      any
	kind    fnKind
	kwargs  map[string]any
	args    []byte          // JSON arguments (process backend)
	parent  context.Context // from WithContext, or nil
	timeout time.Duration

	mu       sync.Mutex
	status   Status
	value    any
	err      error
	done     chan struct{} // made lazily
	ctx      context.Context
	cancel   context.CancelCauseFunc
	timer    *time.Timer
	stopWait func() bool // stops the WithContext watcher

	pmu       sync.Mutex
	listeners []func(Progress)
	last      Progress
	hasLast   bool
}

var _ Handle = (*Task)(nil)

// NewTask returns a Pending task configured by the options a backend's
// Submit received: its id, run timeout, parent context and progress
// callback. When the WithContext context ends, the task is cancelled.
func NewTask(opts ...SubmitOption) *Task { return newTask(collectOptions(opts...)) }

func newTask(o submitOptions) *Task {
	t := &Task{seq: taskSeq.Add(1), id: o.ID, parent: o.Context, timeout: o.Timeout}
	if o.Progress != nil {
		t.listeners = []func(Progress){o.Progress}
	}
	t.watch(o.Context)
	return t
}

// ID implements Handle.
func (t *Task) ID() string {
	if t.id != "" {
		return t.id
	}
	return "exec-" + strconv.FormatUint(t.seq, 10)
}

// Status implements Handle.
func (t *Task) Status() Status {
	t.mu.Lock()
	s := t.status
	t.mu.Unlock()
	return s
}

// Done implements Handle.
func (t *Task) Done() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.status.Terminal() {
		return closedChan
	}
	if t.done == nil {
		t.done = make(chan struct{})
	}
	return t.done
}

// Result implements Handle.
func (t *Task) Result(timeout time.Duration) (any, error) {
	t.mu.Lock()
	if t.status.Terminal() {
		v, err := t.value, t.err
		t.mu.Unlock()
		return v, err
	}
	if t.done == nil {
		t.done = make(chan struct{})
	}
	done := t.done
	t.mu.Unlock()
	if timeout > 0 {
		timer := time.NewTimer(timeout)
		defer timer.Stop()
		select {
		case <-done:
		case <-timer.C:
			return nil, ErrResultTimeout
		}
	} else {
		<-done
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.value, t.err
}

// Cancel implements Handle.
func (t *Task) Cancel() bool { return t.cancelWith(context.Canceled) }

func (t *Task) cancelWith(cause error) bool {
	return t.end(Cancelled, nil, &CancelledError{ID: t.ID(), Err: cause}, cause, false)
}

// OnProgress implements Handle.
func (t *Task) OnProgress(cb func(Progress)) {
	if cb == nil {
		return
	}
	t.pmu.Lock()
	defer t.pmu.Unlock()
	t.listeners = append(t.listeners, cb)
	if t.hasLast {
		cb(t.last)
	}
}

// Report delivers a progress report to the callbacks. Reports made after the
// status became final are dropped. Fraction is clamped to [0, 1]; NaN is 0.
func (t *Task) Report(p Progress) {
	if t.Status().Terminal() {
		return
	}
	switch {
	case math.IsNaN(p.Fraction) || p.Fraction < 0:
		p.Fraction = 0
	case p.Fraction > 1:
		p.Fraction = 1
	}
	t.pmu.Lock()
	defer t.pmu.Unlock()
	t.last, t.hasLast = p, true
	for _, cb := range t.listeners {
		cb(p)
	}
}

// Start moves the task from Pending to Running and returns the
// ExecutionContext for the function: a child of the WithContext context (or
// of context.Background()) that is cancelled when the task ends, with the
// WithTimeout run timeout starting now. It returns false when the task is no
// longer Pending (it was cancelled or failed).
func (t *Task) Start() (*ExecutionContext, bool) { return t.start(true) }

// start moves Pending to Running, arming the timeout, and makes the
// ExecutionContext when withCtx is set.
func (t *Task) start(withCtx bool) (*ExecutionContext, bool) {
	if t.parent != nil && t.parent.Err() != nil {
		t.cancelWith(context.Cause(t.parent))
		return nil, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.status != Pending {
		return nil, false
	}
	t.status = Running
	var ec *ExecutionContext
	if withCtx {
		parent := t.parent
		if parent == nil {
			parent = context.Background()
		}
		ctx, cancel := context.WithCancelCause(parent)
		t.ctx, t.cancel = ctx, cancel
		ec = &ExecutionContext{task: t, ctx: ctx}
		if t.timeout > 0 {
			ec.deadline = time.Now().Add(t.timeout)
		}
	}
	if t.timeout > 0 {
		t.timer = time.AfterFunc(t.timeout, t.expire)
	}
	return ec, true
}

func (t *Task) expire() {
	err := &TimeoutError{Timeout: t.timeout}
	t.end(Failed, nil, err, err, false)
}

// Finish ends a Running task with the function's results: Completed when err
// is nil, else Failed, or Cancelled when the task's context was cancelled
// (through WithContext) and the function gave up with an error. It returns
// false, doing nothing, when the task is not Running.
func (t *Task) Finish(value any, err error) bool {
	if err == nil {
		return t.end(Completed, value, nil, nil, true)
	}
	t.mu.Lock()
	ctx := t.ctx
	t.mu.Unlock()
	if ctx != nil && ctx.Err() != nil {
		cause := context.Cause(ctx)
		return t.end(Cancelled, nil, &CancelledError{ID: t.ID(), Err: cause}, cause, true)
	}
	return t.end(Failed, nil, err, nil, true)
}

// Fail moves a Pending or Running task to Failed with err (which must not be
// nil) and reports whether it did.
func (t *Task) Fail(err error) bool {
	if err == nil {
		err = errors.New("executor: task failed")
	}
	return t.end(Failed, nil, err, err, false)
}

// end makes the transition to a final status if it is legal, then cancels
// the context with cause and stops the timer and the watcher.
// With fromRunning it only leaves Running.
func (t *Task) end(to Status, value any, err, cause error, fromRunning bool) bool {
	t.mu.Lock()
	if !canTransition(t.status, to) || (fromRunning && t.status != Running) {
		t.mu.Unlock()
		return false
	}
	// The context ends before the final status shows: whoever sees the
	// result (Result, Done, Status) sees the execution's context done.
	// Cancelling runs no code of the task's (context.AfterFunc's
	// functions run in goroutines of their own), so it may hold t.mu.
	if t.cancel != nil {
		if cause == nil {
			cause = context.Canceled
		}
		t.cancel(cause)
	}
	t.status, t.value, t.err = to, value, err
	if t.done != nil {
		close(t.done)
	}
	timer, stopWait := t.timer, t.stopWait
	t.mu.Unlock()
	if timer != nil {
		timer.Stop()
	}
	if stopWait != nil {
		stopWait()
	}
	return true
}

// watch cancels the task when ctx is done.
func (t *Task) watch(ctx context.Context) {
	if ctx == nil || ctx.Done() == nil {
		return
	}
	if ctx.Err() != nil {
		t.cancelWith(context.Cause(ctx))
		return
	}
	stop := context.AfterFunc(ctx, func() { t.cancelWith(context.Cause(ctx)) })
	t.mu.Lock()
	if t.status.Terminal() {
		t.mu.Unlock()
		stop()
		return
	}
	t.stopWait = stop
	t.mu.Unlock()
}

// run is the whole life of a prepared task in the calling goroutine.
func (t *Task) run() {
	ec, ok := t.start(t.kind != kindPlain)
	if !ok {
		return
	}
	returned := false
	defer func() {
		if !returned { // runtime.Goexit in the function
			t.Fail(errGoexit)
		}
	}()
	v, err := call(ec, t.fn, t.kind, t.kwargs)
	returned = true
	t.Finish(v, err)
}

var errGoexit = errors.New("executor: function called runtime.Goexit")
