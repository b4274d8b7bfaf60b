package remote

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

// benchNS has one trivial tool.
func benchNS() map[string]projection.ToolProjection {
	return nsOf(tool("inc", func(n int) int { return n + 1 }, "n"))
}

const (
	trivialScript = `x := 1; x`
	calls100      = "n := 0\nfor range 100 {\n\tr, _ := tools.Inc(map[string]any{\"n\": n})\n\tn = r.(int)\n}\nn"
)

func runBench(b *testing.B, rt engine.CodeRuntime, code string, parallel bool) {
	ns := benchNS()
	one := func() {
		res, err := rt.Execute(context.Background(), code, ns)
		if err != nil || res.ReturnCode != engine.CodeOK {
			b.Fatalf("%v %s", err, res.Error)
		}
	}
	one()
	b.ResetTimer()
	if !parallel {
		for range b.N {
			one()
		}
		return
	}
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			one()
		}
	})
}

// BenchmarkLocalIsolated is the baseline: the same scripts on an
// isolated runtime in this process.
func BenchmarkLocalIsolated(b *testing.B) {
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
	require.NoError(b, err)
	defer iso.Close()
	b.Run("Trivial", func(b *testing.B) { runBench(b, iso, trivialScript, false) })
	b.Run("100ToolCalls", func(b *testing.B) { runBench(b, iso, calls100, false) })
}

// BenchmarkNATS: one worker on loopback, for the added latency per
// trivial execution and per tool call (100 calls; divide the difference
// with BenchmarkLocalIsolated by 100).
func BenchmarkNATS(b *testing.B) {
	s := startServer(b)
	startWorker(b, s, WorkerConfig{})
	rt := New(connect(b, s), Config{})
	b.Run("Trivial", func(b *testing.B) { runBench(b, rt, trivialScript, false) })
	b.Run("100ToolCalls", func(b *testing.B) { runBench(b, rt, calls100, false) })
}

// BenchmarkNATS_Workers: executions per second with 1, 2 and 4 workers
// (one worker process each), executions sent in parallel.
func BenchmarkNATS_Workers(b *testing.B) {
	for _, n := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("workers=%d", n), func(b *testing.B) {
			s := startServer(b)
			for range n {
				startWorker(b, s, WorkerConfig{})
			}
			rt := New(connect(b, s), Config{})
			b.SetParallelism(2)
			runBench(b, rt, trivialScript, true)
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "exec/s")
		})
	}
}
