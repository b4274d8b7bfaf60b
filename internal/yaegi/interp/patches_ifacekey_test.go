package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNativeInterfaceKeys checks patch 167: a value of a script type as
// a key of a map whose keys are of a native interface type with methods
// (map[fmt.Stringer]int, map[error]int) is a compile error naming the
// types and the line, in an index, an assignment, an operator
// assignment, ++, a map literal and delete (it was a run-time panic
// with reflect's text, "reflect.Value.MapIndex: value of type string is
// not assignable to type fmt.Stringer"). Native keys of such maps, and
// script keys of a map[any] or of their own type, still work: the want
// is what go run prints.
func TestNativeInterfaceKeys(t *testing.T) {
	const prelude = `package main

import (
	"errors"
	"fmt"
)

type Name string

func (n Name) String() string { return "N:" + string(n) }

type E struct{ code int }

func (e E) Error() string { return fmt.Sprint("E", e.code) }

type PE struct{ msg string }

func (e *PE) Error() string { return e.msg }

var _ = errors.New

func main() {
`
	for _, tc := range []struct{ name, body, want string }{
		{"index", "m := map[fmt.Stringer]int{}\n_, ok := m[Name(\"q\")]\nfmt.Println(ok)",
			"24:12: a value of type main.Name as a key of a map with keys of type fmt.Stringer is not supported by the interpreter"},
		{"assignment", "m := map[fmt.Stringer]int{}\nm[Name(\"a\")] = 1", "24:3: a value of type main.Name as a key"},
		{"increment", "m := map[fmt.Stringer]int{}\nm[Name(\"a\")]++", "24:3: a value of type main.Name as a key"},
		{"operator assignment", "m := map[fmt.Stringer]int{}\nm[Name(\"a\")] += 2", "24:3: a value of type main.Name as a key"},
		{"literal", "m := map[error]int{E{1}: 1}\nfmt.Println(m)", "23:20: a value of type main.E as a key of a map with keys of type error"},
		{"delete", "m := map[fmt.Stringer]int{}\ndelete(m, Name(\"q\"))", "24:11: a value of type main.Name as a key"},
		{"pointer error", "m := map[error]int{}\np := &PE{\"x\"}\nm[p] = 1", "25:3: a value of type *main.PE as a key of a map with keys of type error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runStmtProgram(t, prelude+tc.body+"\n}\n")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), "reflect")
		})
	}
	checkGoOutputs(t, []goCase{{"native keys, and script keys of map[any] and of their own type", `package main

import (
	"errors"
	"fmt"
	"time"
)

type Name string

func (n Name) String() string { return "N:" + string(n) }

type E struct{ code int }

func (e E) Error() string { return fmt.Sprint("E", e.code) }

func main() {
	em := map[error]int{}
	e1, e2 := errors.New("x"), fmt.Errorf("w: %w", errors.New("y"))
	em[e1] = 1
	em[e2] += 2
	em[e1]++
	fmt.Println(len(em), em[e1], em[e2])
	delete(em, e1)
	fmt.Println(len(em))
	sm := map[fmt.Stringer]int{time.Second: 1}
	sm[time.Minute] = 2
	fmt.Println(sm[time.Second], sm[time.Minute], len(sm))
	am := map[any]int{}
	am[Name("a")]++
	am[E{1}] = 2
	am[Name("a")]++
	fmt.Println(len(am), am[Name("a")], am[E{1}])
	nm := map[Name]int{"b": 1}
	nm[Name("b")]++
	fmt.Println(nm)
}
`, `2 2 2
1
1 2 2
2 2 2
map[N:b:2]
`}})
}
