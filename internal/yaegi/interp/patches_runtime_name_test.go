package interp

import (
	"strings"
	"testing"
)

// TestRecoveredRuntimeErrorType checks patch 196: %T of a recovered
// run-time panic names Go's runtime type (runtime.boundsError,
// runtime.errorString, *runtime.TypeAssertionError), not the
// interpreter's, errors.As of a runtime.Error still finds it, and %#v of
// a runtime.errorString is its quoted message. Each want is what go run
// prints.
func TestRecoveredRuntimeErrorType(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"recovered runtime error type", `package main

import (
	"errors"
	"fmt"
	"runtime"
)

type T struct{ A int }

func try(name string, f func()) {
	defer func() {
		r := recover()
		var re runtime.Error
		ok := false
		if e, isE := r.(error); isE {
			ok = errors.As(e, &re)
			fmt.Printf("%s: %T %T %v | %v\n", name, r, e, ok, r)
			return
		}
		fmt.Printf("%s: %T | %v\n", name, r, r)
	}()
	f()
}

func main() {
	zero := 0
	try("index", func() { s := []int{}; _ = s[zero] })
	try("string index", func() { s := "ab"; i := 5; _ = s[i] })
	try("nil map", func() { var m map[string]int; m["a"] = 1 })
	try("nil deref", func() { var p *T; p.A = 1 })
	try("div", func() { _ = 1 / zero })
	try("assert", func() { var x any = "s"; _ = x.(T) })
	try("assert iface", func() { var x any = 3; _ = x.(fmt.Stringer) })
	try("slice", func() { s := []int{1}; j := 5; _ = s[:j] })
	try("slice lo>hi", func() { s := []int{1, 2, 3}; i, j := 2, 1; _ = s[i:j] })
	try("close closed", func() { c := make(chan int); close(c); close(c) })
	try("conv slice to array", func() { s := []int{1}; _ = [3]int(s) })
	try("makeslice", func() { n := -1; _ = make([]int, n) })
	try("shift", func() { s := -1; _ = 1 << s })
	try("unhashable", func() { m := map[any]int{}; var k any = []int{1}; m[k] = 1 })
	try("custom", func() { panic("boom") })
	try("error", func() { panic(errors.New("e")) })
	try("value", func() { panic(T{1}) })
	s := fmt.Sprintf("%T", error(nil))
	fmt.Println(s)
}
`, `index: runtime.boundsError runtime.boundsError true | runtime error: index out of range [0] with length 0
string index: runtime.boundsError runtime.boundsError true | runtime error: index out of range [5] with length 2
nil map: runtime.plainError runtime.plainError true | assignment to entry in nil map
nil deref: runtime.errorString runtime.errorString true | runtime error: invalid memory address or nil pointer dereference
div: runtime.errorString runtime.errorString true | runtime error: integer divide by zero
assert: *runtime.TypeAssertionError *runtime.TypeAssertionError true | interface conversion: interface {} is string, not main.T
assert iface: *runtime.TypeAssertionError *runtime.TypeAssertionError true | interface conversion: int is not fmt.Stringer: missing method String
slice: runtime.boundsError runtime.boundsError true | runtime error: slice bounds out of range [:5] with capacity 1
slice lo>hi: runtime.boundsError runtime.boundsError true | runtime error: slice bounds out of range [2:1]
close closed: runtime.plainError runtime.plainError true | close of closed channel
conv slice to array: runtime.boundsError runtime.boundsError true | runtime error: cannot convert slice with length 1 to array or pointer to array with length 3
makeslice: runtime.errorString runtime.errorString true | runtime error: makeslice: len out of range
shift: runtime.errorString runtime.errorString true | runtime error: negative shift amount
unhashable: runtime.errorString runtime.errorString true | runtime error: hash of unhashable type []int
custom: string | boom
error: *errors.errorString *errors.errorString false | e
value: main.T | {1}
<nil>
`},
		{"recovered error string go syntax", `package main

import "fmt"

type T struct{ A int }

func try(name string, f func()) {
	defer func() {
		r := recover()
		fmt.Printf("%s: %#v %T\n", name, r, r)
	}()
	f()
}

func main() {
	zero := 0
	try("nil deref", func() { var p *T; p.A = 1 })
	try("div", func() { _ = 1 / zero })
	try("makeslice", func() { n := -1; _ = make([]int, n) })
	try("nil map", func() { var m map[string]int; m["a"] = 1 })
}
`, `nil deref: "invalid memory address or nil pointer dereference" runtime.errorString
div: "integer divide by zero" runtime.errorString
makeslice: "makeslice: len out of range" runtime.errorString
nil map: "assignment to entry in nil map" runtime.plainError
`},
	})
}

// TestRecoveredRuntimeErrorGoSyntaxLoud checks patch 196: %#v of a
// recovered run-time error whose Go fields the interpreter does not know
// (runtime.boundsError, *runtime.TypeAssertionError) fails naming it.
func TestRecoveredRuntimeErrorGoSyntaxLoud(t *testing.T) {
	for _, body := range []string{`s := []int{}; i := 0; _ = s[i]`, `var x any = "s"; _ = x.(int)`} {
		_, err := runStmtProgram(t, `package main

import "fmt"

func main() {
	defer func() { fmt.Printf("%#v\n", recover()) }()
	`+body+`
}
`)
		if err == nil || !strings.Contains(err.Error(), "%#v of a recovered run-time error") {
			t.Fatalf("%s: got %v, want the %%#v error", body, err)
		}
	}
}
