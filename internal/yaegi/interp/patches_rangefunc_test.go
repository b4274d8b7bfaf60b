package interp

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rangeFuncPrelude declares the iterators the cases of TestRangeFunc range
// over.
const rangeFuncPrelude = `package main

import (
	"fmt"
	"strings"
)

func count(n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				fmt.Print("[stop ", i, "] ")
				return
			}
		}
	}
}

func pairs(yield func(string, int) bool) {
	_ = yield("a", 1) && yield("b", 2) && yield("c", 3)
}

func three(yield func() bool) { _ = yield() && yield() && yield() }

type Bag struct{ items []string }

func (b *Bag) Each(yield func(int, string) bool) {
	for i, s := range b.items {
		if !yield(i, s) {
			return
		}
	}
}

type Seq[V any] func(yield func(V) bool)

func deferring(yield func(int) bool) {
	defer fmt.Print("[iterator done] ")
	for i := 0; i < 5; i++ {
		if !yield(i) {
			return
		}
	}
}

func stubborn(yield func(int) bool) {
	yield(1)
	yield(2)
}

var saved func(int) bool

func saving(yield func(int) bool) { saved = yield; yield(1) }

var _ = strings.Repeat
`

// TestRangeFunc checks patch 65: range over a function of the three yield
// shapes, whatever the function value (a declared function, a closure, a
// method value, a generic named function type, a native function), with
// break, continue, return, labeled branches, defer, closures over the
// per-iteration variables, panics and Go's run-time errors for a range
// function that breaks yield's contract.
func TestRangeFunc(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"one value", `for x := range count(3) { fmt.Print(x, " ") }`, "0 1 2 "},
		{"two values", `for k, v := range pairs { fmt.Print(k, v, " ") }`, "a1 b2 c3 "},
		{"key only of two", `for k := range pairs { fmt.Print(k) }`, "abc"},
		{"value only of two", `for _, v := range pairs { fmt.Print(v) }`, "123"},
		{"no values", `n := 0; for range three { n++ }; fmt.Print(n)`, "3"},
		{"method value", `b := &Bag{items: []string{"x", "y"}}; for i, s := range b.Each { fmt.Print(i, s) }`, "0x1y"},
		{"generic named type", `var s Seq[int] = Seq[int](count(2)); for x := range s { fmt.Print(x) }`, "01"},
		{"closure", `k := 10; f := func(yield func(int) bool) { yield(k); yield(k + 1) }; for x := range f { fmt.Print(x, " ") }`, "10 11 "},
		{"continue and break", `for x := range count(10) { if x%2 == 0 { continue }; if x > 5 { break }; fmt.Print(x, " ") }`, "1 3 5 [stop 7] "},
		{"return from the function", `fmt.Print(find(4))`, "[stop 4] 400"},
		{"return from nested loops", `fmt.Print(nested())`, "[stop 1] [stop 2] 22"},
		{"labeled continue to a for loop", `outer: for i := 0; i < 2; i++ { for x := range count(5) { if x == 1 { continue outer }; fmt.Print(i, x, " ") } }`, "0 0 [stop 1] 1 0 [stop 1] "},
		{"labeled break to a range loop", `outer: for _, i := range []int{7, 8} { for x := range count(5) { if x == 1 { break outer }; fmt.Print(i, x, " ") } }; fmt.Print("after")`, "7 0 [stop 1] after"},
		{"labeled break between func loops", `outer: for k := range pairs { for x := range count(3) { if k == "b" { break outer }; fmt.Print(k, x, " ") } }; fmt.Print("|")`, "a0 a1 a2 [stop 0] |"},
		{"labeled continue between func loops", `outer: for k := range pairs { for x := range count(3) { if x == 1 { continue outer }; fmt.Print(k, x, " ") } }`, "a0 [stop 1] b0 [stop 1] c0 [stop 1] "},
		{"labeled break of itself", `loop: for x := range count(9) { switch x { case 2: break loop }; fmt.Print(x) }`, "01[stop 2] "},
		{"defer runs when the function returns", `deferIn(); fmt.Print("|")`, "[iterator done] body end 2 1 0 |"},
		{"closures capture each iteration", `var fs []func() int; for x := range count(3) { fs = append(fs, func() int { return x }) }; for _, f := range fs { fmt.Print(f()) }`, "012"},
		{"goroutines capture each iteration", `ch := make(chan int, 3); for x := range count(3) { go func() { ch <- x * x }() }; t := 0; for i := 0; i < 3; i++ { t += <-ch }; fmt.Print(t)`, "5"},
		{"body writes the variable", `for x := range count(3) { x *= 10; fmt.Print(x, " ") }`, "0 10 20 "},
		{"panic through the iterator, recovered", `fmt.Print(recovering())`, "[iterator done] recovered boom at 3"},
		{"yield after false", `fmt.Print(misuse(stubborn))`, "runtime error: range function continued iteration after function for loop body returned false"},
		{"yield after the loop", `for x := range saving { fmt.Print(x) }; fmt.Print(misuse(func(yield func(int) bool) { saved(2) }))`, "1runtime error: range function continued iteration after whole loop exit"},
		{"native function", `for i, s := range nativePairs { fmt.Print(i, s, " ") }`, "0a 1b "},
		{"native break", `for i := range nativePairs { fmt.Print(i); break }`, "0"},
		{"iterator recovers the body's panic and returns", `fmt.Print(misuse(func(yield func(int) bool) { defer func() { recover() }(); yield(3) }))`, "runtime error: range function recovered a loop body panic and did not resume panicking"},
		{"iterator recovers the body's panic and yields again", `fmt.Print(misuse(func(yield func(int) bool) { func() { defer func() { recover() }(); yield(3) }(); yield(2) }))`, "runtime error: range function continued iteration after loop body panic"},
		{"range over a nil func", `var f func(func(int) bool); fmt.Print(misuse(f))`, "runtime error: invalid memory address or nil pointer dereference"},
	}
	funcs := `
func find(n int) int {
	for x := range count(10) {
		if x == n {
			return x * 100
		}
	}
	return -1
}

func nested() (r int) {
	for x := range count(5) {
		for y := range count(5) {
			if y == 1 && x == 2 {
				return x*10 + y*2
			}
		}
	}
	return -1
}

func deferIn() {
	for x := range deferring {
		defer fmt.Print(x, " ")
		if x == 2 {
			break
		}
	}
	fmt.Print("body ")
	defer fmt.Print("end ")
}

func recovering() (s string) {
	defer func() { s = fmt.Sprint("recovered ", recover(), s) }()
	for x := range deferring {
		if x == 3 {
			s = " at 3"
			panic("boom")
		}
	}
	return "not reached"
}

func misuse(seq func(func(int) bool)) (s string) {
	defer func() { s = fmt.Sprint(recover()) }()
	for x := range seq {
		if x == 1 {
			break
		}
		if x == 3 {
			panic("body")
		}
	}
	return "no panic"
}
`
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			it := New(Options{Stdout: &out, Stderr: &bytes.Buffer{}})
			require.NoError(t, it.Use(stdlib.Symbols))
			require.NoError(t, it.Use(Exports{"native/native": {
				"Pairs": reflect.ValueOf(func(yield func(int, string) bool) {
					_ = yield(0, "a") && yield(1, "b")
				}),
			}}))
			src := strings.Replace(rangeFuncPrelude, `"strings"`, "\"strings\"\n\t\"native\"", 1) +
				"\nvar nativePairs = native.Pairs\n" + funcs + "\nfunc main() {\n" + c.body + "\n}\n"
			_, err := it.Eval(src)
			require.NoError(t, err)
			assert.Equal(t, c.want, out.String())
		})
	}
}

