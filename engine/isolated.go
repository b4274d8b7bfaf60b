package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/toolscript/toolscript/internal/isolated"
	"github.com/toolscript/toolscript/internal/policy"
	"github.com/toolscript/toolscript/internal/proc"
	"github.com/toolscript/toolscript/internal/tagged"
	"github.com/toolscript/toolscript/projection"
)

// The isolated runtime's public side. The host side, the worker side and
// their protocol are package internal/isolated's; this file gives it the
// in-process engine (bridge) and converts its results.

// DefaultGrace is how long an isolated worker may take to stop after its
// deadline or a cancellation before it is killed.
const DefaultGrace = 500 * time.Millisecond

// IsolatedConfig holds an Isolated runtime's long-lived settings. Its zero
// value works in a binary whose main calls MaybeServeWorker first.
type IsolatedConfig struct {
	// Limits are the defaults of every execution, as in Config.Limits.
	Limits Limits
	// Workers is the number of worker processes kept started; executions
	// beyond it wait for a free worker (or for their context). Default:
	// GOMAXPROCS.
	Workers int
	// OS are the limits each worker applies to itself at start (memory,
	// CPU time, files, processes, stack); see WorkerLimits. Zero fields
	// take their defaults.
	OS WorkerLimits
	// Grace is how long a worker may take to stop after the deadline or a
	// cancellation, and for the goroutines of a finished script to end,
	// before the worker is killed and replaced. Default: DefaultGrace.
	Grace time.Duration
	// RunCPUTime bounds the CPU time of one execution (the worker's soft
	// RLIMIT_CPU, whole seconds). Default: the timeout times GOMAXPROCS
	// plus one second; none when the timeout is Unlimited (the hard
	// WorkerLimits.CPUTime still applies).
	RunCPUTime time.Duration
	// Path and Args are the worker executable and its arguments. Default:
	// this binary (os.Executable), no arguments.
	Path string
	Args []string
	// Stderr receives a copy of the workers' standard error (the Go
	// runtime's fatal errors). Default: discarded.
	Stderr io.Writer
	// StartTimeout bounds the start of a worker. Default: 20s.
	StartTimeout time.Duration
	// PipeTransport has the frames between the host and its workers
	// (runs, tool calls and their answers, output) cross pipes even
	// where they cross shared memory by default: on Linux on amd64 and
	// arm64, where a tool call's round trip then costs no system call
	// while both sides spin for it. Elsewhere, or where the kernel
	// refuses the shared memory, the frames take the pipes anyway.
	PipeTransport bool
}

// WorkerLimits are the OS limits an isolated worker applies to itself when
// it starts, before it reads anything from the host. A zero field takes
// its default; Unlimited (or any negative value) disables that limit. On
// Linux they are rlimits and Go runtime settings; elsewhere only the Go
// runtime settings (MemoryBytes' soft limit, MaxStack) apply.
type WorkerLimits struct {
	// MemoryBytes bounds the worker's private writable memory
	// (RLIMIT_DATA) to what it used at start plus this many bytes
	// (default 1 GiB), and sets the Go runtime's soft memory limit
	// (debug.SetMemoryLimit) to the same figure so the collector works
	// harder before the hard limit kills the worker.
	MemoryBytes int64
	// CPUTime bounds the worker's CPU time over its whole life
	// (RLIMIT_CPU hard limit; the kernel sends SIGKILL), default 10
	// minutes. IsolatedConfig.RunCPUTime bounds one execution.
	CPUTime time.Duration
	// OpenFiles bounds the worker's file descriptors (RLIMIT_NOFILE),
	// default 32.
	OpenFiles int
	// Processes bounds the threads and processes of the worker's user
	// (RLIMIT_NPROC), default 512. It is applied only when the worker
	// runs as its own user (a host running as root, KeepRoot false): the
	// count is per user, and the host's user has other processes.
	Processes int
	// MaxStack bounds each goroutine's stack (debug.SetMaxStack), default
	// 256 MiB: runaway recursion ends the worker, not the host.
	MaxStack int
	// KeepRoot keeps a worker started by a root host running as root.
	// By default such a worker switches to user and group nobody (65534)
	// and drops its supplementary groups, so file permissions and
	// RLIMIT_NPROC apply to it.
	KeepRoot bool
}

