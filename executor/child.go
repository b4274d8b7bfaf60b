package executor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/toolscript/toolscript/internal/wire"
)

// IsChild reports whether this process was started as a ProcessBackend
// child.
func IsChild() bool { return os.Getenv(childEnv) == "1" }

// MaybeServeChild turns this process into a ProcessBackend child when it was
// started as one: it serves calls of registered functions on the pipes the
// host passed and exits when the host closes them or dies. Otherwise it
// returns at once. Call it first in main (and in TestMain for tests that use
// the process backend), after every RegisterFunc has run:
//
//	func main() {
//		executor.MaybeServeChild()
//		...
//	}
func MaybeServeChild() {
	if !IsChild() {
		return
	}
	in, out := os.NewFile(3, "executor-calls"), os.NewFile(4, "executor-results")
	err := Serve(in, out)
	// Closing the pipes tells the host at once that this child is done, so
	// it need not wait for the exit (which the race detector delays).
	out.Close()
	in.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(0)
}

// Serve answers wire-protocol calls of functions registered with
// RegisterFunc, read from r, with results and progress written to w; it
// first sends a hello. Calls run concurrently, each on its own goroutine,
// and a cancel message cancels the call's ExecutionContext. Serve returns
// nil at the end of r or on a shutdown message, after cancelling the calls
// still running and waiting up to a second for them. A process backend
// child runs it on its pipes; it works on any stream, such as a network
// connection.
func Serve(r io.Reader, w io.Writer) error {
	rd, wr := wire.NewReader(r), wire.NewWriter(w)
	if err := wr.Send(wire.TypeHello, 0, &wire.Hello{Version: wire.Version, PID: os.Getpid(), Role: "executor"}); err != nil {
		return fmt.Errorf("executor: send hello: %w", err)
	}
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
		var pe *PanicError
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
