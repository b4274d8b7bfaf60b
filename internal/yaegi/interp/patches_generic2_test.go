package interp

import (
	"bytes"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runGoSrc runs the program src with the standard library's symbols and
// the source packages (slices, maps, cmp, iter) the engine interprets.
func runGoSrc(t *testing.T, src string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	it := New(Options{Stdout: &out, GoPath: ".", SourcecodeFilesystem: os.DirFS("../../policy/_gosrc")})
	require.NoError(t, it.Use(stdlib.Symbols))
	require.NoError(t, it.Use(Exports{"toolscript/native/native": {
		"NegZero":     reflect.ValueOf(negZero),
		"SortOrdered": reflect.ValueOf(func(any) bool { return false }), // slices.Sort's own path: sort.Slice
	}}))
	_, err := it.Eval(src)
	return out.String(), err
}

// negZero is the engine's helper of the slices source (its Max and Min
// ask it whether a value is a negative zero). The engine's SortOrdered,
// which sorts natively what it can, is left out: here Sort takes its
// interpreted path.
func negZero(v any) bool {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Float32, reflect.Float64:
		return rv.Float() == 0 && math.Signbit(rv.Float())
	}
	return false
}

// generic2Prelude declares the generic functions the cases of
// TestGenericFunctionArguments use; each case is the body of main.
const generic2Prelude = `package main

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
)

func mapTo[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func reduce[T, A any](xs []T, init A, f func(A, T) A) A {
	for _, x := range xs {
		init = f(init, x)
	}
	return init
}

func apply[T any](f func(T) T, x T) T { return f(x) }

func id[T any](x T) T { return x }

func double[T ~int | ~float64](x T) T { return x * 2 }

func add[N ~int | ~float64](a, b N) N { return a + b }

func zero[T any]() T {
	var z T
	return z
}

func first[S ~[]E, E any](s S) E { return s[0] }

func label[T any, S ~string](x T) S { return S(fmt.Sprint("#", x)) }

type Qty int

type Mapper[T, U any] func(T) U

type Pred[T any] func(T) bool

func convert[T, U any](xs []T, f Mapper[T, U]) []U { return mapTo(xs, f) }

func keep[T any](xs []T, p Pred[T]) []T {
	var out []T
	for _, x := range xs {
		if p(x) {
			out = append(out, x)
		}
	}
	return out
}

func positive[T ~int | ~float64](x T) bool { return x > 0 }

var _, _, _ = cmp.Compare[int], slices.Max[[]int], strconv.Itoa

func main() {
`