// Isolated is the CodeRuntime for untrusted code: each script runs in a
// worker process (a pre-started child of this binary, see
// MaybeServeWorker) under OS limits, while its tools keep running in this
// process: each tool call is a request over a pipe. A worker that crashes,
// overflows its stack, runs out of memory or ignores its deadline is
// killed and replaced; the CodeResult says what happened (CodeCrash or
// CodeTimeout), with the output and tool calls up to that point.
//
// An Isolated is safe for concurrent use; Close ends every worker.
type Isolated struct {
	cfg    IsolatedConfig
	host   *isolated.Host
	closed atomic.Bool
	limits atomic.Pointer[limitsJSON] // the last limits encoded
}

// limitsJSON is a Limits value and its JSON, which is never written to
// (run requests of several executions may hold it at once).
type limitsJSON struct {
	l Limits
	b json.RawMessage
}

// encodeLimits returns l's JSON: the last one encoded when l is the same
// (executions with the runtime's limits, which most are, encode them once).
func (e *Isolated) encodeLimits(l Limits) json.RawMessage {
	if c := e.limits.Load(); c != nil && c.l == l {
		return c.b
	}
	b, _ := json.Marshal(l)
	e.limits.Store(&limitsJSON{l: l, b: b})
	return b
}

var _ CodeRuntime = (*Isolated)(nil)

// NewIsolated starts the worker pool and returns the runtime. It fails when
// a worker cannot start, typically because main does not call
// MaybeServeWorker first.
func NewIsolated(cfg IsolatedConfig) (*Isolated, error) {
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	host, err := isolated.NewHost(isolated.HostConfig{
		Pool: isolated.Config{
			Size: cfg.Workers, Path: cfg.Path, Args: cfg.Args,
			Limits: isolated.Limits(cfg.OS), StartTimeout: cfg.StartTimeout, Stderr: cfg.Stderr,
			Pipes: cfg.PipeTransport,
		},
		Grace:  cfg.Grace,
		Engine: &bridge{},
	})
	if err != nil {
		return nil, fmt.Errorf("engine: isolated runtime: %w", err)
	}
	return &Isolated{cfg: cfg, host: host}, nil
}

// Close ends every worker process and waits until they are gone. Later
// Executes return ErrClosed; running ones end with CodeCrash.
func (e *Isolated) Close() error {
	e.closed.Store(true)
	return e.host.Close()
}

// WorkerPIDs returns the process ids of the live workers.
func (e *Isolated) WorkerPIDs() []int { return e.host.PIDs() }

// Execute runs one script in a worker process; see Engine.Execute for the
// script contract, which is the same. Values crossing the pipe (tool
// arguments and results, WithExtraGlobals, the result value) keep the Go
// types of package internal/tagged's encoding: the common ones survive,
// other structs arrive as their JSON form, and functions or channels cannot
// cross (a global of such a type is misuse; a tool result of such a type
// is an error in the script). A nil ctx panics.
func (e *Isolated) Execute(ctx context.Context, code string, ns map[string]projection.ToolProjection, opts ...Option) (CodeResult, error) {
	s, limits, err := prepare(ctx, e.closed.Load(), e.cfg.Limits, false, ns, opts)
	if err != nil {
		return CodeResult{}, err
	}
	req := isolated.RunRequest{Code: code, RunCPU: e.cfg.RunCPUTime}
	if len(s.globals) > 0 {
		g, err := tagged.Marshal(s.globals)
		if err != nil {
			return CodeResult{}, fmt.Errorf("engine: extra globals cannot cross to an isolated worker: %w", err)
		}
		req.Globals = g
	}
	req.Limits = e.encodeLimits(limits)
	if req.RunCPU == 0 && limits.Timeout > 0 {
		req.RunCPU = limits.Timeout*time.Duration(runtime.GOMAXPROCS(0)) + time.Second
	}
	stdout := &capWriter{limit: limits.MaxOutputBytes, tee: s.stdout}
	stderr := &capWriter{limit: limits.MaxOutputBytes, tee: s.stderr}
	start := time.Now()
	r, err := e.host.Run(ctx, &req, ns, max(limits.Timeout, 0), stdout, stderr)
	if err != nil {
		return CodeResult{}, ErrClosed
	}
	res := CodeResult{
		ReturnCode: r.Code, Error: r.Error, Err: r.Err, Value: r.Value,
		ErrorTruncated: r.ErrorTruncated, ToolCallsTruncated: r.CallsTruncated,
	}
	res.Stdout, res.StdoutTruncated = stdout.close()
	res.Stderr, res.StderrTruncated = stderr.close()
	res.StdoutTruncated = res.StdoutTruncated || r.StdoutTruncated
	res.StderrTruncated = res.StderrTruncated || r.StderrTruncated
	res.ToolCalls = toolCalls(r.Calls)
	res.Duration = time.Since(start)
	return res, nil
}

