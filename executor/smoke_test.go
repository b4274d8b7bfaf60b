package executor_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/executor"
)

func TestSmoke(t *testing.T) {
	start := time.Now()
	b, err := executor.NewProcessBackend(executor.ProcessConfig{MaxWorkers: 2})
	require.NoError(t, err)
	t.Log("start", time.Since(start))
	h := b.Submit(executor.Named("add"), map[string]any{"a": 1, "b": 2})
	v, err := h.Result(0)
	require.NoError(t, err)
	require.Equal(t, 3.0, v)
	start = time.Now()
	for range 100 {
		_, err := b.Submit(add, map[string]any{"a": 1, "b": 2}).Result(0)
		require.NoError(t, err)
	}
	t.Log("per call", time.Since(start)/100)
	b.Shutdown(true)
	g := executor.NewGoroutineBackend(2)
	v, err = g.Submit(add, map[string]any{"a": 1.0, "b": 2.0}).Result(0)
	require.NoError(t, err)
	require.Equal(t, 3.0, v)
	g.Shutdown(true)
}
