package interp

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"
)

// runGeneric compiles and runs src (a main package) with the standard
// library and returns its standard output and the error of its
// compilation or run.
func runGeneric(t *testing.T, src string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	it := New(Options{Stdout: &out, Stderr: &out})
	if err := it.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	_, err := it.Eval(src)
	return out.String(), err
}

const genericDecls = `package main

import (
	"fmt"
	"strconv"
)

type Number interface{ ~int | ~int64 | ~float64 }

type Cents int64

type Inventory map[string]int

type Pair[K, V any] struct {
	Key K
	Val V
}

func (p Pair[K, V]) Swap() Pair[V, K] { return Pair[V, K]{p.Val, p.Key} }

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }
func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}
func (s Stack[T]) Len() int { return len(s.items) }

type Other[T any] struct{ n []T }

func (o Other[T]) Len() int { return 100 + len(o.n) }

type Set[T comparable] = map[T]struct{}

type Config struct{ Name string }

func (c *Config) Init() { c.Name = "init" }

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func Reduce[T, A any](xs []T, init A, f func(A, T) A) A {
	acc := init
	for _, x := range xs {
		acc = f(acc, x)
	}
	return acc
}

func GroupBy[T any, K comparable](xs []T, key func(T) K) map[K][]T {
	m := map[K][]T{}
	for _, x := range xs {
		m[key(x)] = append(m[key(x)], x)
	}
	return m
}

func Zip[A, B any](as []A, bs []B) []Pair[A, B] {
	var out []Pair[A, B]
	for i := 0; i < len(as) && i < len(bs); i++ {
		out = append(out, Pair[A, B]{as[i], bs[i]})
	}
	return out
}

func Sum[T Number](xs ...T) T {
	var t T
	for _, x := range xs {
		t += x
	}
	return t
}

func Max[T int | int64 | float64 | string](a, b T) T {
	if a > b {
		return a
	}
	return b
}

func Count[M ~map[K]V, K comparable, V any](m M) int { return len(m) }

func New[T any, PT interface {
	*T
	Init()
}]() T {
	var v T
	PT(&v).Init()
	return v
}

func Conv[T ~int64](x int) T { return T(x) }

func Fact[T ~int | ~int64](n T) T {
	if n <= 1 {
		return 1
	}
	return n * Fact(n-1)
}

func Zero[T any]() T { var z T; return z }

func Height[T any](s Stack[T]) int { return s.Len() }

func Eq[T comparable](a, b T) bool { return a == b }

func Contains[T comparable](xs []T, x T) bool { return len(xs) > 100 }

func main() {
`

