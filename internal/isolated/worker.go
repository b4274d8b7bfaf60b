package isolated

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/toolscript/toolscript/internal/tagged"
	"github.com/toolscript/toolscript/internal/wire"
	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

// RegisterEngine makes this binary serve the workers of a Host, the
// child role the hook of child processes runs for them (package
// internal/proc): in a worker, it applies the OS limits the host chose,
// makes the engine with newEngine and warms it up, says hello and runs
// the scripts the host sends, one at a time, on that engine, whose tools
// forward each call to the host. Package engine calls it at init.
func RegisterEngine(newEngine func() Engine) {
	var eng Engine
	Register(workerRole, ServeConfig{
		Warm: func() error {
			eng = newEngine()
			return eng.Warm()
		},
		Serve: func(c *Conn) error {
			return newWorkerServer(c, eng).serve()
		},
	})
}

// workerServer is the worker side of the protocol (see proto.go).
//
// The host's frames are read by whoever holds rmu: the serve loop, or a
// tool call waiting for its answer. A tool call reads the pipe itself
// while it spins for the answer, so the answer costs no wake-up of
// another thread; once the serve loop has delivered an answer it parks
// (it does not read) while tool calls keep coming, and takes the reading
// back when they stop (within about 2*parkCheck), when one waits past its
// spin, or when the run ends. A frame read by a tool call is handled
// there (a cancellation, another call's answer), so while a script calls
// tools without pause the host's frames are handled at once, and a
// cancellation waits at most about 2*parkCheck otherwise.
type workerServer struct {
	c   *Conn
	eng Engine
	seq atomic.Uint64 // tool call ids

	rmu     sync.Mutex    // held to read c.R
	kick    chan struct{} // wakes the parked serve loop (buffered, 1)
	calls   atomic.Int64  // tool calls started, ever
	waiting atomic.Int32  // tool calls waiting for their answer
	parked  atomic.Int32  // tool calls past their spin: the serve loop must read for them

	endOnce sync.Once
	ended   chan struct{} // closed when the stream ends or the host asks for it
	endErr  error         // why, when not a clean end; set before ended closes

	mu        sync.Mutex
	pending   map[uint64]chan wire.Frame
	runID     uint64
	runCancel context.CancelCauseFunc
	// The runs go to one goroutine that runs them in turn: its stack,
	// grown by the first runs, is not grown again by every run.
	runner  sync.Once
	runs    chan func()
	session *workerSession // the session this worker is pinned to, if any
	lists   []*workerList  // the tool lists kept, most recently used first
}

// errRunEnded ends the context of a worker's run once it has answered.
var errRunEnded = errors.New("engine: execution ended")

// parkCheck is how often the parked serve loop checks whether tool calls
// are still coming.
const parkCheck = 500 * time.Microsecond

func newWorkerServer(c *Conn, eng Engine) *workerServer {
	return &workerServer{
		c: c, eng: eng, pending: map[uint64]chan wire.Frame{},
		kick: make(chan struct{}, 1), ended: make(chan struct{}),
	}
}

func (ws *workerServer) serve() error {
	defer func() {
		ws.mu.Lock()
		if ws.runCancel != nil {
			ws.runCancel(context.Canceled)
		}
		ws.mu.Unlock()
	}()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		ws.rmu.Lock()
		f, ok := ws.readFrame()
		ws.rmu.Unlock()
		if !ok {
			return ws.endErr
		}
		if f.Type == wire.TypeResult && ws.c.Pollable() && ws.parked.Load() == 0 {
			// A tool call's answer: the next calls read their own.
			ws.park(timer)
		}
	}
}

// readFrame reads one frame and handles it, with rmu held. It reports
// false once the stream has ended (the host closed it or asked for it).
func (ws *workerServer) readFrame() (wire.Frame, bool) {
	select {
	case <-ws.ended:
		return wire.Frame{}, false
	default:
	}
	f, err := ws.c.R.Read()
	switch {
	case errors.Is(err, io.EOF):
		ws.end(nil)
		return f, false
	case err != nil:
		ws.end(fmt.Errorf("engine: worker: read: %w", err))
		return f, false
	case f.Type == wire.TypeShutdown:
		ws.end(nil)
		return f, false
	}
	ws.handle(f)
	return f, true
}

// end records the end of the host's stream and wakes the serve loop.
func (ws *workerServer) end(err error) {
	ws.endOnce.Do(func() {
		ws.endErr = err
		close(ws.ended)
	})
}

