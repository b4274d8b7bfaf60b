package interp

import "testing"

// TestNilFuncPanic checks patch 185: a call of a nil func value (a
// variable, a field, a map or slice element, a deferred call, a callback
// given to a native function) and a method of a nil interface (script or
// native, called or taken as a method value) panic with Go's runtime
// error, a nil dereference, not with reflect's string. Each want is what
// go run prints.
func TestNilFuncPanic(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"nil func calls", `package main

import (
	"fmt"
	"runtime"
)

type S struct{ F func(int) int }

type I interface{ M() }

func try(name string, f func()) {
	defer func() {
		r := recover()
		err, isErr := r.(error)
		_, isRT := r.(runtime.Error)
		fmt.Println(name, isErr, isRT, err)
		fmt.Println(r)
	}()
	f()
}

func main() {
	try("var", func() {
		var handler func(string) error
		handler("x")
	})
	try("field", func() {
		var s S
		s.F(1)
	})
	try("map", func() {
		m := map[string]func(){}
		m["a"]()
	})
	try("slice", func() {
		fs := make([]func() int, 2)
		fmt.Println(fs[1]())
	})
	try("methodvalue", func() {
		var i I
		g := i.M
		fmt.Println("not reached")
		g()
	})
	try("defer", func() {
		var g func()
		defer g()
		fmt.Println("body ran")
	})
	try("go-ish result", func() {
		var g func() (int, error)
		a, b := g()
		fmt.Println(a, b)
	})
	fmt.Println("end")
}
`, `var true true runtime error: invalid memory address or nil pointer dereference
runtime error: invalid memory address or nil pointer dereference
field true true runtime error: invalid memory address or nil pointer dereference
runtime error: invalid memory address or nil pointer dereference
map true true runtime error: invalid memory address or nil pointer dereference
runtime error: invalid memory address or nil pointer dereference
slice true true runtime error: invalid memory address or nil pointer dereference
runtime error: invalid memory address or nil pointer dereference
methodvalue true true runtime error: invalid memory address or nil pointer dereference
runtime error: invalid memory address or nil pointer dereference
body ran
defer true true runtime error: invalid memory address or nil pointer dereference
runtime error: invalid memory address or nil pointer dereference
go-ish result true true runtime error: invalid memory address or nil pointer dereference
runtime error: invalid memory address or nil pointer dereference
end
`},
		{"nil interface methods", `package main

import (
	"fmt"
	"io"
	"strings"
)

type I interface{ M() }

type T struct{}

func (T) M() { fmt.Println("M") }

func try(name string, f func()) {
	defer func() {
		r := recover()
		err, isErr := r.(error)
		fmt.Println(name, isErr, err)
	}()
	f()
}

func apply(f func(int) int, x int) int { return f(x) }

func main() {
	try("iface call", func() {
		var i I
		i.M()
	})
	try("native iface call", func() {
		var w io.Writer
		w.Write(nil)
	})
	try("native iface method value", func() {
		var w fmt.Stringer
		g := w.String
		fmt.Println("not reached")
		_ = g
	})
	try("script ok", func() {
		var i I = T{}
		g := i.M
		g()
	})
	try("passed nil", func() {
		fmt.Println(apply(nil, 2))
	})
	try("native callback nil", func() {
		fmt.Println(strings.Map(nil, "abc"))
	})
	try("closure var nil", func() {
		var fs []func()
		fs = append(fs, nil)
		for _, f := range fs {
			f()
		}
	})
	try("panic string", func() {
		panic("reflect.Value.Call: call of nil function")
	})
	fmt.Println("end")
}
`, `iface call true runtime error: invalid memory address or nil pointer dereference
native iface call true runtime error: invalid memory address or nil pointer dereference
native iface method value true runtime error: invalid memory address or nil pointer dereference
M
script ok false <nil>
passed nil true runtime error: invalid memory address or nil pointer dereference
native callback nil true runtime error: invalid memory address or nil pointer dereference
closure var nil true runtime error: invalid memory address or nil pointer dereference
panic string false <nil>
end
`},
	})
}

// TestSliceToArrayPanic checks patch 186: a conversion of a slice to an
// array, or a pointer to an array, longer than the slice panics with Go's
// runtime error and message, not with reflect's string.
func TestSliceToArrayPanic(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"slice to array conversions", `package main

import "fmt"

type A4 [4]int

func try(name string, f func()) {
	defer func() {
		r := recover()
		err, isErr := r.(error)
		fmt.Println(name, isErr, err)
		fmt.Println(r)
	}()
	f()
}

func main() {
	s := []int{1, 2, 3}
	try("array", func() { fmt.Println([4]int(s)) })
	try("ptr", func() { fmt.Println((*[4]int)(s)) })
	try("named", func() { fmt.Println(A4(s)) })
	try("named ptr", func() { fmt.Println((*A4)(s)) })
	try("ok", func() { fmt.Println([2]int(s), *(*[3]int)(s)) })
	try("nil to 0", func() {
		var n []int
		fmt.Println([0]int(n), (*[0]int)(n) == nil)
	})
	try("nil to 1", func() {
		var n []int
		fmt.Println((*[1]int)(n))
	})
	try("strings", func() {
		ss := []string{"a"}
		fmt.Println([2]string(ss))
	})
	try("assign", func() {
		var a [4]int
		a = [4]int(s[1:])
		fmt.Println(a)
	})
	fmt.Println("end")
}
`, `array true runtime error: cannot convert slice with length 3 to array or pointer to array with length 4
runtime error: cannot convert slice with length 3 to array or pointer to array with length 4
ptr true runtime error: cannot convert slice with length 3 to array or pointer to array with length 4
runtime error: cannot convert slice with length 3 to array or pointer to array with length 4
named true runtime error: cannot convert slice with length 3 to array or pointer to array with length 4
runtime error: cannot convert slice with length 3 to array or pointer to array with length 4
named ptr true runtime error: cannot convert slice with length 3 to array or pointer to array with length 4
runtime error: cannot convert slice with length 3 to array or pointer to array with length 4
[1 2] [1 2 3]
ok false <nil>
<nil>
[] true
nil to 0 false <nil>
<nil>
nil to 1 true runtime error: cannot convert slice with length 0 to array or pointer to array with length 1
runtime error: cannot convert slice with length 0 to array or pointer to array with length 1
strings true runtime error: cannot convert slice with length 1 to array or pointer to array with length 2
runtime error: cannot convert slice with length 1 to array or pointer to array with length 2
assign true runtime error: cannot convert slice with length 2 to array or pointer to array with length 4
runtime error: cannot convert slice with length 2 to array or pointer to array with length 4
end
`},
	})
}
