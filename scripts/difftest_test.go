package scripts_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/internal/difftest"
	"github.com/toolscript/toolscript/scripts"
)

// TestDifferential runs every corpus script the project says works (its
// expectation is success: return code 0, no error, no Gap) both through
// toolscript, in process and isolated, and as the native Go program the Go toolchain builds of it
// (internal/difftest: the same demo tools through generated packages),
// and compares their stdout byte for byte. A script that prints anything
// else natively is a silent wrong answer of the interpreter (or a script
// that is not Go): the test prints the script, both outputs and the first
// line that differs. Every program is built in one go build, offline.
//
// A script that pins a gap (a Gap line) and still succeeds must print
// something else than Go: when it no longer does, the gap is gone and
// the corpus (and README's known gaps) must say so.
func TestDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every corpus script with the Go toolchain")
	}
	all, err := scripts.All()
	require.NoError(t, err)
	var works []scripts.Script
	var progs []difftest.Script
	for _, s := range all {
		if s.ReturnCode != 0 || s.Error != "" {
			continue
		}
		works = append(works, s)
		progs = append(progs, difftest.Script{Name: s.Name, Code: s.Code})
	}
	require.GreaterOrEqual(t, len(works), 40, "the differential test must cover most of the corpus")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	start := time.Now()
	native, err := difftest.Build(ctx, t.TempDir(), repo, difftest.Tools{
		Namespace: demo.Namespace(),
		Import:    "github.com/toolscript/toolscript/demo",
		Expr:      "demo.Namespace()",
	}, progs)
	require.NoError(t, err)
	t.Logf("built %d native programs in %v", len(progs), time.Since(start).Round(time.Millisecond))
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 2, OS: engine.WorkerLimits{MemoryBytes: 4 << 30}})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, iso.Close()) })
	for _, s := range works {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			got, err := native.Run(ctx, s.Name)
			require.NoError(t, err)
			require.Equal(t, 0, got.ExitCode, "the native program failed:\n%s", got.Stderr)
			for _, rt := range []struct {
				name string
				exec func() (engine.CodeResult, error)
			}{
				{"toolscript", func() (engine.CodeResult, error) {
					return engine.Execute(ctx, s.Code, demo.Namespace(), engine.WithTimeout(20*time.Second))
				}},
				{"toolscript isolated", func() (engine.CodeResult, error) {
					return iso.Execute(ctx, s.Code, demo.Namespace(), engine.WithTimeout(20*time.Second))
				}},
			} {
				res, err := rt.exec()
				require.NoError(t, err)
				require.Equal(t, 0, res.ReturnCode, "%s failed: %s", rt.name, res.Error)
				if s.Gap != "" {
					if got.Stdout == res.Stdout {
						t.Errorf("%s pins a gap (%s), but %s prints what Go prints: the gap is gone; drop the script's Gap line (and its entry in README's known gaps)", s.Name, s.Gap, rt.name)
					}
					continue
				}
				if got.Stdout != res.Stdout {
					line, a, b := difftest.FirstDiff(res.Stdout, got.Stdout)
					t.Errorf("%s prints something else under %s than as native Go\n"+
						"first difference at line %d:\n  %s: %q\n  native Go: %q\n"+
						"--- script ---\n%s\n--- %s stdout ---\n%s\n--- native Go stdout ---\n%s",
						s.Name, rt.name, line, rt.name, a, b, s.Code, rt.name, res.Stdout, got.Stdout)
				}
			}
		})
	}
}