// wake has the parked serve loop take the reading back.
func (ws *workerServer) wake() {
	select {
	case ws.kick <- struct{}{}:
	default:
	}
}

// park waits while tool calls read the host's frames: until one asks
// (wake), the stream ends, or no call has started or waited for a whole
// parkCheck. It never waits while a call is parked past its spin: such a
// call counts itself in parked before it wakes the serve loop, and the
// serve loop looks at parked before it parks (the buffered kick covers a
// call that parks in between), so its wake-up is never lost, whoever took
// an earlier kick or read an earlier answer.
func (ws *workerServer) park(t *time.Timer) {
	for {
		if ws.parked.Load() > 0 {
			return
		}
		n := ws.calls.Load()
		t.Reset(parkCheck)
		select {
		case <-ws.kick:
			t.Stop()
			return
		case <-ws.ended:
			t.Stop()
			return
		case <-t.C:
		}
		if ws.waiting.Load() == 0 && ws.calls.Load() == n {
			return
		}
	}
}

// handle takes one frame of the host, on the goroutine that read it.
func (ws *workerServer) handle(f wire.Frame) {
	switch f.Type {
	case wire.TypeResult:
		ws.mu.Lock()
		ch := ws.pending[f.ID]
		delete(ws.pending, f.ID)
		ws.mu.Unlock()
		if ch != nil {
			ch <- f
		}
	case wire.TypeCancel:
		ws.mu.Lock()
		if f.ID == ws.runID && ws.runCancel != nil {
			ws.runCancel(context.Canceled)
		}
		ws.mu.Unlock()
	case wire.TypeCall:
		c, err := parseRunCall(f.Body)
		if err != nil || c.Name != runCall && c.Name != sessionCall {
			_ = ws.c.W.Send(wire.TypeResult, f.ID, &wire.Result{Error: &wire.Error{Kind: wire.KindUnknown, Message: fmt.Sprintf("engine: worker: bad call %q: %v", c.Name, err)}})
			return
		}
		var req RunRequest
		if err := decodeRun(c.Name, c.Args, &req); err != nil {
			_ = ws.c.W.Send(wire.TypeResult, f.ID, &wire.Result{Error: &wire.Error{Kind: wire.KindBadArgs, Message: err.Error()}})
			return
		}
		ctx, cancel := context.WithCancelCause(context.Background())
		ws.mu.Lock()
		busy := ws.runCancel != nil
		if !busy {
			ws.runID, ws.runCancel = f.ID, cancel
		}
		ws.mu.Unlock()
		if busy {
			cancel(nil)
			_ = ws.c.W.Send(wire.TypeResult, f.ID, &wire.Result{Error: &wire.Error{Kind: wire.KindError, Message: "engine: worker is busy"}})
			return
		}
		id := f.ID
		ws.runner.Do(func() {
			ws.runs = make(chan func(), 1)
			go func() {
				for job := range ws.runs {
					job()
				}
			}()
		})
		ws.runs <- func() { ws.run(ctx, cancel, id, &req) }
		// The run starts on this thread, now: this goroutine waits in
		// the run queue for another thread to take it and read on,
		// instead of the run waiting for a thread to be woken for it.
		runtime.Gosched()
	}
}

