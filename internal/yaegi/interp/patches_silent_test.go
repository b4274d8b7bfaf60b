package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// goCase is a program and what go run prints for it.
type goCase struct{ name, src, want string }

// checkGoOutputs runs each case's program (runStmtProgram: a hang fails
// the test) and requires it to print what Go prints, without an error.
func checkGoOutputs(t *testing.T, cases []goCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runStmtProgram(t, tc.src)
			require.NoError(t, err, out)
			require.Equal(t, tc.want, out)
		})
	}
}

// TestSilentWrongAnswers checks patches 136 to 140: programs the
// interpreter ran without an error but with another output than Go's (a
// comparison of a shift of an untyped constant ended its function, a
// break in a select left the loop, a []any passed to ...any was spread,
// a case list's later expressions and a switch's tag after an init
// statement were never evaluated, case nil never matched a nil pointer).
// Each want is what go run prints.
func TestSilentWrongAnswers(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"shift of an untyped constant compared (136)", `package main

import "fmt"

func f(s uint) bool { return 1<<s == 8 }

func main() {
	defer fmt.Println("deferred")
	var s uint = 3
	fmt.Println(1<<s == 8)
	if 1<<s == 8 {
		fmt.Println("if")
	}
	b := 1<<s != 0
	fmt.Println(b, f(s), f(2))
	var x int64 = 8
	var u uint8 = 8
	fmt.Println(1<<s == x, 1<<s == u, 1<<s+1 == 9, 8 == 1<<s, (1<<s) == 8, 1<<s < 9, 'a'<<s == 776)
	fmt.Printf("%T\n", 1<<s == 8)
	for i := 0; 1<<i < 10; i++ {
		fmt.Print(i)
	}
	fmt.Println()
	fmt.Println("end")
}
`, `true
if
true true false
true true true true true true true
bool
0123
end
deferred
`},
		{"break in an if in a select case leaves the select (137)", `package main

import "fmt"

func main() {
	ch := make(chan int, 1)
	ch <- 1
	for i := 0; i < 2; i++ {
		select {
		case v := <-ch:
			if v == 1 {
				break
			}
			fmt.Println("no")
		default:
			fmt.Println("default", i)
		}
	}
	for i := range 2 {
		select {
		default:
			if i == 0 {
				break
			}
			fmt.Println("range int", i)
		}
	}
	seq := func(yield func(int) bool) {
		for i := 0; i < 3; i++ {
			if !yield(i) {
				return
			}
		}
	}
	for i := range seq {
		select {
		default:
			if i == 0 {
				break
			}
			fmt.Println("range func", i)
		}
	}
	fmt.Println("end")
}
`, `default 1
range int 1
range func 1
range func 2
end
`},
		{"continue, labeled break and inner loops in a select (137)", `package main

import "fmt"

func main() {
	ch := make(chan int, 10)
	for i := 0; i < 5; i++ {
		ch <- i
	}
outer:
	for i := 0; i < 6; i++ {
		select {
		case v := <-ch:
			if v == 1 {
				continue
			}
			if v == 3 {
				break outer
			}
			for j := 0; j < 3; j++ {
				if j == 1 {
					break
				}
				fmt.Println("j", j)
			}
			switch v {
			case 2:
				break
			}
			fmt.Println("v", v)
		}
	}
	fmt.Println("end")
}
`, `j 0
v 0
j 0
v 2
end
`},
		{"a []any is one argument of ...any (138)", `package main

import "fmt"

func count(xs ...any) int { return len(xs) }

func show(p string, xs ...any) { fmt.Println(p, len(xs), xs) }

type L []any

type T struct{}

func (T) m(xs ...any) int { return len(xs) }

func two() (string, []any) { return "two", []any{1, 2} }

func ints(xs ...int) int { return len(xs) }

func main() {
	fmt.Println(count([]any{1, 2, 3}), count([]any{1, 2, 3}...))
	fmt.Println(count(L{1, 2}...), count(L{1, 2}))
	var s []any
	fmt.Println(count(s), count(s...), count(nil), count(), count(1, 2))
	show("a", []any{1, 2})
	show("b", []any{1, 2}...)
	show(two())
	fmt.Println(T{}.m([]any{1, 2}), T{}.m([]any{1, 2}...))
	fmt.Println(ints([]int{1, 2, 3}...), ints(1, 2))
	f := count
	fmt.Println(f([]any{1, 2}), f([]any{1, 2}...))
	defer show("deferred", []any{1, 2})
}
`, `1 3
2 1
1 0 1 0 2
a 1 [[1 2]]
b 2 [1 2]
two 1 [[1 2]]
1 2
3 2
1 2
deferred 1 [[1 2]]
`},
		{"every expression of a case list is evaluated (139)", `package main

import "fmt"

func id(x int) int {
	fmt.Println("id", x)
	return x
}

func main() {
	x, y := 2, 1
	switch x {
	case y, y + 1:
		fmt.Println("matched")
	default:
		fmt.Println("default")
	}
	s := []int{5, 2}
	switch x {
	case s[0], s[1]:
		fmt.Println("matched index")
	}
	for x := 0; x < 5; x++ {
		switch x {
		case id(1), id(2), 3:
			fmt.Println(x, "a")
		case id(4) - 0:
			fmt.Println(x, "b")
		case x + 10, x * 1:
			fmt.Println(x, "c")
		}
	}
	t := "x"
	switch t + "y" {
	case "a" + t, t + "y":
		fmt.Println("str")
		fallthrough
	case "zz", t + t:
		fmt.Println("fell")
	default:
		fmt.Println("no")
	}
}
`, `matched
matched index
id 1
id 2
id 4
0 c
id 1
1 a
id 1
id 2
2 a
id 1
id 2
3 a
id 1
id 2
id 4
4 b
str
fell
`},
		{"the tag of a switch with an init statement is evaluated (139)", `package main

import "fmt"

func main() {
	switch x := 1; x + 1 {
	case 2:
		fmt.Println("two")
	default:
		fmt.Println("default")
	}
	switch s := "x"; s + "y" {
	case "a" + s, s + "y":
		fmt.Println("str")
	default:
		fmt.Println("no")
	}
}
`, `two
str
`},
		{"case nil matches nil pointers, funcs, maps, slices and channels (140)", `package main

import "fmt"

type S struct{}

func hello() {}

func main() {
	var p *int
	switch p {
	case nil:
		fmt.Println("nil ptr")
	default:
		fmt.Println("default ptr")
	}
	var f func()
	switch f {
	case nil:
		fmt.Println("nil func")
	}
	var m map[string]int
	switch m {
	case nil:
		fmt.Println("nil map")
	}
	var s []int
	switch s {
	case nil:
		fmt.Println("nil slice")
	}
	var c chan int
	switch c {
	case nil:
		fmt.Println("nil chan")
	}
	var ps *S
	switch ps {
	case &S{}, nil:
		fmt.Println("nil second")
	}
	x := 1
	p = &x
	f = hello
	g := func() {}
	switch {
	default:
		fmt.Println(p == nil, f == nil, g == nil)
	}
	switch p {
	case nil:
		fmt.Println("nil ptr")
	case &x:
		fmt.Println("p is &x")
	}
	switch f {
	case nil:
		fmt.Println("nil func")
	default:
		fmt.Println("func set")
	}
	switch g {
	case nil:
		fmt.Println("nil g")
	default:
		fmt.Println("g set")
	}
	var e error
	switch e {
	case nil:
		fmt.Println("nil error")
	}
	var a any = ps
	switch a {
	case nil:
		fmt.Println("nil any")
	default:
		fmt.Println("any holds a nil pointer")
	}
}
`, `nil ptr
nil func
nil map
nil slice
nil chan
nil second
false false false
p is &x
func set
g set
nil error
any holds a nil pointer
`},
	})
}
