package isolated

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/toolscript/toolscript/projection"
)

// Sessions (engine.Session on the isolated runtime) pin one worker for
// their life. Each input is one more call of the protocol:
//
//	host -> worker  Call "session" (args SessionRequest)   runs one input of the session
//
// after which the frames are the run call's (output, tool calls, trace,
// result, ready). The worker keeps one session: the first input of an id
// starts it, with the tools that input names; an input of another id
// drops it and starts afresh. Only the first input carries the tools
// (the session keeps the namespace NewSession saw); the later ones say
// the worker holds them (ToolsHeld), and a worker that does not hold
// that session's tools refuses them. The worker is never given back to the pool:
// closing or resetting a session kills it (the pool starts another), so
// no state of a session reaches another execution.
const sessionCall = "session"

// SessionRequest is the body of the session call: the input as a run
// call's RunRequest, and the session it belongs to.
type SessionRequest struct {
	RunRequest
	// Session names the session; it is never 0.
	Session uint64 `json:"session"`
	// MaxStateBytes bounds the state the session keeps between inputs
	// (engine.SessionLimits.MaxMemoryBytes); negative: none.
	MaxStateBytes int64 `json:"max_state_bytes"`
	// ToolsHeld says the worker has the session's tools from its first
	// input: Tools is empty.
	ToolsHeld bool `json:"tools_held,omitempty"`
}

// errBadSession is the error of a session call whose request is invalid.
var errBadSession = errors.New("engine: worker: bad session request")

// errSessionTools is the error of an input that names the tools of a
// session the worker does not hold.
var errSessionTools = errors.New("engine: worker: the input of a session this worker does not hold, without its tools")

// encode is the session call's args for the input req (which has the
// host's fields set: tools, grace, deadline).
func (s *SessionRequest) encode(req *RunRequest) []byte {
	c := *s
	c.RunRequest = *req
	b, _ := json.Marshal(&c)
	return b
}

// parseSessionRequest reads the args of a session call. Any bytes are
// safe to give it: it fails on whatever is not a valid request.
func parseSessionRequest(b []byte) (*SessionRequest, error) {
	var r SessionRequest
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%w: %w", errBadSession, err)
	}
	if r.Session == 0 {
		return nil, fmt.Errorf("%w: no session id", errBadSession)
	}
	if len(r.Limits) == 0 {
		return nil, fmt.Errorf("%w: no limits", errBadSession)
	}
	return &r, nil
}

// decodeRun reads the args of a run or a session call into req.
func decodeRun(call string, args []byte, req *RunRequest) error {
	if call != sessionCall {
		return parseRunRequest(args, req)
	}
	sr, err := parseSessionRequest(args)
	if err != nil {
		return err
	}
	*req = sr.RunRequest
	req.session = sr
	return nil
}

// workerSession is the worker's side of the session it is pinned to: the
// tools its interpreter holds, which forward each call to the host under
// the run in progress (rs).
type workerSession struct {
	id uint64
	ns map[string]projection.ToolProjection
	rs *runState
}

// namespace returns the tools of a run and the log of their calls: for a
// run call, those of the tool list it names (see toollist.go), or fresh
// ones; for an input of a session, the session's. The tools then forward
// under run id.
func (ws *workerServer) namespace(req *RunRequest, id uint64) (map[string]projection.ToolProjection, *callLog, error) {
	log := &callLog{max: int64(ws.eng.Bounds().TraceBytes)}
	sr := req.session
	var (
		ns map[string]projection.ToolProjection
		rs *runState
	)
	switch {
	case sr != nil && ws.session != nil && ws.session.id == sr.Session:
		ns, rs = ws.session.ns, ws.session.rs
	case sr != nil && sr.ToolsHeld:
		// Not this worker's session: it does not hold its tools.
		return nil, nil, errSessionTools
	case sr == nil && req.ToolsKey != "":
		l, err := ws.toolList(req)
		if err != nil {
			return nil, nil, err
		}
		ns, rs = l.ns, l.rs
	default:
		rs = &runState{}
		ns = ws.remoteTools(req.Tools, rs)
		if sr != nil {
			ws.session = &workerSession{id: sr.Session, ns: ns, rs: rs}
		}
	}
	rs.run, rs.log = id, log
	return ns, log, nil
}