// run executes one script and answers the host.
func (ws *workerServer) run(ctx context.Context, cancel context.CancelCauseFunc, id uint64, req *RunRequest) {
	base := runtime.NumGoroutine()
	reply, trace, changed := ws.execute(ctx, id, req)
	// The serve loop reads again (the next run comes through it).
	ws.wake()
	reply.Retire = !SetRunCPU(req.RunCPU)
	// A run that changed the package state it could reach retires the
	// worker (see Outcome.StateChanged).
	reply.Retire = reply.Retire || changed
	cancel(errRunEnded)
	// The trace, the reply and, when the run's goroutines are gone
	// already, the ready message go in one write: the host reads them
	// with one wake-up.
	var frames []wire.Frame
	if reply.Trace > 0 {
		if len(trace)+wire.HeaderSize-4 > MaxFrameBytes {
			reply.Trace, reply.TraceTruncated = 0, true // cannot happen within Bounds.TraceBytes
		} else {
			frames = append(frames, wire.Frame{Type: typeTrace, ID: id, Body: trace})
		}
	}
	// A wire.Result built by hand: marshalling one around the reply
	// would validate and copy the whole reply (every traced call) again.
	body, err := appendRunReply(nil, &reply)
	if err == nil && len(body)+len(valuePrefix)+1+wire.HeaderSize-4 > MaxFrameBytes {
		// Only the value can be this large: say so instead.
		fe := ws.eng.FrameError("result", len(body)+len(valuePrefix)+1+wire.HeaderSize-4, MaxFrameBytes)
		reply.Value, reply.HasValue = nil, false
		reply.Code, reply.Error, reply.Err = CodeError, "engine: the script's result value cannot cross to the host: "+fe.Error(), ws.eng.EncodeError(fe)
		body, err = appendRunReply(nil, &reply)
	}
	if err != nil {
		f, _ := wire.Encode(wire.TypeResult, id, &wire.Result{Error: &wire.Error{Kind: wire.KindEncode, Message: err.Error()}})
		frames = append(frames, f)
	} else {
		body = append(append(append(make([]byte, 0, len(valuePrefix)+len(body)+1), valuePrefix...), body...), '}')
		frames = append(frames, wire.Frame{Type: wire.TypeResult, ID: id, Body: body})
	}
	if quiet(base) {
		ws.free()
		_ = ws.c.WriteFrames(append(frames, wire.Frame{Type: typeReady, ID: id, Body: readyClean})...)
		return
	}
	_ = ws.c.WriteFrames(frames...)
	clean := drain(base, req.Grace)
	ws.free()
	body = readyClean
	if !clean {
		body, _ = json.Marshal(&readyMsg{})
	}
	_ = ws.c.W.Write(wire.Frame{Type: typeReady, ID: id, Body: body})
}

// free marks the worker free for the next run, before its ready message:
// the host sends the next run once it has that.
func (ws *workerServer) free() {
	ws.mu.Lock()
	ws.runCancel = nil
	ws.mu.Unlock()
}

// execute runs the script of req on the engine; it reports whether the
// run changed the package state it could reach.
func (ws *workerServer) execute(ctx context.Context, id uint64, req *RunRequest) (runReply, []byte, bool) {
	if req.Deadline > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithDeadline(ctx, time.Unix(0, req.Deadline))
		defer stop()
	}
	SetRunCPU(req.RunCPU)
	ns, log, err := ws.namespace(req, id)
	if err != nil {
		// Retired: the host's view of the lists this worker holds is
		// not this worker's.
		return runReply{Code: CodeError, Error: err.Error(), Err: ws.eng.EncodeError(err)}, nil, true
	}
	res := ws.runOn(ctx, req, ns,
		&frameWriter{w: ws.c.W, typ: typeStdout, id: id},
		&frameWriter{w: ws.c.W, typ: typeStderr, id: id})
	reply := runReply{
		Code: res.Code, Error: res.Error, Err: ws.eng.EncodeError(res.Err),
		StdoutTruncated: res.StdoutTruncated, StderrTruncated: res.StderrTruncated,
		ErrorTruncated: res.ErrorTruncated, TraceTruncated: res.CallsTruncated,
	}
	var trace []byte
	if len(res.Calls) > 0 {
		reply.Trace, trace = len(res.Calls), log.trace(res.Calls)
	}
	if res.Value != nil {
		v, err := tagged.Marshal(res.Value)
		if err != nil && res.Code == CodeOK {
			// Not silently dropped: the script's answer is missing.
			err = fmt.Errorf("engine: the script's result value (%T) cannot cross to the host: %w", res.Value, err)
			reply.Code, reply.Error, reply.Err = CodeError, err.Error(), ws.eng.EncodeError(err)
		} else if err == nil {
			reply.Value, reply.HasValue = v, true
		}
	}
	return reply, trace, res.StateChanged
}

// callLog records the tool-call frames of a run, so that the trace can
// name the frame that carried each call's arguments instead of carrying
// them again.
type callLog struct {
	max    int64 // Bounds.TraceBytes
	mu     sync.Mutex
	recs   []callRec
	logged atomic.Int64 // bytes of arguments' encodings reserved for logging
}

// maxLoggedArgs bounds the arguments' encoding a callLog keeps for a
// call: larger ones cross again in the trace rather than be held twice
// (as maps by the engine's trace, as bytes here) until the run ends.
const maxLoggedArgs = 16 << 10

// reserve reports whether a call whose arguments encode in n bytes is to
// be logged: the host keeps the arguments of such calls (typeCallKept),
// no more than Bounds.TraceBytes of them.
func (l *callLog) reserve(n int) bool {
	if n > maxLoggedArgs {
		return false
	}
	if l.logged.Add(int64(n)) > l.max {
		l.logged.Add(-int64(n))
		return false
	}
	return true
}

