package normalize

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseOnce_SameAsText: with Config.Parse, Source makes the program it
// makes without (the same Src, imports, runtime use, or the same error),
// and gives a tree of Src exactly when no rewrite followed the parse. The
// engine's TestParseOnce_SameSource runs the whole corpus this way.
func TestParseOnce_SameAsText(t *testing.T) {
	cases := []struct {
		code string
		tree bool
	}{
		{"x := 1\n_ = x\n", true},
		{"fmt.Println(strings.ToUpper(\"a\"))\n", true},
		{"import s \"strings\"\nfmt.Println(s.ToUpper(\"a\"))\n", true},
		{"import (\n\t\"fmt\"\n\t. \"strings\"\n)\nfmt.Println(ToUpper(\"a\"))\n", true},
		{"strings := struct{ X int }{1}\nfmt.Println(strings.X)\n", true},
		{"package tools\n\nfunc main() { fmt.Println(math_ops.Multiply) }\n", true},
		{"// doc\npackage main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(1) }\n", true},
		{"package main\n\nfunc main() { fmt . Println(1) }\n", true}, // predicted wrong, parsed again
		{"x := 1\nx\n", true}, // the final expression's rewrite, predicted from the tokens
		{"x := 1; x // a comment\n", true},
		{"xs := []int{1}\nxs[0]\n", true},
		{"type T struct{ A int }\nT{A: 1}\n", true},
		{"ch := make(chan int, 1)\nch <- 1\n<-ch\n", true},
		{"x := 1\nx + 1\nfunc g() {}\n", true},
		{"f := func() int { return 1 }\nf\n", true},
		{"x := 1\nx + len(\"ab\")\n", true}, // ends in a call's parenthesis, an operator at the top
		{"fmt.Sprint(1) == \"1\"\n", true},
		{"-abs(1)\nfunc abs(x int) int { return x }\n", true},
		{"strings.ToUpper(\"a\")\n", true}, // a call: no rewrite
		{"f := func(x int) int { return x }\nf(1 + 2)\n", true},
		{"x := 1\n(x)\n", false},                  // not predicted: a parenthesis may end a call
		{"s := \"a\"\ns + `b\r\nc`\n", false},     // predicted wrong (the raw string's \r): the text
		{"L:\n\tfor {\n\t\tbreak L\n\t}\n", true}, // a label: no final expression
		{"x := 1\nx = 2\n", true},
		{"&time.Local\n", false}, // the check's error, at the model's column
		{"result(1)\n", false},
		{"x := 1\nfmt.Println(min(x, 2))\n", true}, // the trailer's min, parsed on its own
		{"fmt.Println(min(1, 2))\n", false},        // folded into its constant: the text
		{"fmt.Println(\"max\")\n", false},          // the runtime's import predicted, not needed: the text
		{"max := 1\nfmt.Println(max) // __ts.X\n", true},
		{"package main\n\nfunc main() { go func() {}() }\n", false},
		{"x := \n", false},
		{"import \"os/exec\"\n", false},
		{"package main\n\nfunc f() {}\n", false},
		{"func f() {}\nfunc f() {}\nf()\n", false}, // the interpreter's parse reports it
	}
	for _, tc := range cases {
		want, wantErr := Source(tc.code, testConfig())
		cfg := testConfig()
		fset := token.NewFileSet()
		cfg.Parse = func(src string) (*token.FileSet, *ast.File, error) {
			f, err := parser.ParseFile(fset, "_.go", src, parser.DeclarationErrors)
			return fset, f, err
		}
		got, gotErr := Source(tc.code, cfg)
		if wantErr != nil {
			assert.Equal(t, wantErr, gotErr, tc.code)
			continue
		}
		require.NoError(t, gotErr, tc.code)
		assert.Equal(t, want.Src, got.Src, tc.code)
		assert.Equal(t, want.Imports, got.Imports, tc.code)
		assert.Equal(t, want.UsesRuntime, got.UsesRuntime, tc.code)
		if assert.Equal(t, tc.tree, got.File != nil, tc.code) && tc.tree {
			ref := token.NewFileSet()
			want, err := parser.ParseFile(ref, "_.go", got.Src, parser.DeclarationErrors)
			require.NoError(t, err, tc.code)
			assert.Equal(t, positions(ref, want), positions(fset, got.File), tc.code)
		}
	}
}

// positions lists a tree's nodes in order with their positions.
func positions(fset *token.FileSet, f *ast.File) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if n != nil {
			out = append(out, fmt.Sprintf("%T %s", n, fset.Position(n.Pos())))
		}
		return true
	})
	return out
}
