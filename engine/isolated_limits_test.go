package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
)

// TestIsolated_LimitsCache: the host keeps the JSON of the last limits it
// encoded and each worker the last limits it decoded; executions with
// other limits, one after another on the same worker, each run with
// their own, and the runtime's come back after them.
func TestIsolated_LimitsCache(t *testing.T) {
	iso := newIsolated(t, engine.IsolatedConfig{Workers: 1})
	ctx := context.Background()
	const code = `for i := 0; i < 3; i++ { fmt.Println("line", i) }`
	full := "line 0\nline 1\nline 2\n"
	for i := range 3 {
		res, err := iso.Execute(ctx, code, nil)
		require.NoError(t, err)
		assert.Equal(t, full, res.Stdout, "round %d: the runtime's limits", i)
		assert.False(t, res.StdoutTruncated)

		res, err = iso.Execute(ctx, code, nil, engine.WithLimits(engine.Limits{MaxOutputBytes: 8}))
		require.NoError(t, err)
		assert.True(t, res.StdoutTruncated, "round %d: an execution's own limits", i)
		assert.True(t, strings.HasPrefix(full, res.Stdout[:min(len(res.Stdout), 6)]), res.Stdout)

		res, err = iso.Execute(ctx, `x := 0; for i := 0; i < 3; i++ { x++ }; fmt.Println(x)`, nil, engine.WithLimits(engine.Limits{MaxOutputBytes: 1 << 20, MaxToolCalls: 1}))
		require.NoError(t, err)
		assert.Equal(t, "3\n", res.Stdout, "round %d", i)
	}
}