// TestGenericFunctionArguments checks generic functions named without
// (all their) type arguments where Go infers them (toolscript patch
// 119): given to a generic function whose type parameters they
// determine (mapTo(xs, id) infers U from id's instance), through core
// types, from a package, after untyped constants, for a typed variable
// with results only (zero), partial instantiations completed by a
// function type; and where Go refuses them, a compile error instead of
// a run-time reflect panic or a program Go does not build. The expected
// outputs are the programs' under go run.
func TestGenericFunctionArguments(t *testing.T) {
	for _, tc := range []struct {
		name, body, want, err string
	}{
		{name: "id", body: `ys := mapTo([]int{1, 2}, id)
fmt.Printf("%T %v\n", ys, ys)`, want: "[]int [1 2]\n"},
		{name: "constraint", body: `zs := mapTo([]float64{1.5}, double)
fmt.Printf("%T %v\n", zs, zs)`, want: "[]float64 [3]\n"},
		{name: "named", body: `qs := mapTo([]Qty{4}, double)
fmt.Printf("%T %v\n", qs, qs)`, want: "[]main.Qty [8]\n"},
		{name: "core type", body: `ss := mapTo([][]string{{"a", "b"}, {"c"}}, first)
fmt.Printf("%T %v\n", ss, ss)`, want: "[]string [a c]\n"},
		{name: "package generic", body: `ms := mapTo([][]int{{3, 9}, {2}}, slices.Max)
fmt.Printf("%T %v\n", ms, ms)`, want: "[]int [9 2]\n"},
		{name: "two params", body: `fmt.Println(reduce([]int{1, 2, 3}, 0, add), reduce([]float64{1.5, 2}, 0.5, add))`, want: "6 4\n"},
		{name: "untyped first", body: `fmt.Println(apply(id, 3), apply(double, 2.5), apply(id, "s"))`, want: "3 5 s\n"},
		{name: "partial", body: `ls := mapTo([]int{7}, label[int, string])
fmt.Printf("%T %v\n", ls, ls)`, want: "[]string [#7]\n"},
		{name: "nested", body: `fmt.Println(mapTo(mapTo([]int{1, 2}, double), id))`, want: "[2 4]\n"},
		{name: "sort cmp", body: `xs := []string{"b", "c", "a"}
slices.SortFunc(xs, cmp.Compare)
fmt.Println(xs)`, want: "[a b c]\n"},
		{name: "partial instantiation", body: `f := slices.IndexFunc[[]int]
fmt.Println(f([]int{3, 1, 2}, func(v int) bool { return v == 2 }))`, want: "2\n"},
		{name: "typed var", body: `var g func(int) int = id
var h func(float64) float64
h = double
fmt.Println(g(5), h(1.25))`, want: "5 2.5\n"},
		{name: "result only", body: `var z func() int = zero
var s func() string
s = zero
fmt.Printf("%v %q\n", z(), s())`, want: "0 \"\"\n"},
		{name: "generic function type", body: `cs := convert([]string{"a"}, id)
fmt.Printf("%T %v %v\n", cs, cs, keep([]Qty{-1, 2}, positive))`, want: "[]string [a] [2]\n"},
		{name: "append of function values", body: `var fs []func(int) int
fs = append(fs, double[int])
fs = append(fs, id[int], func(x int) int { return -x })
type Ops []func(float64) float64
ops := append(Ops{}, double[float64])
ss := append([]func(int) string{}, strconv.Itoa, label[int, string])
fmt.Println(len(fs), fs[0](2), fs[1](2), fs[2](2), ops[0](1.5), ss[0](1), ss[1](2))
var vs []any
vs = append(vs, strconv.Itoa, double[int])
vs = append(vs, id[string])
g, ok := vs[1].(func(int) int)
fmt.Println(vs[0].(func(int) string)(7), g(4), ok, vs[2].(func(string) string)("s"))`, want: "3 4 2 -2 3 1 #2\n7 8 true s\n"},
		{name: "native func", body: `fmt.Println(mapTo([]int{1, 2}, strconv.Itoa))`, want: "[1 2]\n"},
		{name: "partial for a typed var", body: `var f func(int) string = label[int]
type Tag string
var g func(int) Tag = label[int]
fmt.Println(f(3), g(4))`, want: "#3 #4\n"},
		{name: "partial for a parameter and a result", body: `k := func(f func(int) string) string { return f(1) }
r := func() func(int) string { return label[int] }
fmt.Println(k(label[int]), r()(2))`, want: "#1 #2\n"},
		{name: "chain through a generic argument", body: `fmt.Println(reduce(mapTo([]int{1, 2}, double), 0, add))`, want: "6\n"},
		{name: "no type gives U", body: `r := mapTo([]int{1}, label[int])
fmt.Println(r)`, err: "cannot infer U"},
		{name: "tilde term does not infer", body: `f := label[int]
fmt.Println(f(1))`, err: "cannot infer S"},
		{name: "define", body: `x := id
fmt.Println(x)`, err: "cannot use generic function id without instantiation"},
		{name: "var of type any", body: `var a any = id
fmt.Println(a)`, err: "cannot use generic function id without instantiation"},
		{name: "assignment from a package", body: `var a any
a = slices.Max
fmt.Println(a)`, err: "cannot use generic function slices.Max without instantiation"},
		{name: "send", body: `ch := make(chan func(int) int, 1)
ch <- double
fmt.Println(len(ch))`, err: "cannot use generic function double without instantiation"},
		{name: "native argument", body: `fmt.Println(id)`, err: "cannot use generic function id without instantiation"},
		{name: "any parameter", body: `h := func(x any) { fmt.Println(x != nil) }
h(id)`, err: "cannot use generic function id without instantiation"},
		{name: "any result", body: `g := func() any { return id }
fmt.Println(g() != nil)`, err: "cannot use generic function id without instantiation"},
		{name: "partial for any", body: `fmt.Println(label[int])`, err: "cannot infer S"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runGoSrc(t, generic2Prelude+tc.body+"\n}\n")
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, out)
		})
	}
}
