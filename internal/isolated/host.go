package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolscript/toolscript/internal/isolated"
	"github.com/toolscript/toolscript/internal/tagged"
	"github.com/toolscript/toolscript/internal/wire"
	"github.com/toolscript/toolscript/projection"
)

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
	// CPU time, files, processes, stack); see package sandbox. Zero fields
	// take sandbox's defaults.
	OS isolated.Limits
	// Grace is how long a worker may take to stop after the deadline or a
	// cancellation, and for the goroutines of a finished script to end,
	// before the worker is killed and replaced. Default: DefaultGrace.
	Grace time.Duration
	// RunCPUTime bounds the CPU time of one execution (the worker's soft
	// RLIMIT_CPU, whole seconds). Default: the timeout times GOMAXPROCS
	// plus one second; none when the timeout is Unlimited (the hard
	// isolated.Limits.CPUTime still applies).
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
	pool   *isolated.Pool
	closed atomic.Bool
	seq    atomic.Uint64
	wg     sync.WaitGroup // workers on their way back to the pool
	slow   sync.Map       // tool name -> struct{}: its last call took over inlineToolMax
}

var _ CodeRuntime = (*Isolated)(nil)

// NewIsolated starts the worker pool and returns the runtime. It fails when
// a worker cannot start, typically because main does not call
// MaybeServeWorker first.
func NewIsolated(cfg IsolatedConfig) (*Isolated, error) {
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	pool, err := isolated.NewPool(isolated.Config{
		Role: workerRole, Size: cfg.Workers, Path: cfg.Path, Args: cfg.Args,
		Limits: cfg.OS, StartTimeout: cfg.StartTimeout, Stderr: cfg.Stderr,
	})
	if err != nil {
		return nil, fmt.Errorf("engine: isolated runtime: %w", err)
	}
	return &Isolated{cfg: cfg, pool: pool}, nil
}

// Close ends every worker process and waits until they are gone. Later
// Executes return ErrClosed; running ones end with CodeCrash.
func (e *Isolated) Close() error {
	e.closed.Store(true)
	e.wg.Wait()
	return e.pool.Close()
}

// WorkerPIDs returns the process ids of the live workers.
func (e *Isolated) WorkerPIDs() []int { return e.pool.PIDs() }

// Execute runs one script in a worker process; see Engine.Execute for the
// script contract, which is the same. Values crossing the pipe (tool
// arguments and results, WithExtraGlobals, the result value) keep the Go
// types of package internal/tagged's encoding: the common ones survive,
// other structs arrive as their JSON form, and functions or channels cannot
// cross (a global of such a type is misuse; a tool result of such a type
// is an error in the script). A nil ctx panics.
func (e *Isolated) Execute(ctx context.Context, code string, ns map[string]projection.ToolProjection, opts ...Option) (CodeResult, error) {
	s, limits, err := prepare(ctx, e.closed.Load(), e.cfg.Limits, ns, opts)
	if err != nil {
		return CodeResult{}, err
	}
	req := runRequest{Code: code, Grace: e.cfg.Grace, RunCPU: e.cfg.RunCPUTime}
	if len(s.globals) > 0 {
		g, err := tagged.Marshal(s.globals)
		if err != nil {
			return CodeResult{}, fmt.Errorf("engine: extra globals cannot cross to an isolated worker: %w", err)
		}
		req.Globals = g
	}
	req.Limits, _ = json.Marshal(limits)
	if req.RunCPU == 0 && limits.Timeout > 0 {
		req.RunCPU = limits.Timeout*time.Duration(runtime.GOMAXPROCS(0)) + time.Second
	}
	req.Tools = toolSpecs(ns)

	// Like Config.MaxConcurrent in-process: waiting for a free worker is
	// bounded by the caller's context, not by the timeout.
	start := time.Now()
	w, err := e.pool.Get(ctx)
	if err != nil {
		if errors.Is(err, isolated.ErrClosed) {
			return CodeResult{}, ErrClosed
		}
		return CodeResult{ReturnCode: CodeTimeout, Error: "engine: gave up waiting for a free isolated worker: " + err.Error(), Err: err, Duration: time.Since(start)}, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if limits.Timeout > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, limits.Timeout)
		defer stop()
	}
	if d, ok := ctx.Deadline(); ok {
		req.Deadline = d.UnixNano()
	}
	r := &hostRun{
		e: e, w: w, ns: ns, ctx: ctx, limits: limits, inflight: map[uint64]context.CancelFunc{},
		id: e.seq.Add(1),
	}
	r.stdout = &capWriter{limit: limits.MaxOutputBytes, tee: s.stdout}
	r.stderr = &capWriter{limit: limits.MaxOutputBytes, tee: s.stderr}
	res := r.run(&req)
	res.Duration = time.Since(start)
	return res, nil
}

