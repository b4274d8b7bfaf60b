package executor_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/executor"
)

func TestInlineBackend(t *testing.T) {
	var b executor.InlineBackend // the zero value works
	tests := []struct {
		name   string
		fn     any
		kwargs map[string]any
		opts   []executor.SubmitOption
		status executor.Status
		value  any
		errIs  error
	}{
		{"completes", add, map[string]any{"a": 1.0, "b": 1.0}, nil, executor.Completed, 2.0, nil},
		{"fails", fail, nil, nil, executor.Failed, nil, nil},
		{"panics", boom, nil, nil, executor.Failed, nil, nil},
		{"cooperative timeout", sleepCoop, map[string]any{"ms": 60_000}, []executor.SubmitOption{executor.WithTimeout(10 * time.Millisecond)}, executor.Failed, nil, executor.ErrTimeout},
		// The sleep outlasts the timeout a hundred times, so the deadline
		// wins even when a loaded machine runs the timer late.
		{"uncooperative timeout", sleepStubborn, map[string]any{"ms": 500}, []executor.SubmitOption{executor.WithTimeout(5 * time.Millisecond)}, executor.Failed, nil, executor.ErrTimeout},
		{"bad shape", 42, nil, nil, executor.Failed, nil, executor.ErrBadFunc},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := b.Submit(tt.fn, tt.kwargs, tt.opts...)
			assert.Equal(t, tt.status, h.Status(), "final when Submit returns")
			v, err := h.Result(time.Nanosecond)
			assert.Equal(t, tt.value, v)
			if tt.status == executor.Completed {
				require.NoError(t, err)
			} else {
				require.Error(t, err)
			}
			if tt.errIs != nil {
				require.ErrorIs(t, err, tt.errIs)
			}
			assert.False(t, h.Cancel())
		})
	}
	t.Run("progress seen by a callback registered afterwards", func(t *testing.T) {
		h := b.Submit(progress, map[string]any{"n": 4.0})
		var last executor.Progress
		h.OnProgress(func(p executor.Progress) { last = p })
		assert.Equal(t, "step 4", last.Message)
		assert.Equal(t, 1.0, last.Fraction)
	})
	t.Run("cancelled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		ran := false
		h := b.Submit(func(map[string]any) (any, error) { ran = true; return nil, nil }, nil, executor.WithContext(ctx))
		assert.Equal(t, executor.Cancelled, h.Status())
		assert.False(t, ran)
	})
	b.Shutdown(true)
	_, err := b.Submit(add, nil).Result(0)
	require.ErrorIs(t, err, executor.ErrShutdown)
	assert.NotNil(t, executor.NewInlineBackend())
}

func TestRegisterFunc_Misuse(t *testing.T) {
	tests := []struct {
		name string
		reg  func()
		want string
	}{
		{"empty name", func() { executor.RegisterFunc("", add) }, "empty name"},
		{"duplicate", func() { executor.RegisterFunc("add", add) }, `RegisterFunc("add") called twice`},
		{"bad shape", func() { executor.RegisterFunc("x", func() {}) }, "executor: unsupported function"},
		{"nil", func() { executor.RegisterFunc("x", nil) }, "executor: unsupported function"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.PanicsWithValue(t, panicText(t, tt.reg), tt.reg)
			assert.Contains(t, panicText(t, tt.reg), tt.want)
		})
	}
}

func panicText(t *testing.T, f func()) (s string) {
	t.Helper()
	defer func() { s, _ = recover().(string) }()
	f()
	return ""
}

// TestRegisterFunc_SharedCode checks that closures of one function literal,
// registered under two names (see init), are reachable only by name in the
// process backend, and by value elsewhere.
func TestRegisterFunc_SharedCode(t *testing.T) {
	var b executor.InlineBackend
	v, err := b.Submit(executor.Named("closure_two"), nil).Result(0)
	require.NoError(t, err)
	assert.Equal(t, 2, v)
	v, err = b.Submit(closureTwo, nil).Result(0)
	require.NoError(t, err)
	assert.Equal(t, 2, v)

	p := newProcessBackend(t, executor.ProcessConfig{MaxWorkers: 1})
	_, err = p.Submit(closureTwo, nil).Result(0)
	require.ErrorIs(t, err, executor.ErrNotRegistered)
	v, err = p.Submit(executor.Named("closure_two"), nil).Result(0)
	require.NoError(t, err)
	assert.Equal(t, 2.0, v)
}

func TestInvoke(t *testing.T) {
	v, err := executor.Invoke(nil, add, map[string]any{"a": 2.0})
	require.NoError(t, err)
	assert.Equal(t, 2.0, v)
	v, err = executor.Invoke(nil, sleepCoop, map[string]any{"ms": 1})
	require.NoError(t, err, "a nil ExecutionContext means one that is never cancelled")
	assert.Equal(t, "slept", v)
	v, err = executor.Invoke(nil, executor.Named("add"), map[string]any{"b": 1.0})
	require.NoError(t, err)
	assert.Equal(t, 1.0, v)
	_, err = executor.Invoke(nil, "nope", nil)
	require.ErrorIs(t, err, executor.ErrBadFunc)
	_, err = executor.Invoke(nil, boom, nil)
	var pe *executor.FuncPanicError
	require.ErrorAs(t, err, &pe)
}
