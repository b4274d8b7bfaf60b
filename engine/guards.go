package engine

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

// Guards: the host side of the checks the normaliser inserts into scripts
// (internal/normalize, goroutines.go), and the memory watchdog.

// goStart is called before each go statement of the script.
func (x *execution) goStart() {
	if n := x.goroutines.Add(1); x.limits.MaxGoroutines >= 0 && n > int64(x.limits.MaxGoroutines) {
		x.goroutines.Add(-1)
		x.limit(&LimitError{Limit: "MaxGoroutines", Value: int64(x.limits.MaxGoroutines)})
	}
}

// goEnd is deferred by every goroutine of the script with its recovered
// panic: a panic in a goroutine ends the execution with that panic as the
// error instead of ending the host process.
func (x *execution) goEnd(r any) {
	x.goroutines.Add(-1)
	x.callbackPanic(r)
}

// callbackPanic ends the execution with r, a panic of script code that
// nothing of the script can recover (the top of one of its goroutines).
func (x *execution) callbackPanic(r any) {
	r = unwrapValue(r)
	if r == nil || r == interp.ErrStopped {
		return // nothing, or a stopped goroutine: the execution has ended
	}
	switch r := r.(type) {
	case *LimitError:
		x.abort(r)
		return
	case *exitSignal:
		x.abort(r)
		return
	}
	pe := &PanicError{Value: r, Stack: "a goroutine of the script"}
	x.mu.Lock()
	if x.panicIt != nil {
		// Where the interpreter saw the panic start, if in the script.
		if pos, _, ok := x.panicIt.PanicSite(r); ok && pos.Filename == scriptFile && pos.Line > 0 && pos.Line <= len(x.lines) {
			pe.Line, pe.Column = pos.Line, pos.Column
			pe.Source = strings.TrimRight(x.lines[pos.Line-1], "\r")
		}
	}
	if x.goPanic == nil {
		x.goPanic = pe
	}
	x.mu.Unlock()
	// As in Go, where the panic ends the program: nothing of the script
	// runs after it.
	x.abort(errGoroutinePanic)
}

// callDepth is the interpreter's hook for a call past MaxCallDepth (the
// interpreter counts every call, whatever its path: direct, a closure, a
// method value, native code calling a String method back). It ends the
// execution and stops the interpreter, which unwinds the frames in linear
// time (a panic through thousands of interpreted frames takes time
// quadratic in the depth).
func (x *execution) callDepth(fn string) {
	if !strings.HasPrefix(fn, "func literal") {
		fn = "function " + fn
	}
	x.abort(&LimitError{Limit: "MaxCallDepth", Value: int64(x.limits.MaxCallDepth), Detail: "in " + fn + " (runaway recursion?)"})
}

func (x *execution) checkRepeat(unit, count int) {
	if count < 0 {
		return // the standard function panics with its own message
	}
	if x.limits.MaxAllocLen >= 0 && unit > 0 && count > x.limits.MaxAllocLen/unit {
		x.limit(&LimitError{Limit: "MaxAllocLen", Value: int64(x.limits.MaxAllocLen), Detail: fmt.Sprintf("(Repeat of %d × %d bytes)", count, unit)})
	}
	if size := mulSat(uint64(unit), uint64(count)); x.limits.MaxAllocBytes >= 0 && size > uint64(x.limits.MaxAllocBytes) {
		// The call's name is formatted only for the error.
		x.checkAlloc(fmt.Sprintf("Repeat of %d × %d bytes", count, unit), size)
	}
}

// limit ends the execution with a tripped limit and unwinds the script
// with it: a recover of the script cannot hide it (see abort).
func (x *execution) limit(err *LimitError) {
	x.abort(err)
	panic(err)
}

