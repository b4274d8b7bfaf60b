package interp

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// runStmtProgram runs a main package with fmt and returns its output; it
// fails the test if the program does not end within a bound far above its
// run time (a hang is a failure, not a timeout of the whole suite).
func runStmtProgram(t *testing.T, src string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	it := New(Options{Stdout: &out, Stderr: io.Discard})
	require.NoError(t, it.Use(stdlib.Symbols))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := it.EvalWithContext(ctx, src)
	require.NotErrorIs(t, err, context.DeadlineExceeded, "the program hung: %s", out.String())
	return out.String(), err
}

// TestStmtSemantics checks statements the interpreter ran differently from
// Go (toolscript patches 48, 49, 52): each program's output is Go's.
func TestStmtSemantics(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"tagless case list tests every expression (48)", `
	x := 2
	switch {
	case x == 1, x == 2:
		fmt.Println("hit")
	case x == 3:
		fmt.Println("no")
	}
	switch {
	default:
		fmt.Println("default")
	case x == 5, x == 6:
		fmt.Println("bad")
	}`, "hit\ndefault\n"},
		{"new of an expression (49)", `
	type T struct{ a, b int }
	f := func() string { return "s" }
	p := new(42)
	q := new(T{1, 2})
	s := new(f())
	v := 2.5
	r := new(v)
	*r = 1
	fmt.Printf("%d %v %s %v %v %T\n", *p, *q, *s, v, *r, new(1.5))`, "42 {1 2} s 2.5 1 *float64\n"},
		{"deferred closure sees its iteration's variable (52)", `
	for i := 0; i < 3; i++ {
		defer func() { fmt.Println("d", i) }()
	}`, "d 2\nd 1\nd 0\n"},
		{"deferred closure variable in a loop (52)", `
	for i := 0; i < 3; i++ {
		f := func() { fmt.Println("f", i) }
		defer f()
	}`, "f 2\nf 1\nf 0\n"},
		{"deferred closures: named results, re-panic, recover's value (52, 53)", `
	named := func() (r int) {
		defer func() { r *= 2 }()
		r = 5
		return r + 1
	}
	repanic := func() (err error) {
		defer func() { err = fmt.Errorf("recovered: %v", recover()) }()
		defer fmt.Println("still runs")
		defer func() { panic(fmt.Sprint("again ", recover())) }()
		panic("first")
	}
	asErr := func() (err error) {
		defer func() { err, _ = recover().(error) }()
		panic(fmt.Errorf("boom"))
	}
	fmt.Println(named(), repanic(), asErr())`, "still runs\n12 recovered: again first boom\n"},
		{"defer evaluates its arguments and receiver at the statement", `
	x := 1
	defer fmt.Println("x", x)
	x = 2`, "x 1\n"},
		{"multiple assignment of nil and destinations evaluated first (54)", `
	type A struct {
		p *int
		s []int
		m map[string]int
		f func()
		i any
		e error
	}
	a := A{new(int), []int{1}, map[string]int{}, func() {}, 1, fmt.Errorf("e")}
	a.p, a.s, a.m = nil, nil, nil
	a.f, a.i, a.e = nil, nil, nil
	fmt.Println(a.p == nil, a.s == nil, a.m == nil, a.f == nil, a.i == nil, a.e == nil)
	s := []int{1, 2, 3}
	i := 0
	i, s[i] = 1, 9
	k, m := "a", map[string]int{}
	k, m[k] = "b", 1
	s[0], s[2] = s[2], s[0]
	fmt.Println(i, s, k, m)`, "true true true true true true\n1 [3 2 9] b map[a:1]\n"},
		{"range with = assigns the outer variables (77)", `
	var k, v int
	for k, v = range []int{5, 6} {
	}
	var j int
	for j = range 3 {
		if j == 1 {
			continue
		}
	}
	fmt.Println(k, v, j)`, "1 6 2\n"},
		{"loops with an empty body go on after the loop (77)", `
	n := 0
	for i := range 3 {
	}
	for i, v := range []int{1} {
	}
	for i := 0; i < 2; i++ {
	}
	for range 3 {
	}
	n++
	fmt.Println("after", n)`, "after 1\n"},
		{"a label may share a variable's name (77)", `
	x := 0
x:
	for x < 3 {
		x++
		continue x
	}
	fmt.Println(x)`, "3\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := runStmtProgram(t, "package main\n\nimport \"fmt\"\n\nfunc main() {"+tt.body+"\n}\n")
			require.NoError(t, err, out)
			require.Equal(t, tt.want, out)
		})
	}
}
