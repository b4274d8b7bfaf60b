package executor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/toolscript/toolscript/internal/proc"
	"github.com/toolscript/toolscript/internal/wire"
)

// MaybeServeChild is the hook of child processes: in a process started as
// a ProcessBackend child it serves calls of registered functions on the
// pipes the host passed and exits when the host closes them or dies.
// Otherwise it returns at once. Call it first in main (and in TestMain for
// tests that use the process backend), after every RegisterFunc has run:
//
//	func main() {
//		executor.MaybeServeChild()
//		...
//	}
//
// It is the same hook as engine.MaybeServeWorker: either one serves the
// children of both the process backend and the engine's isolated runtime,
// so a binary that uses both calls one of them, once.
func MaybeServeChild() { proc.MaybeServe() }

// serve answers wire-protocol calls of functions registered with
// RegisterFunc, read from r, with results and progress written to w (the
// hello is already sent). Calls run concurrently, each on its own
// goroutine, and a cancel message cancels the call's ExecutionContext.
// serve returns nil at the end of r or on a shutdown message, after
// cancelling the calls still running and waiting up to a second for them.
func serve(r io.Reader, w io.Writer) error {
	rd, wr := wire.NewReader(r), wire.NewWriter(w)
	var (
		mu      sync.Mutex
		running = map[uint64]*Task{}
		wg      sync.WaitGroup
	)
	defer func() {
		mu.Lock()
		for _, t := range running {
			t.cancelWith(ErrShutdown)
		}
		mu.Unlock()
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		timer := time.NewTimer(time.Second)
		defer timer.Stop()
		select {
		case <-done:
		case <-timer.C:
		}
	}()
	for {
		f, err := rd.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("executor: read call: %w", err)
		}
		switch f.Type {
		case wire.TypeShutdown:
			return nil
		case wire.TypeCancel:
			var c wire.Cancel
			_ = f.Decode(&c)
			mu.Lock()
			t := running[f.ID]
			mu.Unlock()
			if t != nil {
				var cause error = context.Canceled
				if c.Reason == "timeout" {
					cause = ErrTimeout
				}
				t.cancelWith(cause)
			}
		case wire.TypeCall:
			id := f.ID
			var c wire.Call
			if err := f.Decode(&c); err != nil {
				sendError(wr, id, wire.KindBadArgs, err.Error())
				continue
			}
			fn, ok := lookupFunc(c.Name)
			if !ok {
				sendError(wr, id, wire.KindUnknown, fmt.Sprintf("%q", c.Name))
				continue
			}
			var kwargs map[string]any
			if len(c.Args) > 0 {
				if err := json.Unmarshal(c.Args, &kwargs); err != nil {
					sendError(wr, id, wire.KindBadArgs, err.Error())
					continue
				}
			}
			t := NewTask(WithID(c.ExecID))
			t.fn, t.kind, t.kwargs = fn, kindOf(fn), kwargs
			t.OnProgress(func(p Progress) {
				var detail json.RawMessage
				if p.Detail != nil {
					detail, _ = json.Marshal(p.Detail)
				}
				_ = wr.Send(wire.TypeProgress, id, &wire.Progress{Fraction: p.Fraction, Message: p.Message, Detail: detail})
			})
			mu.Lock()
			running[id] = t
			mu.Unlock()
			wg.Go(func() {
				defer func() { // deferred: runs after a runtime.Goexit too
					mu.Lock()
					delete(running, id)
					mu.Unlock()
					sendResult(wr, id, t)
				}()
				t.run()
			})
		}
	}
}

func sendError(wr *wire.Writer, id uint64, kind, msg string) {
	_ = wr.Send(wire.TypeResult, id, &wire.Result{Error: &wire.Error{Kind: kind, Message: msg}})
}

func sendResult(wr *wire.Writer, id uint64, t *Task) {
	v, err := t.Result(0)
	if err != nil {
		var pe *FuncPanicError
		switch {
		case errors.As(err, &pe):
			_ = wr.Send(wire.TypeResult, id, &wire.Result{Error: &wire.Error{Kind: wire.KindPanic, Message: fmt.Sprint(pe.Value), Stack: pe.Stack}})
		case t.Status() == Cancelled:
			sendError(wr, id, wire.KindCancelled, err.Error())
		default:
			sendError(wr, id, wire.KindError, err.Error())
		}
		return
	}
	raw, err := json.Marshal(v)
	if err != nil {
		sendError(wr, id, wire.KindEncode, fmt.Sprintf("result of type %T does not encode to JSON: %v", v, err))
		return
	}
	_ = wr.Send(wire.TypeResult, id, &wire.Result{Value: raw})
}
