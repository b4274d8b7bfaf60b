package normalize

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testPackages are the packages of testConfig: a few standard ones and
// a tool package.
var testPackages = map[string]string{
	"fmt": "fmt", "strings": "strings", "strconv": "strconv", "sort": "sort",
	"time": "time", "errors": "errors", "sync": "sync", "json": "encoding/json",
	"slices": "slices", "math_ops": "math_ops",
}

// testConfig is a Config over testPackages, time.Local read-only.
func testConfig() Config {
	paths := map[string]bool{}
	for _, p := range testPackages {
		paths[p] = true
	}
	return Config{
		Allowed: func(path string) bool { return paths[path] },
		Importable: func() []string {
			var l []string
			for p := range paths {
				l = append(l, p)
			}
			sort.Strings(l)
			return l
		},
		AutoImport: func(ident string) (string, bool) {
			p, ok := testPackages[ident]
			return p, ok
		},
		ReadOnly:   func(pkg, name string) bool { return pkg == "time" && name == "Local" },
		MaxNesting: 500,
	}
}

// FuzzNormalize checks that the source normaliser never panics and that
// whatever it accepts comes out as a parseable Go file.
func FuzzNormalize(f *testing.F) {
	for _, seed := range []string{
		`fmt.Println("hi")`,
		"package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(1) }\n",
		"import \"strings\" // c\nx := strings.ToUpper(\"a\")\nx",
		"func f(n int) int { return f(n - 1) }\ntype T struct{ A int }\nconst C = 1\nf(C)",
		"switch v := any(1); v {\ncase 1, 2:\n}\nvar x any = 1\nswitch x { case \"a\": }",
		"for _, e := range []any{1} { v, _ := e.(int); _ = v }",
		"go func() { panic(1) }()\ngo f(a, b...)\nm := make([]int, n, 2*n)",
		"r, err := math_ops.Multiply(map[string]any{\"a\": 1})\nif err != nil { panic(err) }\nresult(r)",
		"func (t *T) M() {}\n}",
		"import (\n\"fmt\"\n)\n/* x */ fmt.Println()",
		"package other\nfunc main() {}",
	} {
		f.Add(seed)
	}
	cfg := testConfig()
	f.Fuzz(func(t *testing.T, code string) {
		p, err := Source(code, cfg)
		if err != nil {
			return
		}
		if _, perr := parser.ParseFile(token.NewFileSet(), "x.go", p.Src, parser.SkipObjectResolution); perr != nil {
			// The normaliser may pass on code the interpreter rejects,
			// but only when the model's own code does not parse as a
			// function body or file; a parse error must then be
			// reported at the model's position, never panic.
			if _, ferr := parser.ParseFile(token.NewFileSet(), "x.go", "package main\nfunc _() {\n"+code+"\n}", 0); ferr == nil && !startsWithPackage(code) {
				t.Fatalf("normalised source does not parse: %v\n--- code:\n%s\n--- src:\n%s", perr, code, p.Src)
			}
		}
	})
}

// scannerStartsWithPackage is startsWithPackage as the Go scanner sees it.
func scannerStartsWithPackage(code string) bool {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(code)), []byte(code), func(token.Position, string) {}, 0)
	_, tok, _ := s.Scan()
	return tok == token.PACKAGE
}

var packageClauseCases = []string{
	"package main",
	"  \n\tpackage main\nfunc main() {}",
	"// c\npackage main",
	"/* a */ /* b\n */package main",
	"packages := 1",
	"package_x := 1",
	"fmt.Println(1) // package main",
	"/* unterminated package main",
	"// only a comment",
	"",
	"package",
	"package\tmain",
	"\"package main\"",
}

// TestStartsWithPackage checks the package-clause test against the scanner.
func TestStartsWithPackage(t *testing.T) {
	for _, code := range packageClauseCases {
		if got, want := startsWithPackage(code), scannerStartsWithPackage(code); got != want {
			t.Errorf("startsWithPackage(%q) = %v, the scanner says %v", code, got, want)
		}
	}
}

// FuzzStartsWithPackage checks the package-clause test against the
// scanner on any input.
func FuzzStartsWithPackage(f *testing.F) {
	for _, c := range packageClauseCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, code string) {
		if got, want := startsWithPackage(code), scannerStartsWithPackage(code); got != want {
			t.Fatalf("startsWithPackage(%q) = %v, the scanner says %v", code, got, want)
		}
	})
}

