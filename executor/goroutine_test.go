package executor_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/executor"
)

// gate is a function that signals when it starts and blocks until released
// or cancelled.
type gate struct {
	started chan struct{}
	release chan struct{}
	ran     atomic.Int32
}

func newGate() *gate { return &gate{started: make(chan struct{}, 100), release: make(chan struct{})} }

func (g *gate) fn(ctx context.Context, _ map[string]any) (any, error) {
	g.ran.Add(1)
	g.started <- struct{}{}
	select {
	case <-g.release:
		return "released", nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (g *gate) waitStarted(t *testing.T) {
	t.Helper()
	select {
	case <-g.started:
	case <-time.After(10 * time.Second):
		t.Fatal("function did not start")
	}
}

func waitStatus(t *testing.T, h executor.Handle, want executor.Status) {
	t.Helper()
	require.Eventually(t, func() bool { return h.Status() == want }, 10*time.Second, time.Millisecond, "status %v, want %v", h.Status(), want)
}

// TestGoroutineBackend_Outcomes covers every way an execution ends.
func TestGoroutineBackend_Outcomes(t *testing.T) {
	tests := []struct {
		name    string
		fn      any
		kwargs  map[string]any
		opts    []executor.SubmitOption
		status  executor.Status
		value   any
		errIs   []error
		errText string
	}{
		{"plain completes", add, map[string]any{"a": 1.0, "b": 2.0}, nil, executor.Completed, 3.0, nil, ""},
		{"execution context completes", sleepCoop, map[string]any{"ms": 1}, nil, executor.Completed, "slept", nil, ""},
		{"named completes", executor.Named("add"), map[string]any{"a": 2.0, "b": 2.0}, nil, executor.Completed, 4.0, nil, ""},
		{"error fails with the message unchanged", fail, map[string]any{"why": "bad input"}, nil, executor.Failed, nil, nil, "tool failed: bad input"},
		{"panic fails", boom, nil, nil, executor.Failed, nil, nil, "executor: panic: boom"},
		{"cooperative timeout", sleepCoop, map[string]any{"ms": 60_000}, []executor.SubmitOption{executor.WithTimeout(20 * time.Millisecond)},
			executor.Failed, nil, []error{executor.ErrTimeout, context.DeadlineExceeded}, "executor: execution timed out after 20ms"},
		{"uncooperative timeout", sleepStubborn, map[string]any{"ms": 300}, []executor.SubmitOption{executor.WithTimeout(20 * time.Millisecond)},
			executor.Failed, nil, []error{executor.ErrTimeout}, "timed out"},
		{"context function sees deadline exceeded", ctxErr, nil, []executor.SubmitOption{executor.WithTimeout(time.Millisecond)},
			executor.Failed, nil, []error{executor.ErrTimeout}, "timed out"},
		{"bad shape fails", func(int) int { return 0 }, nil, nil, executor.Failed, nil, []error{executor.ErrBadFunc}, "executor: unsupported function: func(int) int"},
		{"nil function fails", nil, nil, nil, executor.Failed, nil, []error{executor.ErrBadFunc}, "<nil>"},
		{"typed nil function fails", (func(map[string]any) (any, error))(nil), nil, nil, executor.Failed, nil, []error{executor.ErrBadFunc}, ""},
		{"unknown name fails", executor.Named("nope"), nil, nil, executor.Failed, nil, []error{executor.ErrNotRegistered}, `"nope"`},
	}
	b := executor.NewGoroutineBackend(4)
	defer b.Shutdown(true)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := b.Submit(tt.fn, tt.kwargs, tt.opts...)
			v, err := h.Result(0)
			assert.Equal(t, tt.status, h.Status())
			assert.Equal(t, tt.value, v)
			if tt.status == executor.Completed {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			for _, target := range tt.errIs {
				assert.ErrorIs(t, err, target)
			}
			assert.Contains(t, err.Error(), tt.errText)
		})
	}
}

func TestGoroutineBackend_PanicStack(t *testing.T) {
	b := executor.NewGoroutineBackend(1)
	defer b.Shutdown(true)
	_, err := b.Submit(boom, nil).Result(0)
	var pe *executor.FuncPanicError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "boom", pe.Value)
	assert.Contains(t, pe.Stack, "executor_test.boom")
	// The worker survives.
	v, err := b.Submit(add, map[string]any{"a": 1.0}).Result(0)
	require.NoError(t, err)
	assert.Equal(t, 1.0, v)
}

