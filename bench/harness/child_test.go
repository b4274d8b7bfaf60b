package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The test binary serves the runner's child processes with crashEngine
// as its one extra engine, as a peers binary serves its peers.
func init() {
	if len(os.Args) > 1 && os.Args[1] == childArg {
		os.Exit(Main(os.Args[1:], []Engine{crashEngine{}}))
	}
}

// crashEngine runs a workload's native floor, except one_call, whose run
// panics in a goroutine: the panic no recover can stop, which kills the
// process.
type crashEngine struct{}

func (crashEngine) Name() string { return "crasher" }
func (crashEngine) Close() error { return nil }
func (crashEngine) Prepare(w *Workload) (func(context.Context) (string, error), error) {
	if w.Native == nil {
		return nil, ErrUnsupported
	}
	if w.Name != "one_call" {
		return w.Native, nil
	}
	return func(context.Context) (string, error) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			var f func()
			f() // a nil function, as upstream yaegi's goroutine called
		}()
		<-done
		return "", nil
	}, nil
}

// TestRunnerChildCrash checks that an extra engine measured in child
// processes that crashes on one workload costs that cell and its rate
// ("crashed", with the panic), not the run; --check still passes, and
// its other cells are measured.
func TestRunnerChildCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run([]string{"--short", "--check", "--curves=false", "--filter", "^(one_call|trivial)$",
		"--engines", "^(native|crasher)$", "--json", dir + "/b.json"}, []Engine{crashEngine{}}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	out := stdout.String()
	assert.Contains(t, out, "crashed")
	assert.Contains(t, out, "- crasher one_call: panic: runtime error: invalid memory address or nil pointer dereference")
	// The parent summarises a child's samples: trivial's row has two
	// medians with their intervals.
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "| trivial ") {
			assert.Equal(t, 2, strings.Count(l, " ±"), l)
		}
	}
	var rep Report
	b, err := os.ReadFile(dir + "/b.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &rep))
	var crashed, measured []string
	for _, c := range rep.Cells {
		if c.Engine != "crasher" {
			continue
		}
		if c.Crashed {
			crashed = append(crashed, c.Workload)
		} else if c.OK() {
			measured = append(measured, c.Workload)
			assert.Len(t, c.Samples, ShortSettings.Samples)
		}
	}
	assert.Equal(t, []string{"one_call"}, crashed)
	assert.Equal(t, []string{"trivial"}, measured)
	for _, r := range rep.Rates {
		if r.Engine == "crasher" {
			assert.Equal(t, r.Workload == "one_call", r.Crashed, r.Workload)
		}
	}
	assert.Empty(t, rep.Missing())
}

// TestMissing_Crashed checks that a crashed cell is listed as a crash,
// not as a missing result, while a built-in engine's failed cell still
// fails --check.
func TestMissing_Crashed(t *testing.T) {
	rep := &Report{Engines: []string{InProcessName, "peer"},
		Cells: []Cell{{Workload: "trivial", Engine: "peer", Crashed: true, Err: "panic: x"},
			{Workload: "trivial", Engine: InProcessName, Err: "boom"}}}
	assert.Equal(t, []string{"peer trivial: panic: x"}, rep.Crashes())
	m := strings.Join(rep.Missing(), "\n")
	assert.Contains(t, m, "boom")
	assert.NotContains(t, m, "panic: x")
	var b bytes.Buffer
	rep.WriteTable(&b)
	assert.Contains(t, b.String(), "| crashed")
}
