package engine

import (
	"context"
	"reflect"
	"sync"
	"time"
)

// Callbacks: the standard functions that run a script function on a
// goroutine of their own (time.AfterFunc, context.AfterFunc and
// (*sync.WaitGroup).Go; no other exported function of the allowlist
// starts a goroutine) are replaced, per execution (internal/policy lists
// them; they call the hooks of hooks.go), by versions that run it
// as a goroutine of the script: it counts against MaxGoroutines, a panic
// in it ends the execution with that panic, os.Exit in it ends the
// execution with its code, and it does not run once the execution has
// ended, when its timers and context registrations are stopped too.

// tryGoStart counts a goroutine of the script that is about to start; past
// MaxGoroutines it ends the execution and reports false.
func (x *execution) tryGoStart() bool {
	if n := x.goroutines.Add(1); x.limits.MaxGoroutines >= 0 && n > int64(x.limits.MaxGoroutines) {
		x.goroutines.Add(-1)
		x.abort(&LimitError{Limit: "MaxGoroutines", Value: int64(x.limits.MaxGoroutines)})
		return false
	}
	return true
}

// callback runs f as the body of a goroutine of the script that
// tryGoStart (or goStart) counted.
func (x *execution) callback(f func()) {
	defer func() { x.goEnd(recover()) }()
	if x.ctx.Err() == nil {
		f()
	}
}

// onEnd registers a clean-up for the end of the execution; once the
// execution has ended (a timer armed while the script unwinds), it runs
// the clean-up at once.
func (x *execution) onEnd(stop func()) {
	x.mu.Lock()
	if !x.stopped {
		x.stops = append(x.stops, stop)
		stop = nil
	}
	x.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// endCallbacks stops the timers and context registrations of the
// execution's callbacks.
func (x *execution) endCallbacks() {
	x.mu.Lock()
	stops := x.stops
	x.stops, x.stopped = nil, true
	x.mu.Unlock()
	for _, stop := range stops {
		stop()
	}
}

// afterFunc is time.AfterFunc.
func (x *execution) afterFunc(d time.Duration, f func()) *time.Timer {
	x.timers.Store(true)
	t := time.AfterFunc(d, func() {
		if x.tryGoStart() {
			x.callback(f)
		}
	})
	x.onEnd(func() { t.Stop() })
	return t
}

// contextAfterFunc is context.AfterFunc.
func (x *execution) contextAfterFunc(ctx context.Context, f func()) (stop func() bool) {
	x.timers.Store(true)
	stop = context.AfterFunc(ctx, func() {
		if x.tryGoStart() {
			x.callback(f)
		}
	})
	x.onEnd(func() { stop() })
	return stop
}

// waitGroupGo is wg.Go(f): the goroutine counts from the call on, as a
// go statement's does.
func (x *execution) waitGroupGo(wg *sync.WaitGroup, f func()) {
	x.goStart()
	x.waits.add(x, wg, 1)
	go func() {
		defer x.waits.add(x, wg, -1)
		x.callback(f)
	}()
}

// waitGroups keeps the count of every WaitGroup the script adds to
// (Add, Done, Go), so that the end of the execution can release a Wait
// still blocked in native code: a goroutine the stop ended before it ran
// its deferred Done (it had not started yet) would otherwise leave a
// Wait of the script, in a native call nothing can interrupt, blocked for
// good.
type waitGroups struct {
	once     sync.Once // registers release with the execution
	mu       sync.Mutex
	n        map[*sync.WaitGroup]int
	released bool
}

// add is wg.Add(delta) counted, with Go's panics; after the release it
// does nothing (a stopped goroutine's deferred Done).
func (w *waitGroups) add(x *execution, wg *sync.WaitGroup, delta int) {
	w.once.Do(func() { x.onEnd(w.release) }) // not under w.mu: release may run at once
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.released {
		return
	}
	wg.Add(delta) // may panic: negative counter, as in Go
	if w.n == nil {
		w.n = map[*sync.WaitGroup]int{}
	}
	if w.n[wg] += delta; w.n[wg] == 0 {
		delete(w.n, wg)
	}
}

// release brings every WaitGroup of the script back to zero, which wakes
// its waiters; it runs when the execution ends (endCallbacks).
func (w *waitGroups) release() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.released = true
	for wg, n := range w.n {
		if n > 0 {
			wg.Add(-n)
		}
	}
	w.n = nil
}

// Contexts: a context type of the script given to the context package as
// a parent has its methods called by the package on a goroutine of its
// own (the one that waits for the parent to be done), where a panic would
// end the host. Every function of the package that takes a parent wraps a
// parent that is not the package's own in guardedContext (hooks.go).

// guardedContext calls the methods of a script's context; a panic in one
// ends the execution with that panic, and the context then reads as
// cancelled (Done closed, Err context.Canceled), so the package's own
// goroutine ends too.
type guardedContext struct {
	x *execution
	c context.Context
}

var closedDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (g guardedContext) Deadline() (d time.Time, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			g.x.callbackPanic(r)
		}
	}()
	return g.c.Deadline()
}

func (g guardedContext) Done() (ch <-chan struct{}) {
	defer func() {
		if r := recover(); r != nil {
			g.x.callbackPanic(r)
			ch = closedDone
		}
	}()
	return g.c.Done()
}

func (g guardedContext) Err() (err error) {
	defer func() {
		if r := recover(); r != nil {
			g.x.callbackPanic(r)
			err = context.Canceled
		}
	}()
	return g.c.Err()
}

func (g guardedContext) Value(key any) (v any) {
	defer func() {
		if r := recover(); r != nil {
			g.x.callbackPanic(r)
		}
	}()
	return g.c.Value(key)
}

// parent returns c, or c guarded when it is not one of the context
// package's own (or already guarded).
func (x *execution) parent(c context.Context) context.Context {
	if c == nil {
		return nil // the package panics with its own message
	}
	t := reflect.TypeOf(c)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.PkgPath() == "context" {
		return c
	}
	if _, ok := c.(guardedContext); ok {
		return c
	}
	return guardedContext{x: x, c: c}
}
