package executor_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/executor"
	"github.com/toolscript/toolscript/projection"
)

// TestMaybeServeChild_ServesEveryChild checks that this test binary,
// whose TestMain calls executor.MaybeServeChild alone, serves the
// engine's isolated-runtime workers as well as the process backend's
// children: a script in a worker calls a tool that runs in a process
// backend child.
func TestMaybeServeChild_ServesEveryChild(t *testing.T) {
	b := newProcessBackend(t, executor.ProcessConfig{MaxWorkers: 1})
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
	require.NoError(t, err)
	defer func() { require.NoError(t, iso.Close()) }()

	var child int
	add := projection.MustDirect("add", func(a, b2 float64) (float64, error) {
		pidV, err := b.Submit(pid, nil).Result(30 * time.Second)
		if err != nil {
			return 0, err
		}
		child = int(pidV.(float64))
		v, err := b.Submit(executor.Named("add"), map[string]any{"a": a, "b": b2}).Result(30 * time.Second)
		if err != nil {
			return 0, err
		}
		return v.(float64), nil
	}, "Add a and b.", projection.WithParams("a", "b"))
	ns := map[string]projection.ToolProjection{add.Name(): add}
	res, err := iso.Execute(context.Background(), `v, err := tools.Add(map[string]any{"a": 2, "b": 3}); fmt.Println(v, err)`, ns)
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Equal(t, "5 <nil>\n", res.Stdout)
	assert.NotZero(t, child)
	assert.NotEqual(t, os.Getpid(), child, "the tool ran in a child")
	assert.NotContains(t, iso.WorkerPIDs(), child, "a process backend child, not a worker")
}