// TestMentions checks the whole-word test that lets a rewrite skip its walk:
// it must never miss a use of the word as a token.
func TestMentions(t *testing.T) {
	cases := []struct {
		src, word string
		want      bool
	}{
		{"go f()", "go", true},
		{"x := 1; go func() {}()", "go", true},
		{"{go f()}", "go", true},
		{"goto L; gopher := 1; ago := 2", "go", false},
		{"panic(err)", "panic", true},
		{"mypanic(err); panicky()", "panic", false},
		{"switch v {}", "switch", true},
		{"é_switch := 1", "switch", false},
		{"result(x)", "result", true},
		{"results := 1; x.result2", "result", false},
		{"", "go", false},
		{"go", "go", true},
		{"/*line script.go:1:1*/x.result(1); y.min", "go", false},
		{"/*line script.go:1:1*/x.result(1); y.min", "result", false},
		{"x.\n\tresult(1)", "result", true},
		{"...go", "go", false},
	}
	for _, c := range cases {
		if got := mentions(c.src, c.word); got != c.want {
			t.Errorf("mentions(%q, %q) = %v, want %v", c.src, c.word, got, c.want)
		}
	}
}

// TestSource_Rewrites checks each rewrite on a script that needs it: the
// generated source holds the rewritten text, still parses, and keeps the
// model's positions.
func TestSource_Rewrites(t *testing.T) {
	cases := []struct {
		name, code string
		want       []string // substrings of Program.Src
		imports    []string
		runtime    bool
	}{
		{"bare statements", `fmt.Println("hi")`, []string{"func main() {", `"fmt"; `}, []string{"fmt"}, false},
		{"package clause", "package other\nfunc main() { strings.ToUpper(\"a\") }", []string{"package main;", `"strings"; `, "/*package other*/"}, []string{"strings"}, false},
		{"own imports first", "import \"time\"\nfmt.Println(time.Now())", []string{`import "time";`}, []string{"time", "fmt"}, false},
		{"last expression", "x := 1\nx + 1", []string{"__ts.SetResult(__ts.ResultAt(2, 1, true, x + 1))"}, nil, true},
		{"last call is not a value", `fmt.Println(1)`, nil, []string{"fmt"}, false},
		{"result", "result(42)", []string{"result(__ts.ResultAt(1, 1, false, 42))", "func result(v any) { __ts.SetResult(v) }"}, nil, true},
		// A result of its own keeps its calls; the generated one, shadowed,
		// is declared all the same.
		{"own result", "result := func(v int) {}\nresult(1)", []string{"result(1)\n"}, nil, true},
		// The interpreter records where a panic starts (PanicSite): an
		// explicit panic is left as it is.
		{"panic", `panic("x")`, []string{"/*line script.go:1:1*/panic(\"x\")\n"}, nil, false},
		{"switch", "var v any = 1\nswitch v { case 1, 2: }", []string{"switch __ts_sw1 := v; {", "case __ts_sw1 == 1 || __ts_sw1 == 2:"}, nil, false},
		{"go literal", "go func() {}()", []string{"__ts.GoStart(); go func() {defer func() { __ts.GoEnd(recover()) }(); }()"}, nil, true},
		{"go call", "f := func(a, b int) {}\nx := 1\ngo f(x, 2)", []string{"{ __ts_g1_f, __ts_g1_0 := f, x; __ts.GoStart(); go func() { defer func() { __ts.GoEnd(recover()) }(); __ts_g1_f(__ts_g1_0, 2) }() }"}, nil, true},
		{"go call of a declared function", "func f(a int) {}\ngo f(1)", []string{"{ __ts.GoStart(); go func() { defer func() { __ts.GoEnd(recover()) }(); f(1) }() }"}, nil, true},
		{"go call of a builtin", "ch := make(chan int)\ngo close(ch)", []string{"go func() { defer func() { __ts.GoEnd(recover()) }(); close(__ts_g1_0) }() }"}, nil, true},
		{"go call of a package function", "x := 1\ngo fmt.Println(x)", []string{"{ __ts_g1_0 := x; __ts.GoStart(); go func() { defer func() { __ts.GoEnd(recover()) }(); fmt.Println(__ts_g1_0) }() }"}, []string{"fmt"}, true},
		{"go call of a shadowed package name", "fmt := struct{ Println func(int) }{}\ngo fmt.Println(1)", []string{"__ts_g1_f := fmt.Println; ", "__ts_g1_f(1)"}, []string{"fmt"}, true},
		{"go call of an indexed function", "fs := []func(){}\ni := 0\ngo fs[i]()", []string{"{ __ts_g1_f := fs[i]; __ts.GoStart(); go func() { defer func() { __ts.GoEnd(recover()) }(); __ts_g1_f() }() }"}, nil, true},
		{"min and max", "x := min(1, 2) + max(3, 4)\n_ = x", []string{"func min[T any]", "func max[T any]", "__ts.NegZero(y)"}, nil, true},
		{"own min", "func min(a, b int) int { return a }\nx := min(1, 2)\n_ = x", nil, nil, false},
		{"clear", "m := map[int]int{}\nclear(m)", []string{"func clear(v any) { __ts.Clear(v) }"}, nil, true},
		{"bare declarations", "type T struct{}\nfunc (T) M() {}\nconst C = 1\nT{}.M()", []string{"\n/*line script.go:1:1*/type T struct{}", "\n/*line script.go:2:1*/func (T) M() {}", "/*line script.go:4:1*/T{}.M()"}, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Source(c.code, testConfig())
			require.NoError(t, err)
			for _, w := range c.want {
				assert.Contains(t, p.Src, w)
			}
			assert.Equal(t, c.imports, p.Imports)
			assert.Equal(t, c.runtime, p.UsesRuntime)
			assert.Equal(t, c.runtime, strings.Contains(p.Src, RuntimeAlias+` "`+RuntimePath+`"`), "the runtime package is imported when used")
			_, perr := parser.ParseFile(token.NewFileSet(), File, p.Src, parser.SkipObjectResolution)
			require.NoError(t, perr, p.Src)
		})
	}
	p, err := Source("x := 1\nx", Config{Globals: true, MaxNesting: 1})
	require.Error(t, err, "MaxNesting bounds the tree")
	assert.Nil(t, p)
	p, err = Source("x := 1\nx", Config{Globals: true, MaxNesting: 500})
	require.NoError(t, err)
	assert.Contains(t, p.Src, `. "`+GlobalsPath+`"; `)
}

