package executor_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/toolscript/toolscript/executor"
)

func ExampleGoroutineBackend() {
	b := executor.NewGoroutineBackend(4)
	defer b.Shutdown(true)

	add := func(kw map[string]any) (any, error) {
		return kw["x"].(int) + kw["y"].(int), nil
	}
	h := b.Submit(add, map[string]any{"x": 1, "y": 2}, executor.WithTimeout(10*time.Second))
	v, err := h.Result(0)
	fmt.Println(v, err, h.Status())
	// Output: 3 <nil> COMPLETED
}

func ExampleExecutionContext() {
	// The backend passes the ExecutionContext to functions that declare it.
	longRunning := func(ec *executor.ExecutionContext, kw map[string]any) (any, error) {
		data := kw["data"].([]string)
		for i := range data {
			if err := ec.CheckCancelled(); err != nil {
				return nil, err
			}
			ec.ReportProgress(float64(i+1)/float64(len(data)), fmt.Sprintf("step %d", i+1), nil)
		}
		return "done", nil
	}

	b := executor.NewGoroutineBackend(1)
	defer b.Shutdown(true)
	h := b.Submit(longRunning, map[string]any{"data": []string{"a", "b", "c", "d"}},
		executor.WithProgress(func(p executor.Progress) {
			fmt.Printf("%3.0f%% %s\n", p.Fraction*100, p.Message)
		}))
	fmt.Println(h.Result(0))
	// Output:
	//  25% step 1
	//  50% step 2
	//  75% step 3
	// 100% step 4
	// done <nil>
}

func ExampleHandle_cancel() {
	b := executor.NewGoroutineBackend(1)
	defer b.Shutdown(true)

	started := make(chan struct{})
	wait := func(ctx context.Context, _ map[string]any) (any, error) {
		close(started)
		<-ctx.Done() // an ExecutionContext is a context.Context
		return nil, ctx.Err()
	}
	h := b.Submit(wait, nil, executor.WithID("job-1"))
	<-started
	fmt.Println(h.Cancel(), h.Status())
	_, err := h.Result(0)
	fmt.Println(errors.Is(err, executor.ErrCancelled), err)
	// Output:
	// true CANCELLED
	// true executor: execution job-1 cancelled: context canceled
}

func ExampleWithTimeout() {
	var b executor.InlineBackend
	slow := func(ctx context.Context, _ map[string]any) (any, error) {
		select {
		case <-time.After(time.Minute):
			return "finished", nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	h := b.Submit(slow, nil, executor.WithTimeout(10*time.Millisecond))
	_, err := h.Result(0)
	fmt.Println(h.Status(), errors.Is(err, executor.ErrTimeout), errors.Is(err, context.DeadlineExceeded))
	// Output: FAILED true true
}

// spawnBackend is a custom Backend: one goroutine per call, no bound. Task
// supplies the Handle with its exact status transitions, and Invoke calls any
// accepted function shape.
type spawnBackend struct{ wg sync.WaitGroup }

func (b *spawnBackend) Submit(fn any, kwargs map[string]any, opts ...executor.SubmitOption) executor.Handle {
	t := executor.NewTask(opts...)
	b.wg.Go(func() {
		if ec, ok := t.Start(); ok { // false if cancelled while pending
			t.Finish(executor.Invoke(ec, fn, kwargs))
		}
	})
	return t
}

func (b *spawnBackend) Shutdown(wait bool) {
	if wait {
		b.wg.Wait()
	}
}

func Example_customBackend() {
	var b executor.Backend = &spawnBackend{}
	defer b.Shutdown(true)

	greet := func(kw map[string]any) (any, error) { return "hello, " + kw["name"].(string), nil }
	h := b.Submit(greet, map[string]any{"name": "gopher"}, executor.WithID("greet-1"))
	v, err := h.Result(0)
	fmt.Println(h.ID(), v, err, h.Status())
	// Output: greet-1 hello, gopher <nil> COMPLETED
}

func ExampleNewProcessBackend() {
	// In main (here: TestMain) executor.MaybeServeChild() comes first, and
	// "add" was registered at init with executor.RegisterFunc("add", add).
	b, err := executor.NewProcessBackend(executor.ProcessConfig{MaxWorkers: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Shutdown(true)
	v, err := b.Submit(executor.Named("add"), map[string]any{"a": 40, "b": 2}).Result(0)
	fmt.Println(v, err) // JSON numbers come back as float64
	// Output: 42 <nil>
}