// callRec is one tool call frame sent to the host.
type callRec struct {
	args  unsafe.Pointer // the map the script passed: its identity
	name  string
	frame uint64
	data  []byte // the arguments' encoding in the frame
}

// add records a call frame once written: frames recorded before the run's
// reply is built precede the reply on the pipe, so the host has served
// (and decoded) them when it reads the reply.
func (l *callLog) add(args map[string]any, name string, frame uint64, data []byte) {
	p := reflect.ValueOf(args).UnsafePointer()
	l.mu.Lock()
	l.recs = append(l.recs, callRec{args: p, name: name, frame: frame, data: data})
	l.mu.Unlock()
}

// trace encodes the engine's trace (see appendTrace). An entry names the
// frame of a recorded call to the same tool with the same argument map
// (the engine's copy made at the call, which the tool and the trace
// share) when that frame's encoding is an encoding of the map; else it
// carries the arguments. Calls of one map are matched in the order they
// were sent; a mismatch only costs the arguments. A trace that would not
// fit in its frame is sent without the arguments it carries (marked
// omitted).
func (l *callLog) trace(calls []Call) []byte {
	b := l.encodeTrace(calls, false)
	if len(b)+wire.HeaderSize-4 > MaxFrameBytes {
		b = l.encodeTrace(calls, true)
	}
	return b
}

func (l *callLog) encodeTrace(calls []Call, omit bool) []byte {
	l.mu.Lock()
	recs := l.recs[:len(l.recs):len(l.recs)]
	l.mu.Unlock()
	// next chains the records of one map, in the order they were sent.
	head := make(map[unsafe.Pointer]int, len(recs))
	next := make([]int, len(recs))
	for i := len(recs) - 1; i >= 0; i-- {
		j, ok := head[recs[i].args]
		if !ok {
			j = -1
		}
		next[i] = j
		head[recs[i].args] = i
	}
	var (
		b       = make([]byte, 0, 16*len(calls))
		scratch []byte
	)
	for k := range calls {
		tc := &calls[k]
		var frame uint64
		p := reflect.ValueOf(tc.Args).UnsafePointer()
		if i, ok := head[p]; ok && i >= 0 && recs[i].name == tc.Name {
			var same bool
			if same, scratch = tagged.Encodes(scratch[:0], tc.Args, recs[i].data); same {
				frame = recs[i].frame
				head[p] = next[i]
			}
		}
		if omit && frame == 0 && tc.Args != nil {
			c := *tc
			c.Args, c.ArgsOmitted = nil, true
			tc = &c
		}
		b, scratch = appendTrace(b, scratch, frame, tc)
	}
	return b
}

// drain waits up to grace for the goroutines of a run to end, and reports
// whether they did: no goroutine may be left in the interpreter (a long
// native call, such as a regexp over megabytes, ignores cancellation);
// the interpreter counts its goroutines (interp.Running).
func drain(base int, grace time.Duration) bool {
	deadline := time.Now().Add(grace)
	for d := 20 * time.Microsecond; ; d = min(2*d, 5*time.Millisecond) {
		if quiet(base) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(d)
	}
}

// quiet reports whether the goroutines of a run are gone: no more than
// base goroutines, none of them in the interpreter.
func quiet(base int) bool {
	return runtime.NumGoroutine() <= base && interp.Running() == 0
}

// frameWriter streams one output of the script to the host.
type frameWriter struct {
	w   *wire.Writer
	typ wire.Type
	id  uint64
}

func (fw *frameWriter) Write(p []byte) (int, error) {
	// In frames well under the limit, however large the write.
	const chunk = 1 << 20
	for n := 0; n < len(p); n += chunk {
		if err := fw.w.Write(wire.Frame{Type: fw.typ, ID: fw.id, Body: p[n:min(n+chunk, len(p))]}); err != nil {
			return n, err
		}
	}
	return len(p), nil
}

// remoteTool is a host tool seen from the worker: each call is a wire call
// to the host.
type remoteTool struct {
	spec toolSpec
	ws   *workerServer
	rs   *runState // the run the calls belong to
}

func (t *remoteTool) Name() string { return t.spec.Name }
func (t *remoteTool) Doc() string  { return t.spec.Doc }

// Schema and OutputSchema are the host projection's schemas: the worker's
// scripts see the same typed tools.
func (t *remoteTool) Schema() json.RawMessage       { return t.spec.Schema }
func (t *remoteTool) OutputSchema() json.RawMessage { return t.spec.OutputSchema }

