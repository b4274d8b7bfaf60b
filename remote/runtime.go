package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nuid"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/internal/tagged"
	"github.com/toolscript/toolscript/projection"
)

// Config holds a Runtime's settings. Zero fields take their defaults.
type Config struct {
	// Limits are the defaults of every execution, as in engine.Config.
	Limits engine.Limits
	// Prefix is the first token of every subject. Default DefaultPrefix.
	Prefix string
	// DispatchTimeout bounds the wait for a worker to claim an execution
	// before the request is sent again. Default 2s.
	DispatchTimeout time.Duration
	// Heartbeat is the interval of the workers' heartbeats. Default 500ms.
	Heartbeat time.Duration
	// MissedHeartbeats is how many intervals without a heartbeat mean the
	// worker (or, on the worker, the host) is lost. Default 6.
	MissedHeartbeats int
	// Grace is how long the host waits for a worker's result after the
	// timeout or a cancellation. Default: engine.DefaultGrace plus one
	// heartbeat interval plus one second for the network.
	Grace time.Duration
}

// Runtime is the CodeRuntime whose executions run on the workers that
// serve its NATS connection's prefix; see the package doc. It is safe
// for concurrent use. It does not own the connection. WithStdout and
// WithStderr receive the output while the script runs, each byte once
// (the worker streams it in chunks; see the package doc).
type Runtime struct {
	nc  *nats.Conn
	cfg Config
}

var _ engine.CodeRuntime = (*Runtime)(nil)

// New returns a Runtime over nc.
func New(nc *nats.Conn, cfg Config) *Runtime {
	if cfg.Prefix == "" {
		cfg.Prefix = DefaultPrefix
	}
	if cfg.DispatchTimeout <= 0 {
		cfg.DispatchTimeout = 2 * time.Second
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = 500 * time.Millisecond
	}
	if cfg.MissedHeartbeats <= 0 {
		cfg.MissedHeartbeats = 6
	}
	if cfg.Grace <= 0 {
		cfg.Grace = engine.DefaultGrace + cfg.Heartbeat + time.Second
	}
	return &Runtime{nc: nc, cfg: cfg}
}

// hostCall is one tool call as the host ran it.
type hostCall struct {
	name     string
	args     map[string]any
	start    time.Time
	duration time.Duration
	decision string
	err      error
	done     bool
}

// run is one execution on the host side.
type run struct {
	rt      *Runtime
	ns      map[string]projection.ToolProjection
	ctx     context.Context // the caller's
	timeout time.Duration   // the execution's, 0 for none
	wg      sync.WaitGroup  // tool calls being served
	claimed chan struct{}   // closed when a worker's claim is granted
	result  chan []byte     // the worker's result, once

	mu         sync.Mutex
	toolCtx    context.Context // the tools' context: from the claim to the timeout or the end
	toolCancel context.CancelFunc
	worker     string
	lastBeat   time.Time
	calls      map[uint64]*hostCall
	order      []uint64
	gotRes     bool
	// The output as it streams (see stream.go); ended stops the chunks
	// once Execute has the result.
	stdout, stderr hostStream
	ended          bool
	parts          resultParts // a result sent in parts
}

