package isolated

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolscript/toolscript/internal/tagged"
	"github.com/toolscript/toolscript/internal/wire"
	"github.com/toolscript/toolscript/projection"
)

// HostConfig holds a Host's settings.
type HostConfig struct {
	// Pool configures the workers; its Role is set by NewHost.
	Pool Config
	// Grace is how long a worker may take to stop after the deadline or a
	// cancellation, and for the goroutines of a finished script to end,
	// before it is killed and replaced.
	Grace time.Duration
	// Engine is the in-process runtime's side of the protocol.
	Engine Engine
}

// Host is the host side of the isolated runtime: a pool of engine
// workers, each running one script at a time while the script's tools run
// in this process (each tool call is a request over the worker's pipe).
// It is safe for concurrent use; Close ends every worker.
type Host struct {
	cfg   HostConfig
	eng   Engine
	pool  *Pool
	seq   atomic.Uint64
	wg    sync.WaitGroup // workers on their way back to the pool
	slow  sync.Map       // tool name -> struct{}: its last call took over inlineToolMax
	lists listCache      // the tool lists of the namespaces used last
}

// NewHost starts the pool of engine workers (see ServeEngine).
func NewHost(cfg HostConfig) (*Host, error) {
	cfg.Pool.Role = workerRole
	pool, err := NewPool(cfg.Pool)
	if err != nil {
		return nil, err
	}
	return &Host{cfg: cfg, eng: cfg.Engine, pool: pool}, nil
}

// Close waits for the workers on their way back to the pool, then ends
// every worker process and waits until they are gone.
func (h *Host) Close() error {
	h.wg.Wait()
	return h.pool.Close()
}

// PIDs returns the process ids of the live workers.
func (h *Host) PIDs() []int { return h.pool.PIDs() }

// Run runs req in a free worker, serving the tool calls of its script
// from tools and writing its output to stdout and stderr as it comes.
// Waiting for a free worker is bounded by ctx alone; the execution by
// ctx, which carries its timeout (for messages only: the deadline is
// ctx's). It fails only with ErrClosed.
func (h *Host) Run(ctx context.Context, req *RunRequest, tools map[string]projection.ToolProjection, timeout time.Duration, stdout, stderr io.Writer) (Result, error) {
	req.Grace = h.cfg.Grace
	list := h.lists.get(tools)
	w, err := h.pool.Get(ctx)
	if err != nil {
		if errors.Is(err, ErrClosed) {
			return Result{}, ErrClosed
		}
		return Result{Code: CodeTimeout, Error: "engine: gave up waiting for a free isolated worker: " + err.Error(), Err: err}, nil
	}
	w.setTools(req, list)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if timeout > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, timeout)
		defer stop()
	}
	if d, ok := ctx.Deadline(); ok {
		req.Deadline = d.UnixNano()
	}
	r := &hostRun{
		e: h, w: w, ns: tools, ctx: ctx, timeout: timeout, inflight: map[uint64]context.CancelFunc{},
		id: h.seq.Add(1), trace: h.eng.NewTrace(), stdout: stdout, stderr: stderr,
	}
	return r.run(req), nil
}

