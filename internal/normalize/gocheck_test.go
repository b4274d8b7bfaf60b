package normalize

import (
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNeedsCheck: a script with a construct the interpreter may accept
// where Go refuses it needs the type checker; the common short script
// (tool calls, loops with break and continue, maps, switches of distinct
// literals, closures) does not. Both Source and Session set it.
func TestNeedsCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		code string
		want bool
	}{
		{"print", `fmt.Println("hi")`, false},
		{"tool loop", "total := 0\nfor i := 0; i < 10; i++ {\n\tr, err := math.Mul(map[string]any{\"a\": i})\n\tif err != nil {\n\t\tbreak\n\t}\n\tif i%2 == 0 {\n\t\tcontinue\n\t}\n\ttotal += r.(int)\n}\nresult(total)", false},
		{"range and select", "ch := make(chan int)\nfor v := range ch {\n\tselect {\n\tcase <-ch:\n\t\tbreak\n\tdefault:\n\t}\n\t_ = v\n}", false},
		{"switch of literals", "switch s := \"a\"; s {\ncase \"a\", \"b\":\n\tbreak\ncase \"c\":\n}", false},
		{"map element assigned", "m := map[string]int{}\nm[\"a\"] = 1\nm[\"a\"]++\nxs := []int{1}\nxs[0] = 2", false},
		{"field of a variable", "var p struct{ X int }\np.X = 1\nq := &p\nq.X++", false},
		{"closure without results", "f := func(n int) { for { if n > 3 { break }; n++ }; fmt.Println(n) }\nf(1)", false},
		{"closure with a result", "f := func(n int) int { return n }\nfmt.Println(f(1))", true},
		{"type", "type Status string\nfmt.Println(Status(\"a\"))", true},
		{"struct type in a function", "func f() { type T struct{ X int }; _ = T{} }\nf()", true},
		{"method", "type C struct{ n int }\nfunc (c *C) Inc() { c.n++ }", true},
		{"generic function", "func id[T any](x T) T { return x }\nfmt.Println(id(1))", true},
		{"goto", "goto end\nend:\nfmt.Println(1)", true},
		{"labelled break", "outer:\nfor {\n\tfor {\n\t\tbreak outer\n\t}\n}", true},
		{"break outside a loop", "if true {\n\tbreak\n}", true},
		{"break in a closure in a loop", "for {\n\tfunc() { break }()\n}", true},
		{"field of a map element", "m := map[string]struct{ X int }{}\nm[\"a\"].X = 1", true},
		{"element of a map element", "m := map[string][2]int{}\nm[\"a\"][0] = 1", true},
		{"field of a map element incremented", "m := map[string]struct{ X int }{}\nm[\"a\"].X++", true},
		{"repeated case", "switch x := 1; x {\ncase 1:\ncase 1:\n}", true},
		{"two constants as cases", "const a, b = 1, 1\nswitch x := 1; x {\ncase a:\ncase b:\n}", true},
		{"functions of one result", "func f(n int) int {\n\tif n > 0 {\n\t\treturn 1\n\t} else {\n\t\treturn 2\n\t}\n}\ng := func() int { for {} }\nh := func() int { panic(1) }\nk := func(x any) int {\n\tswitch x.(type) {\n\tcase int:\n\t\treturn 1\n\tdefault:\n\t\treturn 0\n\t}\n}", true},
		{"function that may miss its return", "func f(n int) int {\n\tif n > 0 {\n\t\treturn 1\n\t}\n}", true},
		{"closure that may miss its return", "f := func(n int) int {\n\tswitch n {\n\tcase 1:\n\t\treturn 1\n\t}\n}", true},
		{"two results", "func div(a, b int) (int, error) { return a / b, nil }", true},
		{"sized integer", "var x int8 = 3\nfmt.Println(x)", true},
		{"float32 conversion", "fmt.Println(float32(1.5))", true},
		{"fallthrough", "switch 1 {\ncase 1:\n\tfallthrough\ndefault:\n}", true},
		{"address of an element", "xs := []int{1}\np := &xs[0]\n_ = p", true},
		{"call assigned to", "f := func() int { return 1 }\nf() = 2", true},
		{"float64", "var f float64\nf = 7 / 2\nfmt.Println(f)", true},
		{"time.Duration", "d := 3 * time.Second\nfmt.Println(d)", false},
		{"time.Duration named", "var d time.Duration = 3\nfmt.Println(d)", true},
		{"continue in a switch outside a loop", "switch x := 1; x {\ncase 1:\n\tcontinue\n}", true},
		{"fraction shifted", "s := uint(3)\nvar f = 1.0 << s\nfmt.Println(f)", true},
		{"spread argument", "f := func(xs ...any) { fmt.Println(len(xs)) }\nss := []string{\"a\"}\nf(ss...)", true},
		{"append spread", "a := []int{1}\na = append(a, a...)\nfmt.Println(a)", false},
		{"negative make", "s := make([]int, -1)\nfmt.Println(s)", true},
		{"negative slice index", "s := []int{1}\nfmt.Println(s[-1:])", true},
		{"receive-only channel", "var c <-chan int\nif false {\n\tc <- 1\n}", true},
		{"channel", "c := make(chan int, 1)\nc <- 1\nfmt.Println(<-c)", false},
		{"append alone", "s := []int{1}\nappend(s, 2)\nfmt.Println(s)", true},
		{"len as the final value", "s := []int{1}\nfmt.Println(s)\nlen(s)", false},
		{"comparison with a float literal", "n := 3\nfmt.Println(n < 2.5)", true},
		{"comparison with integers", "n := 3\nfmt.Println(n < 2, n == 3)", false},
		{"comparison alone", "x := 2\nx == 2\nfmt.Println(x)", true},
		{"the final expression is the value", "x := 2\nfmt.Println(x)\nx * 2", false},
		{"a receive alone", "ch := make(chan int, 1)\nch <- 1\n<-ch\nfmt.Println(1)", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Source(tc.code, Config{MaxNesting: 100, Allowed: func(string) bool { return true }})
			require.NoError(t, err)
			assert.Equal(t, tc.want, p.NeedsCheck, "Source")
			s, err := Session(tc.code, Config{MaxNesting: 100, Allowed: func(string) bool { return true }})
			require.NoError(t, err)
			assert.Equal(t, tc.want, s.NeedsCheck, "Session")
		})
	}
	// A full program's functions are walked too.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, File, "package main\nfunc main() {\n\tfor {\n\t\tbreak\n\t}\n}\nfunc g() {\n\tcontinue\n}", 0)
	require.NoError(t, err)
	assert.True(t, needsCheck(f))
}
