package interp

import (
	"bytes"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runL2 runs src as a program with the standard library and returns what
// it printed.
func runL2(t *testing.T, src string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	it := New(Options{Stdout: &out})
	require.NoError(t, it.Use(stdlib.Symbols))
	_, err := it.Eval(src)
	return out.String(), err
}

// TestMultiVarInterface checks declarations and assignments of several
// variables of an interface type given values of a script type
// (toolscript patch 98): package level, function local, var with an
// interface type, := of conversions, swaps, fields, map entries and slice
// elements print what Go prints (they panicked in reflect.Set). The
// expected output is the program's under go run.
func TestMultiVarInterface(t *testing.T) {
	out, err := runL2(t, `package main

import "fmt"

type Shape interface{ Area() float64 }

type Square struct{ Side float64 }

func (s Square) Area() float64 { return s.Side * s.Side }

type Rect struct{ W, H float64 }

func (r *Rect) Area() float64 { return r.W * r.H }

type P struct{ X int }
type Q struct{ Y string }

var ga, gb Shape = Square{2}, &Rect{2, 3}
var gx, gy any = P{1}, Q{"q"}

func main() {
	var a, b Shape = Square{2}, Square{3}
	fmt.Println(a.Area(), b.Area())
	var x, y any = P{1}, Q{"q"}
	fmt.Println(x, y)
	c, d := Shape(Square{1}), Shape(&Rect{1, 2})
	fmt.Println(c.Area(), d.Area())
	fmt.Println(ga.Area(), gb.Area(), gx, gy)
	var e Shape
	var k int
	e, k = Square{5}, 7
	fmt.Println(e.Area(), k)
	a, b = b, a
	fmt.Println(a.Area(), b.Area())
	var s1, s2 fmt.Stringer
	_, _ = s1, s2
	var m, n any = Square{4}, 3
	if sh, ok := m.(Shape); ok {
		fmt.Println(sh.Area(), n)
	}
	var e1, e2 error = fmt.Errorf("x"), nil
	fmt.Println(e1, e2 == nil)
	shapes := []Shape{a, b, c, d, e}
	total := 0.0
	for _, s := range shapes {
		total += s.Area()
	}
	fmt.Println(total)
	a, b = Square{6}, &Rect{1, 1}
	fmt.Println(a.Area(), b.Area())
	type holder struct{ s1, s2 Shape }
	var h holder
	h.s1, h.s2 = Square{1}, Square{2}
	ms := map[string]Shape{}
	ms["a"], ms["b"] = Square{3}, &Rect{2, 2}
	sl := make([]Shape, 2)
	sl[0], sl[1] = Square{7}, Square{8}
	fmt.Println(h.s1.Area(), h.s2.Area(), ms["a"].Area(), ms["b"].Area(), sl[0].Area(), sl[1].Area())
	var i1, i2 any = Square{1}, P{2}
	i1, i2 = i2, i1
	fmt.Println(i1, i2.(Shape).Area())
	p1, p2 := Square{1}, P{3}
	fmt.Println(p1, p2)
}
`)
	require.NoError(t, err)
	assert.Equal(t, `4 9
{1} {q}
1 2
4 6 {1} {q}
25 7
9 4
16 3
x true
41
36 1
1 4 9 4 49 64
{2} 1
{1} {3}
`, out)
}

// astypeFS holds a source extension of errors with AsType, as
// toolscript's (internal/policy) declares it.
var astypeFS = fstest.MapFS{"src/toolscript/errors/astype.go": {Data: []byte(`package errors

import stderrors "errors"

func AsType[E error](err error) (E, bool) {
	var target E
	ok := stderrors.As(err, &target)
	return target, ok
}
`)}}

// TestGlobalGenericInstances checks package-level variables given
// instances of generic functions (toolscript patch 99): an explicit
// instantiation as a value or called, with one or several type
// arguments, a call inferring them from its arguments, with one result
// or several, and errors.AsType of a source extension (patch 70). They
// failed: "constant definition loop", "undefined selector errors.AsType",
// or a nil reflect type. The expected output is the program's under go
// run (with errors.AsType of Go 1.26).
func TestGlobalGenericInstances(t *testing.T) {
	const prog = `package main

import (
	"errors"
	"fmt"
	"strconv"
)

func id[T any](x T) T { return x }

func pair[K comparable, V any](k K, v V) (K, V) { return k, v }

func max2[T int | float64 | string](a, b T) T {
	if a > b {
		return a
	}
	return b
}

type Box[T any] struct{ V T }

func wrap[T any](v T) Box[T] { return Box[T]{v} }

func keys[K comparable, V any](m map[K]V) []K {
	var out []K
	for k := range m {
		out = append(out, k)
	}
	return out
}

var f = id[string]
var cf = max2[float64]
var pf = pair[string, int]
var _, ok = errors.AsType[*strconv.NumError](errors.New("plain"))
var ne, ok2 = errors.AsType[*strconv.NumError](fmt.Errorf("w: %w", &strconv.NumError{Num: "x1"}))
var mx = max2("a", "b")
var k, v = pair("a", 2.5)
var b = wrap(3)
var ks = keys(map[string]bool{"only": true})
var n = id[int](4) + 1

func main() {
	fmt.Println(f("s"), cf(1, 2.5), ok, ok2, ne.Num, mx, k, v, b.V, ks, n)
	x, y := pf("z", 1)
	fmt.Println(x, y)
	fmt.Printf("%T %T\n", f, pf)
}
`
	var out bytes.Buffer
	it := New(Options{GoPath: ".", SourcecodeFilesystem: astypeFS, Stdout: &out, BinaryExtensions: map[string]string{"errors": "toolscript/errors"}})
	require.NoError(t, it.Use(stdlib.Symbols))
	_, err := it.Eval(prog)
	require.NoError(t, err)
	assert.Equal(t, "s 2.5 false true x1 b a 2.5 3 [only] 5\nz 1\nfunc(string) string func(string, int) (string, int)\n", out.String())
}

// TestSessionGenericInstances checks the same definitions as statements
// evaluated one after the other at package level, as a session's inputs
// run (toolscript patch 99), a function of a later input seeing them.
func TestSessionGenericInstances(t *testing.T) {
	var out bytes.Buffer
	it := New(Options{GoPath: ".", SourcecodeFilesystem: astypeFS, Stdout: &out, BinaryExtensions: map[string]string{"errors": "toolscript/errors"}})
	require.NoError(t, it.Use(stdlib.Symbols))
	for _, in := range []string{
		`import ("errors"; "fmt"; "strconv")`,
		`func id[T any](x T) T { return x }`,
		`func two[T any](x T) (T, bool) { return x, true }`,
		`_, ok := errors.AsType[*strconv.NumError](errors.New("plain"))`,
		`ne, ok2 := errors.AsType[*strconv.NumError](fmt.Errorf("w: %w", &strconv.NumError{Num: "x1"}))`,
		`f := id[int]`,
		`var g = id[string]`,
		`a, okA := two[int](3)`,
		`c, okC := two("c")`,
		`d := id(2.5)`,
		`func show() string { return fmt.Sprint(f(1), g("g"), a, c, d) }`,
		`fmt.Println(ok, ok2, ne.Num, okA, okC, show())`,
	} {
		_, err := it.Eval(in)
		require.NoError(t, err, in)
	}
	assert.Equal(t, "false true x1 true true 1g3c2.5\n", out.String())
}

// TestGenericForFunctionType checks a generic function named without
// type arguments where a function type is wanted (toolscript patch 100):
// a variable declared with the type (package level and local, a named
// function type), an assignment, and an argument of a generic or plain
// function are given the instance Go infers; each failed to compile. The
// expected output is the program's under go run.
func TestGenericForFunctionType(t *testing.T) {
	const prog = `package main

import (
	"fmt"
	"sort"
)

func id[T any](x T) T { return x }

func index[S ~[]E, E comparable](s S, v E) int {
	for i := range s {
		if s[i] == v {
			return i
		}
	}
	return -1
}

func compare[T int | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func sortFunc[S ~[]E, E any](s S, cmp func(a, b E) int) {
	sort.Slice(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
}

func apply(xs []int, f func(int) int) []int {
	out := make([]int, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

type Less func(a, b string) int

var gidx func([]int, int) int = index

func main() {
	var f func(string) string = id
	var g func([]int, int) int
	g = index
	var l Less = compare
	xs := []int{3, 1, 2}
	sortFunc(xs, compare)
	names := []string{"b", "c", "a"}
	sortFunc(names, compare)
	fmt.Println(f("s"), g(xs, 2), gidx(xs, 3), l("a", "b"), xs, names, apply(xs, id))
	fmt.Printf("%T %T\n", g, f)
}
`
	out, err := runL2(t, prog)
	require.NoError(t, err)
	assert.Equal(t, "s 1 2 -1 [1 2 3] [a b c] [1 2 3]\nfunc([]int, int) int func(string) string\n", out)
}

// TestInterfaceMethodExpressions checks method expressions of interface
// types (toolscript patch 101): of a script interface (value and pointer
// receivers, a method promoted from an embedded field, arguments,
// several results, a variadic method) and of native ones (fmt.Stringer
// on a script type and on time.Duration, error), called, held in a
// variable or a map, passed to a generic function; a nil interface
// panics. They failed to compile. The expected output is the program's
// under go run.
func TestInterfaceMethodExpressions(t *testing.T) {
	const prog = `package main

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

type Shape interface {
	Area() float64
	Scale(k float64, tags ...string) (Shape, string)
}

type Square struct{ Side float64 }

func (s Square) Area() float64 { return s.Side * s.Side }

func (s Square) Scale(k float64, tags ...string) (Shape, string) {
	return Square{s.Side * k}, strings.Join(tags, "+")
}

type Rect struct{ W, H float64 }

func (r *Rect) Area() float64 { return r.W * r.H }

func (r *Rect) Scale(k float64, tags ...string) (Shape, string) {
	return &Rect{r.W * k, r.H * k}, fmt.Sprint(len(tags))
}

type Named struct {
	Square
	Name string
}

func (n Named) String() string { return "named " + n.Name }

func mapAll[T, U any](xs []T, f func(T) U) []U {
	var out []U
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func main() {
	area := Shape.Area
	shapes := []Shape{Square{3}, &Rect{2, 5}, Named{Square{1}, "n"}}
	for _, s := range shapes {
		fmt.Print(area(s), " ")
	}
	fmt.Println()
	fmt.Println(mapAll(shapes, Shape.Area))
	scaled, tag := Shape.Scale(Square{2}, 3, "a", "b")
	fmt.Println(scaled.Area(), tag)
	s2, n := Shape.Scale(&Rect{1, 1}, 2)
	fmt.Println(s2.Area(), n)
	str := fmt.Stringer.String
	fmt.Println(str(Named{Square{1}, "x"}), str(time.Second*90))
	fmt.Println(error.Error(errors.New("boom")))
	fmt.Printf("%T\n", fmt.Stringer.String)
	fns := map[string]func(Shape) float64{"area": Shape.Area}
	fmt.Println(fns["area"](Square{4}))
	defer func() { fmt.Println("recovered:", recover() != nil) }()
	var none Shape
	fmt.Println(area(none))
}
`
	out, err := runL2(t, prog)
	require.NoError(t, err)
	assert.Equal(t, "9 10 1 \n[9 10 1]\n36 a+b\n4 0\nnamed x 1m30s\nboom\nfunc(fmt.Stringer) string\n16\nrecovered: true\n", out)
}

// TestReturnFunctionValues checks function values returned for results
// of a function type (toolscript patch 100): a named function and an
// instance of a generic one were returned as the interpreter's function
// node (a reflect.Set panic at the return), and a generic function named
// without type arguments is instantiated for the result's type, as Go
// infers it. The expected output is the program's under go run.
func TestReturnFunctionValues(t *testing.T) {
	const prog = `package main

import (
	"fmt"
	"strings"
)

type Item struct{ Name string }

func (i Item) Label() string { return strings.ToUpper(i.Name) }

func myCompare(a, b int) int { return a - b }

func id[T any](x T) T { return x }

func index[S ~[]E, E comparable](s S, v E) int {
	for i := range s {
		if s[i] == v {
			return i
		}
	}
	return -1
}

func named() func(a, b int) int { return myCompare }

func instance() func(int) int { return id[int] }

func inferred() (func([]string, string) int, bool) { return index, true }

func method() func(Item) string { return Item.Label }

func none() func() { return nil }

func closure(k int) func(int) int { return func(x int) int { return x * k } }

func main() {
	f, ok := inferred()
	fmt.Println(named()(1, 2), instance()(5), f([]string{"a", "b"}, "b"), ok, method()(Item{"x"}), none() == nil, closure(3)(4))
}
`
	out, err := runL2(t, prog)
	require.NoError(t, err)
	assert.Equal(t, "-1 5 1 true X true 12\n", out)
}