func init() {
	isolated.RegisterEngine(func() isolated.Engine { return &bridge{eng: New(Config{})} })
}

// MaybeServeWorker turns this process into an isolated-runtime worker when
// it was started as one (by NewIsolated), and exits when the host is done
// with it. Otherwise it returns at once. Call it first in main, and in
// TestMain of tests that use the isolated runtime:
//
//	func main() {
//		engine.MaybeServeWorker()
//		...
//	}
//
// It is the hook of every child process toolscript starts, the same
// function as executor.MaybeServeChild: it serves the children of the
// executor's ProcessBackend too, so a binary that uses both calls one of
// the two, once.
func MaybeServeWorker() { proc.MaybeServe() }

// ServeWorker is a worker's life: it applies the OS limits the host chose
// (see WorkerLimits), builds the symbol tables, says hello and runs the
// scripts the host sends, one at a time, on an in-process Engine whose
// tools forward each call to the host (or, in a child the executor's
// ProcessBackend started, serves that). It returns the exit status when
// the host closes the pipe or asks the worker to stop. Outside a child
// process it fails at once.
func ServeWorker() (int, error) { return proc.Serve() }

// MaxFrameBytes bounds one message between the host and an isolated
// worker (a frame of the pipe): a tool call's arguments, a tool's result,
// the script's result value with its error, its trace. The engine keeps
// each within it (see MaxErrorBytes and MaxTraceBytes) or, for what it
// cannot cut, reports a *FrameError: a tool call whose arguments are
// larger fails in the script, a tool result that is larger reaches the
// script as the tool's error, and a result value that is larger ends the
// execution with CodeError.
const MaxFrameBytes = 64 << 20

// ErrFrameTooLarge is wrapped by every *FrameError.
var ErrFrameTooLarge = errors.New("engine: message too large for the isolated runtime's pipe")

// FrameError reports a message between the host and an isolated worker
// larger than MaxFrameBytes.
type FrameError struct {
	Frame string // what it carried: "tool call", "tool result", "result", "trace", ...
	Size  int    // its size in bytes
	Limit int    // the frame limit, MaxFrameBytes
}

// Error renders "engine: the <frame> message is N bytes, over ...".
func (e *FrameError) Error() string {
	return fmt.Sprintf("engine: the %s message is %d bytes, over the isolated runtime's frame limit of %d bytes (MaxFrameBytes)", e.Frame, e.Size, e.Limit)
}

// Unwrap returns ErrFrameTooLarge.
func (e *FrameError) Unwrap() error { return ErrFrameTooLarge }

// ErrWorkerKilled is wrapped by every *WorkerError.
var ErrWorkerKilled = errors.New("engine: worker killed")

// WorkerError reports an isolated worker that died or was killed during an
// execution: a crash of the Go runtime (stack overflow, out of memory,
// concurrent map writes, a panic outside the script's guards), an OS limit,
// or the host killing it after its grace period.
type WorkerError struct {
	Exit WorkerExit // how the worker ended
}

