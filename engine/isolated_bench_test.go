package engine_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

func benchIsolated(b *testing.B) *engine.Isolated {
	return benchIsolatedWith(b, engine.IsolatedConfig{Workers: 2})
}

func benchIsolatedWith(b *testing.B, cfg engine.IsolatedConfig) *engine.Isolated {
	b.Helper()
	iso, err := engine.NewIsolated(cfg)
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
	cpu := startCPU(iso)
	for b.Loop() {
		res, err := iso.Execute(ctx, `fmt.Println("hi")`, ns)
		if err != nil || res.ReturnCode != 0 {
			b.Fatal(err, res.Error)
		}
	}
	cpu.report(b, 1, "op")
}

// BenchmarkIsolated_1000ToolCalls is a script calling a host tool 1000
// times from a worker; (ns/op - BenchmarkIsolated_Trivial) / 1000 is one
// tool-call round trip over the pipe. Compare BenchmarkExecute_1000ToolCalls.
func BenchmarkIsolated_1000ToolCalls(b *testing.B) {
	benchThousandCalls(b, benchIsolated(b))
}

// BenchmarkIsolated_1000ToolCallsPipes is BenchmarkIsolated_1000ToolCalls
// with the frames over pipes (IsolatedConfig.PipeTransport), where they
// cross shared memory by default: the difference is the transport's.
func BenchmarkIsolated_1000ToolCallsPipes(b *testing.B) {
	benchThousandCalls(b, benchIsolatedWith(b, engine.IsolatedConfig{Workers: 2, PipeTransport: true}))
}

func benchThousandCalls(b *testing.B, iso *engine.Isolated) {
	ns, _ := benchNS()
	ctx := context.Background()
	b.ReportAllocs()
	cpu := startCPU(iso)
	for b.Loop() {
		res, err := iso.Execute(ctx, thousandCalls, ns, engine.WithLimits(engine.Limits{MaxToolCalls: engine.Unlimited}))
		if err != nil || res.ReturnCode != 0 || res.Value != 999000 {
			b.Fatal(err, res.Error, res.Value)
		}
	}
	cpu.report(b, 1000, "call")
}

// cpuMeter measures the CPU time the host (this process) and the
// workers use over a benchmark: less disturbed than the wall-clock time
// by the other load of a shared machine, it shows the work each side
// does per call, spinning included.
type cpuMeter struct {
	pids         []int
	host, worker time.Duration
	// Voluntary context switches: a thread that waited and was woken.
	hostSw, workerSw int64
}

func startCPU(iso *engine.Isolated) *cpuMeter {
	m := &cpuMeter{pids: iso.WorkerPIDs()}
	m.host, m.worker = hostCPU(), workersCPU(m.pids)
	m.hostSw, m.workerSw = hostSwitches(), workersSwitches(m.pids)
	return m
}

// report reports the CPU time and the wake-ups (voluntary context
// switches of all threads) per unit (n units per operation) of each side.
func (m *cpuMeter) report(b *testing.B, n int, unit string) {
	host, worker := hostCPU()-m.host, workersCPU(m.pids)-m.worker
	hostSw, workerSw := hostSwitches()-m.hostSw, workersSwitches(m.pids)-m.workerSw
	per := float64(b.N * n)
	b.ReportMetric(float64(host.Nanoseconds())/per, "host-CPU-ns/"+unit)
	b.ReportMetric(float64(worker.Nanoseconds())/per, "worker-CPU-ns/"+unit)
	b.ReportMetric(float64(hostSw)/per, "host-wakeups/"+unit)
	b.ReportMetric(float64(workerSw)/per, "worker-wakeups/"+unit)
}

func hostCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// hostSwitches returns the voluntary context switches of this process's
// threads.
func hostSwitches() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Nvcsw
}

// workersSwitches adds up the voluntary context switches of the threads
// of the processes, from /proc.
func workersSwitches(pids []int) int64 {
	var total int64
	for _, pid := range pids {
		dirs, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
		for _, d := range dirs {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/status", pid, d.Name()))
			if err != nil {
				continue
			}
			for _, line := range strings.Split(string(b), "\n") {
				if rest, ok := strings.CutPrefix(line, "voluntary_ctxt_switches:"); ok {
					n, _ := strconv.ParseInt(strings.TrimSpace(rest), 10, 64)
					total += n
				}
			}
		}
	}
	return total
}

// workersCPU adds up the user and system time of the processes, from
// /proc (in clock ticks of 10 ms: measure over a second or more).
func workersCPU(pids []int) time.Duration {
	var total time.Duration
	for _, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// The fields after the command's closing parenthesis: utime
		// and stime are the 12th and 13th.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) < 13 {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		total += time.Duration(u+s) * 10 * time.Millisecond
	}
	return total
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

// BenchmarkIsolated_SessionNamespace is an input of a session of one
// call in a namespace of n tools: the session's worker holds the tools
// from its first input, so a later input carries none (the host neither
// checks the namespace nor encodes its list, the worker decodes none).
func BenchmarkIsolated_SessionNamespace(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			iso := benchIsolated(b)
			ns := make(map[string]projection.ToolProjection, n)
			for i := range n {
				t := projection.MustDirect(fmt.Sprintf("tool_%05d", i), func(context.Context, map[string]any) (any, error) {
					return i, nil
				}, "Tool number "+strconv.Itoa(i)+". No args. Returns its number (int).")
				ns[t.Name()] = t
			}
			s, err := engine.NewSession(iso, ns)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			code := fmt.Sprintf("r, err := tools.Tool%05d(map[string]any{})\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(r)\n", n-1)
			want := fmt.Sprintln(n - 1)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				res, err := s.Execute(ctx, code)
				if err != nil || res.ReturnCode != 0 || res.Stdout != want {
					b.Fatal(err, res.Error, res.Stdout)
				}
			}
		})
	}
}
