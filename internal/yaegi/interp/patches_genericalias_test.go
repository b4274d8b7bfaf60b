package interp // toolscript patch 162

import "testing"

// TestGenericAlias checks patch 162: a generic type alias whose body has
// a pointer to a type parameter (type Ptr[T any] = *T) failed to compile
// ("cannot indirect T"), and a type alias declared in a function body was
// undefined; the other generic aliases are pinned with them (in var
// declarations, signatures, composite literals, struct fields and %T,
// which names the aliased type). Each want is what go run prints.
func TestGenericAlias(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"generic aliases of pointer, array and map-of-pointer types (*T)", `package main

import "fmt"

type List[T any] struct{ items []T }

type Ptr[T any] = *T
type PL[T any] = *List[T]
type Arr[T any] = [2]T
type Nested[T any] = map[string][]*T

func first[T any](p Ptr[T]) T { return *p }

func main() {
	x := 5
	var pp Ptr[int] = &x
	fmt.Printf("%T %d %d\n", pp, *pp, first(pp))
	var l PL[string] = &List[string]{items: []string{"a"}}
	fmt.Println(l.items)
	a := Arr[int]{1, 2}
	fmt.Printf("%T %v\n", a, a)
	n := Nested[int]{"a": {&x}}
	fmt.Printf("%T %d\n", n, *n["a"][0])
	y := new(int)
	var q Ptr[int] = y
	*q = 3
	fmt.Println(*y)
}
`, `*int 5 5
[a]
[2]int [1 2]
map[string][]*int 5
3
`},
		{"generic aliases in signatures, literals, fields and %T", `package main

import (
	"fmt"
	"sort"
)

type A[T any] = []T
type M[K comparable, V any] = map[K]V
type IntMap[V any] = M[int, V]
type A2[T any] = A[T]
type Num interface{ ~int | ~float64 }
type Nums[T Num] = []T

type Box struct {
	Items A[string]
	Index M[string, int]
}

func total[T Num](xs Nums[T]) T {
	var t T
	for _, x := range xs {
		t += x
	}
	return t
}

func wrap[T any](x T) A[T] { return A[T]{x} }

func keysOf[V any](m IntMap[V]) A[int] {
	var ks A[int]
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

func main() {
	im := IntMap[string]{2: "b", 1: "a"}
	fmt.Printf("%T %v\n", im, keysOf(im))
	a2 := A2[float64]{1.5}
	fmt.Printf("%T %v\n", a2, a2)
	fmt.Println(total(Nums[int]{1, 2, 3}), total(Nums[float64]{0.5}))
	w := wrap("x")
	fmt.Printf("%T %v\n", w, w)
	b := Box{Items: A[string]{"i"}, Index: M[string, int]{"i": 0}}
	fmt.Printf("%+v\n", b)
	fmt.Printf("%#v\n", A[int]{1})
	var e A[int]
	fmt.Println(e == nil, len(e))
	e = append(e, 4)
	fmt.Println(e)
	var x any = M[string, bool]{"t": true}
	if m, ok := x.(map[string]bool); ok {
		fmt.Println("map", m["t"])
	}
	fmt.Printf("%T\n", []A[int]{{1}})
}
`, `map[int]string [1 2]
[]float64 [1.5]
6 0.5
[]string [x]
{Items:[i] Index:map[i:0]}
[]int{1}
true 0
[4]
map true
[][]int
`},
		{"generic aliases of slices, structs, sets, funcs and channels", `package main

import "fmt"

type List[T any] struct{ items []T }

func (l *List[T]) Push(x T) { l.items = append(l.items, x) }

type L[T any] = List[T]
type Pair[K comparable, V any] = struct {
	Key K
	Val V
}
type Set[T comparable] = map[T]struct{}
type Fn[T any] = func(T) T

type Ch[T any] = chan T

func mk[T any](xs ...T) L[T] {
	var l L[T]
	for _, x := range xs {
		l.Push(x)
	}
	return l
}

func apply[T any](f Fn[T], x T) T { return f(x) }

func main() {
	l := mk(1, 2, 3)
	fmt.Println(l.items)
	var l2 L[string]
	l2.Push("a")
	fmt.Println(l2)
	p := Pair[string, int]{"a", 1}
	fmt.Printf("%T %+v\n", p, p)
	s := Set[int]{1: {}}
	fmt.Printf("%T %v\n", s, len(s))
	fmt.Println(apply(func(x int) int { return x * 2 }, 21))
	var f Fn[string] = func(s string) string { return s + "!" }
	fmt.Printf("%T %s\n", f, f("hi"))
	x := 5
	var pp *int = &x
	fmt.Printf("%T %d\n", pp, *pp)
	c := make(Ch[int], 1)
	c <- 1
	fmt.Printf("%T %d\n", c, <-c)
	var anyv any = []int{1}
	switch v := anyv.(type) {
	case A[int]:
		fmt.Println("A[int]", v)
	}
	ps := []Pair[string, int]{{"b", 2}}
	fmt.Println(ps)
}

type A[T any] = []T
`, `[1 2 3]
{[a]}
struct { Key string; Val int } {Key:a Val:1}
map[int]struct {} 1
42
func(string) string hi!
*int 5
chan int 1
A[int] [1]
[{b 2}]
`},
		{"a generic alias in a generic struct and a local alias of an instance", `package main

import "fmt"

type A[T any] = []T
type Ptr[T any] = *T

type S[T any] struct {
	xs A[T]
	p  Ptr[T]
}

func (s *S[T]) Add(x T) { s.xs = append(s.xs, x); s.p = &s.xs[len(s.xs)-1] }

func main() {
	type Local = A[int]
	l := Local{1}
	fmt.Printf("%T %v\n", l, l)
	var s S[string]
	s.Add("a")
	s.Add("b")
	fmt.Println(s.xs, *s.p)
	fn := func(p Ptr[int]) int { return *p + 1 }
	v := 1
	fmt.Println(fn(&v))
}
`, `[]int [1]
[a b] b
2
`},
		{"local aliases: of a script type with methods, a native type, a shadowing one", `package main

import (
	"fmt"
	"strings"
)

type T struct{ N int }

func (t T) String() string { return fmt.Sprintf("T(%d)", t.N) }

func main() {
	type U = T
	u := U{1}
	fmt.Println(u, u.String())
	fmt.Printf("%T %v\n", u, u)
	type B = strings.Builder
	var b B
	b.WriteString("hi")
	fmt.Println(b.String())
	{
		type T = int
		var x T = 3
		fmt.Printf("%T %d\n", x, x)
	}
	type P struct{ X int }
	type Q = P
	q := Q{2}
	fmt.Printf("%T %v %v\n", q, q, q == P{2})
	var v any = u
	switch v.(type) {
	case U:
		fmt.Println("U")
	}
	f := func(x U) int { return x.N }
	fmt.Println(f(T{7}))
	type Fn = func(int) int
	var g Fn = func(i int) int { return i * 2 }
	fmt.Println(g(4))
}
`, `T(1) T(1)
main.T T(1)
hi
int 3
main.P {2} true
U
7
8
`},
	})
}