func TestGoroutineBackend_Goexit(t *testing.T) {
	b := executor.NewGoroutineBackend(1)
	defer b.Shutdown(true)
	h := b.Submit(func(map[string]any) (any, error) { runtime.Goexit(); return nil, nil }, nil)
	queued := b.Submit(add, nil)
	_, err := h.Result(0)
	require.ErrorContains(t, err, "runtime.Goexit")
	_, err = queued.Result(0)
	require.NoError(t, err, "a replacement worker runs the queue")
}

func TestGoroutineBackend_StatusSequence(t *testing.T) {
	b := executor.NewGoroutineBackend(1)
	defer b.Shutdown(true)
	g := newGate()
	h := b.Submit(g.fn, nil)
	g.waitStarted(t)
	assert.Equal(t, executor.Running, h.Status())
	queued := b.Submit(add, nil, executor.WithID("second"))
	assert.Equal(t, executor.Pending, queued.Status())
	assert.Equal(t, "second", queued.ID())
	_, err := queued.Result(20 * time.Millisecond)
	require.ErrorIs(t, err, executor.ErrResultTimeout)
	assert.Equal(t, executor.Pending, queued.Status())
	close(g.release)
	v, err := h.Result(0)
	require.NoError(t, err)
	assert.Equal(t, "released", v)
	assert.Equal(t, executor.Completed, h.Status())
	_, err = queued.Result(0)
	require.NoError(t, err)
	assert.Equal(t, executor.Completed, queued.Status())
}

func TestGoroutineBackend_Cancel(t *testing.T) {
	t.Run("before start", func(t *testing.T) {
		b := executor.NewGoroutineBackend(1)
		defer b.Shutdown(true)
		g := newGate()
		busy := b.Submit(g.fn, nil)
		g.waitStarted(t)
		var ran atomic.Bool
		h := b.Submit(func(map[string]any) (any, error) { ran.Store(true); return nil, nil }, nil)
		require.True(t, h.Cancel())
		assert.Equal(t, executor.Cancelled, h.Status())
		assert.False(t, h.Cancel(), "a second cancel has no effect")
		close(g.release)
		_, err := busy.Result(0)
		require.NoError(t, err)
		_, err = h.Result(0)
		require.ErrorIs(t, err, executor.ErrCancelled)
		require.ErrorIs(t, err, context.Canceled)
		b.Shutdown(true)
		assert.False(t, ran.Load(), "a cancelled pending function never runs")
	})
	t.Run("during run, cooperative", func(t *testing.T) {
		b := executor.NewGoroutineBackend(1)
		defer b.Shutdown(true)
		g := newGate()
		h := b.Submit(g.fn, nil)
		g.waitStarted(t)
		require.True(t, h.Cancel())
		assert.Equal(t, executor.Cancelled, h.Status())
		_, err := h.Result(0)
		var ce *executor.CancelledError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, h.ID(), ce.ID)
	})
	t.Run("during run, uncooperative", func(t *testing.T) {
		b := executor.NewGoroutineBackend(1)
		defer b.Shutdown(true)
		release := make(chan struct{})
		started := make(chan struct{})
		h := b.Submit(func(map[string]any) (any, error) { close(started); <-release; return "late", nil }, nil)
		<-started
		require.True(t, h.Cancel())
		_, err := h.Result(time.Second)
		require.ErrorIs(t, err, executor.ErrCancelled, "the handle is cancelled at once")
		close(release)
		b.Shutdown(true)
		assert.Equal(t, executor.Cancelled, h.Status(), "the late result is discarded")
	})
	t.Run("after completion", func(t *testing.T) {
		b := executor.NewGoroutineBackend(1)
		defer b.Shutdown(true)
		h := b.Submit(add, map[string]any{"a": 1.0})
		_, err := h.Result(0)
		require.NoError(t, err)
		assert.False(t, h.Cancel())
		assert.Equal(t, executor.Completed, h.Status())
		v, err := h.Result(0)
		require.NoError(t, err)
		assert.Equal(t, 1.0, v)
	})
	t.Run("check cancelled in a loop", func(t *testing.T) {
		b := executor.NewGoroutineBackend(1)
		defer b.Shutdown(true)
		started := make(chan struct{})
		var fnErr atomic.Value
		h := b.Submit(func(ec *executor.ExecutionContext, _ map[string]any) (any, error) {
			close(started)
			for {
				if err := ec.CheckCancelled(); err != nil {
					fnErr.Store(err)
					return nil, err
				}
				time.Sleep(time.Millisecond)
			}
		}, nil)
		<-started
		h.Cancel()
		b.Shutdown(true)
		err, _ := fnErr.Load().(error)
		require.ErrorIs(t, err, executor.ErrCancelled)
		require.ErrorIs(t, err, context.Canceled)
	})
}