// TestGenerics checks the generics patches 73 to 76: type arguments
// inferred by name (several type parameters, untyped constants, variadic
// and spread arguments, core types of constraints, partial and explicit
// instantiation, instances as values), constraints in type parameter
// lists and with type elements, instances as type arguments and in a
// method of another instance, generic type aliases, and instances keyed
// by receiver and package.
func TestGenerics(t *testing.T) {
	tests := []struct {
		name, main, want string
	}{
		{"map infers U from a func result", `fmt.Println(Map([]int{1, 2}, func(i int) string { return strconv.Itoa(i * 2) + "!" }))`, "[2! 4!]"},
		{"reduce", `fmt.Println(Reduce([]string{"a", "bb"}, 0, func(a int, s string) int { return a + len(s) }))`, "3"},
		{"group by", `g := GroupBy([]string{"apple", "avocado", "banana"}, func(s string) byte { return s[0] }); fmt.Println(len(g), g['a'], g['b'])`, "2 [apple avocado] [banana]"},
		{"zip", `fmt.Printf("%+v\n", Zip([]int{1, 2, 3}, []string{"a", "b"}))`, "[{Key:1 Val:a} {Key:2 Val:b}]"},
		{"variadic untyped", `fmt.Println(Sum(1, 2, 3), Sum(1.5, 2))`, "6 3.5"},
		{"variadic spread of a named type", `c := []Cents{5, 6}; fmt.Printf("%T %v\n", Sum(c...), Sum(c...))`, "main.Cents 11"},
		{"untyped constants of two kinds", `fmt.Printf("%T %v\n", Max(3, 4.5), Max(3, 4.5))`, "float64 4.5"},
		{"two parameters of one field", `fmt.Println(Max("a", "b"), Max(int64(2), 1))`, "b 2"},
		{"explicit", `fmt.Println(Map[int, string]([]int{7}, strconv.Itoa), Sum[Cents](100, 250))`, "[7] 350"},
		{"instance as a value", `f := Map[int, string]; fmt.Println(f([]int{3}, strconv.Itoa))`, "[3]"},
		{"core type of a named map", `fmt.Println(Count(Inventory{"a": 1, "b": 2}))`, "2"},
		{"partial instantiation, pointer constraint", `fmt.Println(New[Config]().Name)`, "init"},
		{"conversion to a type parameter", `fmt.Printf("%T %v\n", Conv[Cents](5), Conv[Cents](5))`, "main.Cents 5"},
		{"recursion", `fmt.Println(Fact(5), Fact(int64(10)))`, "120 3628800"},
		{"generic type with methods", `var s Stack[int]; s.Push(1); s.Push(2); v, ok := s.Pop(); fmt.Println(v, ok, s.Len())`, "2 true 1"},
		{"instance as a type argument", `ps := &Stack[Pair[string, int]]{}; ps.Push(Pair[string, int]{"a", 1}); fmt.Println(ps.Len(), ps.items[0].Key)`, "1 a"},
		{"method returning another instance", `p := Pair[string, int]{"k", 3}; fmt.Printf("%+v\n", p.Swap())`, "{Key:3 Val:k}"},
		{"methods of two types of one name", `fmt.Println(Stack[int]{items: []int{1}}.Len(), Other[int]{n: []int{1}}.Len())`, "1 101"},
		{"generic alias", `s := Set[string]{"x": {}}; s["y"] = struct{}{}; fmt.Printf("%d %T\n", len(s), s)`, "2 map[string]struct {}"},
		{"comparable", `fmt.Println(Eq(1, 1), Eq("a", "b"))`, "true false"},
		{"instances called in var declarations", `var s = Map([]int{1}, strconv.Itoa); var n int64 = 1 + Sum[int64](2, 3); fmt.Println(s, n)`, "[1] 6"},
		{"instance as a parameter's type argument", `var s Stack[string]; s.Push("a"); fmt.Println(Height(s), Height(Stack[int]{}))`, "1 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runGeneric(t, genericDecls+"\t"+tc.main+"\n}\n")
			if err != nil {
				t.Fatalf("error: %v (output %q)", err, out)
			}
			if got := strings.TrimSpace(out); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestGenericsFailLoudly checks that what inference cannot decide, or a
// type argument its constraint refuses, is a compile error naming it.
func TestGenericsFailLoudly(t *testing.T) {
	tests := []struct {
		name, main, want string
	}{
		{"cannot infer", `fmt.Println(Zero())`, "in call to Zero, cannot infer T"},
		{"two types for one parameter", `a := 1; fmt.Println(Max(a, int64(2)))`, "type int64 of argument does not match inferred type int for T"},
		{"not in the type set", `fmt.Println(Sum("a"))`, "string does not satisfy"},
		{"not comparable", `fmt.Println(Eq([]int{1}, []int{1}))`, "[]int does not satisfy comparable"},
		{"too many type arguments", `fmt.Println(Map[int, string, bool]([]int{1}, nil))`, "got 3 type arguments but Map has 2 type parameters"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runGeneric(t, genericDecls+"\t"+tc.main+"\n}\n")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v (output %q), want one containing %q", err, out, tc.want)
			}
		})
	}
}

// TestGenericInstancesPerPackage checks that a script's generic function
// and an imported source package's function of the same name and type
// arguments are two instances (the second one instantiated ran the
// first one's body).
func TestGenericInstancesPerPackage(t *testing.T) {
	fsys := fstest.MapFS{
		"src/lib/lib.go": {Data: []byte("package lib\n\nfunc Contains[T comparable](xs []T, x T) bool {\n\tfor _, v := range xs {\n\t\tif v == x {\n\t\t\treturn true\n\t\t}\n\t}\n\treturn false\n}\n")},
	}
	var out bytes.Buffer
	it := New(Options{GoPath: ".", SourcecodeFilesystem: fsys, Stdout: &out})
	if err := it.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	_, err := it.Eval(`package main

import (
	"fmt"
	"lib"
)

func Contains[T comparable](xs []T, x T) bool { return len(xs) > 100 }

func main() { fmt.Println(lib.Contains([]int{1}, 1), Contains([]int{1}, 1)) }
`)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != "true false" {
		t.Fatalf("got %q, want %q", got, "true false")
	}
}