// TestRangeFuncCompileErrors checks patch 65's compile errors: iteration
// variables the yield function does not give, and a goto out of the body.
func TestRangeFuncCompileErrors(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"no variables permitted", `for x := range three { _ = x }`, "range over three permits no iteration variables"},
		{"one variable permitted", `for x, y := range count(2) { _, _ = x, y }`, "range over a function of type func(func(int) bool) permits only one iteration variable"},
		{"goto out of the body", `for x := range count(2) { if x == 1 { goto end } }; end: fmt.Print()`, "goto end jumps out of the body of a range-over-func loop"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			it := New(Options{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
			require.NoError(t, it.Use(stdlib.Symbols))
			_, err := it.Eval(rangeFuncPrelude + "\nfunc main() {\n" + c.body + "\n}\n")
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// TestRangeFuncImportedSeq checks patch 65 on a generic function type of
// an imported source package, as iter.Seq: a conversion to it
// (it.Seq[int](f)), a variable of it, and a range over both.
func TestRangeFuncImportedSeq(t *testing.T) {
	var out bytes.Buffer
	it := New(Options{Stdout: &out, GoPath: ".", SourcecodeFilesystem: fstest.MapFS{
		"src/it/it.go": {Data: []byte("package it\n\ntype Seq[V any] func(yield func(V) bool)\n")},
	}})
	require.NoError(t, it.Use(stdlib.Symbols))
	_, err := it.Eval(`package main

import (
	"fmt"
	"it"
)

func naturals(yield func(int) bool) {
	for i := 0; i < 3; i++ {
		if !yield(i) {
			return
		}
	}
}

func main() {
	a := it.Seq[int](naturals)
	var b it.Seq[string] = func(yield func(string) bool) { _ = yield("x") && yield("y") }
	for x := range a {
		fmt.Print(x)
	}
	for s := range b {
		fmt.Print(s)
	}
}
`)
	require.NoError(t, err)
	assert.Equal(t, "012xy", out.String())
}