// acquireTool takes a slot of MaxParallelTools: an atomic count on the
// fast path, a wait for a released slot past the limit.
func (x *execution) acquireTool() error {
	if x.toolSem == nil {
		return nil
	}
	for {
		if x.toolsBusy.Add(1) <= int64(cap(x.toolSem)) {
			return nil
		}
		if x.toolsBusy.Add(-1) < int64(cap(x.toolSem)) {
			// The count was over the limit only while other callers
			// that were refused too had not taken theirs back: a slot
			// is free, and no release may come to wake a waiter.
			continue
		}
		select {
		case <-x.toolSem:
		case <-x.ctx.Done():
			return context.Cause(x.ctx)
		}
	}
}

// releaseTool frees a slot and wakes one waiter, if any.
func (x *execution) releaseTool() {
	if x.toolSem == nil {
		return
	}
	x.toolsBusy.Add(-1)
	select {
	case x.toolSem <- struct{}{}:
	default:
	}
}

// unwrapValue takes a value out of the reflect.Value the interpreter
// sometimes wraps it in.
func unwrapValue(r any) any {
	for {
		rv, ok := r.(reflect.Value)
		if !ok || !rv.IsValid() || !rv.CanInterface() {
			return r
		}
		r = rv.Interface()
	}
}

// memoryWatchdog samples the heap while executions run and stops those
// whose MaxMemoryBytes the growth exceeds. It runs on a timer that is armed
// only while at least one execution is registered, so an idle process has
// no watchdog goroutine.
type memoryWatchdog struct {
	mu      sync.Mutex
	running map[*execution]struct{}
	timer   *time.Timer
	every   time.Duration
	// collecting says a confirming collection runs (check); collected
	// counts those that completed.
	collecting bool
	collected  uint64
}

var watchdog = &memoryWatchdog{running: map[*execution]struct{}{}, every: 5 * time.Millisecond}

func (w *memoryWatchdog) add(x *execution) {
	if x.limits.MaxMemoryBytes < 0 {
		return
	}
	x.heapBase = heapBytes()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.running[x] = struct{}{}
	if w.timer == nil {
		w.timer = time.AfterFunc(w.every, w.check)
	}
}

func (w *memoryWatchdog) remove(x *execution) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.running, x)
	if len(w.running) == 0 && w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
}

// check runs on the timer: one sample, then re-arm while needed.
//
// The sample counts objects not yet swept, so a heap that looks grown
// past a limit may be garbage the collector has not reached: after a
// large live set died its goal sits far above the live heap, and an
// execution that allocates fast fills the gap. So an execution seen over
// its limit is stopped once a collection started after that sample has
// completed and the heap is still over (the watchdog starts one, on a
// goroutine of its own, so that sampling goes on), or at once when the
// growth passes twice the limit: a runaway script overshoots by at most
// that.
func (w *memoryWatchdog) check() {
	heap := heapBytes()
	w.mu.Lock()
	defer w.mu.Unlock()
	confirm := false
	for x := range w.running {
		grown, limit := heap-x.heapBase, x.limits.MaxMemoryBytes
		switch {
		case grown <= limit:
			x.overSeen = false // garbage, collected
		case grown > 2*limit || x.overSeen && w.collected > x.overAt:
			x.fail(&LimitError{Limit: "MaxMemoryBytes", Value: limit,
				Detail: fmt.Sprintf("(the heap grew by %d MiB during the execution)", grown>>20)})
		default: // over, not confirmed yet
			if !x.overSeen {
				x.overSeen, x.overAt = true, w.collected
				if w.collecting {
					x.overAt++ // the running one may have started before
				}
			}
			confirm = true
		}
	}
	if confirm && !w.collecting {
		w.collecting = true
		go func() {
			runtime.GC()
			w.mu.Lock()
			w.collecting = false
			w.collected++
			w.mu.Unlock()
		}()
	}
	if len(w.running) > 0 && w.timer != nil {
		w.timer.Reset(w.every)
	}
}

// heapBytes reads the bytes of heap objects, live or not yet swept.
func heapBytes() int64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(sample[0].Value.Uint64())
}