// Error renders "engine: worker killed: cause (status)".
func (e *WorkerError) Error() string { return "engine: worker killed: " + e.Exit.String() }

// Unwrap returns ErrWorkerKilled.
func (e *WorkerError) Unwrap() error { return ErrWorkerKilled }

// WorkerExit is how an isolated worker ended.
type WorkerExit struct {
	// Cause is what ended the worker, for people and models: "memory
	// limit", "stack overflow", "CPU time limit", "concurrent map
	// writes", "panic: ..." (a panic outside the script's guards), the
	// host's reason when the host killed it, or the exit status.
	Cause string
	// Status is the process status, e.g. "exit status 2" or "signal: killed".
	Status string
	// Stderr is the worker's standard error: its first and last 4 KiB.
	Stderr string
}

// String renders "cause (status)".
func (e WorkerExit) String() string { return isolated.Exit(e).String() }

// The return codes internal/isolated sets are the engine's (a compile
// error otherwise)...
const (
	_ = uint(CodeOK-isolated.CodeOK) + uint(isolated.CodeOK-CodeOK)
	_ = uint(CodeError-isolated.CodeError) + uint(isolated.CodeError-CodeError)
	_ = uint(CodeTimeout-isolated.CodeTimeout) + uint(isolated.CodeTimeout-CodeTimeout)
	_ = uint(CodeCrash-isolated.CodeCrash) + uint(isolated.CodeCrash-CodeCrash)
)

// Nor is the frame limit another.
const _ = uint(MaxFrameBytes-isolated.MaxFrameBytes) + uint(isolated.MaxFrameBytes-MaxFrameBytes)

// bridge is the engine as package internal/isolated sees it. In a
// worker, eng runs the scripts and state is the package state they start
// from, taken once warm.
type bridge struct {
	eng   *Engine
	state policy.StateBaseline
	// The limits of the last run, and their JSON: the worker runs one
	// script at a time, most with the same limits.
	lastLimits []byte
	limits     Limits
}

// decodeLimits decodes a run's limits, the last run's again when their
// JSON is the same.
func (b *bridge) decodeLimits(raw []byte) (Limits, error) {
	if b.lastLimits != nil && bytes.Equal(raw, b.lastLimits) {
		return b.limits, nil
	}
	var l Limits
	if err := json.Unmarshal(raw, &l); err != nil {
		return Limits{}, err
	}
	b.lastLimits, b.limits = append([]byte(nil), raw...), l
	return l, nil
}

var _ isolated.Engine = (*bridge)(nil)

func (b *bridge) Warm() error {
	res, err := b.eng.Execute(context.Background(), `fmt.Sprint(1)`, nil)
	if err != nil {
		return err
	}
	if res.ReturnCode != CodeOK {
		return fmt.Errorf("engine: warm-up script failed: %s", res.Error)
	}
	b.state = policy.TakeStateBaseline() // before any script of the host runs
	return nil
}

func (b *bridge) Run(ctx context.Context, req *isolated.RunRequest, ns map[string]projection.ToolProjection, stdout, stderr io.Writer) isolated.Outcome {
	fail := func(msg string) isolated.Outcome { return isolated.Outcome{Code: CodeError, Error: msg} }
	limits, err := b.decodeLimits(req.Limits)
	if err != nil {
		return fail("engine: worker: bad limits: " + err.Error())
	}
	opts := []Option{WithLimits(limits), WithStdout(stdout), WithStderr(stderr)}
	if len(req.Globals) > 0 {
		g, err := tagged.UnmarshalMap(req.Globals)
		if err != nil {
			return fail("engine: worker: bad globals: " + err.Error())
		}
		opts = append(opts, WithExtraGlobals(g))
	}
	res, err := b.eng.Execute(ctx, req.Code, ns, opts...)
	if err != nil {
		return isolated.Outcome{Code: CodeError, Error: err.Error(), Err: err}
	}
	out := isolated.Outcome{
		Code: res.ReturnCode, Error: res.Error, Err: res.Err, Value: res.Value,
		StdoutTruncated: res.StdoutTruncated, StderrTruncated: res.StderrTruncated,
		ErrorTruncated: res.ErrorTruncated, CallsTruncated: res.ToolCallsTruncated,
		StateChanged: b.state.Changed(req.Code),
	}
	if len(res.ToolCalls) > 0 {
		out.Calls = unsafe.Slice((*isolated.Call)(unsafe.Pointer(unsafe.SliceData(res.ToolCalls))), len(res.ToolCalls))
	}
	return out
}

