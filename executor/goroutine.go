package executor

import (
	"runtime"
	"sync"
)

// defaultMaxWorkers is the worker bound of a GoroutineBackend created with
// maxWorkers <= 0: min(32, GOMAXPROCS+4), the default of Python's thread
// pool, suited to tools that mostly wait on I/O.
func defaultMaxWorkers() int { return min(32, runtime.GOMAXPROCS(0)+4) }

// GoroutineBackend runs functions on a bounded set of worker goroutines in
// this process (the Python ToolRegistry's
// ThreadBackend). Workers start on demand, up to
// the bound, and stay until Shutdown; submissions beyond the bound wait in a
// FIFO queue, so goroutines never grow with the load. Cancellation and
// timeouts are cooperative for the function (through its context) and
// immediate for the handle.
//
// It is safe for concurrent use. Use NewGoroutineBackend.
type GoroutineBackend struct {
	d dispatcher
}

var _ Backend = (*GoroutineBackend)(nil)

// NewGoroutineBackend returns a backend running at most maxWorkers functions
// at once. Zero (or a negative value, as a bound of workers cannot be
// lifted) means the default: min(32, GOMAXPROCS+4), the default of
// Python's thread pool, suited to tools that mostly wait on I/O.
func NewGoroutineBackend(maxWorkers int) *GoroutineBackend {
	if maxWorkers <= 0 {
		maxWorkers = defaultMaxWorkers()
	}
	b := &GoroutineBackend{}
	b.d.init(maxWorkers, func(w *worker) { go b.work(w) })
	return b
}

// MaxWorkers returns the worker bound.
func (b *GoroutineBackend) MaxWorkers() int { return b.d.max }

// Submit queues fn(kwargs) and returns its handle at once. kwargs is passed
// to fn as is, not copied. A function of unsupported shape, or a Submit after
// Shutdown, gives a Failed handle.
func (b *GoroutineBackend) Submit(fn any, kwargs map[string]any, opts ...SubmitOption) Handle {
	t, err := newLocalTask(fn, kwargs, opts)
	if err != nil {
		t.Fail(err)
		return t
	}
	if !b.d.push(t) {
		t.Fail(ErrShutdown)
	}
	return t
}

func (b *GoroutineBackend) work(w *worker) {
	defer b.d.exit(w)
	for t := b.d.next(w); t != nil; t = b.d.next(w) {
		t.run()
	}
}

// Shutdown stops the backend: later Submits fail with ErrShutdown. With
// wait, queued and running executions finish normally and Shutdown returns
// when every worker has exited. Without wait, queued executions and running
// ones are Cancelled (cause ErrShutdown) and Shutdown returns at once; each
// worker exits as soon as its function returns, which for a function that
// ignores its context is when it likes. Shutdown may be called more than
// once.
func (b *GoroutineBackend) Shutdown(wait bool) { b.d.shutdown(wait, wait) }

// newLocalTask makes a task for a backend running fn in this process.
func newLocalTask(fn any, kwargs map[string]any, opts []SubmitOption) (*Task, error) {
	t := NewTask(opts...)
	f, k, _, err := resolve(fn)
	if err != nil {
		return t, err
	}
	t.fn, t.kind, t.kwargs = f, k, kwargs
	return t, nil
}

// InlineBackend runs each function in the goroutine that calls Submit, which
// returns when it is done: no queue and no hand-off, for trivial functions
// where scheduling would cost more than the call. Cancel has no effect on
// its handles (they are final on return); a timeout still cancels the
// function's context and, if the function runs past it, makes the handle
// Failed (ErrTimeout) on return. It is safe for concurrent use and has no
// bound: every caller runs its own function. The zero value is ready to use.
type InlineBackend struct {
	mu     sync.Mutex
	closed bool
}

var _ Backend = (*InlineBackend)(nil)

// NewInlineBackend returns an InlineBackend.
func NewInlineBackend() *InlineBackend { return &InlineBackend{} }

// Submit runs fn(kwargs) now and returns its final handle.
func (b *InlineBackend) Submit(fn any, kwargs map[string]any, opts ...SubmitOption) Handle {
	t, err := newLocalTask(fn, kwargs, opts)
	if err != nil {
		t.Fail(err)
		return t
	}
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		t.Fail(ErrShutdown)
		return t
	}
	t.run()
	return t
}

// Shutdown makes later Submits fail with ErrShutdown. There is nothing to
// wait for: every execution ended in its Submit.
func (b *InlineBackend) Shutdown(wait bool) {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
}
