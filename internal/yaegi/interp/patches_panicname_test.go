package interp // toolscript patch 211

import (
	"strings"
	"testing"
)

// TestPanicNameHeldRepresentation checks patches 211 and 212: the
// run-time error of an == of interface values, or of a map[any]'s hash,
// holding a value of a type == cannot compare names the script's type
// only when the value is of it. A value of a record's type (main.W, a
// struct holding a []ID; main.B[[]main.ID]) or of an unnamed type made
// of a script struct type ([]main.S, [2]main.S, which a native value
// never has) is named so; a native value keeps Go's name ([]int,
// map[string]int, [1][]int) when no held type has its representation
// (patch 164 named []main.ID for []int whenever the script put []ID
// values in interfaces, here through the generic instance Kind[[]ID]).
// With a []ID held, the struct W compared named its representation
// (struct { Xxs []int "json:\"-\"" }), and W{} == V{} of one
// representation panicked. The wants are what go run prints.
func TestPanicNameHeldRepresentation(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"with generics", `package main

import "fmt"

type ID int
type S struct{ xs []int }
type W struct{ xs []ID }
type B[T any] struct{ v T }

func Kind[T any](v T) string {
	switch any(v).(type) {
	case int:
		return "int"
	}
	return "other"
}

func try(name string, f func()) {
	defer func() { fmt.Println(name+":", recover()) }()
	f()
}

func main() {
	try("native", func() { var a, b any = []int{}, []int{}; fmt.Println(a == b) })
	try("native key", func() { m := map[any]int{}; m[[]int{}] = 1 })
	try("native map", func() { var a, b any = map[string]int{}, map[string]int{}; fmt.Println(a == b) })
	try("native array", func() { var a, b any = [1][]int{}, [1][]int{}; fmt.Println(a == b) })
	try("struct of a script type", func() { var a, b any = W{}, W{}; fmt.Println(a == b) })
	try("struct key", func() { m := map[any]int{}; m[W{}] = 1 })
	try("slice of a struct type", func() { var a, b any = []S{}, []S{}; fmt.Println(a == b) })
	try("array of a struct type", func() { var a, b any = [2]S{}, [2]S{}; fmt.Println(a == b) })
	try("generic", func() { var a, b any = B[[]ID]{}, B[[]ID]{}; fmt.Println(a == b) })
	try("generic key", func() { m := map[any]int{}; m[B[[]int]{}] = 1 })
	fmt.Println(Kind([]S{}), Kind([2]S{}), Kind(W{}), Kind(1))
}
`, `native: runtime error: comparing uncomparable type []int
native key: runtime error: hash of unhashable type []int
native map: runtime error: comparing uncomparable type map[string]int
native array: runtime error: comparing uncomparable type [1][]int
struct of a script type: runtime error: comparing uncomparable type main.W
struct key: runtime error: hash of unhashable type main.W
slice of a struct type: runtime error: comparing uncomparable type []main.S
array of a struct type: runtime error: comparing uncomparable type [2]main.S
generic: runtime error: comparing uncomparable type main.B[[]main.ID]
generic key: runtime error: hash of unhashable type main.B[[]int]
other other other int
`},
		{"a []ID held", `package main

import "fmt"

type ID int
type S struct{ xs []int }
type W struct{ xs []ID }
type V struct{ xs []ID }

func try(name string, f func()) {
	defer func() { fmt.Println(name+":", recover()) }()
	f()
}

func main() {
	var held any = []ID{1}
	fmt.Println(held != nil)
	try("native array", func() { var a, b any = [1][]int{}, [1][]int{}; fmt.Println(a == b) })
	try("native map", func() { var a, b any = map[string]int{}, map[string]int{}; fmt.Println(a == b) })
	try("native func", func() { var a, b any = func() {}, func() {}; fmt.Println(a == b) })
	try("struct of a script type", func() { var a, b any = W{}, W{}; fmt.Println(a == b) })
	try("struct key", func() { m := map[any]int{}; m[W{}] = 1 })
	try("slice of a struct type", func() { var a, b any = []S{}, []S{}; fmt.Println(a == b) })
	try("two types", func() { var a, b any = W{}, V{}; fmt.Println(a == b, a != b) })
	try("comparable", func() { var a, b any = [1]int{}, [1]int{}; fmt.Println(a == b) })
}
`, `true
native array: runtime error: comparing uncomparable type [1][]int
native map: runtime error: comparing uncomparable type map[string]int
native func: runtime error: comparing uncomparable type func()
struct of a script type: runtime error: comparing uncomparable type main.W
struct key: runtime error: hash of unhashable type main.W
slice of a struct type: runtime error: comparing uncomparable type []main.S
false true
two types: <nil>
true
comparable: <nil>
`},
	})
}

// TestPanicNameAmbiguous checks patch 211: when a value held as its
// representation may be a native value or one of a held script type of
// that representation ([]int or []ID, map[string]int or map[string]ID,
// [1][]int or [1][]ID), the interpreter cannot tell which Go names (it
// has no record of such a value), and the program fails naming the
// types rather than name either (patch 164 printed []main.ID for
// []int{} == []int{}, Go's []int).
func TestPanicNameAmbiguous(t *testing.T) {
	const pre = `package main

import "fmt"

type ID int

func Kind[T any](v T) string {
	switch any(v).(type) {
	case int:
		return "int"
	}
	return "other"
}

func main() {
`
	for _, tc := range []struct{ name, body, want string }{
		{"native compared", `var a, b any = []int{}, []int{}
	fmt.Println(a == b)
	fmt.Println(Kind([]ID{1}))`, "comparison of an interface holding a value of type []int: the interpreter cannot tell it from a value of []main.ID"},
		{"native key", `m := map[any]int{}
	m[[]int{}] = 1
	fmt.Println(Kind([]ID{1}))`, "map key of an interface holding a value of type []int: the interpreter cannot tell it from a value of []main.ID"},
		{"native map compared", `var a, b any = map[string]int{}, map[string]int{}
	fmt.Println(a == b)
	fmt.Println(Kind(map[string]ID{}))`, "value of type map[string]int: the interpreter cannot tell it from a value of map[string]main.ID"},
		{"[]ID from a later function", `var a, b any = get(), get()
	fmt.Println(a == b)
}

func get() any {
	return []ID{}`, "value of type []int: the interpreter cannot tell it from a value of []main.ID"},
		{"[]ID key", `var k any = []ID{1}
	m := map[any]int{}
	m[k] = 1`, "map key of an interface holding a value of type []int: the interpreter cannot tell it from a value of []main.ID"},
		{"array of []ID", `var a, b any = [1][]ID{}, [1][]ID{}
	fmt.Println(a == b)`, "value of type [1][]int: the interpreter cannot tell it from a value of [1][]main.ID"},
		{"native array", `var a, b any = [1][]int{}, [1][]int{}
	fmt.Println(a == b)
	fmt.Println(Kind([1][]ID{}))`, "value of type [1][]int: the interpreter cannot tell it from a value of [1][]main.ID"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runStmtProgram(t, pre+"\t"+tc.body+"\n}\n")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want an error with %q, got %v (output %q)", tc.want, err, out)
			}
		})
	}
}