// toolCalls is calls as a trace, not copied: isolated.Call is ToolCall's
// struct (the conversion below compiles only while it is).
func toolCalls(calls []isolated.Call) []ToolCall {
	if len(calls) == 0 {
		return nil
	}
	return unsafe.Slice((*ToolCall)(unsafe.Pointer(unsafe.SliceData(calls))), len(calls))
}

var _ = ToolCall(isolated.Call{})

func (*bridge) EncodeError(err error) *isolated.ErrInfo { return encodeErr(err) }
func (*bridge) DecodeError(ei *isolated.ErrInfo) error  { return decodeErr(ei) }
func (*bridge) ToolError(tool string, err error) error  { return &ToolError{Tool: tool, Err: err} }
func (*bridge) Cut(s string, n int) (string, bool)      { return cutMessage(s, n) }
func (*bridge) NewTrace() isolated.Trace                { return &traceBudget{} }
func (*bridge) WorkerError(ex isolated.Exit) error      { return &WorkerError{Exit: WorkerExit(ex)} }

func (*bridge) Call(ctx context.Context, p projection.ToolProjection, args map[string]any) (any, error) {
	return safeCall(ctx, p, args)
}

func (*bridge) Decide(ctx context.Context, g projection.Gated, args map[string]any) (context.Context, string, error) {
	return decide(ctx, g, args)
}

func (*bridge) UnknownTool(tool string) error {
	return &ToolError{Tool: tool, Err: fmt.Errorf("%w: %q is not in the namespace", ErrUnknownTool, tool)}
}

func (*bridge) FrameError(frame string, size, limit int) error {
	return &FrameError{Frame: frame, Size: size, Limit: limit}
}

func (*bridge) Bounds() isolated.Bounds {
	return isolated.Bounds{
		ErrorBytes: MaxErrorBytes, TraceBytes: MaxTraceBytes,
		TraceErrorBytes: MaxTraceErrorBytes, TruncatedMark: truncatedMark,
	}
}

// sentinels are the errors whose identity survives the pipe (errors.Is).
var sentinels = []struct {
	name string
	err  error
}{
	{"limit", ErrLimitExceeded},
	{"unknown_tool", ErrUnknownTool},
	{"import", ErrImportNotAllowed},
	{"ended", ErrExecutionEnded},
	{"closed", ErrClosed},
	{"deadline", context.DeadlineExceeded},
	{"canceled", context.Canceled},
	{"bad_argument", projection.ErrBadArgument},
	{"frame", ErrFrameTooLarge},
	{"session_lost", ErrSessionLost},
}

func sentinelNames(err error) []string {
	var out []string
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			out = append(out, s.name)
		}
	}
	return out
}

// remoteError is an error that crossed the pipe: its message, and the
// sentinels it matched on the other side.
type remoteError struct {
	msg string
	is  []string
}

func (e *remoteError) Error() string { return e.msg }

// Is reports whether the original error matched target.
func (e *remoteError) Is(target error) bool {
	for _, s := range sentinels {
		if s.err == target {
			for _, n := range e.is {
				if n == s.name {
					return true
				}
			}
		}
	}
	return false
}

func newRemote(msg string, is []string) error {
	if len(is) == 0 {
		return errors.New(msg)
	}
	// "...: context deadline exceeded" and the like: wrap the sentinel,
	// as fmt.Errorf("...: %w") did on the other side.
	for _, s := range sentinels {
		if len(is) == 1 && is[0] == s.name {
			if prefix, ok := strings.CutSuffix(msg, ": "+s.err.Error()); ok {
				return fmt.Errorf("%s: %w", prefix, s.err)
			}
		}
	}
	return &remoteError{msg: msg, is: is}
}

