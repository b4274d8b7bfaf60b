package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

// TestTraceOfFinishedCalls checks the trace of calls that all ended: every
// call in order, with its arguments and a duration, and a slice the
// result owns (a host appending to it writes to no execution's trace).
func TestTraceOfFinishedCalls(t *testing.T) {
	sq := projection.MustDirect("square", func(_ context.Context, a map[string]any) (any, error) {
		n := a["n"].(int)
		return float64(n * n), nil
	}, "Square.")
	ns := map[string]projection.ToolProjection{sq.Name(): sq}
	res, err := engine.Execute(context.Background(), `for i := 0; i < 3; i++ {
	r, err := tools.Square(map[string]any{"n": i})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.(float64))
}`, ns)
	require.NoError(t, err)
	require.True(t, res.OK(), res.Error)
	assert.Equal(t, "0\n1\n4\n", res.Stdout)
	require.Len(t, res.ToolCalls, 3)
	assert.Equal(t, 3, cap(res.ToolCalls))
	for i, c := range res.ToolCalls {
		assert.Equal(t, "square", c.Name)
		assert.Equal(t, map[string]any{"n": i}, c.Args)
		assert.Empty(t, c.Error)
		assert.GreaterOrEqual(t, int64(c.Duration), int64(0))
	}
}

// TestTraceOfUnfinishedCall checks that a call still running when the
// execution ends is in the trace, marked unfinished, with the time it ran
// until then.
func TestTraceOfUnfinishedCall(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	done := make(chan struct{})
	block := projection.MustDirect("block", func(ctx context.Context, _ map[string]any) (any, error) {
		defer close(done)
		close(entered)
		<-release
		return nil, nil
	}, "Block.")
	wait := projection.MustDirect("wait", func(context.Context, map[string]any) (any, error) {
		<-entered
		return nil, nil
	}, "Wait.")
	ns := map[string]projection.ToolProjection{block.Name(): block, wait.Name(): wait}
	res, err := engine.Execute(context.Background(), `go tools.Block(map[string]any{})
tools.Wait(map[string]any{})`, ns)
	close(release)
	<-done
	require.NoError(t, err)
	require.Len(t, res.ToolCalls, 2, res.Error)
	byName := map[string]engine.ToolCall{}
	for _, c := range res.ToolCalls {
		byName[c.Name] = c
	}
	assert.Empty(t, byName["wait"].Error)
	assert.Equal(t, engine.ErrCallUnfinished.Error(), byName["block"].Error)
	assert.GreaterOrEqual(t, int64(byName["block"].Duration), int64(0))
}