// Execute runs one script on a worker of the fleet; see engine.Engine's
// Execute for the script contract and the package doc for what the
// network adds. The error is non-nil only for misuse (a bad namespace or
// globals) or a closed connection.
func (r *Runtime) Execute(ctx context.Context, code string, ns map[string]projection.ToolProjection, opts ...engine.Option) (engine.CodeResult, error) {
	o, err := engine.ResolveOptions(ctx, r.cfg.Limits, ns, opts...)
	if err != nil {
		return engine.CodeResult{}, err
	}
	if r.nc.IsClosed() {
		return engine.CodeResult{}, engine.ErrClosed
	}
	start := time.Now()
	limits := o.Limits
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl); limits.Timeout < 0 || left < limits.Timeout {
			limits.Timeout = max(left, time.Millisecond)
		}
	}
	id := nuid.Next()
	req := execRequest{ID: id, Code: code, Heartbeat: r.cfg.Heartbeat, Missed: r.cfg.MissedHeartbeats,
		Stdout: o.Stdout != nil, Stderr: o.Stderr != nil}
	if dl, ok := ctx.Deadline(); ok {
		req.Deadline = dl.UnixNano()
	}
	req.Limits, _ = json.Marshal(limits)
	if len(o.Globals) > 0 {
		if req.Globals, err = tagged.Marshal(o.Globals); err != nil {
			return engine.CodeResult{}, fmt.Errorf("remote: extra globals cannot cross to a worker: %w", err)
		}
	}
	for _, p := range ns {
		in, out := projection.Schemas(p)
		spec := toolSpec{Name: p.Name(), Doc: p.Doc(), In: in, Out: out}
		if r, ok := p.(projection.Roled); ok {
			spec.Role = r.Role()
		}
		_, spec.Gated = p.(projection.Gated)
		req.Tools = append(req.Tools, spec)
	}
	body, err := json.Marshal(req)
	if err != nil {
		return engine.CodeResult{}, fmt.Errorf("remote: the request: %w", err)
	}
	if n, m := int64(len(body)), r.nc.MaxPayload(); n > m {
		return engine.CodeResult{}, tooLarge("the execution request (script, globals and tool list)", n, m)
	}

	x := &run{rt: r, ns: ns, ctx: ctx, timeout: max(limits.Timeout, 0), claimed: make(chan struct{}), result: make(chan []byte, 1), calls: map[uint64]*hostCall{},
		stdout: hostStream{w: o.Stdout}, stderr: hostStream{w: o.Stderr}}
	base := baseSubject(r.cfg.Prefix, id)
	sub, err := r.nc.Subscribe(base+".*", func(m *nats.Msg) { x.serve(base, m) })
	if err != nil {
		return engine.CodeResult{}, fmt.Errorf("remote: %w", err)
	}
	defer func() {
		_ = sub.Unsubscribe()
		x.mu.Lock()
		if x.toolCancel != nil {
			x.toolCancel()
		}
		x.mu.Unlock()
		x.wg.Wait()
	}()
	// The subscription must be known to the server before a worker claims.
	if err := r.nc.Flush(); err != nil {
		return engine.CodeResult{}, fmt.Errorf("remote: %w", err)
	}

	res, ok := x.dispatch(body)
	if !ok {
		res = x.wait(base)
	}
	// What the chunks did not bring (all of it when the worker was lost
	// or the output was not streamed).
	x.mu.Lock()
	x.ended = true
	x.stdout.finish(res.Stdout)
	x.stderr.finish(res.Stderr)
	x.mu.Unlock()
	res.Duration = time.Since(start)
	return res, nil
}

// dispatch sends the request until a worker claims it; it returns a
// result and true when the execution ended before any worker took it.
func (x *run) dispatch(body []byte) (engine.CodeResult, bool) {
	r := x.rt
	pause := 5 * time.Millisecond
	for {
		select {
		case <-x.claimed:
			return engine.CodeResult{}, false
		default:
		}
		if x.ctx.Err() != nil && x.refuseClaims() {
			return x.notStarted(), true
		}
		dctx, cancel := context.WithTimeout(x.ctx, r.cfg.DispatchTimeout)
		m, err := r.nc.RequestWithContext(dctx, execSubject(r.cfg.Prefix), body)
		cancel()
		select {
		case <-x.claimed:
			return engine.CodeResult{}, false
		default:
		}
		switch {
		case err == nil && string(m.Data) == answerBusy, errors.Is(err, nats.ErrNoResponders):
			// Every worker busy, or none: wait, then ask again.
			t := time.NewTimer(pause)
			select {
			case <-t.C:
			case <-x.claimed:
				t.Stop()
				return engine.CodeResult{}, false
			case <-x.ctx.Done():
				t.Stop()
			}
			pause = min(2*pause, 100*time.Millisecond)
		case errors.Is(err, nats.ErrConnectionClosed):
			return engine.CodeResult{ReturnCode: engine.CodeCrash, Error: "remote: the NATS connection is closed", Err: engine.ErrClosed}, true
		default:
			// A timeout (no worker claimed it: retried), or an answer
			// that came with the claim.
		}
	}
}

// refuseClaims makes later claims fail; it reports false when a worker
// has claimed the execution already.
func (x *run) refuseClaims() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.worker != "" {
		return false
	}
	x.worker = "\x00none"
	return true
}

// notStarted is the result of an execution whose context ended before a
// worker took it.
func (x *run) notStarted() engine.CodeResult {
	cause := context.Cause(x.ctx)
	return engine.CodeResult{ReturnCode: engine.CodeTimeout,
		Error: "remote: no worker took the execution before it ended: " + cause.Error(),
		Err:   fmt.Errorf("remote: no worker took the execution before it ended: %w", cause)}
}

