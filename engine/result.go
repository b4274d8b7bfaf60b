package engine

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Return codes of a CodeResult.
const (
	// CodeOK means the script ran to completion.
	CodeOK = 0
	// CodeError means the script failed: it did not compile, panicked,
	// called os.Exit(1), or ended with an error.
	CodeError = 1
	// CodeTimeout means the execution's timeout passed or its context was
	// cancelled before the script finished.
	CodeTimeout = 124
	// CodeLimit means a limit of Limits was exceeded (tool calls, output).
	CodeLimit = 125
	// CodeCrash means the process running the script died (isolated
	// runtimes only).
	CodeCrash = 137
	// CodeDeadlock means every goroutine of the script was blocked on its
	// channels with nothing running that could wake them (DeadlockError);
	// Go's runtime exits such a program with 2.
	CodeDeadlock = 2
)

// CodeResult is the outcome of one execution. It is a value: the engine
// never changes it after returning it.
type CodeResult struct {
	// Stdout is what the script printed with fmt.Print*, print/println or
	// os.Stdout, truncated to Limits.MaxOutputBytes.
	Stdout string `json:"stdout"`
	// Stderr is what the script wrote to os.Stderr or through package log.
	Stderr string `json:"stderr"`
	// ReturnCode is CodeOK on success; CodeError, CodeTimeout, CodeLimit
	// or CodeCrash otherwise, or the code given to os.Exit.
	ReturnCode int `json:"return_code"`
	// Error is "" on success, else the message the model should read: the
	// cause with the script's line and column where known. It is cut to
	// MaxErrorBytes (see ErrorTruncated).
	Error string `json:"error,omitempty"`
	// Err is the structured cause behind Error (nil on success): a
	// *ScriptError, *PanicError, *ToolError, *LimitError, *ExitError or a
	// context error. Match it with errors.Is and errors.As.
	Err error `json:"-"`
	// Value is the script's result: the argument of its last result(v)
	// call, or the value of a bare script's final expression statement,
	// deeply copied when it is set, so that later changes by the script
	// do not show (values of named types of Go packages, such as a
	// *big.Int, are copied as Go assigns them). It is bounded: about
	// Limits.MaxOutputBytes as JSON (past it the execution ends with a
	// *LimitError naming MaxOutputBytes) and MaxValueDepth levels, and
	// cannot contain itself (either ends the execution with a
	// *ScriptError at the line of the result call). In the isolated
	// runtime its encoding must also fit in one frame (MaxFrameBytes).
	Value any `json:"value,omitempty"`
	// ToolCalls is the trace of the tool calls, in the order they
	// started: what each tool received, copied at the call. It is
	// bounded by MaxTraceBytes (see ToolCallsTruncated), each entry's
	// arguments by MaxTraceArgBytes and its error by MaxTraceErrorBytes.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Duration is the wall time of the execution, set-up included.
	Duration time.Duration `json:"duration_ns"`
	// StdoutTruncated and StderrTruncated report output cut at the limit.
	StdoutTruncated bool `json:"stdout_truncated,omitempty"`
	StderrTruncated bool `json:"stderr_truncated,omitempty"`
	// ErrorTruncated reports Error cut at MaxErrorBytes.
	ErrorTruncated bool `json:"error_truncated,omitempty"`
	// ToolCallsTruncated reports a trace that reached MaxTraceBytes: the
	// calls after the last entry ran but are not in ToolCalls.
	ToolCallsTruncated bool `json:"tool_calls_truncated,omitempty"`
}

// OK reports whether the script succeeded.
func (r CodeResult) OK() bool { return r.ReturnCode == CodeOK }

// ToolCall is one entry of CodeResult.ToolCalls.
type ToolCall struct {
	// Name is the tool's name in the namespace.
	Name string `json:"name"`
	// Args are the arguments the tool received: a copy of the script's
	// map made at the call, which the script cannot change afterwards
	// (the tool receives the same copy). Nil when ArgsOmitted.
	Args map[string]any `json:"args,omitempty"`
	// Duration is how long the tool ran.
	Duration time.Duration `json:"duration_ns"`
	// Error is the tool's error message, "" on success, cut to
	// MaxTraceErrorBytes.
	Error string `json:"error,omitempty"`
	// ArgsOmitted reports arguments larger than MaxTraceArgBytes, which
	// the tool received but the trace does not keep.
	ArgsOmitted bool `json:"args_omitted,omitempty"`
	// Decision is the host policy's decision about the call, for a tool
	// whose calls a decision precedes (a projection.Gated, such as a
	// registry tool whose permission is ask or deny):
	// projection.DecisionApproved, DecisionRefused or DecisionDenied; ""
	// for every other tool. A refused or denied call did not run; its
	// Error says why.
	Decision string `json:"decision,omitempty"`
}

