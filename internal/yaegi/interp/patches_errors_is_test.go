package interp

import "testing"

// TestErrorsIsScriptValues checks patch 194: errors.Is compares a script
// error value with its target by the value the interpreter's wrapper holds
// (errors.Is(z(), E{}) was false in the raw interpreter), values of two
// script types with one underlying type are unequal (errors.Is and == were
// true), and native errors, Is and Unwrap methods stay right. Each want is
// what go run prints.
func TestErrorsIsScriptValues(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"errors is script values", `package main

import (
	"errors"
	"fmt"
)

type E struct{}

func (E) Error() string { return "E" }

type E2 struct{}

func (E2) Error() string { return "E2" }

type F struct {
	Code int
	Msg  string
}

func (f F) Error() string { return fmt.Sprint(f.Code, f.Msg) }

type PE struct{ N int }

func (p *PE) Error() string { return "pe" }

type S string

func (s S) Error() string { return string(s) }

type L []int

func (L) Error() string { return "L" }

func z() error { return E{} }

func main() {
	fmt.Println(errors.Is(z(), E{}))
	fmt.Println(errors.Is(z(), E2{}), errors.Is(E2{}, E{}))
	fmt.Println(errors.Is(F{1, "a"}, F{1, "a"}), errors.Is(F{1, "a"}, F{2, "a"}))
	p := &PE{1}
	fmt.Println(errors.Is(&PE{1}, &PE{1}), errors.Is(p, p))
	w := fmt.Errorf("ctx: %w", z())
	fmt.Println(errors.Is(w, E{}), errors.Is(w, E2{}))
	w2 := fmt.Errorf("ctx: %w", F{3, "x"})
	fmt.Println(errors.Is(w2, F{3, "x"}), errors.Is(w2, F{3, "y"}))
	w3 := fmt.Errorf("ctx: %w", p)
	fmt.Println(errors.Is(w3, p), errors.Is(w3, &PE{1}))
	j := errors.Join(errors.New("a"), S("s"))
	fmt.Println(errors.Is(j, S("s")), errors.Is(j, S("t")))
	var target error = E{}
	fmt.Println(errors.Is(z(), target), z() == target)
	fmt.Println(errors.Is(nil, E{}), errors.Is(z(), nil), errors.Is(nil, nil))
	fmt.Println(errors.Is(S("s"), S("s")), errors.Is(S("s"), errors.New("s")))
	fmt.Println(errors.Is(L{1}, L{1}))
	var a, b, c error = E{}, E2{}, E{}
	fmt.Println(a == b, a == c)
}
`, `true
false false
true false
false true
true false
true false
true false
true false
true true
false false true
true false
false
false true
`},
		{"errors is native and methods", `package main

import (
	"errors"
	"fmt"
	"io"
)

var ErrNotFound = errors.New("not found")

type Temp struct{ Op string }

func (t Temp) Error() string        { return "temp " + t.Op }
func (t Temp) Is(target error) bool { return target == ErrNotFound }

type Wrap struct{ Err error }

func (w *Wrap) Error() string { return "wrap: " + w.Err.Error() }
func (w *Wrap) Unwrap() error { return w.Err }

func main() {
	fmt.Println(errors.Is(fmt.Errorf("x: %w", io.EOF), io.EOF), errors.Is(io.EOF, io.ErrUnexpectedEOF))
	fmt.Println(errors.Is(Temp{"r"}, ErrNotFound), errors.Is(Temp{"r"}, io.EOF), errors.Is(Temp{"r"}, Temp{"r"}))
	fmt.Println(errors.Is(&Wrap{io.EOF}, io.EOF), errors.Is(&Wrap{Temp{"a"}}, Temp{"a"}), errors.Is(&Wrap{Temp{"a"}}, Temp{"b"}))
	err := fmt.Errorf("a: %w", io.ErrShortWrite)
	fmt.Println(errors.Is(err, io.ErrShortWrite), errors.Is(&Wrap{err}, io.ErrShortWrite))
	is := errors.Is
	fmt.Println(is(io.EOF, io.EOF))
}
`, `true false
true false true
true true false
true true
true
`},
	})
}