func TestGoroutineBackend_WithContext(t *testing.T) {
	b := executor.NewGoroutineBackend(1)
	defer b.Shutdown(true)
	ctx, cancel := context.WithCancelCause(context.Background())
	g := newGate()
	type key struct{}
	var seen atomic.Value
	running := b.Submit(func(ctx context.Context, kw map[string]any) (any, error) {
		seen.Store(ctx.Value(key{}))
		return g.fn(ctx, kw)
	}, nil, executor.WithContext(context.WithValue(ctx, key{}, "v")))
	g.waitStarted(t)
	pending := b.Submit(add, nil, executor.WithContext(ctx))
	cancel(errSentinel)
	for _, h := range []executor.Handle{running, pending} {
		_, err := h.Result(0)
		require.ErrorIs(t, err, executor.ErrCancelled)
		require.ErrorIs(t, err, errSentinel)
		assert.Equal(t, executor.Cancelled, h.Status())
	}
	assert.Equal(t, "v", seen.Load(), "the caller's context values reach the function")

	done, cancelDone := context.WithCancel(context.Background())
	cancelDone()
	h := b.Submit(add, nil, executor.WithContext(done))
	_, err := h.Result(0)
	require.ErrorIs(t, err, context.Canceled)
}

func TestGoroutineBackend_Progress(t *testing.T) {
	b := executor.NewGoroutineBackend(2)
	defer b.Shutdown(true)
	const n = 50
	release := make(chan struct{})
	var got []executor.Progress
	var mu sync.Mutex
	h := b.Submit(func(ec *executor.ExecutionContext, kw map[string]any) (any, error) {
		<-release
		return progress(ec, kw)
	}, map[string]any{"n": float64(n)})
	h.OnProgress(func(p executor.Progress) { mu.Lock(); got = append(got, p); mu.Unlock() })
	close(release)
	_, err := h.Result(0)
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, got, n)
	for i, p := range got {
		assert.Equal(t, fmt.Sprintf("step %d", i+1), p.Message)
		assert.InDelta(t, float64(i+1)/n, p.Fraction, 1e-9)
	}
	var late executor.Progress
	h.OnProgress(func(p executor.Progress) { late = p })
	assert.Equal(t, fmt.Sprintf("step %d", n), late.Message, "a late callback sees the latest report")
}

func TestGoroutineBackend_ExecutionContext(t *testing.T) {
	b := executor.NewGoroutineBackend(1)
	defer b.Shutdown(true)
	v, err := b.Submit(func(ctx context.Context, _ map[string]any) (any, error) {
		ec, ok := executor.FromContext(ctx)
		if !ok {
			return nil, errors.New("no execution context")
		}
		derived, cancel := context.WithCancel(ctx)
		defer cancel()
		ec2, ok := executor.FromContext(derived)
		if !ok || ec2 != ec {
			return nil, errors.New("not found through a derived context")
		}
		deadline, ok := ec.Deadline()
		if !ok || time.Until(deadline) > time.Hour {
			return nil, errors.New("deadline missing")
		}
		if ec.Cancelled() || ec.CheckCancelled() != nil || ec.Err() != nil || ec.Context() != ctx {
			return nil, errors.New("cancelled too early")
		}
		return ec.ID(), nil
	}, nil, executor.WithID("ctx-test"), executor.WithTimeout(time.Hour)).Result(0)
	require.NoError(t, err)
	assert.Equal(t, "ctx-test", v)

	_, ok := executor.FromContext(context.Background())
	assert.False(t, ok)
}

