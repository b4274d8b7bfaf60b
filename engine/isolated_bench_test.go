package engine_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

func benchIsolated(b *testing.B) *engine.Isolated {
	b.Helper()
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 2})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = iso.Close() })
	return iso
}

// BenchmarkIsolated_Trivial is a whole isolated execution of a script that
// prints one line, with a warm pool. Compare BenchmarkExecute_Trivial.
func BenchmarkIsolated_Trivial(b *testing.B) {
	iso := benchIsolated(b)
	ns, _ := benchNS()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := iso.Execute(ctx, `fmt.Println("hi")`, ns)
		if err != nil || res.ReturnCode != 0 {
			b.Fatal(err, res.Error)
		}
	}
}

// BenchmarkIsolated_1000ToolCalls is a script calling a host tool 1000
// times from a worker; (ns/op - BenchmarkIsolated_Trivial) / 1000 is one
// tool-call round trip over the pipe. Compare BenchmarkExecute_1000ToolCalls.
func BenchmarkIsolated_1000ToolCalls(b *testing.B) {
	iso := benchIsolated(b)
	ns, _ := benchNS()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := iso.Execute(ctx, thousandCalls, ns, engine.WithLimits(engine.Limits{MaxToolCalls: engine.Unlimited}))
		if err != nil || res.ReturnCode != 0 || res.Value != 999000 {
			b.Fatal(err, res.Error, res.Value)
		}
	}
}

// BenchmarkIsolated_WorkerStart measures starting a pool of one worker
// (process start, limits, symbol tables, warm-up) and reports the
// worker's resident memory once it is idle.
func BenchmarkIsolated_WorkerStart(b *testing.B) {
	var rss int64
	for b.Loop() {
		iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		rss = max(rss, rssOf(iso.WorkerPIDs()[0]))
		_ = iso.Close()
	}
	b.ReportMetric(float64(rss)/(1<<20), "worker-RSS-MiB")
}

// rssOf returns the resident set size of a process, from /proc.
func rssOf(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// BenchmarkIsolated_Namespace is a one-call script in a namespace of n
// tools, the same namespace every execution: the worker receives the
// tool list once (see internal/isolated's toollist.go), so the host's
// set-up is a check of the namespace and the worker's does not decode it.
func BenchmarkIsolated_Namespace(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			iso := benchIsolated(b)
			ns := make(map[string]projection.ToolProjection, n)
			for i := range n {
				t := projection.MustDirect(fmt.Sprintf("tool_%05d", i), func(context.Context, map[string]any) (any, error) {
					return i, nil
				}, "Tool number "+strconv.Itoa(i)+". No args. Returns its number (int).")
				ns[t.Name()] = t
			}
			code := fmt.Sprintf("r, err := tools.Tool%05d(map[string]any{})\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(r)\n", n-1)
			want := fmt.Sprintln(n - 1)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				res, err := iso.Execute(ctx, code, ns)
				if err != nil || res.ReturnCode != 0 || res.Stdout != want {
					b.Fatal(err, res.Error, res.Stdout)
				}
			}
		})
	}
}
