package engine_test

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

// hookDouble runs in a process backend child: twice x, and the child's
// process id.
func hookDouble(kw map[string]any) (any, error) {
	x, _ := kw["x"].(float64)
	return []any{2 * x, os.Getpid()}, nil
}

func init() { executor.RegisterFunc("hook_double", hookDouble) }

// TestMaybeServeWorker_ServesEveryChild checks that this test binary,
// whose TestMain calls engine.MaybeServeWorker alone, serves the children
// of the executor's process backend as well as the isolated runtime's
// workers: a script in a worker calls a tool that runs in a process
// backend child.
func TestMaybeServeWorker_ServesEveryChild(t *testing.T) {
	b, err := executor.NewProcessBackend(executor.ProcessConfig{MaxWorkers: 1})
	require.NoError(t, err)
	defer b.Shutdown(false)
	iso := newIsolated(t, engine.IsolatedConfig{Workers: 1})

	var childPID float64
	double := projection.MustDirect("double", func(x float64) (float64, error) {
		v, err := b.Submit(executor.Named("hook_double"), map[string]any{"x": x}).Result(30 * time.Second)
		if err != nil {
			return 0, err
		}
		r := v.([]any)
		childPID = r[1].(float64)
		return r[0].(float64), nil
	}, "Double x.", projection.WithParams("x"))
	ns := map[string]projection.ToolProjection{double.Name(): double}
	res, err := iso.Execute(context.Background(), `v, err := tools.Double(map[string]any{"x": 4}); fmt.Println(v, err)`, ns)
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Equal(t, "8 <nil>\n", res.Stdout)
	assert.NotZero(t, childPID)
	assert.NotEqual(t, float64(os.Getpid()), childPID, "the tool ran in a child")
	assert.NotContains(t, iso.WorkerPIDs(), int(childPID), "a process backend child, not a worker")
}
