package engine

import (
	"go/parser"
	"go/token"
	"testing"
)

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
	imp := imports{surf: buildSurface(nil), symbols: loadSymbols()}
	f.Fuzz(func(t *testing.T, code string) {
		p, err := normalize(code, imp, false)
		if err != nil {
			return
		}
		if _, perr := parser.ParseFile(token.NewFileSet(), "x.go", p.src, parser.SkipObjectResolution); perr != nil {
			// The normaliser may pass on code the interpreter rejects,
			// but only when the model's own code does not parse as a
			// function body or file; a parse error must then be
			// reported at the model's position, never panic.
			if _, ferr := parser.ParseFile(token.NewFileSet(), "x.go", "package main\nfunc _() {\n"+code+"\n}", 0); ferr == nil && !startsWithPackage(code) {
				t.Fatalf("normalised source does not parse: %v\n--- code:\n%s\n--- src:\n%s", perr, code, p.src)
			}
		}
	})
}