// Sentinel errors of the package. Match them with errors.Is.
var (
	// ErrLimitExceeded is wrapped by every *LimitError.
	ErrLimitExceeded = errors.New("engine: limit exceeded")
	// ErrUnknownTool reports a call of a tool that is not in the namespace.
	ErrUnknownTool = errors.New("engine: unknown tool")
	// ErrImportNotAllowed reports an import outside the allowlist.
	ErrImportNotAllowed = errors.New("engine: import not allowed")
	// ErrClosed reports use of a closed runtime.
	ErrClosed = errors.New("engine: runtime is closed")
	// ErrCallUnfinished marks, in CodeResult.ToolCalls, a tool call that
	// was still running when the execution ended.
	ErrCallUnfinished = errors.New("engine: the execution ended during the call")
	// ErrExecutionEnded reports a tool call made after the execution ended,
	// from a goroutine the script left running.
	ErrExecutionEnded = errors.New("engine: execution has ended")
)

// ScriptError is a compile or run-time error located in the script.
type ScriptError struct {
	Line, Column int    // 1-based position in the script the model wrote; 0 if unknown
	Msg          string // the interpreter's message
	Source       string // the script's line at Line, "" if unknown
	Err          error  // the cause when it is a sentinel such as ErrImportNotAllowed, else nil
}

// Unwrap returns the cause, if any.
func (e *ScriptError) Unwrap() error { return e.Err }

// Error renders "line L:C: msg" followed by the source line and a caret.
func (e *ScriptError) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d:%d: ", e.Line, e.Column)
	}
	b.WriteString(e.Msg)
	b.WriteString(e.excerpt())
	return b.String()
}

// excerpt is the source line at the error, indented, and a caret under
// its column: "" without a source line.
func (e *ScriptError) excerpt() string {
	var b strings.Builder
	if e.Source != "" && e.Line > 0 {
		b.WriteString("\n    ")
		b.WriteString(strings.ReplaceAll(e.Source, "\t", "    "))
		if e.Column > 0 {
			pad := len(strings.ReplaceAll(columnPrefix(e.Source, e.Column), "\t", "    "))
			b.WriteString("\n    ")
			b.WriteString(strings.Repeat(" ", pad))
			b.WriteString("^")
		}
	}
	return b.String()
}

func columnPrefix(line string, col int) string {
	if col-1 <= len(line) {
		return line[:col-1]
	}
	return line
}

// PanicError is a panic of the script that it did not recover.
type PanicError struct {
	Value  any    // the value passed to panic
	Line   int    // where the panic happened, 0 if unknown
	Column int    // column, 0 if unknown
	Stack  string // the script's frames, innermost first, when known
	Source string // the script's line at Line, "" if unknown
}

// Error renders "panic: value" with the position when known, cut to
// MaxErrorBytes. A value that is not a string or an error is shown as fmt's
// %v shows it, unless it contains itself, is nested deeper than
// MaxValueDepth or is larger than about 1 MiB as JSON: then the message
// says so instead.
func (e *PanicError) Error() string {
	msg := "panic: " + panicText(e.Value)
	if e.Line > 0 {
		msg = fmt.Sprintf("line %d:%d: %s", e.Line, e.Column, msg)
		if e.Stack != "" && !strings.HasPrefix(e.Stack, "main (line ") {
			// The script's own frames, innermost first ("main (line
			// 3:5)" alone says no more than the position).
			msg += " (in " + e.Stack + ")"
		}
	} else if e.Stack != "" {
		msg += " (in " + e.Stack + ")"
	}
	msg, _ = cutMessage(msg, MaxErrorBytes)
	if e.Source != "" && e.Line > 0 {
		msg += (&ScriptError{Line: e.Line, Column: e.Column, Source: e.Source}).excerpt()
	}
	return msg
}

// maxPanicShown bounds the size of a panic value that Error shows.
const maxPanicShown = 1 << 20

// panicText renders a panic value, bounded.
func panicText(v any) string {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case error:
		s = x.Error()
	default:
		// fmt on a value that contains itself never ends.
		if _, _, err := copyValue(v, maxPanicShown); err != nil {
			return fmt.Sprintf("(a %T value that %v)", v, err)
		}
		s = fmt.Sprintf("%v", v)
	}
	s, _ = cutMessage(s, MaxErrorBytes)
	return s
}

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// ToolError is an error the engine raised around a tool call (unknown tool,
// arguments that do not fit, a panic inside the tool). A tool's own error
// reaches the script unchanged and is not wrapped in ToolError.
type ToolError struct {
	Tool string // the tool's name
	Err  error  // the cause
}

// Error implements error.
func (e *ToolError) Error() string {
	return fmt.Sprintf("tool %q: %v", e.Tool, e.Err)
}

// Unwrap returns the cause.
func (e *ToolError) Unwrap() error { return e.Err }

// LimitError reports a limit of Limits that the script exceeded.
type LimitError struct {
	Limit  string // the field of Limits, e.g. "MaxToolCalls"
	Value  int64  // the configured value
	Detail string // what tripped it, e.g. "in function fib"; may be ""
}

// Error implements error.
func (e *LimitError) Error() string {
	if e.Detail != "" {
		return fmt.Sprintf("%v: %s (%d) %s", ErrLimitExceeded, e.Limit, e.Value, e.Detail)
	}
	return fmt.Sprintf("%v: %s (%d)", ErrLimitExceeded, e.Limit, e.Value)
}

// Unwrap returns ErrLimitExceeded.
func (e *LimitError) Unwrap() error { return ErrLimitExceeded }

// ExitError reports a call of os.Exit with a non-zero code.
type ExitError struct {
	Code int // the code passed to os.Exit
}

// Error implements error.
func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }
