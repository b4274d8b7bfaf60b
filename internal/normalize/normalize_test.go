package engine

import (
	"go/parser"
	"go/scanner"
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
	}
	for _, c := range cases {
		if got := mentions(c.src, c.word); got != c.want {
			t.Errorf("mentions(%q, %q) = %v, want %v", c.src, c.word, got, c.want)
		}
	}
}