// encodeErr describes err for the other side of the pipe.
func encodeErr(err error) *isolated.ErrInfo {
	if err == nil {
		return nil
	}
	// Every text is cut as the host cuts it (cutMessage composes), so
	// the error is rebuilt whole and the reply fits in its frame.
	cut := func(s string) string {
		s, _ = cutMessage(s, MaxErrorBytes)
		return s
	}
	ei := &isolated.ErrInfo{Kind: "text", Msg: cut(err.Error()), Is: sentinelNames(err)}
	var (
		se *ScriptError
		pe *PanicError
		le *LimitError
		xe *ExitError
		te *ToolError
		de *DeadlockError
	)
	switch {
	case errors.As(err, &se) && se == err:
		ei.Kind, ei.Line, ei.Column, ei.Text, ei.Source = "script", se.Line, se.Column, cut(se.Msg), cut(se.Source)
	case errors.As(err, &pe) && pe == err:
		ei.Kind, ei.Line, ei.Column, ei.Stack, ei.Source = "panic", pe.Line, pe.Column, cut(pe.Stack), cut(pe.Source)
		if e, ok := pe.Value.(error); ok {
			ei.IsError, ei.Text = true, cut(e.Error())
		} else if s, ok := pe.Value.(string); ok {
			ei.Value, _ = tagged.Marshal(cut(s))
		} else if v, err := tagged.Marshal(pe.Value); err == nil && len(v) <= MaxErrorBytes {
			ei.Value = v
		} else {
			ei.Text = panicText(pe.Value)
		}
	case errors.As(err, &le) && le == err:
		ei.Kind = "limit"
		ei.Limit, _ = json.Marshal(le)
	case errors.As(err, &xe) && xe == err:
		ei.Kind, ei.Code = "exit", xe.Code
	case errors.As(err, &de) && de == err:
		ei.Kind, ei.Text = "deadlock", cut(de.Report)
	case errors.As(err, &te) && te == err:
		ei.Kind, ei.Tool = "tool", te.Tool
		if te.Err != nil {
			ei.Text = cut(te.Err.Error())
		}
	}
	return ei
}

// decodeErr rebuilds an error encodeErr described.
func decodeErr(ei *isolated.ErrInfo) error {
	if ei == nil {
		return nil
	}
	switch ei.Kind {
	case "script":
		se := &ScriptError{Line: ei.Line, Column: ei.Column, Msg: ei.Text, Source: ei.Source}
		for _, n := range ei.Is {
			for _, s := range sentinels {
				if s.name == n && (s.err == ErrImportNotAllowed || s.err == ErrUnknownTool) {
					se.Err = s.err
				}
			}
		}
		if se.Error() == ei.Msg {
			return se
		}
	case "panic":
		pe := &PanicError{Line: ei.Line, Column: ei.Column, Stack: ei.Stack, Source: ei.Source}
		switch {
		case ei.IsError:
			pe.Value = newRemote(ei.Text, ei.Is)
		case ei.Value != nil:
			pe.Value, _ = tagged.Unmarshal(ei.Value)
		default:
			pe.Value = ei.Text
		}
		if pe.Error() == ei.Msg {
			return pe
		}
	case "limit":
		le := &LimitError{}
		if json.Unmarshal(ei.Limit, le) == nil && le.Error() == ei.Msg {
			return le
		}
	case "exit":
		xe := &ExitError{Code: ei.Code}
		if xe.Error() == ei.Msg {
			return xe
		}
	case "deadlock":
		if de := (&DeadlockError{Report: ei.Text}); de.Error() == ei.Msg {
			return de
		}
	case "tool":
		te := &ToolError{Tool: ei.Tool, Err: newRemote(ei.Text, ei.Is)}
		if te.Error() == ei.Msg {
			return te
		}
	}
	return newRemote(ei.Msg, ei.Is)
}
