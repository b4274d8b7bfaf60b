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
// starts a goroutine) are replaced, per execution, by versions that run it
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

// onEnd registers a clean-up for the end of the execution.
func (x *execution) onEnd(stop func()) {
	x.mu.Lock()
	x.stops = append(x.stops, stop)
	x.mu.Unlock()
}

// endCallbacks stops the timers and context registrations of the
// execution's callbacks.
func (x *execution) endCallbacks() {
	x.mu.Lock()
	stops := x.stops
	x.stops = nil
	x.mu.Unlock()
	for _, stop := range stops {
		stop()
	}
}

// afterFunc is time.AfterFunc.
func (x *execution) afterFunc(d time.Duration, f func()) *time.Timer {
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
	stop = context.AfterFunc(ctx, func() {
		if x.tryGoStart() {
			x.callback(f)
		}
	})
	x.onEnd(func() { stop() })
	return stop
}

// waitGroupGo is (*sync.WaitGroup).Go of wg: the goroutine counts from
// the call on, as a go statement's does.
func (x *execution) waitGroupGo(wg *sync.WaitGroup) func(func()) {
	return func(f func()) {
		x.goStart()
		wg.Add(1)
		go func() {
			defer wg.Done()
			x.callback(f)
		}()
	}
}

// hostMethods replace native methods, per execution, for the guards other
// than allocation bounds (those are guardedMethods): the goroutine of
// (*sync.WaitGroup).Go, and the printing and Fatal methods of loggers
// (cycles.go).
var hostMethods = map[methodKey]func(x *execution, recv reflect.Value) reflect.Value{}

func init() {
	hostMethods[methodKey{reflect.TypeFor[*sync.WaitGroup](), "Go"}] = func(x *execution, r reflect.Value) reflect.Value {
		return reflect.ValueOf(x.waitGroupGo(r.Interface().(*sync.WaitGroup)))
	}
}
