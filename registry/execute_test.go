package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/executor"
	"github.com/toolscript/toolscript/projection"
	"github.com/toolscript/toolscript/registry"
)

var errTool = errors.New("the tool's own failure")

// batchRegistry has tools for every outcome of a call.
func batchRegistry(t *testing.T, opts ...registry.Option) *registry.Registry {
	t.Helper()
	r := registry.New("batch", opts...)
	t.Cleanup(func() { require.NoError(t, r.Close()) })
	require.NoError(t, r.Register(multiply, registry.WithParams("a", "b"), registry.WithNamespace("math_ops")))
	require.NoError(t, r.Register(getWeather))
	require.NoError(t, r.Register(func(map[string]any) (any, error) { return nil, errTool }, registry.WithName("fail")))
	require.NoError(t, r.Register(func(map[string]any) (any, error) { panic("kaboom") }, registry.WithName("boom")))
	require.NoError(t, r.Register(func(ctx context.Context, _ map[string]any) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}, registry.WithName("hang"), registry.WithMetadata(registry.ToolMetadata{Timeout: 20 * time.Millisecond})))
	require.NoError(t, r.Register(calculateTotal, registry.WithName("off")))
	require.NoError(t, r.Disable("off", "retired"))
	return r
}

func TestRegistry_ExecuteToolCalls(t *testing.T) {
	r := batchRegistry(t)
	calls, err := registry.ParseToolCalls([]byte(`[
		{"id":"c1","type":"function","function":{"name":"math_ops-multiply","arguments":"{\"a\":2,\"b\":3}"}},
		{"type":"tool_use","id":"c2","name":"get_weather","input":{"city":"Oslo"}},
		{"id":"c3","type":"function","function":{"name":"fail","arguments":"{}"}},
		{"id":"c4","type":"function","function":{"name":"boom","arguments":"{}"}},
		{"id":"c5","type":"function","function":{"name":"hang","arguments":"{}"}},
		{"id":"c6","type":"function","function":{"name":"off","arguments":"{}"}},
		{"id":"c7","type":"function","function":{"name":"math_ops.multiply","arguments":"{}"}},
		{"id":"c8","type":"function","function":{"name":"math_ops-multiply","arguments":"{\"a\":\"two\",\"b\":3}"}},
		{"id":"c9","type":"function","function":{"name":"math_ops-multiply","arguments":"{\"a\":2}"}},
		{"id":"c10","type":"function","function":{"name":"math_ops-multiply","arguments":"[1,2]"}},
		{"id":"c11","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\",\"days\":3}"}},
		{"functionCall":{"name":"get_weather","args":{"city":"Rome"}}}
	]`))
	require.NoError(t, err)
	results, err := r.ExecuteToolCalls(context.Background(), calls)
	require.NoError(t, err)
	require.Len(t, results, len(calls))

	var ids []string
	for _, res := range results {
		ids = append(ids, res.ID)
	}
	assert.Equal(t, []string{"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "call_11"}, ids, "input order; a call without id gets call_<index>")

	tests := []struct {
		id      string
		value   any
		is      error
		content string
	}{
		{id: "c1", value: 6.0, content: "6"},
		{id: "c2", value: "sunny in Oslo", content: "sunny in Oslo"},
		{id: "c3", is: errTool, content: "error: the tool's own failure"},
		{id: "c4", content: "error: executor: panic: kaboom"},
		{id: "c5", is: context.DeadlineExceeded},
		{id: "c6", is: registry.ErrToolDisabled, content: `error: registry: call "c6" to tool "off": registry: tool disabled: retired`},
		{id: "c7", is: registry.ErrUnknownTool, content: `error: registry: call "c7" to tool "math_ops.multiply": registry: unknown tool: "math_ops.multiply" (did you mean "math_ops-multiply"?)`},
		{id: "c8", is: projection.ErrBadArgument, content: `error: projection: tool "math_ops-multiply": argument "a": expected number, got string "two"`},
		{id: "c9", is: projection.ErrBadArgument, content: `error: projection: tool "math_ops-multiply": argument "b": missing required argument`},
		{id: "c10", is: registry.ErrBadToolCall, content: `error: registry: call "c10" to tool "math_ops-multiply": registry: bad tool call: arguments are not a JSON object: json: cannot unmarshal array into Go value of type map[string]interface {}`},
		{id: "c11", is: projection.ErrBadArgument, content: `error: projection: tool "get_weather": argument "days": unknown argument; expected one of city, units`},
		{id: "call_11", value: "sunny in Rome", content: "sunny in Rome"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			res, ok := results.Get(tt.id)
			require.True(t, ok)
			if tt.value != nil {
				require.NoError(t, res.Err)
				assert.Equal(t, tt.value, res.Value)
			} else {
				require.Error(t, res.Err)
			}
			if tt.is != nil {
				require.ErrorIs(t, res.Err, tt.is)
			}
			if tt.content != "" {
				assert.Equal(t, tt.content, res.Content())
			}
		})
	}
	var pe *executor.FuncPanicError
	res, _ := results.Get("c4")
	require.ErrorAs(t, res.Err, &pe)
	var ce *registry.CallError
	res, _ = results.Get("c7")
	require.ErrorAs(t, res.Err, &ce)
	assert.Equal(t, "c7", ce.ID)
	_, ok := results.Get("nope")
	assert.False(t, ok)
}

func TestRegistry_ExecuteToolCallsTyped(t *testing.T) {
	r := batchRegistry(t)
	results, err := r.ExecuteToolCalls(context.Background(), []registry.Call{
		{ID: "a", Name: "math_ops-multiply", Args: map[string]any{"a": 4, "b": int64(5)}},
		{ID: "b", Name: "math_ops-multiply", Arguments: json.RawMessage(`{"a":1.5,"b":2}`)},
	})
	require.NoError(t, err)
	assert.Equal(t, 20.0, results[0].Value)
	assert.Equal(t, 3.0, results[1].Value)
}

func TestRegistry_ExecuteToolCallsMisuse(t *testing.T) {
	r := batchRegistry(t)
	_, err := r.ExecuteToolCalls(context.Background(), []registry.Call{{ID: "x", Name: "fail"}, {ID: "x", Name: "fail"}})
	require.ErrorIs(t, err, registry.ErrBadToolCall)
	assert.EqualError(t, err, `registry: bad tool call: duplicate call id "x"`)

	many := make([]registry.Call, 40)
	for i := range many {
		many[i] = registry.Call{Name: "fail"}
	}
	many[39].ID = "call_3"
	_, err = r.ExecuteToolCalls(context.Background(), many)
	require.ErrorIs(t, err, registry.ErrBadToolCall)

	empty, err := r.ExecuteToolCalls(context.Background(), nil)
	require.NoError(t, err)
	assert.Empty(t, empty)

	assert.PanicsWithValue(t, "registry: ExecuteToolCalls with a nil context", func() {
		//nolint:staticcheck // testing the nil-context panic
		_, _ = r.ExecuteToolCalls(nil, nil) //lint:ignore SA1012 testing the nil-context panic
	})

	require.NoError(t, r.Close())
	require.NoError(t, r.Close(), "idempotent")
	_, err = r.ExecuteToolCalls(context.Background(), []registry.Call{{ID: "a", Name: "fail"}})
	require.ErrorIs(t, err, registry.ErrClosed)
}

// concurrencyProbe counts the calls running at once.
type concurrencyProbe struct {
	active, peak atomic.Int32
}

func (p *concurrencyProbe) tool(meet *sync.WaitGroup) func(context.Context, map[string]any) (any, error) {
	return func(ctx context.Context, _ map[string]any) (any, error) {
		n := p.active.Add(1)
		defer p.active.Add(-1)
		for {
			old := p.peak.Load()
			if n <= old || p.peak.CompareAndSwap(old, n) {
				break
			}
		}
		if meet != nil { // wait until every call of the batch has started
			meet.Done()
			done := make(chan struct{})
			go func() { meet.Wait(); close(done) }()
			select {
			case <-done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		return "ok", nil
	}
}

func TestRegistry_ExecuteToolCallsConcurrency(t *testing.T) {
	t.Run("concurrent batch", func(t *testing.T) {
		var p concurrencyProbe
		var meet sync.WaitGroup
		meet.Add(3)
		r := registry.New("c", registry.WithMaxWorkers(4))
		defer r.Close()
		require.NoError(t, r.Register(p.tool(&meet), registry.WithName("meet")))
		calls := []registry.Call{{Name: "meet"}, {Name: "meet"}, {Name: "meet"}}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // watchdog only
		defer cancel()
		results, err := r.ExecuteToolCalls(ctx, calls)
		require.NoError(t, err)
		for _, res := range results {
			require.NoError(t, res.Err, "all three calls ran at the same time")
		}
		assert.Equal(t, int32(3), p.peak.Load())
	})
	t.Run("one unsafe tool makes the batch sequential", func(t *testing.T) {
		var p concurrencyProbe
		r := registry.New("c", registry.WithMaxWorkers(4))
		defer r.Close()
		require.NoError(t, r.Register(p.tool(nil), registry.WithName("safe")))
		require.NoError(t, r.Register(p.tool(nil), registry.WithName("unsafe"),
			registry.WithMetadata(registry.ToolMetadata{ConcurrencyUnsafe: true})))
		calls := []registry.Call{{Name: "safe"}, {Name: "safe"}, {Name: "unsafe"}, {Name: "safe"}, {Name: "safe"}}
		for range 20 {
			results, err := r.ExecuteToolCalls(context.Background(), calls)
			require.NoError(t, err)
			for _, res := range results {
				require.NoError(t, res.Err)
			}
		}
		assert.Equal(t, int32(1), p.peak.Load())
	})
}

func TestRegistry_ExecuteToolCallsCancelled(t *testing.T) {
	r := batchRegistry(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	results, err := r.ExecuteToolCalls(ctx, []registry.Call{{ID: "a", Name: "hang"}, {ID: "b", Name: "hang"}})
	require.NoError(t, err)
	for _, res := range results {
		require.ErrorIs(t, res.Err, context.Canceled)
	}
}

func TestRegistry_ExecuteToolCallsBackend(t *testing.T) {
	inline := executor.NewInlineBackend()
	defer inline.Shutdown(true)
	r := registry.New("b", registry.WithBackend(registry.ModeGoroutine, inline))
	require.NoError(t, r.Register(func(ctx context.Context, _ map[string]any) (any, error) {
		_, ok := executor.FromContext(ctx)
		return ok, nil
	}, registry.WithName("has_ec")))
	results, err := r.ExecuteToolCalls(context.Background(), []registry.Call{{Name: "has_ec"}})
	require.NoError(t, err)
	assert.Equal(t, true, results[0].Value, "tools see the execution's ExecutionContext")
	require.NoError(t, r.Close())
	v, err := inline.Submit(func(map[string]any) (any, error) { return 1, nil }, nil).Result(0)
	require.NoError(t, err, "Close leaves a given backend running")
	assert.Equal(t, 1, v)
}

func TestRegistry_ExecuteToolCallsProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	r := registry.New("p", registry.WithProcessConfig(executor.ProcessConfig{MaxWorkers: 1}))
	defer r.Close()
	require.NoError(t, r.Register(executor.Named("registry_test.add"), registry.WithName("add"),
		registry.WithSchema(json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`))))
	require.NoError(t, r.Register(registry.Tool{Name: "remote_fail", ProcessFunc: "registry_test.fail"}))
	require.NoError(t, r.Register(registry.Tool{Name: "block", ProcessFunc: "registry_test.block",
		Metadata: registry.ToolMetadata{Timeout: 50 * time.Millisecond}}))
	require.NoError(t, r.Register(calculateTotal))
	calls := []registry.Call{
		{ID: "1", Name: "add", Args: map[string]any{"a": 1.0, "b": 2.0}},
		{ID: "2", Name: "remote_fail"},
		{ID: "3", Name: "calculate_total"},
		{ID: "4", Name: "block"},
		{ID: "5", Name: "add", Args: map[string]any{"a": "x", "b": 2}},
		{ID: "6", Name: "add", Args: map[string]any{"a": 10, "b": 20}},
	}
	results, err := r.ExecuteToolCalls(context.Background(), calls, registry.WithExecutionMode(registry.ModeProcess))
	require.NoError(t, err)
	assert.Equal(t, 3.0, results[0].Value)
	assert.EqualError(t, results[1].Err, "remote failure")
	require.ErrorIs(t, results[2].Err, registry.ErrNotProcessable)
	require.ErrorIs(t, results[3].Err, executor.ErrTimeout)
	require.ErrorIs(t, results[4].Err, projection.ErrBadArgument)
	assert.Equal(t, 30.0, results[5].Value, "the child killed by the timeout was replaced")

	// The same tools run in this process in the default mode.
	results, err = r.ExecuteToolCalls(context.Background(), calls[:3])
	require.NoError(t, err)
	assert.Equal(t, 3.0, results[0].Value)
	assert.EqualError(t, results[1].Err, "remote failure")
	assert.Equal(t, 0, results[2].Value)

	require.NoError(t, r.SetDefaultExecutionMode(registry.ModeProcess))
	results, err = r.ExecuteToolCalls(context.Background(), calls[2:3])
	require.NoError(t, err)
	require.ErrorIs(t, results[0].Err, registry.ErrNotProcessable)
}

func TestRegistry_ConcurrencyUnsafeRunsAlone(t *testing.T) {
	var p concurrencyProbe
	r := registry.New("c", registry.WithMaxWorkers(4))
	defer r.Close()
	require.NoError(t, r.Register(p.tool(nil), registry.WithName("unsafe"),
		registry.WithMetadata(registry.ToolMetadata{ConcurrencyUnsafe: true})))
	proj := r.Projections()["unsafe"]
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				_, err := proj.Call(context.Background(), nil)
				assert.NoError(t, err)
			}
		})
		wg.Go(func() {
			for range 10 {
				res, err := r.ExecuteToolCalls(context.Background(), []registry.Call{{Name: "unsafe"}, {Name: "unsafe"}})
				if assert.NoError(t, err) {
					assert.NoError(t, res[0].Err)
				}
			}
		})
	}
	wg.Wait()
	assert.Equal(t, int32(1), p.peak.Load(), "projections and concurrent batches never overlap runs of the tool")
}
