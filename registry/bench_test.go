package registry_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/toolscript/toolscript/registry"
)

const batchSize = 1000

// BenchmarkExecuteToolCalls runs a batch of 1000 calls of one tool as a
// model sends them (arguments as JSON text), and compares it with calling
// the function directly 1000 times. ns/call is the cost of one call.
func BenchmarkExecuteToolCalls(b *testing.B) {
	r := registry.New("bench")
	defer r.Close()
	if err := r.Register(multiply, registry.WithParams("a", "b"), registry.WithNamespace("math_ops")); err != nil {
		b.Fatal(err)
	}
	raw := make([]registry.Call, batchSize)
	typed := make([]registry.Call, batchSize)
	for i := range raw {
		id := "call_" + strconv.Itoa(i)
		raw[i] = registry.Call{ID: id, Name: "math_ops-multiply", Arguments: json.RawMessage(`{"a":2,"b":3}`)}
		typed[i] = registry.Call{ID: id, Name: "math_ops-multiply", Args: map[string]any{"a": 2.0, "b": 3.0}}
	}
	ctx := context.Background()
	perCall := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batchSize), "ns/call")
	}
	run := func(calls []registry.Call) func(*testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				results, err := r.ExecuteToolCalls(ctx, calls)
				if err != nil || results[batchSize-1].Err != nil {
					b.Fatal(err, results[batchSize-1].Err)
				}
			}
			perCall(b)
		}
	}
	b.Run("goroutine/json_args", run(raw))
	b.Run("goroutine/decoded_args", run(typed))
	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		out := make([]float64, batchSize)
		for b.Loop() {
			for i := range batchSize {
				out[i] = multiply(2, 3)
			}
		}
		perCall(b)
	})
}
