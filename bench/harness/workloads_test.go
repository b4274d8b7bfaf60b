package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
)

func TestMain(m *testing.M) {
	engine.MaybeServeWorker()
	os.Exit(m.Run())
}

// runtimes starts the two toolscript runtimes once for the package's tests.
func runtimes(t *testing.T) []Engine {
	t.Helper()
	iso, err := NewIsolated()
	require.NoError(t, err)
	es := []Engine{NewInProcess(), iso}
	t.Cleanup(func() {
		for _, e := range es {
			assert.NoError(t, e.Close())
		}
	})
	return es
}

// TestWorkloads checks that each workload's script does what it says, in
// both runtimes, natively and through the registry: the output its Want
// accepts (or the failure it names), exactly Calls tool calls per run, and
// for the fan-out at most MaxConcurrent at once, with the bound reached.
func TestWorkloads(t *testing.T) {
	ctx := context.Background()
	es := append(runtimes(t), Native{}, &Registry{})
	names := map[string]bool{}
	for _, w := range append(Workloads(), Curves(true)...) {
		names[w.Name] = true
		for _, e := range es {
			t.Run(w.Name+"/"+e.Name(), func(t *testing.T) {
				run, err := e.Prepare(w)
				if err == ErrUnsupported {
					require.True(t, e.Name() == NativeName && w.Native == nil || e.Name() == RegistryName && w.Batch == nil,
						"only the floor and the registry may leave a workload out")
					t.Skip("not supported by " + e.Name())
				}
				require.NoError(t, err)
				if w.Counter != nil {
					w.Counter.Reset()
					if w.MaxConcurrent > 0 {
						// Calls wait until the bound is reached, so the
						// script gets every chance to exceed it.
						w.Counter.Gate(w.MaxConcurrent, 10*time.Second)
						defer w.Counter.Gate(0, 0)
					}
				}
				out, err := run(ctx)
				require.NoError(t, verify(w, out, err))
				if w.Counter != nil {
					assert.Equal(t, w.Calls, w.Counter.Calls(), "tool calls of one run")
					if w.MaxConcurrent > 0 {
						assert.Equal(t, w.MaxConcurrent, w.Counter.MaxActive(), "most calls at once")
					}
				} else {
					assert.Zero(t, w.Calls)
				}
				if w.Fail == ErrCompile && e.Name() != NativeName {
					assert.Contains(t, err.Error(), "line 2", "the compile error names its line")
				}
			})
		}
	}
	for _, n := range []string{"trivial", "trivial_fmt", "one_call", "calls_1000", "loop_1000", "agent_shop", "fanout_100", "json_heavy", "compute", "compile_error", "timeout", "corpus_100", "slices_sort", "sort_sort"} {
		assert.True(t, names[n], "workload %s", n)
	}
	assert.Len(t, Workloads(), 14)
}

// TestWant checks that the checks can fail: a wrong output, a success
// where a failure is due, and a failure of the wrong kind are refused.
func TestWant(t *testing.T) {
	for _, w := range Workloads() {
		if w.Fail != nil {
			assert.Error(t, verify(w, "", nil), w.Name)
			assert.Error(t, verify(w, "", assert.AnError), w.Name)
			continue
		}
		assert.Error(t, verify(w, "wrong\n", nil), w.Name)
		assert.Error(t, verify(w, "", assert.AnError), w.Name)
	}
}

// TestAgentShopAnswer pins the agent task's answer, so that a change of
// the demo data or of both versions of the task shows.
func TestAgentShopAnswer(t *testing.T) {
	w, ok := WorkloadByName("agent_shop")
	require.True(t, ok)
	out, err := w.Native(context.Background())
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Greater(t, len(lines), 4)
	assert.Regexp(t, `^orders \d+$`, lines[0])
	assert.Contains(t, out, "books ")
	assert.Contains(t, out, "outdoor ")
	require.NoError(t, w.Want(out))
}

// TestRunnerShort runs the runner on a few workloads, quickly, and checks
// the table, the JSON and the plots.
func TestRunnerShort(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker processes")
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run([]string{"--short", "--check", "--filter", "^(one_call|namespace_10|result_1024)$",
		"--json", dir + "/b.json", "--out", dir}, nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), "| one_call")
	assert.Contains(t, stdout.String(), "Throughput")
	var rep Report
	b, err := os.ReadFile(dir + "/b.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &rep))
	assert.NotEmpty(t, rep.Cells)
	for _, c := range rep.Cells {
		if !c.Unsupported {
			assert.Len(t, c.Samples, ShortSettings.Samples, c.Workload+" "+c.Engine)
		}
	}
	for _, f := range []string{"table.md", "bench.json", "curve_namespace.png", "curve_namespace.svg", "curve_result.png"} {
		st, err := os.Stat(dir + "/" + f)
		require.NoError(t, err)
		assert.Positive(t, st.Size())
	}
}

// TestMissing checks that --check's list names a failed cell and an
// engine that did not start.
func TestMissing(t *testing.T) {
	rep := &Report{Engines: []string{InProcessName, IsolatedName}, StartErrors: []string{"isolated: no"},
		Cells: []Cell{{Workload: "trivial", Engine: InProcessName, Err: "boom"}}}
	m := rep.Missing()
	assert.Contains(t, strings.Join(m, "\n"), "boom")
	assert.Contains(t, strings.Join(m, "\n"), "isolated: no")
	assert.Contains(t, strings.Join(m, "\n"), "trivial on isolated: not measured")
}

func TestAbsPaths(t *testing.T) {
	got := absPaths([]string{"--peers", "--short", "--json", "x.json", "--out=plots", "-filter", "a"})
	require.Len(t, got, 6)
	assert.Equal(t, "--json", got[1])
	assert.True(t, strings.HasPrefix(got[2], "/"), got[2])
	assert.True(t, strings.HasPrefix(got[3], "--out=/"), got[3])
	assert.Equal(t, []string{"-filter", "a"}, got[4:])
	assert.Equal(t, "--short", got[0])
}
