package engine

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/internal/normalize"
	"github.com/toolscript/toolscript/internal/yaegi/interp"
	"github.com/toolscript/toolscript/scripts"
)

// parseOnceCases are scripts for TestParseOnce_SameSource beyond the
// corpus: the cases where the prediction of the generated imports from
// the tokens, the package clause found from them, or the checks could
// differ from the way without a single parse.
var parseOnceCases = map[string]string{
	"trivial":           "x := 40\nx += 2\n_ = x\n",
	"final expr":        "x := 40\nx + 2\n",
	"final call":        "fmt.Println(1)\n",
	"final index":       "xs := []int{1, 2}\nxs[1]\n",
	"final composite":   "type T struct{ A int }\nT{A: 1}\n",
	"final receive":     "ch := make(chan int, 1)\nch <- 1\n<-ch\n",
	"final then decl":   "x := 1\nx + 1\nfunc g() {}\n",
	"final same line":   "x := 1; x // a comment\n",
	"final paren":       "x := 1\n(x)\n",
	"final op call":     "xs := []int{3, 1, 2}\nmin(xs[0], xs[1]) + max(xs[1], xs[2])\n",
	"final cmp call":    "fmt.Sprint(1) == \"1\"\n",
	"final call arg op": "f := func(x int) int { return x }\nf(1 + 2)\n",
	"final raw string":  "s := \"a\"\ns + `b\r\nc`\n",
	"final read-only":   "&time.Local\n",
	"final deep":        "x := 1\n" + strings.Repeat("(", 497) + "x" + strings.Repeat(")", 497) + " + 1\n",
	"own import":        "import \"strings\"\nfmt.Println(strings.ToUpper(\"a\"))\n",
	"renamed import":    "import s \"strings\"\nfmt.Println(s.ToUpper(\"a\"), strings.ToLower(\"B\"))\n",
	"grouped imports":   "import (\n\t\"fmt\"\n\tj \"encoding/json\"\n\t. \"strings\"\n)\nb, _ := j.Marshal(ToUpper(\"a\"))\nfmt.Println(string(b), strconv.Itoa(1))\n",
	"blank import":      "import _ \"strings\"\nfmt.Println(1)\n",
	"local like pkg":    "strings := struct{ X int }{1}\nfmt.Println(strings.X)\n",
	"chained":           "type T struct{ fmt struct{ Println int } }\nvar t T\n_ = t.fmt.Println\n",
	"tool package":      "c, err := customers.Get(map[string]any{\"id\": 1})\nfmt.Println(c, err)\n",
	"result":            "result(42)\n",
	"min max clear":     "m := map[int]int{1: 2}\nclear(m)\na, b := 1, 3\nfmt.Println(min(a, 2), max(b, 4), len(m))\n",
	"switch":            "var v any = 1\nswitch v {\ncase 1:\n\tfmt.Println(\"one\")\n}\n",
	"go":                "done := make(chan int)\ngo func() { done <- 1 }()\nfmt.Println(<-done)\n",
	"full":              "package main\n\nfunc main() { fmt.Println(strings.Repeat(\"a\", 2)) }\n",
	"full other name":   "// a comment\n/* another */ package tools\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(1) }\n",
	"full clause cmt":   "package /* x */ foo\n\nfunc main() {}\n",
	"full no main":      "package main\n\nfunc f() {}\n",
	"full final expr":   "package main\n\nfunc main() { result(1) }\n",
	"bom":               "\uFEFFpackage main\n\nfunc main() { fmt.Println(1) }\n",
	"syntax error":      "x := \nfmt.Println(x)\n",
	"redeclared":        "package main\n\nfunc f() {}\nfunc f() {}\nfunc main() {}\n",
	"redeclared bare":   "func f() {}\nfunc f() {}\nf()\n",
	"refused import":    "import \"os/exec\"\nexec.Command(\"ls\")\n",
	"reserved":          "__ts := 1\n_ = __ts\n",
	"read-only":         "time.Local = nil\n",
	"yaegi tags":        "// yaegi:tags foo\nfmt.Println(1)\n",
	"build constraint":  "//go:build ignore\n\npackage main\n\nfunc main() {}\n",
	"scanner error":     "x := \"unterminated\n",
	"line directive":    "//line other.go:10\npackage main\n\nfunc main() { fmt.Println(1) }\n",
	"empty":             "",
}

