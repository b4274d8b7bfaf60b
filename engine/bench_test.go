package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/toolscript/toolscript/bench/harness"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

func benchNS() (map[string]projection.ToolProjection, projection.ToolProjection) {
	mul := projection.MustDirect("math_ops-multiply", func(_ context.Context, a map[string]any) (any, error) {
		return a["a"].(int) * a["b"].(int), nil
	}, "Multiply.")
	return map[string]projection.ToolProjection{mul.Name(): mul}, mul
}

// BenchmarkExecute_Trivial is a whole execution of a script that prints
// one line: interpreter set-up, compile, run, result.
func BenchmarkExecute_Trivial(b *testing.B) {
	ns, _ := benchNS()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := engine.Execute(ctx, `fmt.Println("hi")`, ns)
		if err != nil || res.ReturnCode != 0 {
			b.Fatal(err, res.Error)
		}
	}
}

// BenchmarkExecute_Empty is the floor of an execution: no packages.
func BenchmarkExecute_Empty(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := engine.Execute(ctx, `x := 1; _ = x`, nil)
		if err != nil || res.ReturnCode != 0 {
			b.Fatal(err, res.Error)
		}
	}
}

const thousandCalls = `total := 0
for i := 0; i < 1000; i++ {
	r, err := math_ops.Multiply(map[string]any{"a": i, "b": 2})
	if err != nil {
		panic(err)
	}
	total += r.(int)
}
result(total)`

// BenchmarkExecute_1000ToolCalls is a script calling a tool 1000 times;
// ns/op divided by 1000 is the cost of one call from a script, loop and
// argument map included. Compare BenchmarkNative_1000ToolCalls.
func BenchmarkExecute_1000ToolCalls(b *testing.B) {
	ns, _ := benchNS()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := engine.Execute(ctx, thousandCalls, ns, engine.WithLimits(engine.Limits{MaxToolCalls: engine.Unlimited}))
		if err != nil || res.ReturnCode != 0 || res.Value != 999000 {
			b.Fatal(err, res.Error, res.Value)
		}
	}
}

// BenchmarkNative_1000ToolCalls is the floor: the same 1000 calls made
// from Go through the projection.
func BenchmarkNative_1000ToolCalls(b *testing.B) {
	_, mul := benchNS()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		total := 0
		for i := 0; i < 1000; i++ {
			r, err := mul.Call(ctx, map[string]any{"a": i, "b": 2})
			if err != nil {
				b.Fatal(err)
			}
			total += r.(int)
		}
		if total != 999000 {
			b.Fatal(total)
		}
	}
}

// BenchmarkExecute_Parallel runs trivial executions on all cores.
func BenchmarkExecute_Parallel(b *testing.B) {
	ns, _ := benchNS()
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			res, err := engine.Execute(ctx, `fmt.Println("hi")`, ns)
			if err != nil || res.ReturnCode != 0 {
				b.Fatal(err, res.Error)
			}
		}
	})
}

// BenchmarkExecute_1000Maps is BenchmarkExecute_1000ToolCalls without the
// calls: the interpreted loop and argument maps alone.
func BenchmarkExecute_1000Maps(b *testing.B) {
	ctx := context.Background()
	code := `total := 0
for i := 0; i < 1000; i++ {
	m := map[string]any{"a": i, "b": 2}
	total += len(m)
}
result(total)`
	b.ReportAllocs()
	for b.Loop() {
		res, err := engine.Execute(ctx, code, nil)
		if err != nil || res.ReturnCode != 0 {
			b.Fatal(err, res.Error)
		}
	}
}

// BenchmarkExecute_1000Squares is the benchmark runner's calls_1000: 1000
// tool calls of a float64-valued tool whose results the loop asserts.
// Compare BenchmarkExecute_1000Loop, the same loop without the calls.
func BenchmarkExecute_1000Squares(b *testing.B) {
	sq := projection.MustDirect("square", func(_ context.Context, a map[string]any) (any, error) {
		n := a["n"].(int)
		return float64(n * n), nil
	}, "Square.")
	ns := map[string]projection.ToolProjection{sq.Name(): sq}
	code := runnerScript(b, "calls_1000")
	ctx := context.Background()
	b.ReportAllocs()
	cpu := hostCPU()
	for b.Loop() {
		res, err := engine.Execute(ctx, code, ns, engine.WithLimits(engine.Limits{MaxToolCalls: engine.Unlimited}))
		if err != nil || res.ReturnCode != 0 || res.Stdout != "1000 332833500\n" {
			b.Fatal(err, res.Error, res.Stdout)
		}
	}
	reportCPU(b, cpu)
}

// runnerScript returns the script of the benchmark runner's workload
// name, so that a benchmark here measures what the runner's cell does.
func runnerScript(b *testing.B, name string) string {
	w, ok := harness.WorkloadByName(name)
	if !ok {
		b.Fatalf("the runner has no workload %q", name)
	}
	return w.Go
}

// reportCPU reports the CPU time this process used per operation since
// start (hostCPU), the GC's workers included: less disturbed than the
// wall-clock time by the other load of a shared machine.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((hostCPU()-start).Nanoseconds())/float64(b.N), "CPU-ns/op")
}

// BenchmarkExecute_1000Loop is the benchmark runner's loop_1000: the loop
// of BenchmarkExecute_1000Squares with each call replaced by its result.
func BenchmarkExecute_1000Loop(b *testing.B) {
	code := runnerScript(b, "loop_1000")
	ctx := context.Background()
	b.ReportAllocs()
	cpu := hostCPU()
	for b.Loop() {
		res, err := engine.Execute(ctx, code, nil)
		if err != nil || res.ReturnCode != 0 || res.Stdout != "1000 332833500\n" {
			b.Fatal(err, res.Error, res.Stdout)
		}
	}
	reportCPU(b, cpu)
}