func toolSpecs(ns map[string]projection.ToolProjection) []toolSpec {
	specs := make([]toolSpec, 0, len(ns))
	for name, p := range ns {
		t := toolSpec{Name: name, Doc: p.Doc()}
		if n, ok := p.(projection.Namespaced); ok {
			t.Namespaced, t.Namespace, t.Method = true, n.Namespace(), n.MethodName()
		}
		if rp, ok := p.(projection.Roled); ok {
			t.Role = rp.Role()
		}
		// A schema that is not JSON would fail the whole request: the
		// worker then sees the map form, as the host's engine would.
		if in, out := projection.Schemas(p); in != nil || out != nil {
			if json.Valid(in) {
				t.Schema = in
			}
			if json.Valid(out) {
				t.OutputSchema = out
			}
		}
		specs = append(specs, t)
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	return specs
}

// hostRun is the host side of one execution in a worker.
type hostRun struct {
	e       *Host
	w       *Worker
	ns      map[string]projection.ToolProjection
	ctx     context.Context
	timeout time.Duration
	id      uint64

	stdout, stderr io.Writer

	mu       sync.Mutex
	calls    []Call         // the host's own trace, in the order calls started
	frames   []uint64       // the frame id of each call
	starts   []time.Time    // start of each call still running, zero once done
	starting sync.WaitGroup // calls the frame reader took, not yet in calls
	traceMsg []byte         // the worker's typeTrace frame
	inflight map[uint64]context.CancelFunc
	tools    sync.WaitGroup
	running  atomic.Int32           // the calls tools counts
	lastName atomic.Pointer[string] // the tool the last call named
	ended    bool                   // result has begun: no more tool calls start

	trace     Trace // what calls holds, counted as the engine counts its trace
	keptBytes int64 // the encoded arguments calls keeps

	session *SessionRequest // an input of a session: the worker stays pinned
	killed  bool            // the worker was killed during the run
}

// run sends the script and serves the worker until it answers, dies or
// overstays its deadline.
func (r *hostRun) run(req *RunRequest) Result {
	name, args := runCall, []byte(nil)
	if r.session != nil {
		name, args = sessionCall, r.session.encode(req)
	} else {
		args, _ = appendRunRequest(nil, req)
	}
	body := appendRunCall(nil, name, args, r.id)
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
				r.traceMsg = f.Body
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
// goroutine that reads its frames (see Worker.SetHandler): a tool
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
	var last string
	if p := r.lastName.Load(); p != nil {
		last = *p
	}
	name, args, argLen, err := parseToolCallAs(f.Body, last)
	if name != last {
		r.lastName.Store(&name)
	}
	if err != nil {
		return startedCall{}, false, toolErrorBody(r.e.eng, r.e.eng.ToolError(name, fmt.Errorf("engine: bad tool call from the worker: %w", err)))
	}
	p, ok := r.ns[name]
	if !ok {
		return startedCall{}, false, toolErrorBody(r.e.eng, r.e.eng.UnknownTool(name))
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
	// worker marks them, within Bounds.TraceBytes of their encoding),
	// not counted in the trace's budget, as the worker counts them.
	i := -1
	kept := args
	if keep := f.Type == typeCallKept && r.keptBytes+int64(argLen) <= int64(r.e.eng.Bounds().TraceBytes); keep {
		r.keptBytes += int64(argLen)
	} else {
		kept = nil
	}
	if r.trace.Enter(name, 0) {
		i = len(r.calls)
		r.calls = append(r.calls, Call{Name: name, Args: kept, ArgsOmitted: kept == nil && args != nil})
		r.frames = append(r.frames, f.ID)
		r.starts = append(r.starts, time.Now())
	}
	r.inflight[f.ID] = cancel
	r.tools.Add(1)
	r.running.Add(1)
	r.mu.Unlock()
	return startedCall{ctx: ctx, cancel: cancel, i: i, name: name, p: p, args: args}, true, nil
}

// callTool answers one tool call of the worker through the real projection.
func (r *hostRun) callTool(ctx context.Context, cancel context.CancelFunc, id uint64, i int, p projection.ToolProjection, args map[string]any) {
	defer r.tools.Done()
	defer r.running.Add(-1)
	defer cancel()
	start := time.Now()
	var (
		res      any
		err      error
		decision string
	)
	if g, ok := p.(projection.Gated); ok {
		// The host's decision precedes the call, and enters the trace.
		ctx, decision, err = r.e.eng.Decide(ctx, g, args)
	}
	if err == nil {
		res, err = r.e.eng.Call(ctx, p, args)
	}
	d := time.Since(start)
	name := p.Name()
	r.mu.Lock()
	delete(r.inflight, id)
	if i >= 0 {
		d = time.Since(r.starts[i])
		r.calls[i].Duration = d
		if decision != "" {
			r.calls[i].Decision = decision
			r.trace.Add(int64(len(decision)))
		}
		r.starts[i] = time.Time{}
		name = r.calls[i].Name
		if err != nil {
			r.calls[i].Error, _ = r.e.eng.Cut(err.Error(), r.e.eng.Bounds().TraceErrorBytes)
			r.trace.Add(int64(len(r.calls[i].Error)))
		}
	}
	r.mu.Unlock()
	if d > inlineToolMax {
		r.e.slow.Store(name, struct{}{})
	} else {
		r.e.slow.Delete(name)
	}
	var body []byte
	eng := r.e.eng
	if err != nil {
		body = toolErrorBody(eng, err)
	} else if body, err = appendToolResult(nil, res); err != nil {
		body = toolErrorBody(eng, eng.ToolError(p.Name(), fmt.Errorf("engine: the result (%T) cannot cross to the isolated worker: %w", res, err)))
	} else if n := len(body) + wire.HeaderSize - 4; n > MaxFrameBytes {
		body = toolErrorBody(eng, eng.ToolError(p.Name(), eng.FrameError("tool result", n, MaxFrameBytes)))
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
	if r.running.Load() == 0 {
		// None running, and none starts once the run has ended.
		return
	}
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
func (r *hostRun) result(code int, err error) Result {
	r.mu.Lock()
	r.ended = true
	r.mu.Unlock()
	r.w.SetHandler(nil)
	r.endTools()
	r.mu.Lock()
	defer r.mu.Unlock()
	res := Result{Code: code, Err: err}
	if len(r.calls) > 0 {
		// A copy: calls still running keep writing to the run's.
		res.Calls = append([]Call(nil), r.calls...)
		for i, start := range r.starts {
			if !start.IsZero() {
				res.Calls[i].Duration = time.Since(start)
				res.Calls[i].Error = errCallInterrupted
			}
		}
	}
	res.CallsTruncated = r.trace.Cut()
	if err != nil {
		b := r.e.eng.Bounds()
		res.Error, res.ErrorTruncated = r.e.eng.Cut(err.Error(), b.ErrorBytes)
		res.ErrorTruncated = res.ErrorTruncated || strings.HasSuffix(res.Error, b.TruncatedMark)
	}
	return res
}

// errCallInterrupted marks, in the host's trace, a tool call still
// running when the worker died or the execution ended.
const errCallInterrupted = "engine: the execution ended during the call"

// finish handles the worker's answer.
func (r *hostRun) finish(f wire.Frame) Result {
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
	if wr.Error != nil || wr.Value == nil || parseRunReply(wr.Value, &reply) != nil {
		msg := "undecodable reply"
		if wr.Error != nil {
			msg = wr.Error.Message
		}
		ex := r.kill("bad reply: " + msg)
		return r.result(CodeCrash, r.e.eng.WorkerError(ex))
	}
	var calls []Call
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
		decided := make([]bool, len(r.calls))
		calls, err = parseTrace(r.traceMsg, reply.Trace, func(frame uint64, tc *Call) {
			if i, ok := byFrame[frame]; ok {
				tc.Args, tc.Decision = r.calls[i].Args, r.calls[i].Decision
				decided[i] = true
			}
			// else the host could not decode them either
		})
		if err == nil {
			addDecisions(calls, r.calls, decided)
		}
		r.mu.Unlock()
		if err != nil {
			ex := r.kill("bad reply: " + err.Error())
			return r.result(CodeCrash, r.e.eng.WorkerError(ex))
		}
	}
	var werr error
	if reply.Err != nil {
		werr = r.e.eng.DecodeError(reply.Err)
	}
	res := r.result(reply.Code, werr)
	var cut bool
	res.Error, cut = r.e.eng.Cut(reply.Error, r.e.eng.Bounds().ErrorBytes)
	res.ErrorTruncated = reply.ErrorTruncated || cut
	res.CallsTruncated = reply.TraceTruncated
	res.StdoutTruncated, res.StderrTruncated = reply.StdoutTruncated, reply.StderrTruncated
	if reply.HasValue {
		res.Value, _ = tagged.Unmarshal(reply.Value)
	}
	// The worker's trace is the script's view, with the in-process
	// runtime's rules (calls cut short by the end are marked); the host's
	// own trace is used when the worker dies.
	res.Calls = calls
	if reply.Retire && r.session == nil {
		r.kill("retired: CPU time budget used, or the package state changed")
		return res
	}
	if res.Code == CodeOK && r.session == nil {
		// Return the worker once its goroutines are gone, without making
		// the caller wait: at once when the ready message came with the
		// reply (the worker sends them together when it can).
		select {
		case f, ok := <-r.w.Frames():
			if _, done, _ := r.ready(f, ok); done {
				// Killed or not, the result stands, as when recycle
				// kills it in the background.
				return res
			}
		default:
		}
		r.e.wg.Go(func() { r.recycle() })
		return res
	}
	// After a failure, wait: a worker still busy (a long native call
	// past the deadline) is killed, and the result says so.
	if ex, killed := r.recycle(); killed {
		kerr := r.e.eng.WorkerError(ex)
		res.Error += "; " + kerr.Error()
		res.Err = errors.Join(res.Err, kerr)
	}
	return res
}

// addDecisions gives the entries of the worker's trace that name no frame
// (their arguments are in the entry) the decisions of the host's calls
// that no entry named (decided[j] false), matched by tool name in the
// order the calls started. Only the host's calls with a decision are
// matched, so a trace of plain tools costs one pass.
func addDecisions(calls, host []Call, decided []bool) {
	var pending []int // host calls with a decision that no entry has yet
	for j := range host {
		if host[j].Decision != "" && !decided[j] {
			pending = append(pending, j)
		}
	}
	for k := range calls {
		if len(pending) == 0 {
			return
		}
		if calls[k].Decision != "" {
			continue
		}
		for p, j := range pending {
			if host[j].Name == calls[k].Name {
				calls[k].Decision = host[j].Decision
				pending = append(pending[:p], pending[p+1:]...)
				break
			}
		}
	}
}

// recycle waits for the worker's ready message and puts it back in the
// pool, or kills it when it is not clean in time.
func (r *hostRun) recycle() (Exit, bool) {
	t := time.NewTimer(2*r.e.cfg.Grace + 100*time.Millisecond)
	defer t.Stop()
	for {
		select {
		case f, ok := <-r.w.Frames():
			if ex, done, killed := r.ready(f, ok); done {
				return ex, killed
			}
		case <-t.C:
			return r.kill("no ready message after the script ended"), true
		}
	}
}

// ready handles a frame of the worker after its reply (ok false: the
// frames ended): done once it is the ready message, or the end, when the
// worker is back in the pool (not for a session) or killed.
func (r *hostRun) ready(f wire.Frame, ok bool) (ex Exit, done, killed bool) {
	switch {
	case !ok:
		return r.kill(""), true, true
	case f.Type != typeReady || f.ID != r.id:
		return Exit{}, false, false
	case !isClean(f.Body):
		return r.kill(fmt.Sprintf("still running %v after the script ended (a long native call ignores cancellation)", r.e.cfg.Grace)), true, true
	}
	if r.session == nil {
		r.e.pool.Put(r.w)
	}
	return Exit{}, true, false
}

// crashed reports a worker that died during the execution, or whose
// stream ended with a frame over the limit: that is reported as what it
// is, Engine.FrameError's (the worker, out of step, is replaced).
func (r *hostRun) crashed(reason string) Result {
	if fe := frameError(r.e.eng, r.w.ReadErr()); fe != nil {
		r.kill("sent " + fe.Error())
		return r.result(CodeError, fe)
	}
	ex := r.kill(reason)
	return r.result(CodeCrash, r.e.eng.WorkerError(ex))
}

// overstayed kills a worker that did not answer within the grace period
// after its deadline or cancellation.
func (r *hostRun) overstayed() Result {
	ex := r.kill(fmt.Sprintf("did not stop within %v of the deadline", r.e.cfg.Grace))
	cause := context.Cause(r.ctx)
	werr := r.e.eng.WorkerError(ex)
	var err error
	if errors.Is(cause, context.DeadlineExceeded) {
		err = fmt.Errorf("engine: timeout: the script did not finish within %v: %w; %w", r.timeout, cause, werr)
	} else {
		err = fmt.Errorf("engine: execution cancelled: %w; %w", cause, werr)
	}
	return r.result(CodeTimeout, err)
}

// frameError returns the error of a frame of package wire over the
// limit (err, or an error it wraps), else nil.
func frameError(eng Engine, err error) error {
	var fe *wire.FrameSizeError
	if !errors.As(err, &fe) {
		return nil
	}
	return eng.FrameError(frameKind(fe.Type), fe.Size, fe.Limit)
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
