package engine

import (
	"errors"
	"fmt"
	"time"
)

// The script's result and tool-call trace, bounded (see MaxValueDepth,
// MaxTraceBytes and the other bounds in copy.go).

// resultPos records where the result call being made is: the normaliser
// turns result(x) into result(__ts.ResultAt(line, col, false, x)), and a
// bare script's final expression e into
// __ts.SetResult(__ts.ResultAt(line, col, true, e)).
func (x *execution) resultPos(line, col int, final bool, v any) any {
	f := 0
	if final {
		f = 1
	}
	x.mu.Lock()
	x.resultAt = [3]int{line, col, f}
	x.mu.Unlock()
	return v
}

// setResult is result(v): it keeps a copy of v, so that the script cannot
// change the result after setting it. A value too large, too deep or
// cyclic ends the execution at the line of the call.
func (x *execution) setResult(v any) {
	x.mu.Lock()
	at := x.resultAt
	x.resultAt = [3]int{}
	x.mu.Unlock()
	cv, _, err := copyValue(v, int64(x.limits.MaxOutputBytes))
	if err != nil {
		cause := x.resultError(at, err)
		x.fail(cause)
		panic(cause)
	}
	x.mu.Lock()
	x.value, x.hasValue = cv, true
	x.mu.Unlock()
}

// resultError describes a value result() cannot keep.
func (x *execution) resultError(at [3]int, err error) error {
	what := "result()"
	if at[2] == 1 {
		what = "the final expression"
	}
	where := ""
	if at[0] > 0 {
		where = fmt.Sprintf(" at line %d", at[0])
	}
	if errors.Is(err, errTooLarge) {
		return &LimitError{Limit: "MaxOutputBytes", Value: int64(x.limits.MaxOutputBytes),
			Detail: fmt.Sprintf("by the value of %s%s, measured as JSON", what, where)}
	}
	return &ScriptError{Line: at[0], Column: at[1], Msg: fmt.Sprintf("%s: the value %v", what, err)}
}

// traceStart enters a tool call in the trace, with x.mu held, and returns
// its index, or -1 when the trace is full (MaxTraceBytes).
func (x *execution) traceStart(name string, args map[string]any, size int64, start time.Duration) int {
	omitted := size > MaxTraceArgBytes
	kept := size
	if omitted {
		args, kept = nil, 0
	}
	if !traceEnter(&x.traceBytes, &x.traceCut, name, kept) {
		return -1
	}
	if len(x.calls) == cap(x.calls) {
		x.calls, x.starts = grow(x.calls), grow(x.starts)
	}
	x.calls = append(x.calls, ToolCall{Name: name, Args: args, ArgsOmitted: omitted})
	x.starts = append(x.starts, start)
	return len(x.calls) - 1
}

// grow returns s with its capacity doubled (at least 1): append grows a
// long slice by a quarter, which copies a trace of 1000 calls about
// twice and allocates three times its size; doubling copies it once and
// allocates twice its size.
func grow[E any](s []E) []E {
	g := make([]E, len(s), max(2*cap(s), 1))
	copy(g, s)
	return g
}

// traceEnd completes entry i of the trace, with x.mu held.
func (x *execution) traceEnd(i int, d time.Duration, err error) {
	if i < 0 {
		return
	}
	x.calls[i].Duration = d
	if err != nil {
		msg, _ := cutMessage(err.Error(), MaxTraceErrorBytes)
		x.calls[i].Error = msg
		x.traceBytes += int64(len(msg))
	}
	x.starts[i] = -1
}

// traceEnter is the bound of a tool-call trace, in both runtimes: it
// reports whether an entry for a call of name keeping argBytes of
// arguments fits in MaxTraceBytes, given the bytes the trace holds, and
// counts it in bytes when it does. An entry costs traceEntryCost plus its
// name, its kept arguments and (counted when the call ends) its error.
// Once an entry does not fit, the trace is cut: no later entry fits.
func traceEnter(bytes *int64, cut *bool, name string, argBytes int64) bool {
	cost := traceEntryCost + int64(len(name)) + argBytes
	if *cut || *bytes+cost > MaxTraceBytes {
		*cut = true
		return false
	}
	*bytes += cost
	return true
}

// traceBudget is a trace's bound for the isolated runtime's host.
type traceBudget struct {
	bytes int64
	cut   bool
}

func (t *traceBudget) Enter(name string, argBytes int64) bool {
	return traceEnter(&t.bytes, &t.cut, name, argBytes)
}
func (t *traceBudget) Add(n int64) { t.bytes += n }
func (t *traceBudget) Cut() bool   { return t.cut }
