package interp // toolscript patch 160

import "testing"

// TestVariadicNil checks patch 160: nil spread as a variadic argument
// (f(nil...), append(s, nil...)) crashed the compiler; a variadic closure
// or method value called with no variadic argument, and a deferred call
// of one, saw an empty slice that was not nil; a deferred f(s...) passed
// s as one element; and an untyped nil given to an interface (fmt.Println(nil))
// made every later nil typed, so append(ps, nil) of a []*int panicked.
// Each want is what go run prints.
func TestVariadicNil(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"f(nil...) and g(nil...) spread a nil slice", `package main

import (
	"errors"
	"fmt"
)

func f(xs ...int) int { return len(xs) }

func g(xs ...any) string { return fmt.Sprint(len(xs), xs == nil) }

type T struct{}

func (T) M(p string, xs ...int) string { return fmt.Sprint(p, len(xs), xs == nil) }

func main() {
	fmt.Println(f(nil...), f([]int(nil)...), f(1, 2))
	fmt.Println(g(nil...), g([]any(nil)...), g(nil), g())
	k := func(a int, xs ...error) string { return fmt.Sprint(a, len(xs), xs == nil) }
	fmt.Println(k(1, nil...), k(2, nil), k(3))
	var t T
	fmt.Println(T{}.M("a", nil...), t.M("b", nil...))
	fmt.Println(func(xs ...string) int { return len(xs) }(nil...))
	fmt.Println(nil...)
	fmt.Println(errors.Join(nil...) == nil, fmt.Sprint(nil...) == "")
}
`, `0 0 2
0 true 0 true 1 false 0 true
1 0 true 2 1 false 3 0 true
a0 true b0 true
0

true true
`},
		{"append(s, nil...) appends nothing; append(ps, nil) still appends", `package main

import "fmt"

type S []string

func main() {
	var s []int
	s = append(s, nil...)
	fmt.Println(s, s == nil, len(s))
	fmt.Println(append([]int{1}, nil...))
	var b []byte
	b = append(b, nil...)
	fmt.Println(b, b == nil)
	var ss S
	ss = append(ss, nil...)
	fmt.Printf("%T %v %v\n", ss, ss, ss == nil)
	es := append([]error{}, nil...)
	fmt.Println(len(es))
	ps := append([]*int{}, nil)
	fmt.Println(len(ps), ps[0] == nil)
}
`, `[] true 0
[1]
[] true
main.S [] true
0
1 true
`},
		{"a variadic closure or method value given no variadic argument sees nil", `package main

import "fmt"

func f(xs ...int) bool { return xs == nil }

type T struct{}

func (T) M(xs ...int) { fmt.Println("M", xs == nil) }

func main() {
	h := func(xs ...int) bool { return xs == nil }
	fmt.Println(h(), f(), h(nil...), h(1), h([]int{}...))
	k := func(a int, xs ...int) { fmt.Println("k", a, xs == nil) }
	defer k(1)
	defer func(xs ...int) { fmt.Println("lit", xs == nil) }()
	var t T
	m := t.M
	m()
	t.M()
	var fn func(...string) bool = func(s ...string) bool { return s == nil }
	fmt.Println(fn())
}
`, `true true true false false
M true
M true
true
lit true
k 1 true
`},
		{"a deferred f(s...) spreads s", `package main

import "fmt"

func f(xs ...int) { fmt.Println("f", xs, xs == nil) }

func main() {
	s := []int{1, 2}
	h := func(xs ...int) { fmt.Println("h", xs, xs == nil) }
	defer h(s...)
	defer f(s...)
	defer fmt.Println([]any{1, 2}...)
	defer fmt.Println([]any{3, 4})
	defer h(nil...)
	defer f(nil...)
	defer fmt.Println(nil...)
	defer h()
	defer f()
}
`, `f [] true
h [] true

f [] true
h [] true
[3 4]
1 2
f [1 2] false
h [1 2] false
`},
		{"fmt.Println(nil) leaves nil untyped", `package main

import "fmt"

func main() {
	fmt.Println(nil)
	ps := append([]*int{}, nil)
	fmt.Println(len(ps), ps[0] == nil)
	var m []map[string]int
	m = append(m, nil, nil)
	fmt.Println(len(m), m[1] == nil)
}
`, `<nil>
1 true
2 true
`},
	})
}
