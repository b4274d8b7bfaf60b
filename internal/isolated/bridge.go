package isolated

import (
	"context"
	"io"
	"time"

	"github.com/toolscript/toolscript/projection"
)

// Engine is the in-process runtime as the isolated runtime sees it.
// Package engine implements it: this package cannot import engine, so
// everything that knows engine's types goes through it. The worker side
// runs scripts with it; both sides use it to carry engine's errors across
// the pipe and to apply engine's bounds.
type Engine interface {
	// Warm runs a first script in a starting worker.
	Warm() error
	// Run runs one script in the worker, in process, with tools that
	// forward each call to the host, its output written to stdout and
	// stderr. It never fails: a failure is the Outcome's.
	Run(ctx context.Context, req *RunRequest, tools map[string]projection.ToolProjection, stdout, stderr io.Writer) Outcome
	// RunSession runs one input of the session req names, on the state
	// its earlier inputs left: the worker keeps one session, with the
	// tools of its first input, and starts afresh under another id.
	RunSession(ctx context.Context, req *SessionRequest, tools map[string]projection.ToolProjection, stdout, stderr io.Writer) Outcome
	// EncodeError describes err for the other side of the pipe, which
	// rebuilds it with DecodeError: the error types survive, and the
	// sentinels err matched still match.
	EncodeError(err error) *ErrInfo
	DecodeError(ei *ErrInfo) error
	// Call calls a tool at the tool-call boundary of the in-process
	// runtime (a panicking tool becomes its error).
	Call(ctx context.Context, p projection.ToolProjection, args map[string]any) (any, error)
	// Decide asks a gated tool's decision about a call before Call, as
	// the in-process runtime does (see projection.Gated).
	Decide(ctx context.Context, g projection.Gated, args map[string]any) (context.Context, string, error)
	// ToolError is the error raised around a call of tool, with cause
	// err; UnknownTool the error of a call of a tool that is not in the
	// namespace.
	ToolError(tool string, err error) error
	UnknownTool(tool string) error
	// FrameError reports a message over the frame limit; WorkerError a
	// worker that died or was killed.
	FrameError(frame string, size, limit int) error
	WorkerError(ex Exit) error
	// Cut cuts a message to at most n bytes, as the in-process runtime
	// does (cutting a cut message changes nothing, so both sides agree).
	Cut(s string, n int) (string, bool)
	// Bounds are the in-process runtime's bounds of messages and traces.
	Bounds() Bounds
	// NewTrace returns the byte budget of one execution's tool-call
	// trace, as the in-process runtime counts it.
	NewTrace() Trace
}

// Bounds are the engine's bounds the isolated runtime applies too.
type Bounds struct {
	ErrorBytes      int    // a result's error message (engine.MaxErrorBytes)
	TraceBytes      int    // a whole trace (engine.MaxTraceBytes)
	TraceErrorBytes int    // a trace entry's error (engine.MaxTraceErrorBytes)
	TruncatedMark   string // what ends a cut message
}

// Trace is the byte budget of a tool-call trace.
type Trace interface {
	// Enter reports whether an entry for a call of name, keeping
	// argBytes of arguments, fits; once one does not, the trace is cut
	// and no later entry fits.
	Enter(name string, argBytes int64) bool
	// Add counts n more bytes of entries already in (their errors).
	Add(n int64)
	// Cut reports whether an entry did not fit.
	Cut() bool
}

// Return codes the isolated runtime sets itself: engine's CodeOK,
// CodeError, CodeTimeout and CodeCrash (package engine checks, at
// compile time, that they agree).
const (
	CodeOK      = 0
	CodeError   = 1
	CodeTimeout = 124
	CodeCrash   = 137
)

// Call is one entry of a tool-call trace, engine.ToolCall's fields in
// engine.ToolCall's order: package engine converts one into the other.
type Call struct {
	Name        string         `json:"name"`
	Args        map[string]any `json:"args,omitempty"`
	Duration    time.Duration  `json:"duration_ns"`
	Error       string         `json:"error,omitempty"`
	ArgsOmitted bool           `json:"args_omitted,omitempty"`
	Decision    string         `json:"decision,omitempty"`
}

// Outcome is what Engine.Run returns of one script: engine.CodeResult's
// fields that cross the pipe.
type Outcome struct {
	Code            int
	Error           string
	Err             error
	Value           any
	Calls           []Call
	StdoutTruncated bool
	StderrTruncated bool
	ErrorTruncated  bool
	CallsTruncated  bool
	// StateChanged reports a run that changed the package state it could
	// reach: the worker retires.
	StateChanged bool
}

// Result is what the host learns of one execution in a worker:
// engine.CodeResult but for the output (which went to the host's
// writers, only the worker's truncation flags are here) and the duration.
type Result struct {
	Code            int
	Error           string
	Err             error
	Value           any
	Calls           []Call
	StdoutTruncated bool
	StderrTruncated bool
	ErrorTruncated  bool
	CallsTruncated  bool
}