// TestSource_Positions checks that the generated source's positions are
// the model's: an identifier at line 3 column 2 of the script is there in
// the parsed normalised source.
func TestSource_Positions(t *testing.T) {
	for _, code := range []string{
		"x := 1\nif x > 0 {\n\tmarker := x\n\t_ = marker\n}",
		"package main\n\nfunc main() {\n\tmarker := 1\n\t_ = marker\n}",
		"import \"fmt\"\ntype T struct{}\nfunc f() {\n\tmarker := 1\n\tfmt.Println(marker)\n}\nf()",
		"go func() {\n\tpanic(1)\n}()\nvar v any\nswitch v { case 1: }\nmarker := 1\n_ = marker",
	} {
		p, err := Source(code, testConfig())
		require.NoError(t, err, code)
		want := token.Position{}
		for i, l := range p.Lines {
			if c := strings.Index(l, "marker :="); c >= 0 {
				want = token.Position{Line: i + 1, Column: c + 1}
			}
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, File, p.Src, parser.SkipObjectResolution)
		require.NoError(t, err, p.Src)
		var got token.Position
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == "marker" && got.Line == 0 {
				got = fset.Position(id.Pos())
			}
			return true
		})
		assert.Equal(t, File, got.Filename, code)
		assert.Equal(t, [2]int{want.Line, want.Column}, [2]int{got.Line, got.Column}, code)
	}
}

// TestSource_Errors checks what the normaliser refuses, where, and of
// which kind.
func TestSource_Errors(t *testing.T) {
	cases := []struct {
		name, code   string
		kind         Kind
		line, column int
		msg          string
	}{
		{"syntax", "x := (1", Invalid, 1, 8, "syntax error:"},
		{"no main", "package main\nfunc f() {}", Invalid, 1, 1, "needs func main"},
		{"not allowed", "import \"os/exec\"\nexec.Command(\"x\")", ImportRefused, 1, 8, `"os/exec" is not available to scripts; they can import encoding/json, errors, fmt`},
		{"runtime package", "import x \"toolscript/rt\"\nx.GoEnd(nil)", ImportRefused, 1, 10, `"toolscript/rt" is reserved by toolscript`},
		{"globals package", "package main\nimport \"toolscript/globals\"\nfunc main() {}", ImportRefused, 2, 8, `"toolscript/globals" is reserved by toolscript`},
		{"reserved alias", "x := 1\n__ts := 2", Invalid, 2, 1, "__ts is reserved by toolscript"},
		{"reserved prefix", "__ts_sw1 := 1", Invalid, 1, 1, "__ts_sw1 is reserved by toolscript"},
		{"read-only", "x := 1\ntime.Local = nil", Invalid, 2, 1, "cannot assign to time.Local: package variables are read-only in scripts"},
		{"read-only address", "p := &time.Local\n_ = p", Invalid, 1, 7, "cannot assign to time.Local"},
		{"too deep", "x := " + strings.Repeat("(", 600) + "1" + strings.Repeat(")", 600), TooDeep, 1, 0, "nested too deeply: more than 500 levels"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Source(c.code, testConfig())
			require.Error(t, err)
			assert.Nil(t, p)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, c.kind, e.Kind)
			assert.Equal(t, c.line, e.Line)
			if c.column > 0 {
				assert.Equal(t, c.column, e.Column)
			}
			assert.Contains(t, e.Msg, c.msg)
			assert.Equal(t, strings.Split(c.code, "\n")[c.line-1], e.Source)
		})
	}
	assert.Panics(t, func() { _, _ = Source("x := 1", Config{}) }, "a Config without MaxNesting is a bug of the caller")
}

