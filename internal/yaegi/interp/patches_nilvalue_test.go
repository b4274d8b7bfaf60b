package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNilOfNonNilableType checks patch 154: nil given where the type has
// no nil value (a number, a string, a bool, an array, a struct) is a
// compile error, as in Go; it was accepted and gave the type's zero value
// (x = nil of an int set it to 0) or panicked in reflect (x == nil). nil
// of a pointer, slice, map, channel, function or interface stays valid.
func TestNilOfNonNilableType(t *testing.T) {
	refused := []struct{ name, body, want string }{
		{"assignment to an int", `var x int; x = nil; fmt.Println(x)`, "cannot use nil as int value"},
		{"variable declaration of a string", `var s string = nil; fmt.Println(s)`, "cannot use nil as string value"},
		{"argument", `f := func(a bool) { fmt.Println(a) }; f(nil)`, "cannot use nil as bool value"},
		{"map literal value", `m := map[string]float64{"a": nil}; fmt.Println(m)`, "cannot use nil as float64 value"},
		{"slice literal element", `xs := []int{nil}; fmt.Println(xs)`, "cannot use nil as int value"},
		{"array", `var a [2]int; a = nil; fmt.Println(a)`, "cannot use nil as [2]int value"},
		{"comparison with an int", `var x int; fmt.Println(x == nil)`, "nil"},
		{"named int", `type Level int; var l Level; l = nil; fmt.Println(l)`, "cannot use nil as"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runStmtProgram(t, "package main\n\nimport \"fmt\"\n\nfunc main() {\n"+tc.body+"\n}\n")
			require.Error(t, err, "ran and printed %q", out)
			require.Contains(t, err.Error(), tc.want)
			require.Empty(t, out)
		})
	}
	checkGoOutputs(t, []goCase{{"nil of the types that have it", `package main

import "fmt"

func main() {
	var p *int = nil
	var e error = nil
	var f func()
	f = nil
	var m map[int]int
	m = nil
	ch := make(chan int)
	ch = nil
	xs := []int{1}
	xs = nil
	var a any = nil
	fmt.Println(p, e, f == nil, m == nil, ch, xs, a, len(xs))
}
`, "<nil> <nil> true true <nil> [] <nil> 0\n"}})
}
