package main

import (
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNeedsMore(t *testing.T) {
	tests := []struct {
		name string
		src  string
		more bool
	}{
		{name: "empty", src: "", more: false},
		{name: "statement", src: "x := 1\n", more: false},
		{name: "expression", src: "len(xs)\n", more: false},
		{name: "open brace", src: "f := func(a int) int {\n", more: true},
		{name: "open brace, body", src: "f := func(a int) int {\nreturn a * 2\n", more: true},
		{name: "closed brace", src: "f := func(a int) int {\nreturn a * 2\n}\n", more: false},
		{name: "nested open", src: "for {\n if x {\n }\n", more: true},
		{name: "open paren", src: "fmt.Println(a,\n", more: true},
		{name: "open bracket", src: "xs := []int{\n1, 2,\n", more: true},
		{name: "index open", src: "x := m[\n", more: true},
		{name: "one closer too many", src: "x := 1)\n", more: false},
		{name: "raw string open", src: "s := `a\n", more: true},
		{name: "raw string open, empty", src: "s := `", more: true},
		{name: "raw string closed", src: "s := `a\nb`\n", more: false},
		{name: "raw string with brace", src: "s := `{\n`\n", more: false},
		{name: "interpreted string open", src: "s := \"abc\n", more: false},
		{name: "rune open", src: "r := 'a\n", more: false},
		{name: "brace in string", src: "s := \"{\"\n", more: false},
		{name: "brace in comment", src: "x := 1 // {\n", more: false},
		{name: "block comment open", src: "x := 1 /* note\n", more: true},
		{name: "block comment closed", src: "x := 1 /* note */\n", more: false},
		{name: "block comment open alone", src: "/*", more: true},
		{name: "plus", src: "x := 1 +\n", more: true},
		{name: "and", src: "ok := a &&\n", more: true},
		{name: "or then comment", src: "ok := a || // more\n", more: true},
		{name: "assign", src: "x :=\n", more: true},
		{name: "equal", src: "x =\n", more: true},
		{name: "comma", src: "a, b :=\n", more: true},
		{name: "trailing comma at top level", src: "x, \n", more: true},
		{name: "period", src: "s := strings.\n", more: true},
		{name: "arrow", src: "ch <-\n", more: true},
		{name: "increment", src: "x++\n", more: false},
		{name: "decrement", src: "x--\n", more: false},
		{name: "label", src: "outer:\n", more: false},
		{name: "operator then operand", src: "x := 1 +\n2\n", more: false},
		{name: "illegal character", src: "x := 1 @\n", more: false},
		{name: "keyword", src: "return\n", more: false},
		{name: "comment only", src: "// nothing\n", more: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.more, needsMore(tt.src), "%q", tt.src)
		})
	}
}

// FuzzNeedsMore: needsMore never panics, never asks for more of what
// already parses as a Go file's declarations, and a blank line changes
// nothing (it neither completes an input nor opens one).
func FuzzNeedsMore(f *testing.F) {
	for _, s := range []string{"x := 1\n", "f := func() {\n", "s := `a\n", "x +\n", "/* a", "fmt.Println(a,\n", "m[\"k\"]\n", "}\nfunc g() {", "'a", "var x = 1 +", "type T struct {"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		more := needsMore(src)
		if _, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+src, parser.ParseComments); err == nil && more {
			t.Errorf("needsMore(%q) = true, but it parses as a file's declarations", src)
		}
		if again := needsMore(src + "\n"); again != more {
			t.Errorf("needsMore(%q) = %v, but %v with a newline more", src, more, again)
		}
	})
}