// argsCannotCross is the error of a tool call whose arguments cannot be
// sent to the host.
func argsCannotCross(err error) error {
	return fmt.Errorf("engine: the arguments cannot cross to the host: %w", err)
}

func (t *remoteTool) Call(ctx context.Context, args map[string]any) (any, error) {
	rs := t.rs
	body, at, err := appendToolCallAt(nil, t.spec.Name, args, rs.run)
	if err != nil {
		return nil, t.ws.eng.ToolError(t.spec.Name, argsCannotCross(err))
	}
	ws := t.ws
	id := ws.seq.Add(1)
	ch := replyChan()
	ws.mu.Lock()
	ws.pending[id] = ch
	ws.mu.Unlock()
	ws.calls.Add(1)
	ws.waiting.Add(1)
	defer ws.waiting.Add(-1)
	data := body[at : len(body)-1]
	typ, logged := wire.TypeCall, rs.log.reserve(len(data))
	if logged {
		typ = typeCallKept
	}
	if err := ws.c.W.Write(wire.Frame{Type: typ, ID: id, Body: body}); err != nil {
		ws.mu.Lock()
		delete(ws.pending, id)
		ws.mu.Unlock()
		if fe := frameError(ws.eng, err); fe != nil {
			err = argsCannotCross(fe)
		}
		return nil, ws.eng.ToolError(t.spec.Name, err)
	}
	if logged {
		rs.log.add(args, t.spec.Name, id, data)
	}
	if f, ok := ws.spinAnswer(ctx, ch); ok {
		replyChans.Put(ch)
		return parseToolResult(ws.eng, f.Body)
	}
	// Past the spin: the serve loop reads, this call parks.
	ws.parked.Add(1)
	defer ws.parked.Add(-1)
	ws.wake()
	select {
	case f := <-ch:
		replyChans.Put(ch)
		return parseToolResult(ws.eng, f.Body)
	case <-ctx.Done():
		ws.mu.Lock()
		delete(ws.pending, id)
		ws.mu.Unlock()
		_ = ws.c.W.Send(wire.TypeCancel, id, nil)
		// The host cancels the tool's context too; it answers with the
		// tool's own error, usually ctx.Err().
		return nil, ctx.Err()
	}
}

// replyChans holds the channels of answered tool calls: empty, and no
// longer in pending (handle takes a channel out before it sends the one
// answer). A call that stopped waiting does not give its channel back.
var replyChans = sync.Pool{New: func() any { return make(chan wire.Frame, 1) }}

// replyChan returns an empty channel for a tool call's answer.
func replyChan() chan wire.Frame { return replyChans.Get().(chan wire.Frame) }

// spinAnswer waits up to replySpin for the answer of a tool call on ch:
// the answer of a quick tool comes back within microseconds. While no
// other goroutine reads the host's frames, it reads them itself, as they
// arrive, and handles them; it yields between looks, so the other
// threads and goroutines of the process get to run even with a single P.
func (ws *workerServer) spinAnswer(ctx context.Context, ch chan wire.Frame) (wire.Frame, bool) {
	deadline := time.Now().Add(replySpin)
	for i := 0; ; i++ {
		select {
		case f := <-ch:
			return f, true
		default:
		}
		if ws.rmu.TryLock() {
			for ok := true; ok && ws.c.Pending(); {
				_, ok = ws.readFrame()
				if len(ch) > 0 {
					break
				}
			}
			ws.rmu.Unlock()
			if len(ch) > 0 {
				continue
			}
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			return wire.Frame{}, false
		}
		Yield(i)
	}
}

// replySpin is how long a tool call spins for the host's answer before
// it parks.
const replySpin = 50 * time.Microsecond

// remoteNamespacedTool is a remoteTool whose host projection implements
// projection.Namespaced.
type remoteNamespacedTool struct{ *remoteTool }

func (t *remoteNamespacedTool) Namespace() string  { return t.spec.Namespace }
func (t *remoteNamespacedTool) MethodName() string { return t.spec.Method }

// remoteRoledTool is a remoteTool whose host projection implements
// projection.Roled (a withheld tool, the tool search): the worker's
// surface treats it as the host's does, and its calls, like every call,
// are decided and run in the host.
type remoteRoledTool struct{ *remoteTool }

func (t *remoteRoledTool) Role() string { return t.spec.Role }
