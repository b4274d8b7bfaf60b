package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/internal/normalize"
	"github.com/toolscript/toolscript/scripts"
)

// checkScript runs the type-checking pass over code as a one-shot
// execution on the demo tools would, returning its errors.
func checkScript(t *testing.T, code string) []string {
	t.Helper()
	surf := buildSurface(demo.Namespace())
	im := imports{surf: surf}
	np, err := normalize.Source(code, normalize.Config{
		Allowed: im.allowed, Importable: Packages, AutoImport: im.autoImport,
		ReadOnly: im.isPackageVar, MaxNesting: MaxNesting, Native: true,
	})
	if err != nil {
		return nil // the normaliser refuses it: the pass never sees it
	}
	var out []string
	for _, e := range surf.checker().Check(np.Src) {
		out = append(out, e.Error())
	}
	return out
}

// TestTypecheck_AcceptsCorpus: the pass rejects no script that Go accepts
// and the interpreter runs: every corpus script but the mistakes
// (mistake_*, whose errors are the point) checks clean, so that its
// errors can be trusted to replace the interpreter's.
func TestTypecheck_AcceptsCorpus(t *testing.T) {
	all, err := scripts.All()
	require.NoError(t, err)
	adv, err := scripts.Adversarial()
	require.NoError(t, err)
	n := 0
	for _, s := range all {
		if strings.HasPrefix(s.Name, "mistake_") {
			continue
		}
		n++
		assert.Empty(t, checkScript(t, s.Code), "%s", s.Name)
	}
	// An adversarial script the engine refuses may be refused by the
	// pass too (a removed symbol, a constant overflow).
	for _, s := range adv {
		if s.ReturnCode == 0 {
			assert.Empty(t, checkScript(t, s.Code), "%s", s.Name)
		}
	}
	require.Greater(t, n, 50)
}

// TestTypecheck_TypeErrors: the pass's result as the engine uses it when
// the interpreter refuses a script: Go's errors, or word that the script
// is valid Go (an interpreter limit), or nothing for what it cannot check.
func TestTypecheck_TypeErrors(t *testing.T) {
	surf := buildSurface(demo.Namespace())
	for _, tc := range []struct {
		name, code string
		globals    bool
		want       string // "" for none
		valid      bool
	}{
		{"valid", "x := 1\nfmt.Println(x)", false, "", true},
		{"one error", "fmt.Println(y)", false, "line 1:13: undefined: y\n    fmt.Println(y)\n                ^", false},
		{"two errors", "a := b\nc := d", false, "line 1:6: undefined: b\nline 2:6: undefined: d", false},
		{"extra globals", "fmt.Println(y)", true, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog, err := normalizeScript(tc.code, imports{surf: surf}, false)
			require.NoError(t, err)
			prog.globals = tc.globals
			te, valid := surf.typeErrors(prog)
			assert.Equal(t, tc.valid, valid)
			if tc.want == "" {
				assert.NoError(t, te)
				return
			}
			require.Error(t, te)
			assert.Equal(t, tc.want, te.Error())
		})
	}
}
