package interp

import "testing"

// TestComposedEquality checks patch 144: == of structs and arrays with
// interface fields holding values of script types compares the held
// values, and such structs and arrays are one map key for equal values
// (the interpreter compared its records of the values by their
// reflect.Values: == was false and a lookup missed). Each want is what
// go run prints.
func TestComposedEquality(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"== of structs and arrays", `package main

import "fmt"

type Status string

type S struct{ n int }

type W struct{ V any }

type Event struct {
	Kind  string
	Value any
}

type inner struct {
	a any
	b [2]any
}

type outer struct {
	in inner
	n  int
}

func main() {
	a := Event{"status", Status("paid")}
	b := Event{"status", Status("paid")}
	c := Event{"status", Status("due")}
	fmt.Println(a == b, a != b, a == c, [1]any{Status("x")} == [1]any{Status("x")})
	p := &S{1}
	q := &S{1}
	fmt.Println(W{p} == W{p}, W{p} != W{p}, W{p} == W{q}, W{S{1}} == W{S{1}}, W{S{1}} == W{S{2}})
	o1 := outer{inner{Status("a"), [2]any{S{1}, Status("b")}}, 1}
	o2 := outer{inner{Status("a"), [2]any{S{1}, Status("b")}}, 1}
	o3 := outer{inner{Status("a"), [2]any{S{1}, "b"}}, 1}
	fmt.Println(o1 == o2, o1 == o3)
	var x, y any = a, b
	fmt.Println(x == y)
	if a == b {
		fmt.Println("if")
	}
	defer func() { fmt.Println("panic:", recover()) }()
	fmt.Println(W{[]int{1}} == W{[]int{1}})
}
`, `true false false true
true false false true false
true false
true
if
panic: runtime error: comparing uncomparable type []int
`},
		{"map keys", `package main

import "fmt"

type Status string

type S struct{ n int }

type W struct{ V any }

type Event struct {
	Kind  string
	Value any
}

func main() {
	a := Event{"status", Status("paid")}
	b := Event{"status", Status("paid")}
	c := Event{"status", Status("due")}
	seen := map[Event]int{a: 1}
	fmt.Println(seen[b], len(seen))
	seen[b] = 2
	fmt.Println(seen[a], len(seen))
	_, ok := seen[c]
	fmt.Println(ok)
	seen[c]++
	fmt.Println(len(seen), seen[c])
	delete(seen, b)
	fmt.Println(len(seen))
	for k, v := range seen {
		fmt.Println(k, v, k == c)
	}
	am := map[any]int{}
	am[a] = 1
	am[b] = 2
	am[[1]any{Status("x")}] = 3
	am[[1]any{Status("x")}]++
	fmt.Println(len(am), am[a], am[[1]any{Status("x")}])
	arr := map[[2]any]bool{{Status("x"), 1}: true}
	fmt.Println(arr[[2]any{Status("x"), 1}], arr[[2]any{"x", 1}])
	p := &S{1}
	q := &S{1}
	pm := map[W]int{{p}: 3}
	fmt.Println(pm[W{p}], pm[W{q}])
}
`, `1 1
2 1
false
2 1
1
{status due} 1 true
2 2 4
true false
3 0
`},
		{"unhashable key", `package main

import "fmt"

type L []int

type W struct{ V any }

func main() {
	defer func() { fmt.Println("panic:", recover()) }()
	m := map[W]int{}
	m[W{1}] = 1
	m[W{L{1}}] = 2
	fmt.Println(len(m))
}
`, `panic: runtime error: hash of unhashable type main.L
`},
	})
}