func toolSpecs(ns map[string]projection.ToolProjection) []toolSpec {
	specs := make([]toolSpec, 0, len(ns))
	for name, p := range ns {
		t := toolSpec{Name: name, Doc: p.Doc()}
		if n, ok := p.(projection.Namespaced); ok {
			t.Namespaced, t.Namespace, t.Method = true, n.Namespace(), n.MethodName()
		}
		specs = append(specs, t)
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	return specs
}

// hostRun is the host side of one execution in a worker.
type hostRun struct {
	e      *Isolated
	w      *isolated.Worker
	ns     map[string]projection.ToolProjection
	ctx    context.Context
	limits Limits
	id     uint64

	stdout, stderr *capWriter

	mu       sync.Mutex
	calls    []ToolCall     // the host's own trace, in the order calls started
	frames   []uint64       // the frame id of each call
	starts   []time.Time    // start of each call still running, zero once done
	starting sync.WaitGroup // calls the frame reader took, not yet in calls
	trace    []byte         // the worker's typeTrace frame
	inflight map[uint64]context.CancelFunc
	tools    sync.WaitGroup
	ended    bool // result has begun: no more tool calls start

	traceBytes int64 // what calls holds, counted as MaxTraceBytes says
	keptBytes  int64 // the encoded arguments calls keeps
	traceCut   bool  // calls were left out of calls
}

// run sends the script and serves the worker until it answers, dies or
// overstays its deadline.
func (r *hostRun) run(req *runRequest) CodeResult {
	args, _ := json.Marshal(req)
	body, _ := json.Marshal(&wire.Call{Name: runCall, Args: args, ExecID: strconv.FormatUint(r.id, 10)})
	// Tool calls and cancellations are taken where the worker's frames
	// are read (see handler); the rest comes through Frames.
	r.w.SetHandler(r.handler)
	if err := r.w.Send(wire.Frame{Type: wire.TypeCall, ID: r.id, Body: body}); err != nil {
		return r.crashed("")
	}
	done := r.ctx.Done()
	var grace <-chan time.Time
	for {
		select {
		case f, ok := <-r.w.Frames():
			if !ok {
				return r.crashed("")
			}
			switch {
			case f.Type == typeStdout && f.ID == r.id:
				_, _ = r.stdout.Write(f.Body)
			case f.Type == typeStderr && f.ID == r.id:
				_, _ = r.stderr.Write(f.Body)
			case f.Type == wire.TypeCall || f.Type == typeCallKept:
				r.startTool(f, false)
			case f.Type == wire.TypeCancel:
				r.cancelTool(f.ID)
			case f.Type == typeTrace && f.ID == r.id:
				r.trace = f.Body
			case f.Type == wire.TypeResult && f.ID == r.id:
				return r.finish(f)
			}
		case <-done:
			done = nil
			if !errors.Is(r.ctx.Err(), context.DeadlineExceeded) {
				_ = r.w.Writer().Send(wire.TypeCancel, r.id, &wire.Cancel{Reason: "cancelled"})
			}
			t := time.NewTimer(r.e.cfg.Grace)
			defer t.Stop()
			grace = t.C
		case <-grace:
			return r.overstayed()
		}
	}
}

// inlineToolMax is the longest a tool's last call may have taken for its
// next call to run on the goroutine that reads the worker's frames.
const inlineToolMax = 50 * time.Microsecond

// handler takes the worker's tool calls and cancellations on the
// goroutine that reads its frames (see isolated.Worker.SetHandler): a tool
// call's round trip then costs no switch between goroutines on the host.
// Once the run has ended it takes nothing.
func (r *hostRun) handler(f wire.Frame) func() {
	if f.Type != wire.TypeCall && f.Type != typeCallKept && f.Type != wire.TypeCancel {
		return nil
	}
	r.mu.Lock()
	ended := r.ended
	r.mu.Unlock()
	switch {
	case ended:
		return nil
	case f.Type == wire.TypeCancel:
		return func() { r.cancelTool(f.ID) }
	}
	// Counted before the reader reads on: finish waits until every call
	// sent before the worker's reply is in the host's trace, whose
	// arguments the worker's trace refers to.
	r.starting.Add(1)
	return func() { r.startTool(f, true) }
}

// cancelTool cancels the context of a running tool call.
func (r *hostRun) cancelTool(id uint64) {
	r.mu.Lock()
	if c := r.inflight[id]; c != nil {
		c()
	}
	r.mu.Unlock()
}

// startTool records a tool call of the worker in the trace, in the order
// calls start, and runs it: on this goroutine when inline and the tool's
// last call was quick, else on a goroutine of its own.
func (r *hostRun) startTool(f wire.Frame, inline bool) {
	c, ok, errBody := r.record(f)
	if inline {
		r.starting.Done()
	}
	if errBody != nil {
		_ = r.w.Send(wire.Frame{Type: wire.TypeResult, ID: f.ID, Body: errBody})
		return
	}
	if !ok {
		return
	}
	if _, slow := r.e.slow.Load(c.name); inline && !slow {
		r.callTool(c.ctx, c.cancel, f.ID, c.i, c.p, c.args)
		return
	}
	go r.callTool(c.ctx, c.cancel, f.ID, c.i, c.p, c.args)
}

// startedCall is a tool call of the worker in the host's trace.
type startedCall struct {
	ctx    context.Context
	cancel context.CancelFunc
	i      int
	name   string
	p      projection.ToolProjection
	args   map[string]any
}

// record decodes a tool call frame and enters the call in the trace. It
// returns the body of the answer of a call it refuses, and nothing for a
// call that comes too late.
func (r *hostRun) record(f wire.Frame) (startedCall, bool, []byte) {
	name, args, argLen, err := parseToolCall(f.Body)
	if err != nil {
		return startedCall{}, false, toolErrorBody(&ToolError{Tool: name, Err: fmt.Errorf("engine: bad tool call from the worker: %w", err)})
	}
	p, ok := r.ns[name]
	if !ok {
		return startedCall{}, false, toolErrorBody(&ToolError{Tool: name, Err: fmt.Errorf("%w: %q is not in the namespace", ErrUnknownTool, name)})
	}
	ctx, cancel := context.WithCancel(r.ctx)
	r.mu.Lock()
	if r.ended {
		// Too late: like the frames the run no longer reads.
		r.mu.Unlock()
		cancel()
		return startedCall{}, false, nil
	}
	// The host's own trace is bounded as the worker's: it keeps the
	// arguments of the calls the worker's trace may refer to (the
	// worker marks them, within MaxTraceBytes of their encoding).
	i := -1
	cost := int64(traceEntryCost + len(name))
	kept := args
	if keep := f.Type == typeCallKept && r.keptBytes+int64(argLen) <= MaxTraceBytes; keep {
		r.keptBytes += int64(argLen)
	} else {
		kept = nil
	}
	if !r.traceCut && r.traceBytes+cost <= MaxTraceBytes {
		r.traceBytes += cost
		i = len(r.calls)
		r.calls = append(r.calls, ToolCall{Name: name, Args: kept, ArgsOmitted: kept == nil && args != nil})
		r.frames = append(r.frames, f.ID)
		r.starts = append(r.starts, time.Now())
	} else {
		r.traceCut = true
	}
	r.inflight[f.ID] = cancel
	r.tools.Add(1)
	r.mu.Unlock()
	return startedCall{ctx: ctx, cancel: cancel, i: i, name: name, p: p, args: args}, true, nil
}

// callTool answers one tool call of the worker through the real projection.
func (r *hostRun) callTool(ctx context.Context, cancel context.CancelFunc, id uint64, i int, p projection.ToolProjection, args map[string]any) {
	defer r.tools.Done()
	defer cancel()
	start := time.Now()
	res, err := safeCall(ctx, p, args)
	d := time.Since(start)
	name := p.Name()
	r.mu.Lock()
	delete(r.inflight, id)
	if i >= 0 {
		d = time.Since(r.starts[i])
		r.calls[i].Duration = d
		r.starts[i] = time.Time{}
		name = r.calls[i].Name
		if err != nil {
			r.calls[i].Error, _ = cutMessage(err.Error(), MaxTraceErrorBytes)
			r.traceBytes += int64(len(r.calls[i].Error))
		}
	}
	r.mu.Unlock()
	if d > inlineToolMax {
		r.e.slow.Store(name, struct{}{})
	} else {
		r.e.slow.Delete(name)
	}
	var body []byte
	if err != nil {
		body = toolErrorBody(err)
	} else if body, err = appendToolResult(nil, res); err != nil {
		body = toolErrorBody(&ToolError{Tool: p.Name(), Err: fmt.Errorf("engine: the result (%T) cannot cross to the isolated worker: %w", res, err)})
	} else if n := len(body) + wire.HeaderSize - 4; n > MaxFrameBytes {
		body = toolErrorBody(&ToolError{Tool: p.Name(), Err: &FrameError{Frame: "tool result", Size: n, Limit: MaxFrameBytes}})
	}
	_ = r.w.Send(wire.Frame{Type: wire.TypeResult, ID: id, Body: body})
}

// endTools cancels the tool calls still running and waits up to the grace
// period for them.
func (r *hostRun) endTools() {
	r.mu.Lock()
	for _, c := range r.inflight {
		c()
	}
	r.mu.Unlock()
	done := make(chan struct{})
	go func() { r.tools.Wait(); close(done) }()
	t := time.NewTimer(r.e.cfg.Grace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

// result freezes what the host recorded.
func (r *hostRun) result(code int, err error) CodeResult {
	r.mu.Lock()
	r.ended = true
	r.mu.Unlock()
	r.w.SetHandler(nil)
	r.endTools()
	stdout, outTrunc := r.stdout.close()
	stderr, errTrunc := r.stderr.close()
	r.mu.Lock()
	defer r.mu.Unlock()
	res := CodeResult{
		Stdout: stdout, Stderr: stderr, StdoutTruncated: outTrunc, StderrTruncated: errTrunc,
		ReturnCode: code, Err: err,
	}
	if len(r.calls) > 0 {
		// A copy: calls still running keep writing to the run's.
		res.ToolCalls = append([]ToolCall(nil), r.calls...)
		for i, start := range r.starts {
			if !start.IsZero() {
				res.ToolCalls[i].Duration = time.Since(start)
				res.ToolCalls[i].Error = errCallInterrupted
			}
		}
	}
	res.ToolCallsTruncated = r.traceCut
	if err != nil {
		res.Error, res.ErrorTruncated = cutMessage(err.Error(), MaxErrorBytes)
		res.ErrorTruncated = res.ErrorTruncated || strings.HasSuffix(res.Error, truncatedMark)
	}
	return res
}

// errCallInterrupted marks, in the host's trace, a tool call still
// running when the worker died or the execution ended.
const errCallInterrupted = "engine: the execution ended during the call"

// finish handles the worker's answer.
func (r *hostRun) finish(f wire.Frame) CodeResult {
	var (
		wr    wire.Result
		reply runReply
	)
	if v, ok := resultValue(f.Body); ok {
		// The worker's own encoding: decode the reply once, not twice.
		wr.Value = v
	} else if err := f.Decode(&wr); err != nil {
		wr.Value = nil
	}
	if wr.Error != nil || wr.Value == nil || json.Unmarshal(wr.Value, &reply) != nil {
		msg := "undecodable reply"
		if wr.Error != nil {
			msg = wr.Error.Message
		}
		ex := r.e.pool.Kill(r.w, "bad reply: "+msg)
		return r.result(CodeCrash, &WorkerError{Exit: ex})
	}
	var calls []ToolCall
	if reply.Trace > 0 {
		// Every call frame before the reply is in the host's trace
		// once the frame reader has handled them.
		r.starting.Wait()
		r.mu.Lock()
		byFrame := make(map[uint64]int, len(r.frames))
		for i, id := range r.frames {
			byFrame[id] = i
		}
		var err error
		calls, err = parseTrace(r.trace, reply.Trace, func(frame uint64) map[string]any {
			if i, ok := byFrame[frame]; ok {
				return r.calls[i].Args
			}
			return nil // the host could not decode them either
		})
		r.mu.Unlock()
		if err != nil {
			ex := r.e.pool.Kill(r.w, "bad reply: "+err.Error())
			return r.result(CodeCrash, &WorkerError{Exit: ex})
		}
	}
	res := r.result(reply.Code, reply.Err.decode())
	var cut bool
	res.Error, cut = cutMessage(reply.Error, MaxErrorBytes)
	res.ErrorTruncated = reply.ErrorTruncated || cut
	res.ToolCallsTruncated = reply.TraceTruncated
	res.StdoutTruncated = res.StdoutTruncated || reply.StdoutTruncated
	res.StderrTruncated = res.StderrTruncated || reply.StderrTruncated
	if reply.HasValue {
		res.Value, _ = tagged.Unmarshal(reply.Value)
	}
	// The worker's trace is the script's view, with the in-process
	// runtime's rules (calls cut short by the end are marked); the host's
	// own trace is used when the worker dies.
	res.ToolCalls = calls
	if reply.Retire {
		r.e.pool.Kill(r.w, "retired: CPU time budget used, or the package state changed")
		return res
	}
	if res.ReturnCode == CodeOK {
		// Return the worker once its goroutines are gone, without making
		// the caller wait.
		r.e.wg.Go(func() { r.recycle() })
		return res
	}
	// After a failure, wait: a worker still busy (a long native call
	// past the deadline) is killed, and the result says so.
	if ex, killed := r.recycle(); killed {
		werr := &WorkerError{Exit: ex}
		res.Error += "; " + werr.Error()
		res.Err = errors.Join(res.Err, werr)
	}
	return res
}

// recycle waits for the worker's ready message and puts it back in the
// pool, or kills it when it is not clean in time.
func (r *hostRun) recycle() (isolated.Exit, bool) {
	t := time.NewTimer(2*r.e.cfg.Grace + 100*time.Millisecond)
	defer t.Stop()
	for {
		select {
		case f, ok := <-r.w.Frames():
			if !ok {
				return r.e.pool.Kill(r.w, ""), true
			}
			if f.Type != typeReady || f.ID != r.id {
				continue
			}
			var m readyMsg
			if f.Decode(&m) != nil || !m.Clean {
				return r.e.pool.Kill(r.w, fmt.Sprintf("still running %v after the script ended (a long native call ignores cancellation)", r.e.cfg.Grace)), true
			}
			r.e.pool.Put(r.w)
			return isolated.Exit{}, false
		case <-t.C:
			return r.e.pool.Kill(r.w, "no ready message after the script ended"), true
		}
	}
}

// crashed reports a worker that died during the execution, or whose
// stream ended with a frame over the limit: that is reported as what it
// is, a *FrameError (the worker, out of step, is replaced).
func (r *hostRun) crashed(reason string) CodeResult {
	if fe := frameError(r.w.ReadErr()); fe != nil {
		r.e.pool.Kill(r.w, "sent "+fe.Error())
		return r.result(CodeError, fe)
	}
	ex := r.e.pool.Kill(r.w, reason)
	return r.result(CodeCrash, &WorkerError{Exit: ex})
}

// overstayed kills a worker that did not answer within the grace period
// after its deadline or cancellation.
func (r *hostRun) overstayed() CodeResult {
	ex := r.e.pool.Kill(r.w, fmt.Sprintf("did not stop within %v of the deadline", r.e.cfg.Grace))
	cause := context.Cause(r.ctx)
	werr := &WorkerError{Exit: ex}
	var err error
	if errors.Is(cause, context.DeadlineExceeded) {
		err = fmt.Errorf("engine: timeout: the script did not finish within %v: %w; %w", r.limits.Timeout, cause, werr)
	} else {
		err = fmt.Errorf("engine: execution cancelled: %w; %w", cause, werr)
	}
	return r.result(CodeTimeout, err)
}

// MaxFrameBytes bounds one message between the host and an isolated
// worker (a frame of the pipe): a tool call's arguments, a tool's result,
// the script's result value with its error, its trace. The engine keeps
// each within it (see MaxErrorBytes and MaxTraceBytes) or, for what it
// cannot cut, reports a *FrameError: a tool call whose arguments are
// larger fails in the script, a tool result that is larger reaches the
// script as the tool's error, and a result value that is larger ends the
// execution with CodeError.
const MaxFrameBytes = wire.DefaultMaxFrame

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

// frameError returns the *FrameError of err when it is a frame of package
// wire over the limit, else nil.
func frameError(err error) *FrameError {
	var fe *wire.FrameSizeError
	if !errors.As(err, &fe) {
		return nil
	}
	return &FrameError{Frame: frameKind(fe.Type), Size: fe.Size, Limit: fe.Limit}
}

// frameKind names what a frame of the protocol carries.
func frameKind(t wire.Type) string {
	switch t {
	case wire.TypeCall, typeCallKept:
		return "tool call"
	case wire.TypeResult:
		return "result"
	case typeStdout:
		return "stdout"
	case typeStderr:
		return "stderr"
	case typeTrace:
		return "trace"
	case typeReady:
		return "ready"
	}
	return t.String()
}

// ErrWorkerKilled is wrapped by every *WorkerError.
var ErrWorkerKilled = errors.New("engine: worker killed")

// WorkerError reports an isolated worker that died or was killed during an
// execution: a crash of the Go runtime (stack overflow, out of memory,
// concurrent map writes, a panic outside the script's guards), an OS limit,
// or the host killing it after its grace period.
type WorkerError struct {
	Exit isolated.Exit // how the worker ended
}

// Error renders "engine: worker killed: cause (status)".
func (e *WorkerError) Error() string { return "engine: worker killed: " + e.Exit.String() }

// Unwrap returns ErrWorkerKilled.
func (e *WorkerError) Unwrap() error { return ErrWorkerKilled }
