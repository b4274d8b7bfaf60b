package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"github.com/toolscript/toolscript/internal/isolated"

	"github.com/toolscript/toolscript/projection"
)

// isolatedBackend is a session on an Isolated runtime: it pins one
// worker, in which an in-process session (the worker's engine) runs the
// inputs.
type isolatedBackend struct {
	e  *Isolated
	ns map[string]projection.ToolProjection

	mu sync.Mutex
	hs *isolated.HostSession // nil until the first input, and after drop
}

// newIsolatedSession starts a session that pins one worker of r.
func newIsolatedSession(r *Isolated, ns map[string]projection.ToolProjection, limits SessionLimits) (sessionImpl, error) {
	if r.closed.Load() {
		return nil, ErrClosed
	}
	// The namespace as it is now, as a session in process keeps it (its
	// surface): a tool the host replaces in its map later is not called
	// by this session (the worker's types are the first input's).
	return newSessionCore(&isolatedBackend{e: r, ns: maps.Clone(ns)}, limits), nil
}

func (b *isolatedBackend) defaults() Limits { return b.e.cfg.Limits }

func (b *isolatedBackend) drop() {
	b.mu.Lock()
	hs := b.hs
	b.hs = nil
	b.mu.Unlock()
	if hs != nil {
		hs.Close()
	}
}

// pid is the process id of the session's worker, 0 when none is pinned.
func (b *isolatedBackend) pid() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.hs == nil {
		return 0
	}
	return b.hs.PID()
}

func (b *isolatedBackend) run(ctx context.Context, code string, limits Limits, set *settings, sl SessionLimits) (CodeResult, error, error) {
	if b.e.closed.Load() {
		return CodeResult{}, nil, ErrClosed
	}
	b.mu.Lock()
	hs := b.hs
	b.mu.Unlock()
	if hs == nil {
		var err error
		hs, err = b.e.host.NewSession(ctx, b.ns)
		if err != nil {
			if ctx.Err() != nil {
				return CodeResult{ReturnCode: CodeTimeout, Error: "engine: gave up waiting for a free isolated worker: " + err.Error(), Err: err}, nil, nil
			}
			return CodeResult{}, nil, ErrClosed
		}
		b.mu.Lock()
		b.hs = hs
		b.mu.Unlock()
	}
	req := isolated.RunRequest{Code: code, RunCPU: b.e.cfg.RunCPUTime}
	req.Limits, _ = json.Marshal(limits)
	if req.RunCPU == 0 && limits.Timeout > 0 {
		req.RunCPU = limits.Timeout*time.Duration(runtime.GOMAXPROCS(0)) + time.Second
	}
	stdout := &capWriter{limit: limits.MaxOutputBytes, tee: set.stdout}
	stderr := &capWriter{limit: limits.MaxOutputBytes, tee: set.stderr}
	start := time.Now()
	r, lost := hs.Run(ctx, &req, sl.MaxMemoryBytes, max(limits.Timeout, 0), stdout, stderr)
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
	lost = lost || errors.Is(res.Err, ErrSessionLost)
	if !lost {
		return res, nil, nil
	}
	// The state died with the worker (or could not be trusted there):
	// this input says so, and the next says the session was lost.
	lostErr := fmt.Errorf("%w: %s; Reset starts afresh", ErrSessionLost, res.Error)
	if !errors.Is(res.Err, ErrSessionLost) {
		res.Err = fmt.Errorf("%w: %w", ErrSessionLost, res.Err)
		res.Error += "; the session's state is lost with its worker (Reset starts afresh)"
	}
	if res.ReturnCode == CodeOK {
		res.ReturnCode = CodeCrash
	}
	return res, lostErr, nil
}

// workerSessions is the session the worker's engine runs (a worker is
// pinned to one session at most).
var workerSessions struct {
	mu sync.Mutex
	id uint64
	s  *Session
}

// RunSession runs one input of a session in the worker: an in-process
// session on the worker's engine, started by the session's first input.
func (b *bridge) RunSession(ctx context.Context, req *isolated.SessionRequest, ns map[string]projection.ToolProjection, stdout, stderr io.Writer) isolated.Outcome {
	var limits Limits
	if err := json.Unmarshal(req.Limits, &limits); err != nil {
		return isolated.Outcome{Code: CodeError, Error: "engine: worker: bad limits: " + err.Error()}
	}
	ws := &workerSessions
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.s == nil || ws.id != req.Session {
		if ws.s != nil {
			_ = ws.s.Close()
		}
		// The host's clocks bound the session; the worker keeps none.
		s, err := NewSession(b.eng, ns, WithSessionLimits(SessionLimits{
			MaxMemoryBytes: req.MaxStateBytes, IdleTimeout: Unlimited, MaxAge: Unlimited,
		}))
		if err != nil {
			return isolated.Outcome{Code: CodeError, Error: err.Error(), Err: err}
		}
		ws.s, ws.id = s, req.Session
	}
	res, err := ws.s.Execute(ctx, req.Code, WithLimits(limits), WithStdout(stdout), WithStderr(stderr))
	if err != nil {
		return isolated.Outcome{Code: CodeError, Error: err.Error(), Err: err}
	}
	out := isolated.Outcome{
		Code: res.ReturnCode, Error: res.Error, Err: res.Err, Value: res.Value,
		StdoutTruncated: res.StdoutTruncated, StderrTruncated: res.StderrTruncated,
		ErrorTruncated: res.ErrorTruncated, CallsTruncated: res.ToolCallsTruncated,
	}
	if len(res.ToolCalls) > 0 {
		out.Calls = unsafe.Slice((*isolated.Call)(unsafe.Pointer(unsafe.SliceData(res.ToolCalls))), len(res.ToolCalls))
	}
	return out
}