// remoteTools returns the namespace of tools, forwarding under rs.
func (ws *workerServer) remoteTools(tools []toolSpec, rs *runState) map[string]projection.ToolProjection {
	ns := make(map[string]projection.ToolProjection, len(tools))
	for _, t := range tools {
		rt := &remoteTool{spec: t, ws: ws, rs: rs}
		if t.Role != "" {
			ns[t.Name] = &remoteRoledTool{rt}
		} else if t.Namespaced {
			ns[t.Name] = &remoteNamespacedTool{rt}
		} else {
			ns[t.Name] = rt
		}
	}
	return ns
}

// runOn runs req on the engine: a script, or an input of the session.
func (ws *workerServer) runOn(ctx context.Context, req *RunRequest, ns map[string]projection.ToolProjection, stdout, stderr io.Writer) Outcome {
	if req.session != nil {
		return ws.eng.RunSession(ctx, req.session, ns, stdout, stderr)
	}
	return ws.eng.Run(ctx, req, ns, stdout, stderr)
}

// kill kills the run's worker: it is replaced, and a session pinned to
// it is lost.
func (r *hostRun) kill(reason string) Exit {
	r.killed = true
	return r.e.pool.Kill(r.w, reason)
}

// HostSession is the host's side of a session: the worker it pins, taken
// from the pool for the session's life. It runs one input at a time (the
// caller serialises them).
type HostSession struct {
	h     *Host
	tools map[string]projection.ToolProjection
	id    uint64

	mu sync.Mutex
	w  *Worker // nil once killed
	// held: the worker holds the session's tools, an input it took
	// carried them; the inputs after it do not.
	held bool
}

// NewSession takes a worker of the pool for a session with tools; ctx
// bounds the wait for a free worker. It fails with ErrClosed, or ctx's
// error.
func (h *Host) NewSession(ctx context.Context, tools map[string]projection.ToolProjection) (*HostSession, error) {
	w, err := h.pool.Get(ctx)
	if err != nil {
		return nil, err
	}
	return &HostSession{h: h, tools: tools, id: h.seq.Add(1), w: w}, nil
}

// PID is the process id of the session's worker, 0 once it is gone.
func (s *HostSession) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.w == nil {
		return 0
	}
	return s.w.PID()
}

// Run runs one input of the session in its worker, as Host.Run runs a
// script; maxState is the session's SessionRequest.MaxStateBytes. lost
// reports that the worker died or was killed (the result says why): the
// session's state is gone with it, and later Runs fail at once with lost
// set.
func (s *HostSession) Run(ctx context.Context, req *RunRequest, maxState int64, timeout time.Duration, stdout, stderr io.Writer) (res Result, lost bool) {
	s.mu.Lock()
	w := s.w
	s.mu.Unlock()
	if w == nil {
		return Result{Code: CodeCrash, Error: "engine: the session's worker is gone"}, true
	}
	req.Grace = s.h.cfg.Grace
	if !s.held {
		req.Tools = s.h.lists.get(s.tools).specs
	}
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
		e: s.h, w: w, ns: s.tools, ctx: ctx, timeout: timeout, inflight: map[uint64]context.CancelFunc{},
		id: s.h.seq.Add(1), trace: s.h.eng.NewTrace(), stdout: stdout, stderr: stderr,
		session: &SessionRequest{Session: s.id, MaxStateBytes: maxState, ToolsHeld: s.held},
	}
	res = r.run(req)
	if !r.killed {
		// The worker took the input (it answered and lives): it holds
		// the session's tools.
		s.held = true
	}
	if r.killed {
		s.mu.Lock()
		s.w = nil
		s.mu.Unlock()
		return res, true
	}
	return res, false
}

// Close ends the session: its worker is killed (the pool starts another
// in its place). It is idempotent.
func (s *HostSession) Close() {
	s.mu.Lock()
	w := s.w
	s.w = nil
	s.mu.Unlock()
	if w != nil {
		s.h.pool.Kill(w, "session closed")
	}
}
