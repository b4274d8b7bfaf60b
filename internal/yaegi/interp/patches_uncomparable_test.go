package interp // toolscript patch 164

import "testing"

// TestUncomparableNames checks patch 164: the run-time error of an == of
// interface values holding values of a type == cannot compare, and of a
// map[any]'s hash of one, names the script's type as Go does (main.S,
// main.L, [1]main.S, main.B[int]); the Go runtime, comparing or hashing
// the interpreter's representations, named theirs (struct { Xxs []int
// "json:\"-\"" }, []int). The switch is tagless, as the normalizer
// writes a tagged one. The want is what go run prints.
func TestUncomparableNames(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"comparisons and map keys of uncomparable script types", `package main

import "fmt"

type S struct{ xs []int }
type F func()
type M map[string]int
type W struct{ v any }
type L []int
type B[T any] struct{ xs []T }

func try(name string, f func()) {
	defer func() { fmt.Println(name+":", recover()) }()
	f()
}

func main() {
	try("any", func() { fmt.Println(any(S{}) == any(S{})) })
	try("map store", func() { m := map[any]bool{}; m[S{}] = true })
	try("map literal", func() { _ = map[any]bool{L{1}: true} })
	try("map read", func() { m := map[any]bool{}; _ = m[L{1}] })
	try("map delete", func() { m := map[any]int{}; delete(m, S{}) })
	try("pointer and value", func() {
		var x any = &S{}
		var y any = S{}
		fmt.Println(x == y)
		fmt.Println(y == y)
	})
	try("in a struct", func() { a, b := W{S{}}, W{S{}}; fmt.Println(a == b) })
	try("in an array", func() { a, b := [1]any{L{}}, [1]any{L{}}; fmt.Println(a == b) })
	try("switch", func() {
		var v, w any = M{}, M{}
		switch sw := v; {
		case sw == w:
			fmt.Println("eq")
		}
	})
	try("func", func() { var v any = F(nil); fmt.Println(v == v) })
	try("local type", func() {
		type T struct{ s S }
		fmt.Println(any(T{}) == any(T{}))
	})
	try("native", func() { fmt.Println(any([]int{}) == any([]int{})) })
	try("struct in an interface", func() { var a, b any = W{L{}}, W{L{}}; fmt.Println(a == b) })
	try("struct key", func() {
		type K struct{ a any }
		m := map[K]int{}
		m[K{S{}}] = 1
	})
	try("array of a script type", func() { var a, b any = [1]S{}, [1]S{}; fmt.Println(a == b) })
	try("slice of a script type", func() { var a, b any = []S{}, []S{}; fmt.Println(a == b) })
	try("generic", func() { var a, b any = B[int]{}, B[int]{}; fmt.Println(a == b) })
	try("generic key", func() { m := map[any]int{}; m[B[string]{}] = 1 })
	try("comparable", func() { var a, b any = W{1}, W{1}; fmt.Println(a == b, any(&S{}) == any(&S{})) })
}
`, `any: runtime error: comparing uncomparable type main.S
map store: runtime error: hash of unhashable type main.S
map literal: runtime error: hash of unhashable type main.L
map read: hash of unhashable type: main.L
map delete: hash of unhashable type: main.S
false
pointer and value: runtime error: comparing uncomparable type main.S
in a struct: runtime error: comparing uncomparable type main.S
in an array: runtime error: comparing uncomparable type main.L
switch: runtime error: comparing uncomparable type main.M
func: runtime error: comparing uncomparable type main.F
local type: runtime error: comparing uncomparable type main.T
native: runtime error: comparing uncomparable type []int
struct in an interface: runtime error: comparing uncomparable type main.L
struct key: runtime error: hash of unhashable type main.S
array of a script type: runtime error: comparing uncomparable type [1]main.S
slice of a script type: runtime error: comparing uncomparable type []main.S
generic: runtime error: comparing uncomparable type main.B[int]
generic key: runtime error: hash of unhashable type main.B[string]
true false
comparable: <nil>
`},
	})
}
