package interp

import "testing"

// TestErrorsAsMethod checks patch 158: errors.As with a target of a
// pointer to a script type calls the As method of a script error with
// the target as the script passed it (the method's t.(*Code) failed: it
// got *int), also through a %w, a script Unwrap, errors.Join and an As
// that gives its target on to errors.As; errors.Is with an Is method
// and the targets that are no script pointer stay right. Each want is
// what go run prints.
func TestErrorsAsMethod(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"As method of a script error, wrapped, false, interface targets, Is", `package main

import (
	"errors"
	"fmt"
)

type Code int

func (c Code) Error() string { return fmt.Sprintf("code %d", int(c)) }

type Temporary interface{ Temporary() bool }

type temp struct{ s string }

func (t temp) Error() string   { return "temp " + t.s }
func (t temp) Temporary() bool { return true }

type HTTPErr struct{ Status int }

func (h *HTTPErr) Error() string { return "http" }
func (h *HTTPErr) As(t any) bool {
	fmt.Printf("As %T\n", t)
	switch p := t.(type) {
	case *Code:
		*p = Code(h.Status)
		return true
	case *Temporary:
		*p = temp{fmt.Sprint(h.Status)}
		return true
	case *fmt.Stringer:
		return false
	}
	return false
}

type Wrap struct {
	msg string
	err error
}

func (w Wrap) Error() string { return w.msg + ": " + w.err.Error() }
func (w Wrap) Unwrap() error { return w.err }

type sentinel struct{ id int }

func (s *sentinel) Error() string { return "sentinel" }
func (s *sentinel) Is(t error) bool {
	o, ok := t.(*sentinel)
	return ok && o.id == s.id
}

type Other struct{}

func (Other) Error() string { return "other" }

func main() {
	var c Code
	fmt.Println(errors.As(&HTTPErr{418}, &c), c)
	var c2 Code
	fmt.Println(errors.As(fmt.Errorf("w: %w", &HTTPErr{419}), &c2), c2)
	var c3 Code
	fmt.Println(errors.As(Wrap{"x", &HTTPErr{420}}, &c3), c3)
	var o Other
	fmt.Println(errors.As(&HTTPErr{421}, &o), o)
	var tmp Temporary
	ok := errors.As(fmt.Errorf("t: %w", &HTTPErr{422}), &tmp)
	fmt.Println(ok, tmp, tmp.Temporary())
	var s fmt.Stringer
	fmt.Println(errors.As(&HTTPErr{423}, &s), s == nil)
	var he *HTTPErr
	fmt.Println(errors.As(Wrap{"y", &HTTPErr{424}}, &he), he.Status)
	var c4 Code
	fmt.Println(errors.As(Wrap{"z", Code(7)}, &c4), c4)
	e := Wrap{"s", &sentinel{1}}
	fmt.Println(errors.Is(e, &sentinel{1}), errors.Is(e, &sentinel{2}))
	fmt.Println(errors.Is(fmt.Errorf("f: %w", e), &sentinel{1}))
	var e2 error
	fmt.Println(errors.As(&HTTPErr{425}, &e2), e2)
	j := errors.Join(Other{}, &HTTPErr{426})
	var c5 Code
	fmt.Println(errors.As(j, &c5), c5)
}
`, `As *main.Code
true code 418
As *main.Code
true code 419
As *main.Code
true code 420
As *main.Other
false other
As *main.Temporary
true temp 422 true
As *fmt.Stringer
false true
true 424
true code 7
true false
true
true http
As *main.Code
true code 426
`},
		{"As forwarding its target to errors.As", `package main

import (
	"errors"
	"fmt"
	"strconv"
)

type Code int

func (c Code) Error() string { return fmt.Sprintf("code %d", int(c)) }

type Temporary interface{ Temporary() bool }

type temp struct{}

func (temp) Error() string   { return "temp" }
func (temp) Temporary() bool { return true }

type Fwd struct{ inner error }

func (f *Fwd) Error() string { return "fwd" }
func (f *Fwd) As(t any) bool {
	fmt.Printf("fwd %T\n", t)
	return errors.As(f.inner, t)
}

func main() {
	var c Code
	fmt.Println(errors.As(&Fwd{fmt.Errorf("x: %w", Code(9))}, &c), c)
	var tmp Temporary
	fmt.Println(errors.As(&Fwd{temp{}}, &tmp), tmp)
	var ne *strconv.NumError
	fmt.Println(errors.As(&Fwd{&strconv.NumError{Func: "Atoi", Num: "x", Err: strconv.ErrSyntax}}, &ne), ne.Func)
	var c2 Code
	fmt.Println(errors.As(&Fwd{errors.New("no")}, &c2), c2)
}
`, `fwd *main.Code
true code 9
fwd *main.Temporary
true temp
fwd **strconv.NumError
true Atoi
fwd *main.Code
false code 0
`},
		{"As on a value error, a pointer target, nil", `package main

import (
	"errors"
	"fmt"
)

type Code int

func (c Code) Error() string { return fmt.Sprintf("code %d", int(c)) }

type Inner struct{ err error }

func (i *Inner) Error() string { return "inner" }
func (i *Inner) As(t any) bool {
	fmt.Println("target", t)
	return errors.As(i.err, t)
}

type Other struct{ N int }

func (Other) Error() string { return "other" }

type Ptr struct{}

func (*Ptr) Error() string { return "ptr" }

func main() {
	var c Code
	fmt.Println(errors.As(&Inner{Code(5)}, &c), c)
	var o Other
	fmt.Println(errors.As(fmt.Errorf("a: %w", Other{3}), &o), o.N)
	var p *Ptr
	fmt.Println(errors.As(fmt.Errorf("a: %w", &Ptr{}), &p), p != nil)
	fmt.Println(errors.As(nil, &c))
	var o2 Other
	fmt.Println(errors.As(&Ptr{}, &o2))
}
`, `target code 0
true code 5
true 3
true true
false
false
`},
		{"a generic target, a target given as any", `package main

import (
	"errors"
	"fmt"
)

type Code int

func (c Code) Error() string { return fmt.Sprintf("code %d", int(c)) }

type HTTPErr struct{ Status int }

func (h *HTTPErr) Error() string { return "http" }
func (h *HTTPErr) As(t any) bool {
	if c, ok := t.(*Code); ok {
		*c = Code(h.Status)
		return true
	}
	return false
}

func find[T error](err error) (T, bool) {
	var t T
	ok := errors.As(err, &t)
	return t, ok
}

func main() {
	c, ok := find[Code](fmt.Errorf("x: %w", &HTTPErr{7}))
	fmt.Println(c, ok)
	h, ok := find[*HTTPErr](fmt.Errorf("x: %w", &HTTPErr{8}))
	fmt.Println(h.Status, ok)
	var c2 Code
	fmt.Println(errors.As(&HTTPErr{9}, any(&c2)), c2)
	targets := []any{&c2}
	fmt.Println(errors.As(&HTTPErr{10}, targets[0]), c2)
}
`, `code 7 true
8 true
true code 9
true code 10
`},
	})
}
