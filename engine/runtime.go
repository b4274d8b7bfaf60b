package engine

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolscript/toolscript/internal/policy"
	"github.com/toolscript/toolscript/internal/yaegi/interp"

	"github.com/toolscript/toolscript/projection"
)

// execution is the state of one Execute: its context, output, tool-call
// trace and result. Host functions exported to the script close over it.
type execution struct {
	ctx    context.Context // cancelled when the execution ends
	cancel context.CancelCauseFunc
	limits Limits

	stdout, stderr *capWriter

	ncalls     atomic.Int64
	ended      atomic.Bool
	goroutines atomic.Int64        // running goroutines of the script
	toolSem    chan struct{}       // wakes a waiter for a MaxParallelTools slot; its capacity is the limit; nil for no limit
	toolsBusy  atomic.Int64        // tool calls running
	goPanic    *PanicError         // the first panic of a script goroutine
	heapBase   int64               // heap bytes when the execution started
	overSeen   bool                // the watchdog saw the heap over MaxMemoryBytes (check)
	overAt     uint64              // memoryWatchdog.collected then
	stop       func()              // stops the interpreter: no script code runs after it
	panicIt    *interp.Interpreter // the interpreter, for where a goroutine's panic started (PanicSite)
	lines      []string            // under mu: the model's source lines, for a goroutine's panic
	stops      []func()            // under mu: the clean-ups of callbacks (callbacks.go)
	stopped    bool                // under mu: the clean-ups have run
	waits      waitGroups          // the script's WaitGroup counts (callbacks.go)
	timers     atomic.Bool         // time.AfterFunc or context.AfterFunc was called (callbacks.go)

	mu       sync.Mutex
	calls    []ToolCall
	starts   []time.Duration // start of each call still running (monoNow), -1 once done
	value    any
	hasValue bool
	// The result call being made and the trace's bounds (trace.go).
	resultAt   [3]int // line, column, 1 for a final expression
	traceBytes int64  // what the trace holds, counted as MaxTraceBytes says
	traceCut   bool   // calls were left out of the trace
	// An abort in progress (os.Exit, a tripped limit): set before the
	// context is cancelled, halted once the interpreter is stopped, and
	// haltCh closed then for the natives waiting for it (awaitHalt).
	aborting, halted bool
	haltCh           chan struct{}
}

// exitSignal is the panic value of os.Exit, and the cause of the
// execution's end.
type exitSignal struct{ code int }

func (e *exitSignal) Error() string { return (&ExitError{Code: e.code}).Error() }

// fail ends the execution with cause (a limit, usually).
func (x *execution) fail(cause error) { x.cancel(cause) }

// abort ends the execution with cause and stops the interpreter before
// the panic that follows unwinds the script: no deferred function or
// recover of the script runs after a tripped limit or os.Exit, on any of
// its goroutines, so neither can be swallowed.
func (x *execution) abort(cause error) {
	x.mu.Lock()
	x.aborting = true
	x.mu.Unlock()
	x.fail(cause)
	if x.stop != nil {
		x.stop()
	}
	x.mu.Lock()
	if !x.halted { // an execution can be aborted twice (os.Exit on two goroutines)
		x.halted = true
		if x.haltCh != nil {
			close(x.haltCh)
		}
	}
	x.mu.Unlock()
	// What a stopped script prints while it unwinds (fmt prints the
	// panic of a stopped String method) is not the script's output.
	x.stdout.freeze()
	x.stderr.freeze()
}

// exit is os.Exit: it ends the execution with code, as Go ends the
// process, whichever goroutine calls it.
func (x *execution) exit(code int) {
	sig := &exitSignal{code: code}
	x.abort(sig)
	panic(sig)
}

// sleep is time.Sleep that wakes up when the execution ends.
func (x *execution) sleep(d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-x.ctx.Done():
		x.awaitHalt()
	}
}

// awaitHalt is for a native woken by the end of the execution: when an
// abort ended it, it returns only once the interpreter is stopped, so the
// script's next statement does not run (os.Exit in a goroutine while main
// sleeps: main woke up and printed before the stop reached it).
func (x *execution) awaitHalt() {
	x.mu.Lock()
	if !x.aborting || x.halted {
		x.mu.Unlock()
		return
	}
	if x.haltCh == nil {
		x.haltCh = make(chan struct{})
	}
	ch := x.haltCh
	x.mu.Unlock()
	<-ch
}

// monoBase is the origin of monoNow.
var monoBase = time.Now()

// monoNow is the time since monoBase on the monotonic clock: what a tool
// call's start and duration are measured with, one clock reading each
// (time.Now reads the wall clock too).
func monoNow() time.Duration { return time.Since(monoBase) }

