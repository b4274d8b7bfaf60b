package interp

import "testing"

// TestNamedBinopToInterface checks patch 195: a binary operation of a
// script's named type returned as a result of an interface type, or
// declared into a variable of one (var s fmt.Stringer = c + 1), keeps its
// type and its own frame slot, which the return or declaration wraps (the
// result held the underlying type, or nil, or the function ended
// silently); neighbouring constants, untyped shifts, comparisons, generic
// and unary operations, arguments, sends and literals stay right. Each
// want is what go run prints.
func TestNamedBinopToInterface(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"named binop into interface", `package main

import "fmt"

type Celsius float64

func (c Celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }

type Count int

func (c Count) String() string { return fmt.Sprintf("#%d", int(c)) }

type Code int

func (c Code) Error() string { return fmt.Sprintf("code %d", int(c)) }

type Flag bool

func warmer(c Celsius) any            { return c + 5 }
func colder(c Celsius) fmt.Stringer   { return c - 5 }
func fail(c Code) error               { return c * 2 }
func mod(c Count) any                 { return c % 3 }
func shl(c Count) fmt.Stringer        { return c << 2 }
func shr(c Count) any                 { return c >> 1 }
func less(a, b Celsius) any           { return a < b }
func both(a, b Celsius) (any, any)    { return a + b, a * b }
func mixed(c Count) (int, any, error) { return 1, c - 1, Code(c) + 1 }
func show(v any)                      { fmt.Printf("%v %T\n", v, v) }
func showS(s fmt.Stringer)            { fmt.Println(s.String()) }
func named(c Celsius) (r any) {
	r = c / 2
	return
}

func main() {
	t := Celsius(20)
	w := warmer(t)
	fmt.Printf("%v %T\n", w, w)
	fmt.Println(colder(t))
	fmt.Println(fail(3))
	show(mod(7))
	fmt.Println(shl(3))
	show(shr(9))
	show(less(1, 2))
	a, b := both(2, 3)
	show(a)
	show(b)
	i, x, e := mixed(4)
	fmt.Println(i, x, e)
	show(named(9))
	var last any
	last = t - 1
	fmt.Printf("%v %T\n", last, last)
	var s fmt.Stringer
	s = t * 2
	fmt.Println(s)
	var err error
	err = Code(2) + 3
	fmt.Println(err)
	show(t + 1)
	showS(t - 2)
	show(Count(5) % 2)
	show(Count(1) << 3)
	show(Flag(true) == Flag(false))
	ch := make(chan any, 2)
	ch <- t + 10
	ch <- Count(2) * 3
	show(<-ch)
	show(<-ch)
	l := []any{t + 1, Count(3) - 1, Code(1) * 5}
	for _, v := range l {
		show(v)
	}
	ss := []fmt.Stringer{t + 2, Count(4) >> 1}
	fmt.Println(ss[0], ss[1])
	m := map[string]any{"t": t * 3, "c": Count(9) % 4}
	show(m["t"])
	show(m["c"])
	fmt.Println(m)
	var arr [2]any = [2]any{t - 3, Count(1) + 1}
	fmt.Println(arr)
	type box struct{ V any }
	bx := box{V: t + 4}
	show(bx.V)
	fmt.Println(fmt.Sprint(t+5), fmt.Sprintf("%v|%T", Count(2)+2, Count(2)+2))
	n := 7
	show(Count(n) + 1)
	show(-t)
}
`, `25.0°C main.Celsius
15.0°C
code 6
#1 main.Count
#12
#4 main.Count
true bool
5.0°C main.Celsius
6.0°C main.Celsius
1 #3 code 5
4.5°C main.Celsius
19.0°C main.Celsius
40.0°C
code 5
21.0°C main.Celsius
18.0°C
#1 main.Count
#8 main.Count
false bool
30.0°C main.Celsius
#6 main.Count
21.0°C main.Celsius
#2 main.Count
code 5 main.Code
22.0°C #2
60.0°C main.Celsius
#1 main.Count
map[c:#1 t:60.0°C]
[17.0°C #2]
24.0°C main.Celsius
25.0°C #4|main.Count
#8 main.Count
-20.0°C main.Celsius
`},
		{"binop returned neighbours", `package main

import (
	"fmt"
	"time"
)

type Num interface{ ~int | ~float64 }

type Count int

func (c Count) String() string { return fmt.Sprintf("#%d", int(c)) }

func konst() any              { return 1 + 2 }
func konstF() any             { return 1.5 * 2 }
func shiftU(s uint) any       { return 1 << s }
func plain(x int) any         { return x * 2 }
func cat(a, b string) any     { return a + b }
func cmp(a, b int) any        { return a == b }
func isNil(e error) any       { return e == nil }
func dur(d time.Duration) any { return d * 2 }
func sum[T Num](a, b T) any   { return a + b }
func two(x int) (int, any)    { return x + 1, x + 2 }
func (c Count) Next() any     { return c + 1 }
func direct(x int) int        { return x * 3 }
func directC(c Count) Count   { return c * 3 }
func str(c Count) string      { return fmt.Sprint(c + 1) }
func andb(a, b bool) any      { return a && b }
func orb(a, b bool) any       { return a || !b }

func main() {
	for _, v := range []any{konst(), konstF(), shiftU(3), plain(4), cat("a", "b"), cmp(1, 1), isNil(nil), dur(time.Second), sum(1, 2), sum(Count(1), Count(2)), sum(1.5, 2.0)} {
		fmt.Printf("%v %T\n", v, v)
	}
	a, b := two(1)
	fmt.Printf("%v %v %T\n", a, b, b)
	fmt.Printf("%v %T\n", Count(4).Next(), Count(4).Next())
	fmt.Println(direct(2), directC(2), str(1), andb(true, false), orb(false, false))
	f := func(c Count) any { return c - 1 }
	fmt.Printf("%v %T\n", f(3), f(3))
	g := func(c Count) fmt.Stringer { return c + c }
	fmt.Println(g(5))
	var x any = Count(3) * Count(2)
	fmt.Printf("%v %T\n", x, x)
}
`, `3 int
3 float64
8 int
8 int
ab string
true bool
true bool
2s time.Duration
3 int
#3 main.Count
3.5 float64
2 3 int
#5 main.Count
6 #6 #2 false true
#2 main.Count
#10
#6 main.Count
`},
		{"binop declared interface", `package main

import "fmt"

type Count int

func (c Count) String() string { return fmt.Sprintf("#%d", int(c)) }

type Code int

func (c Code) Error() string { return fmt.Sprintf("code %d", int(c)) }

const K Count = 4

func show(v any) { fmt.Printf("%v %T\n", v, v) }
func r() any     { return Count(3) * 2 }
func r2() any    { return K + 1 }

func main() {
	c := Count(2)
	var a any = c * 2
	show(a)
	var s fmt.Stringer = c + 1
	fmt.Println(s)
	var s2 fmt.Stringer = K + 1
	fmt.Println(s2)
	var e error = Code(c) % 2
	fmt.Println(e == nil)
	var e2 error = Code(c) * 3
	fmt.Println(e2)
	var x any = Count(3) * Count(2)
	show(x)
	var y any
	y = Count(3) * 2
	show(y)
	show(Count(3) * 2)
	show(K * 2)
	show(r())
	show(r2())
	z := []any{K + 1}
	show(z[0])
	var w any = K
	show(w)
	var b any = c > 1
	show(b)
	var n any = 3 + 4
	show(n)
	var f any = 1.5 * 2
	show(f)
	var st any = "a" + "b"
	show(st)
	fmt.Println("end")
}
`, `#4 main.Count
#3
#5
false
code 6
#6 main.Count
#6 main.Count
#6 main.Count
#8 main.Count
#6 main.Count
#5 main.Count
#5 main.Count
#4 main.Count
true bool
7 int
3 float64
ab string
end
`},
		{"unary and append", `package main

import "fmt"

type Count int

func (c Count) String() string { return fmt.Sprintf("#%d", int(c)) }

func main() {
	c := Count(2)
	var s fmt.Stringer = -c
	fmt.Println(s)
	var a any = ^c
	fmt.Printf("%v %T\n", a, a)
	l := append([]any{}, c+1, c*c)
	fmt.Println(l)
	m := map[string]fmt.Stringer{}
	m["k"] = c - 5
	fmt.Println(m)
	var arr [1]any
	arr[0] = c << 1
	fmt.Println(arr)
	p := new(any)
	*p = c + 7
	fmt.Println(*p)
	fmt.Println(c+1, c*2 == 4)
}
`, `#-2
#-3 main.Count
[#3 #4]
map[k:#-3]
[#4]
#9
#3 true
`},
		{"multi assign and named result", `package main

import "fmt"

type Count int

func (c Count) String() string { return fmt.Sprintf("#%d", int(c)) }

type box struct{ V any }

func main() {
	c := Count(2)
	var x, y any
	x, y = c+1, c*3
	fmt.Printf("%v %T %v %T\n", x, x, y, y)
	var s1, s2 fmt.Stringer = c + 1, c - 1
	fmt.Println(s1, s2)
	b := box{}
	b.V = c % 2
	fmt.Printf("%v %T\n", b.V, b.V)
	p := &b
	p.V = c << 2
	fmt.Println(p.V)
	var e error
	fmt.Println(e == nil)
	x = c
	x = x.(Count) + 1
	fmt.Println(x)
	func() (r fmt.Stringer) {
		defer func() { fmt.Println("deferred", r) }()
		return c + 10
	}()
}
`, `#3 main.Count #6 main.Count
#3 #1
#0 main.Count
#8
true
#3
deferred #12
`},
	})
}