// TestDocs_NameCorpusScripts checks that the doc of every rewrite and
// check names the corpus scripts that pin it, and that they exist.
func TestDocs_NameCorpusScripts(t *testing.T) {
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	scriptRE := regexp.MustCompile(`scripts/testdata/(?:adversarial/)?\s*(?:\S+\.gos)`)
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") || name == "doc.go" || name == "normalize.go" || name == "edit.go" || name == "syntax.go" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(name)
			require.NoError(t, err)
			docs := docsOf(t, name, src)
			require.Regexp(t, scriptRE, docs, "the doc of %s's main function names no corpus script", name)
			for _, ref := range corpusRefs(docs) {
				found, err := filepath.Glob(filepath.Join("..", "..", ref))
				require.NoError(t, err)
				assert.NotEmpty(t, found, "%s names %s, which is not in the corpus", name, ref)
			}
		})
	}
}

// docsOf returns the doc comments of the top-level functions of a file.
func docsOf(t *testing.T, name string, src []byte) string {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ParseComments)
	require.NoError(t, err)
	var b strings.Builder
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
			b.WriteString(fd.Doc.Text())
		}
	}
	return b.String()
}

// corpusRefs returns the corpus files a doc names: a path under
// scripts/testdata (or scripts/testdata/adversarial) followed by further
// names of the same folder, as "scripts/testdata/a.gos and b.gos".
func corpusRefs(doc string) []string {
	words := strings.Fields(doc)
	var refs []string
	dir := ""
	for _, w := range words {
		w = strings.TrimRight(w, ",.;:)")
		w = strings.TrimLeft(w, "(")
		switch {
		case strings.HasPrefix(w, "scripts/testdata/"):
			dir = w[:strings.LastIndex(w, "/")+1]
			if strings.HasSuffix(w, ".gos") {
				refs = append(refs, w)
			}
		case strings.HasSuffix(w, ".gos") && dir != "":
			refs = append(refs, dir+w)
		}
	}
	return refs
}

// TestNative checks native mode: plain Go with the bare wrapping and the
// automatic imports, none of the interpreter's rewrites, result(v) that
// does nothing and a final expression assigned to the blank identifier.
func TestNative(t *testing.T) {
	tests := []struct {
		name, code string
		want       []string // substrings of Src
		notWant    []string
	}{
		{"final expression", "x := strings.ToUpper(\"a\")\nx", []string{`"strings"`, "_ = /*line script.go:2:1*/x"}, []string{"SetResult", "ResultAt"}},
		{"final call stays", "fmt.Println(1)", []string{"fmt.Println(1)\n"}, []string{"_ = fmt"}},
		{"result", "result(1)", []string{"result(1)", "func result(v any) {}"}, []string{"ResultAt"}},
		{"own result", "result := func(v int) {}\nresult(2)", []string{"result(2)"}, []string{"ResultAt"}},
		{"go statement", "var wg sync.WaitGroup\nwg.Add(1)\ngo func() { defer wg.Done() }()\nwg.Wait()", []string{"go func() { defer wg.Done() }()"}, []string{"GoStart", "GoEnd"}},
		{"switch", "var v any = 1\nswitch v {\ncase 1, \"a\":\n\tfmt.Println(v)\n}", []string{"switch v {"}, nil},
		{"comma ok", "var v any = 1\ns, ok := v.(string)\nfmt.Println(s, ok)", []string{"s, ok := v.(string)"}, nil},
		{"builtins", "fmt.Println(min(1, 2), max(3, 4))\nm := map[int]int{1: 1}\nclear(m)", []string{"min(1, 2)"}, []string{"func min", "func max", "func clear"}},
		{"full program", "package tool\n\nfunc main() { result(math_ops.X) }\n", []string{"package main;", `"math_ops"`, "func result(v any) {}"}, []string{"ResultAt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.Native = true
			p, err := Source(tt.code, cfg)
			require.NoError(t, err)
			assert.False(t, p.UsesRuntime)
			assert.NotContains(t, p.Src, RuntimeAlias)
			_, err = parser.ParseFile(token.NewFileSet(), File, p.Src, 0)
			require.NoError(t, err, p.Src)
			for _, w := range tt.want {
				assert.Contains(t, p.Src, w)
			}
			for _, w := range tt.notWant {
				assert.NotContains(t, p.Src, w)
			}
		})
	}
	// The same scripts without Native are rewritten: native mode is what
	// turns the rewrites off.
	p, err := Source("var v any = 1\nswitch v {\ncase 1, \"a\":\n}\ngo fmt.Println()\nresult(1)\nv", testConfig())
	require.NoError(t, err)
	assert.Contains(t, p.Src, RuntimeAlias)
	assert.True(t, p.UsesRuntime)
}