func TestGoroutineBackend_Shutdown(t *testing.T) {
	t.Run("wait lets queued work finish", func(t *testing.T) {
		b := executor.NewGoroutineBackend(2)
		var handles []executor.Handle
		for range 20 {
			handles = append(handles, b.Submit(sleepCoop, map[string]any{"ms": 2}))
		}
		b.Shutdown(true)
		for _, h := range handles {
			assert.Equal(t, executor.Completed, h.Status())
		}
		h := b.Submit(add, nil)
		_, err := h.Result(0)
		require.ErrorIs(t, err, executor.ErrShutdown)
		assert.Equal(t, executor.Failed, h.Status())
		b.Shutdown(true) // idempotent
	})
	t.Run("no wait cancels running and queued", func(t *testing.T) {
		b := executor.NewGoroutineBackend(1)
		g := newGate()
		running := b.Submit(g.fn, nil)
		g.waitStarted(t)
		queued := b.Submit(add, nil)
		b.Shutdown(false)
		for _, h := range []executor.Handle{running, queued} {
			assert.Equal(t, executor.Cancelled, h.Status())
			_, err := h.Result(0)
			require.ErrorIs(t, err, executor.ErrShutdown)
		}
		b.Shutdown(true) // now wait for the worker to leave
		assert.Equal(t, int32(1), g.ran.Load())
	})
}

func TestGoroutineBackend_BoundedWorkers(t *testing.T) {
	const workers, jobs = 3, 60
	b := executor.NewGoroutineBackend(workers)
	defer b.Shutdown(true)
	assert.Equal(t, workers, b.MaxWorkers())
	base := runtime.NumGoroutine()
	var cur, peak atomic.Int32
	release := make(chan struct{})
	fn := func(map[string]any) (any, error) {
		n := cur.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		<-release
		cur.Add(-1)
		return nil, nil
	}
	var handles []executor.Handle
	for range jobs {
		handles = append(handles, b.Submit(fn, nil))
	}
	require.Eventually(t, func() bool { return cur.Load() == workers }, 10*time.Second, time.Millisecond)
	assert.Less(t, runtime.NumGoroutine(), base+workers+jobs/4, "queued work adds no goroutines (small slack for unrelated ones)")
	close(release)
	for _, h := range handles {
		_, err := h.Result(0)
		require.NoError(t, err)
	}
	assert.Equal(t, int32(workers), peak.Load())
	assert.Positive(t, executor.DefaultMaxWorkers())
	assert.Equal(t, executor.DefaultMaxWorkers(), executor.NewGoroutineBackend(0).MaxWorkers())
}

// TestGoroutineBackend_ConcurrentSubmit hammers one backend from many
// goroutines, with cancels and shutdown racing the work; run under -race.
func TestGoroutineBackend_ConcurrentSubmit(t *testing.T) {
	b := executor.NewGoroutineBackend(4)
	const submitters, each = 16, 200
	var wg sync.WaitGroup
	var completed, cancelled atomic.Int64
	for s := range submitters {
		wg.Go(func() {
			for i := range each {
				h := b.Submit(add, map[string]any{"a": float64(s), "b": float64(i)})
				if i%7 == 0 {
					h.Cancel()
				}
				h.OnProgress(func(executor.Progress) {})
				v, err := h.Result(0)
				switch {
				case err == nil:
					assert.Equal(t, float64(s+i), v)
					completed.Add(1)
				case errors.Is(err, executor.ErrCancelled):
					cancelled.Add(1)
				default:
					t.Errorf("unexpected error %v", err)
				}
				_ = h.Status()
			}
		})
	}
	wg.Wait()
	b.Shutdown(true)
	assert.Equal(t, int64(submitters*each), completed.Load()+cancelled.Load())
	assert.Positive(t, cancelled.Load())
}

// TestGoroutineBackend_SubmitRacesShutdown checks every handle ends, whatever
// the interleaving of Submit and Shutdown.
func TestGoroutineBackend_SubmitRacesShutdown(t *testing.T) {
	for _, wait := range []bool{true, false} {
		b := executor.NewGoroutineBackend(2)
		var wg sync.WaitGroup
		handles := make(chan executor.Handle, 800)
		for range 8 {
			wg.Go(func() {
				for range 100 {
					handles <- b.Submit(sleepCoop, map[string]any{"ms": 0})
				}
			})
		}
		time.Sleep(time.Millisecond)
		b.Shutdown(wait)
		wg.Wait()
		close(handles)
		for h := range handles {
			_, _ = h.Result(10 * time.Second)
			assert.True(t, h.Status().Terminal(), h.Status())
		}
		b.Shutdown(true)
	}
}