// wait waits for the claimed execution's result.
func (x *run) wait(base string) engine.CodeResult {
	r := x.rt
	lost := time.Duration(r.cfg.MissedHeartbeats) * r.cfg.Heartbeat
	tick := time.NewTicker(r.cfg.Heartbeat)
	defer tick.Stop()
	done := x.ctx.Done()
	var graceEnd <-chan time.Time
	for {
		select {
		case b := <-x.result:
			res, err := engine.UnmarshalResult(b)
			if err != nil {
				return x.lostResult(fmt.Errorf("remote: the worker's result: %w", err))
			}
			return res
		case <-done:
			done = nil
			// At the context's deadline the worker stops by itself (the
			// deadline is in the request); a cancellation it is told.
			if !errors.Is(x.ctx.Err(), context.DeadlineExceeded) {
				_ = r.nc.Publish(base+".cancel", nil)
			}
			graceEnd = time.After(r.cfg.Grace)
		case <-graceEnd:
			return x.lostResult(fmt.Errorf("remote: the worker did not report within the grace period after the execution ended: %w", context.Cause(x.ctx)))
		case <-tick.C:
			x.mu.Lock()
			silent := time.Since(x.lastBeat)
			x.mu.Unlock()
			if silent > lost {
				return x.lostResult(fmt.Errorf("%w: no heartbeat from %s for %v", ErrWorkerLost, x.worker, silent.Round(time.Millisecond)))
			}
		}
	}
}

// lostResult is the result of an execution whose worker did not report:
// CodeCrash (CodeTimeout after the context ended) and the host's trace.
func (x *run) lostResult(err error) engine.CodeResult {
	x.mu.Lock()
	defer x.mu.Unlock()
	res := engine.CodeResult{ReturnCode: engine.CodeCrash, Err: err}
	if x.ctx.Err() != nil && !errors.Is(err, ErrWorkerLost) {
		res.ReturnCode = engine.CodeTimeout
	}
	var ran int
	for _, id := range x.order {
		c := x.calls[id]
		tc := engine.ToolCall{Name: c.name, Args: c.args, Duration: c.duration, Decision: c.decision}
		switch {
		case !c.done:
			tc.Error = engine.ErrCallUnfinished.Error()
			tc.Duration = time.Since(c.start)
		case c.err != nil:
			tc.Error = c.err.Error()
		}
		ran++
		res.ToolCalls = append(res.ToolCalls, tc)
	}
	res.Error = fmt.Sprintf("%v (%d tool calls ran; they are in the trace)", err, ran)
	return res
}

// serve answers the messages of the execution's own subjects.
func (x *run) serve(base string, m *nats.Msg) {
	switch strings.TrimPrefix(m.Subject, base+".") {
	case "claim":
		x.mu.Lock()
		granted := x.worker == ""
		if granted {
			x.worker, x.lastBeat = string(m.Data), time.Now()
			// The tools get the execution's deadline, as in the local
			// runtimes, and end with it.
			if x.timeout > 0 {
				x.toolCtx, x.toolCancel = context.WithTimeout(x.ctx, x.timeout)
			} else {
				x.toolCtx, x.toolCancel = context.WithCancel(x.ctx)
			}
		}
		x.mu.Unlock()
		if granted {
			close(x.claimed)
			_ = m.Respond([]byte(answerGranted))
		} else {
			_ = m.Respond([]byte(answerTaken))
		}
	case "out", "err":
		off, err := strconv.ParseInt(m.Header.Get(offsetHeader), 10, 64)
		x.mu.Lock()
		h := &x.stdout
		if strings.HasSuffix(m.Subject, ".err") {
			h = &x.stderr
		}
		switch {
		case x.ended:
		case err != nil:
			h.broken = true
		default:
			h.chunk(off, m.Data)
		}
		x.mu.Unlock()
	case "hb":
		x.mu.Lock()
		if string(m.Data) == x.worker {
			x.lastBeat = time.Now()
		}
		x.mu.Unlock()
		_ = m.Respond(nil)
	case "part":
		off, err := strconv.ParseInt(m.Header.Get(offsetHeader), 10, 64)
		x.mu.Lock()
		if err != nil {
			off = -1
		}
		if !x.gotRes {
			x.parts.add(off, m.Data)
		}
		x.mu.Unlock()
	case "result":
		data := m.Data
		if t := m.Header.Get(totalHeader); t != "" {
			total, err := strconv.Atoi(t)
			x.mu.Lock()
			if err == nil {
				data, err = x.parts.result(total)
			}
			x.parts = resultParts{}
			x.mu.Unlock()
			if err != nil {
				data, _ = engine.MarshalResult(engine.CodeResult{ReturnCode: engine.CodeCrash, Error: err.Error(), Err: err})
			}
		}
		x.mu.Lock()
		first := !x.gotRes
		x.gotRes = true
		x.mu.Unlock()
		if first {
			x.result <- data
		}
		_ = m.Respond(nil)
	case "call":
		id, err := strconv.ParseUint(m.Header.Get(callIDHeader), 10, 64)
		if err != nil {
			x.replyCall(m, nil, "", fmt.Errorf("remote: tool call without an id"))
			return
		}
		x.mu.Lock()
		_, seen := x.calls[id]
		var c *hostCall
		if !seen {
			c = &hostCall{start: time.Now()}
			x.calls[id] = c
			x.order = append(x.order, id)
		}
		x.mu.Unlock()
		if seen {
			x.replyCall(m, nil, "", ErrDuplicateCall)
			return
		}
		x.wg.Add(1)
		go func() {
			defer x.wg.Done()
			x.call(c, m)
		}()
	}
}

