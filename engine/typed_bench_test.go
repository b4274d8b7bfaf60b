package engine_test

import (
	"context"
	"testing"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

// typedBenchNS is the multiply tool of benchNS with declared schemas: the
// same tool called typed or with a map.
func typedBenchNS() map[string]projection.ToolProjection {
	mul := projection.MustDirect("math_ops-multiply", func(_ context.Context, a map[string]any) (any, error) {
		return a["a"].(int) * a["b"].(int), nil
	}, "Multiply.",
		projection.WithSchema([]byte(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`)),
		projection.WithOutputSchema([]byte(`{"type":"integer"}`)))
	return map[string]projection.ToolProjection{mul.Name(): mul}
}

const thousandTypedCalls = `total := 0
for i := 0; i < 1000; i++ {
	r, err := math_ops.Multiply(math_ops.MultiplyArgs{A: i, B: 2})
	if err != nil {
		panic(err)
	}
	total += r
}
result(total)`

func benchThousand(b *testing.B, code string, ns map[string]projection.ToolProjection) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := engine.Execute(ctx, code, ns, engine.WithLimits(engine.Limits{MaxToolCalls: engine.Unlimited}))
		if err != nil || res.ReturnCode != 0 || res.Value != 999000 {
			b.Fatal(err, res.Error, res.Value)
		}
	}
}

// BenchmarkTyped_1000Calls is BenchmarkExecute_1000ToolCalls with typed
// calls (a generated argument struct in, an int out) of a tool with
// schemas; compare BenchmarkTyped_1000MapCalls, the same tool called with
// map literals: the typed call may cost at most 1.5 times the map call.
func BenchmarkTyped_1000Calls(b *testing.B) {
	benchThousand(b, thousandTypedCalls, typedBenchNS())
}

// BenchmarkTyped_1000MapCalls is the map-form side of
// BenchmarkTyped_1000Calls: the same typed tool called with map literals.
func BenchmarkTyped_1000MapCalls(b *testing.B) {
	benchThousand(b, thousandCalls, typedBenchNS())
}

// BenchmarkTyped_Trivial is BenchmarkExecute_Trivial with the typed tool
// in the namespace: a script that imports no tool package pays nothing
// for the typed surface.
func BenchmarkTyped_Trivial(b *testing.B) {
	ns := typedBenchNS()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := engine.Execute(ctx, `fmt.Println("hi")`, ns)
		if err != nil || res.ReturnCode != 0 {
			b.Fatal(err, res.Error)
		}
	}
}
