package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestErrorsIsValue checks patch 207: errors.Is used as a function value
// (is := errors.Is, a func(error, error) bool argument, a slice element)
// is the script's errors.Is of patch 194 (the native one found values of
// two script types with one underlying type equal), and errors.As as a
// value is a compile error naming it (the native one answered wrongly
// for a target of a script type). Each want is what go run prints.
func TestErrorsIsValue(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"errors is as a value", `package main

import (
	"errors"
	"fmt"
)

type E struct{}

func (E) Error() string { return "e" }

type E2 struct{}

func (E2) Error() string { return "e2" }

type I interface {
	Error() string
	Code() int
}

type C struct{ c int }

func (c C) Error() string { return "c" }
func (c C) Code() int     { return c.c }

var sentinel = errors.New("sentinel")

func apply(f func(error, error) bool, a, b error) bool { return f(a, b) }

func main() {
	is := errors.Is
	var err error = E{}
	fmt.Println(is(err, E2{}), is(err, E{}))
	fmt.Println(apply(errors.Is, err, E2{}), apply(errors.Is, fmt.Errorf("w: %w", err), E{}))
	fmt.Println(is(fmt.Errorf("a: %w", sentinel), sentinel), is(C{1}, C{1}), is(C{1}, C{2}), is(nil, nil), is(err, nil))
	fs := []func(error, error) bool{errors.Is}
	fmt.Println(fs[0](errors.Join(E2{}, err), E{}), fs[0](E2{}, E{}))
	as := func(err error, target any) bool { return errors.As(err, target) }
	var i I
	var e error = fmt.Errorf("x: %w", C{3})
	fmt.Println(as(e, &i))
	var e2 E2
	fmt.Println(errors.As(err, &e2))
}
`, `false true
false true
true true false true false
true false
true
false
`},
	})
	_, err := runStmtProgram(t, `package main

import (
	"errors"
	"fmt"
)

type E struct{}

func (E) Error() string { return "e" }

type E2 struct{}

func (E2) Error() string { return "e2" }

func main() {
	as := errors.As
	var e2 E2
	fmt.Println(as(E{}, &e2))
}
`)
	require.ErrorContains(t, err, "17:8: errors.As as a function value is not supported")
}