// call runs one tool call and replies.
func (x *run) call(c *hostCall, m *nats.Msg) {
	var req callRequest
	var args map[string]any
	err := json.Unmarshal(m.Data, &req)
	if err == nil && len(req.Args) > 0 {
		args, err = tagged.UnmarshalMap(req.Args)
	}
	x.mu.Lock()
	c.name, c.args = req.Name, args
	ctx := x.toolCtx
	x.mu.Unlock()
	if ctx == nil {
		ctx = x.ctx // a call before the claim: not from the claimed worker
	}
	var v any
	var decision string
	if err != nil {
		err = fmt.Errorf("remote: bad tool call: %w", err)
	} else if p, ok := x.ns[req.Name]; !ok {
		err = fmt.Errorf("%w: %s", engine.ErrUnknownTool, req.Name)
	} else {
		v, decision, err = callTool(ctx, p, args)
	}
	x.mu.Lock()
	c.duration, c.decision, c.err, c.done = time.Since(c.start), decision, err, true
	x.mu.Unlock()
	x.replyCall(m, v, decision, err)
}

// callTool runs a tool in the host: a gated tool's decision first (as
// the local runtimes decide in the host), a panic becomes a
// *engine.PanicError (a panicking decision refuses the call).
func callTool(ctx context.Context, p projection.ToolProjection, args map[string]any) (res any, decision string, err error) {
	defer func() {
		if r := recover(); r != nil {
			if decision == "" {
				if _, gated := p.(projection.Gated); gated {
					decision = projection.DecisionRefused
				}
			}
			res, err = nil, &engine.ToolError{Tool: p.Name(), Err: &engine.PanicError{Value: r}}
		}
	}()
	if g, ok := p.(projection.Gated); ok {
		dctx, d, err := g.Decide(ctx, args)
		if err != nil {
			return nil, d, err
		}
		if d != projection.DecisionApproved {
			return nil, d, fmt.Errorf("remote: call %s", d)
		}
		decision = d
		if dctx != nil {
			ctx = dctx
		}
	}
	res, err = p.Call(ctx, args)
	return res, decision, err
}

// replyCall answers a tool call with its value or error, and a gated
// tool's decision.
func (x *run) replyCall(m *nats.Msg, v any, decision string, err error) {
	rep := callReply{Decision: decision}
	if err == nil && v != nil {
		rep.Value, err = tagged.Marshal(v)
		if err != nil {
			err = fmt.Errorf("remote: the tool's result cannot cross to the worker: %w", err)
		}
	}
	if err != nil {
		rep = callReply{Err: engine.MarshalError(err), Decision: decision}
	}
	b, _ := json.Marshal(rep)
	if n, max := int64(len(b)), x.rt.nc.MaxPayload(); n > max {
		b, _ = json.Marshal(callReply{Err: engine.MarshalError(tooLarge("the tool's result", n, max)), Decision: decision})
	}
	_ = m.Respond(b)
}