// TestParseOnce_SameSource: the normaliser with the interpreter's parse
// (normalize.Config.Parse, what every execution uses) makes the same
// program as without it, for every corpus script, the adversarial corpus
// and the cases above, with and without extra globals: the same source,
// imports and runtime use, or the same error. When it gives a tree, the
// tree is the parse of that source (the same nodes at the same
// positions); the trivial script and the corpus_100
// workload's script (a full program) get one, so they are parsed once.
func TestParseOnce_SameSource(t *testing.T) {
	all, err := scripts.All()
	require.NoError(t, err)
	adv, err := scripts.Adversarial()
	require.NoError(t, err)
	cases := map[string]string{}
	for name, code := range parseOnceCases {
		cases[name] = code
	}
	for _, s := range append(all, adv...) {
		cases["corpus "+s.Name] = s.Code
	}
	im := imports{surf: buildSurface(demo.Namespace())}
	trees := 0
	for name, code := range cases {
		for _, globals := range []bool{false, true} {
			want, wantErr := normalize.Source(code, im.normalizeConfig(globals))
			fset := token.NewFileSet()
			cfg := im.normalizeConfig(globals)
			cfg.Parse = interp.FileParser(fset)
			got, gotErr := normalize.Source(code, cfg)
			if wantErr != nil {
				require.Error(t, gotErr, name)
				assert.Equal(t, wantErr, gotErr, name)
				continue
			}
			require.NoError(t, gotErr, name)
			assert.Equal(t, want.Src, got.Src, name)
			assert.Equal(t, want.Imports, got.Imports, name)
			assert.Equal(t, want.UsesRuntime, got.UsesRuntime, name)
			assert.Equal(t, want.Lines, got.Lines, name)
			if got.File == nil {
				continue
			}
			trees++
			ref := token.NewFileSet()
			reparsed, err := interp.ParseFile(ref, got.Src)
			require.NoError(t, err, name)
			assert.Equal(t, treeFingerprint(ref, reparsed), treeFingerprint(fset, got.File), "%s: the tree is not Src's", name)
		}
	}
	for _, name := range []string{"trivial", "final call", "final expr", "final index", "final op call", "own import", "full", "min max clear", "corpus methods_interface_cases"} {
		fset := token.NewFileSet()
		cfg := im.normalizeConfig(false)
		cfg.Parse = interp.FileParser(fset)
		np, err := normalize.Source(cases[name], cfg)
		require.NoError(t, err, name)
		assert.NotNil(t, np.File, "%s: parsed twice", name)
	}
	t.Logf("%d of %d programs parsed once", trees, 2*len(cases))
	assert.Greater(t, trees, len(cases)/2, "most scripts are parsed once")
}

// treeFingerprint lists a tree's nodes in order, each with its position
// as an error would give it and its name or literal.
func treeFingerprint(fset *token.FileSet, f *ast.File) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		s := fmt.Sprintf("%T %s", n, fset.Position(n.Pos()))
		switch n := n.(type) {
		case *ast.Ident:
			s += " " + n.Name
		case *ast.BasicLit:
			s += " " + n.Value
		}
		out = append(out, s)
		return true
	})
	return out
}

// TestFinalExpression_ErrorColumn: a compile error in a bare script's
// final expression (which the normaliser wraps in the result call, and
// the type-checking pass's native form assigns to _) is at the model's
// column, as in any other statement: it was four columns to the right.
func TestFinalExpression_ErrorColumn(t *testing.T) {
	for code, col := range map[string]int{
		"x := 1\nx + undefinedVar\n":      5,
		"x := 1\ny := x + undefinedVar\n": 10,
		"x := 1\n  x + undefinedVar\n":    7,
	} {
		res, err := Execute(context.Background(), code, nil)
		require.NoError(t, err, code)
		var se *ScriptError
		require.ErrorAs(t, res.Err, &se, code)
		assert.Equal(t, 2, se.Line, code)
		assert.Equal(t, col, se.Column, code)
		assert.Contains(t, se.Msg, "undefined: undefinedVar", code)
	}
}