// callTool runs one tool call from the script: limits, trace, panics.
func (x *execution) callTool(p projection.ToolProjection, args map[string]any) (res any, err error) {
	return x.call(p, args, false, nil)
}

// callOwned is callTool for a map of arguments that only the tool can
// reach: a map literal written in the call (see interp.Options.OwnedCall).
func (x *execution) callOwned(p projection.ToolProjection, args map[string]any) (res any, err error) {
	return x.call(p, args, true, nil)
}

// callOwnedAt is callOwned from the call site whose argument maps' keys
// site remembers.
func (x *execution) callOwnedAt(p projection.ToolProjection, args map[string]any, site *argKeys) (res any, err error) {
	return x.call(p, args, true, site)
}

// call runs one tool call; owned says whether args is the call's own map,
// site (nil for none) remembers the keys of its call site's maps.
func (x *execution) call(p projection.ToolProjection, args map[string]any, owned bool, site *argKeys) (res any, err error) {
	if x.ended.Load() {
		return nil, &ToolError{Tool: p.Name(), Err: ErrExecutionEnded}
	}
	if err := x.ctx.Err(); err != nil {
		return nil, &ToolError{Tool: p.Name(), Err: context.Cause(x.ctx)}
	}
	if n := x.ncalls.Add(1); x.limits.MaxToolCalls >= 0 && n > int64(x.limits.MaxToolCalls) {
		lerr := &LimitError{Limit: "MaxToolCalls", Value: int64(x.limits.MaxToolCalls)}
		x.fail(lerr)
		return nil, lerr
	}
	if err := x.acquireTool(); err != nil {
		return nil, &ToolError{Tool: p.Name(), Err: err}
	}
	defer x.releaseTool()
	// The tool and the trace get a copy of the arguments: what the tool
	// received, which the script can no longer change.
	var size int64
	var cerr error
	if owned {
		size, cerr = site.own(args)
	} else {
		args, size, cerr = copyArgs(args)
	}
	start := monoNow()
	// The call enters the trace when it starts, so a call still running
	// when the execution ends is reported too.
	x.mu.Lock()
	i := x.traceStart(p.Name(), args, size, start)
	x.mu.Unlock()
	ctx := x.ctx
	if cerr != nil {
		err = &ToolError{Tool: p.Name(), Err: fmt.Errorf("engine: the arguments %w", cerr)}
	} else if g, ok := p.(projection.Gated); ok {
		// The host's decision precedes the call, and enters the trace.
		var decision string
		ctx, decision, err = decide(ctx, g, args)
		x.mu.Lock()
		if i >= 0 {
			x.calls[i].Decision = decision
			x.traceBytes += int64(len(decision))
		}
		x.mu.Unlock()
	}
	if cerr == nil && err == nil {
		res, err = safeCall(ctx, p, args)
		res = plainResult(res) // as in the isolated runtime (typed_codec.go)
	}
	d := monoNow() - start
	x.mu.Lock()
	x.traceEnd(i, d, err)
	x.mu.Unlock()
	return res, err
}

// decide asks a gated tool's decision about one call (see
// projection.Gated); a panic in it refuses the call with a *ToolError
// wrapping a *PanicError. Both runtimes decide in the host through it.
func decide(ctx context.Context, g projection.Gated, args map[string]any) (_ context.Context, decision string, err error) {
	defer func() {
		if r := recover(); r != nil {
			decision, err = projection.DecisionRefused, &ToolError{Tool: g.Name(), Err: &PanicError{Value: r}}
		}
	}()
	dctx, decision, err := g.Decide(ctx, args)
	if dctx == nil {
		dctx = ctx
	}
	return dctx, decision, err
}

// safeCall is the tool-call boundary: a panicking tool becomes a
// *ToolError wrapping a *PanicError.
func safeCall(ctx context.Context, p projection.ToolProjection, args map[string]any) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, &ToolError{Tool: p.Name(), Err: &PanicError{Value: r}}
		}
	}()
	return p.Call(ctx, args)
}

// rtExports are the runtime package of the generated code
// (internal/normalize), bound to the execution.
func (x *execution) rtExports() interp.Exports {
	return interp.Exports{rtImportPath + "/rt": {
		"SetResult": reflect.ValueOf(x.setResult),
		"ResultAt":  reflect.ValueOf(x.resultPos),
		"Clear":     reflect.ValueOf(clearValue),
		"NegZero":   reflect.ValueOf(policy.NegZero),
		"GoStart":   reflect.ValueOf(x.goStart),
		"GoEnd":     reflect.ValueOf(x.goEnd),
	}}
}

// clearValue implements the clear builtin for maps and slices.
func clearValue(v any) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map, reflect.Slice:
		rv.Clear()
	default:
		panic(fmt.Sprintf("invalid argument: clear(%T)", v))
	}
}
