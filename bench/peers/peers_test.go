package peers

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/bench/harness"
)

// unsupported lists, per peer, the workloads it has no script for; every
// other workload (of the table and of the curves) must run and pass Want.
var unsupported = map[string][]string{
	"yaegi": {"corpus_100", "slices_sort"}, // upstream fails them (yaegiFails)
	// corpus_100, slices_sort and sort_sort measure what toolscript's
	// compiler does with a long Go script and an interpreted generic
	// package: no script of another language says anything about it.
	"goja":     {"corpus_100", "slices_sort", "sort_sort"},
	"starlark": {"fanout_100", "corpus_100", "slices_sort", "sort_sort"}, // Starlark has no threads
}

// TestPeers runs every workload once on every peer: a supported one
// prints what its Want accepts (or fails as its Fail says), makes the
// calls its Go script makes and respects the fan-out's bound, so that a
// fast wrong result can never be published for a peer.
func TestPeers(t *testing.T) {
	for _, e := range All() {
		t.Run(e.Name(), func(t *testing.T) {
			defer func() { require.NoError(t, e.Close()) }()
			for _, w := range append(harness.Workloads(), harness.Curves(true)...) {
				t.Run(w.Name, func(t *testing.T) {
					run, err := e.Prepare(w)
					if contains(unsupported[e.Name()], w.Name) {
						require.ErrorIs(t, err, harness.ErrUnsupported)
						return
					}
					require.NoError(t, err)
					if w.Counter != nil {
						w.Counter.Reset()
					}
					start := time.Now()
					out, err := run(context.Background())
					took := time.Since(start)
					if w.Fail != nil {
						require.ErrorIs(t, err, w.Fail, "printed %q", out)
						if errors.Is(w.Fail, harness.ErrTimeout) {
							assert.Less(t, took, w.Timeout+10*time.Second, "the timeout stops the run")
						}
						return
					}
					require.NoError(t, err, "printed %q", out)
					require.NoError(t, w.Want(out))
					switch w.Name {
					case "calls_1000":
						assert.Equal(t, 1000, w.Counter.Calls())
					case "one_call":
						assert.Equal(t, 1, w.Counter.Calls())
					case "agent_shop":
						assert.Equal(t, 3, w.Counter.Calls())
					case "fanout_100":
						assert.Equal(t, 100, w.Counter.Calls())
						assert.LessOrEqual(t, w.Counter.MaxActive(), harness.FanoutBound)
					}
				})
			}
		})
	}
}

// TestPeers_FanoutConcurrency checks that the fan-out's calls really run
// at once (up to the bound) where a peer claims the workload: the counter's
// gate holds each call until the bound's worth is active together.
func TestPeers_FanoutConcurrency(t *testing.T) {
	for _, e := range All() {
		if contains(unsupported[e.Name()], "fanout_100") {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			var w *harness.Workload
			for _, x := range harness.Workloads() {
				if x.Name == "fanout_100" {
					w = x
				}
			}
			require.NotNil(t, w)
			run, err := e.Prepare(w)
			require.NoError(t, err)
			w.Counter.Gate(harness.FanoutBound, 20*time.Second)
			out, err := run(context.Background())
			require.NoError(t, err)
			require.NoError(t, w.Want(out))
			assert.Equal(t, harness.FanoutBound, w.Counter.MaxActive())
		})
	}
}

// TestPeers_Concurrent runs one workload from several goroutines at once
// on each peer, as the throughput measurement does.
func TestPeers_Concurrent(t *testing.T) {
	for _, e := range All() {
		t.Run(e.Name(), func(t *testing.T) {
			w := harness.Workloads()[3] // calls_1000
			require.Equal(t, "calls_1000", w.Name)
			run, err := e.Prepare(w)
			require.NoError(t, err)
			errs := make(chan error, 4)
			for range cap(errs) {
				go func() {
					out, err := run(context.Background())
					if err == nil {
						err = w.Want(out)
					}
					errs <- err
				}()
			}
			for range cap(errs) {
				require.NoError(t, <-errs)
			}
			assert.Equal(t, 4000, w.Counter.Calls())
		})
	}
}

// TestAdapt shows the whole adaptation of a script for upstream yaegi:
// the body of func main, and the imports toolscript would have added.
func TestAdapt(t *testing.T) {
	specs := []harness.ToolSpec{{Name: "lookup"}, {Name: "customers-list"}}
	got, err := Adapt("c, err := customers.List(nil)\nr, _ := tools.Lookup(nil)\nfmt.Println(c, r, err, strings.ToUpper(\"x\"))\n", specs)
	require.NoError(t, err)
	assert.Equal(t, "package main\n\nimport \"customers\"\nimport \"fmt\"\nimport \"strings\"\nimport \"tools\"\n\n"+
		"func main() {\nc, err := customers.List(nil)\nr, _ := tools.Lookup(nil)\nfmt.Println(c, r, err, strings.ToUpper(\"x\"))\n\n}\n", got)

	full := "package main\n\nfunc main() {}\n"
	got, err = Adapt(full, nil)
	require.NoError(t, err)
	assert.Equal(t, full, got)

	_, err = Adapt("result(1)\n", nil)
	require.ErrorContains(t, err, "result()")
	_, err = Adapt("func f() {}\nf()\n", nil)
	require.ErrorContains(t, err, "not bare statements")
}

func contains(s []string, x string) bool {
	for _, e := range s {
		if e == x {
			return true
		}
	}
	return false
}

// TestYaegi_Errors checks how the yaegi peer sorts failures: a panic of
// the script is not a compile error, a type error is, and a tool's error
// reaches the script.
func TestYaegi_Errors(t *testing.T) {
	fail := []harness.ToolSpec{{Name: "fail", Fn: func(context.Context, map[string]any) (any, error) {
		return nil, errors.New("tool failed")
	}}}
	for _, tc := range []struct {
		name, src string
		compile   bool
		want      string
	}{
		{"panic", "panic(\"boom\")\n", false, "boom"},
		{"tool error", "_, err := tools.Fail(nil)\nfmt.Println(err)\n", false, ""},
		{"type error", "var s string = 1\n_ = s\n", true, "cannot convert"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := Adapt(tc.src, fail)
			require.NoError(t, err)
			out, err := runYaegi(context.Background(), src, fail)
			if tc.want == "" {
				require.NoError(t, err)
				assert.Equal(t, "tool failed\n", out)
				return
			}
			require.ErrorContains(t, err, tc.want)
			assert.Equal(t, tc.compile, errors.Is(err, harness.ErrCompile), "%v", err)
		})
	}
}

// TestYaegi_Fails checks that upstream yaegi still fails the workloads
// the yaegi peer leaves out (yaegiFails): when an upstream release runs
// one, the column gets it back.
func TestYaegi_Fails(t *testing.T) {
	for _, w := range harness.Workloads() {
		if _, ok := yaegiFails[w.Name]; !ok {
			continue
		}
		t.Run(w.Name, func(t *testing.T) {
			src, err := Adapt(w.Go, w.Tools)
			require.NoError(t, err)
			out, err := runYaegi(context.Background(), src, w.Tools)
			if err == nil {
				err = w.Want(out)
			}
			require.Error(t, err, "upstream yaegi runs %s now: drop it from yaegiFails", w.Name)
		})
	}
}
