package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSprintSpaces checks patch 155: Sprint, Print, Fprint, Append and
// log's Print and Panic put a space between two operands when neither is
// a string, by the kind of the script's value (a string type with a
// String or Error method is a string), where fmt saw its conversion for
// printing; Sprintln and Println put spaces everywhere. Each want is what
// go run prints.
func TestSprintSpaces(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"Print, Sprint, Fprint, Append and log's Print put Go's spaces between operands by the kinds of the script's values (155)", `package main

import (
	"bytes"
	"errors"
	"fmt"
	"log"
	"strings"
)

type Plain string
type Name string

func (n Name) String() string { return "N:" + string(n) }

type PName string

func (n *PName) String() string { return "P:" + string(*n) }

type EName string

func (e EName) Error() string { return "E:" + string(e) }

type Num int

func (n Num) String() string { return fmt.Sprintf("#%d", int(n)) }

type S struct{ A int }

func (s S) String() string { return "S" }

func main() {
	fmt.Println(fmt.Sprint(Plain("a"), 3))
	fmt.Println(fmt.Sprint(Name("a"), 3))
	fmt.Println(fmt.Sprint(3, Name("a"), 4))
	fmt.Println(fmt.Sprint(Name("a"), Name("b"), "c", 1, 2))
	fmt.Println(fmt.Sprint(Num(1), Num(2), S{}, 3, "x", Num(4)))
	p := PName("p")
	fmt.Println(fmt.Sprint(&p, 3, p, 4))
	fmt.Println(fmt.Sprint(EName("e"), 3, EName("f")))
	var err error = EName("g")
	fmt.Println(fmt.Sprint(err, 3, err))
	var x any = Name("h")
	var y any = 7
	fmt.Println(fmt.Sprint(x, y, x, nil, y))
	var st fmt.Stringer = Name("i")
	fmt.Println(fmt.Sprint(st, 1, st))
	fmt.Print(Name("a"), 3, 4, "\n")
	var buf bytes.Buffer
	fmt.Fprint(&buf, 1, Name("b"), 2, 3)
	fmt.Println(buf.String())
	fmt.Println(string(fmt.Append([]byte("<"), Name("d"), 6, 7)))
	fmt.Print(fmt.Sprintln(Name("a"), 3, "s", 4))
	fmt.Println(Name("a"), 3)
	xs := []any{Name("j"), 1, 2, Name("k"), Num(3), 4}
	fmt.Println(fmt.Sprint(xs...))
	fmt.Println(fmt.Sprint(Name("only")))
	fmt.Println(fmt.Sprint(errors.New("n"), 1, Name("z")))
	var sb strings.Builder
	l := log.New(&sb, "L:", 0)
	l.Print(Name("a"), 3, 4)
	log.SetOutput(&sb)
	log.SetFlags(0)
	log.Print(Name("b"), 5, 6)
	func() {
		defer func() { fmt.Println("recovered:", recover() != nil) }()
		log.Panic(Name("c"), 7, 8)
	}()
	fmt.Print(sb.String())
	defer fmt.Print(Name("def"), 1, 2, "\n")
}
`, `a3
N:a3
3N:a4
N:aN:bc1 2
#1 #2 S 3x#4
P:p 3p4
E:e3E:f
E:g3E:g
N:h7N:h<nil> 7
N:i1N:i
N:a3 4
1N:b2 3
<N:d6 7
N:a 3 s 4
N:a 3
N:j1 2N:k#3 4
N:only
n 1N:z
recovered: true
L:N:a3 4
N:b5 6
N:c7 8
N:def1 2
`},
	})
}

// TestErrorfWrapNonError checks patch 156: Errorf's %w of a value that
// is not an error prints %!w(main.Level=1) (the type's Go name, the value
// without its methods, with the directive's width), also for a value in an
// interface and with several %w, and the error wraps nothing for it (an
// Unwrap of nil, the other %w's errors), as in Go. Each want is what go
// run prints.
func TestErrorfWrapNonError(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"Errorf's %w of a value that is not an error prints %!w(main.Level=1) and wraps nothing, as in Go (156)", `package main

import (
	"errors"
	"fmt"
)

type Level int

func (l Level) String() string { return "L" }

type Plain int
type S struct{ A int }
type Name string

func (n Name) String() string { return "N" }

type E struct{ c int }

func (e E) Error() string { return "e" }

type PE struct{}

func (p *PE) Error() string { return "pe" }

func main() {
	fmt.Println(fmt.Errorf("%w", Level(1)))
	fmt.Println(fmt.Errorf("%w", Plain(2)))
	fmt.Println(fmt.Errorf("x %w", S{2}))
	fmt.Println(fmt.Errorf("x %w", &S{3}))
	fmt.Println(fmt.Errorf("x %w", 5))
	fmt.Println(fmt.Errorf("x %w|%5w|%-4w|", Name("a"), Level(3), Plain(4)))
	fmt.Println(fmt.Errorf("%v %w %s", Level(1), Level(2), Level(3)))
	e1 := fmt.Errorf("a %w", Level(1))
	fmt.Println(errors.Unwrap(e1) == nil, e1)
	fmt.Printf("%T\n", e1)
	e2 := fmt.Errorf("a %w b %w", Level(1), E{1})
	fmt.Println(errors.Unwrap(e2) == nil, e2)
	if u, ok := e2.(interface{ Unwrap() []error }); ok {
		fmt.Println(len(u.Unwrap()))
	}
	var x any = Level(7)
	var y any = S{8}
	var z any = 9
	e3 := fmt.Errorf("%w %w %w", x, y, z)
	fmt.Println(e3)
	if u, ok := e3.(interface{ Unwrap() []error }); ok {
		fmt.Println(len(u.Unwrap()))
	}
	fmt.Println(fmt.Errorf("%[2]w %[1]w", Level(1), S{2}))
	fmt.Println(fmt.Errorf("%w", &PE{}))
	fmt.Println(fmt.Errorf("%w", PE{}))
	var ne error
	fmt.Println(fmt.Errorf("%w", ne))
	fmt.Println(fmt.Errorf("%w", nil))
	fmt.Println(fmt.Errorf("%#w %+w", Level(1), Name("q")))
	fmt.Println(fmt.Errorf("%*w", 6, Level(1)))
	fmt.Println(fmt.Errorf("%w", []Level{1, 2}))
	fmt.Println(fmt.Errorf("%w and %v", E{2}, Level(5)))
}
`, `%!w(main.Level=1)
%!w(main.Plain=2)
x %!w(main.S={2})
x %!w(*main.S=&{3})
x %!w(int=5)
x %!w(main.Name=a)|%!w(main.Level=    3)|%!w(main.Plain=4   )|
L %!w(main.Level=2) L
true a %!w(main.Level=1)
*fmt.wrapError
true a %!w(main.Level=1) b e
1
%!w(main.Level=7) %!w(main.S={8}) %!w(int=9)
0
%!w(main.S={2}) %!w(main.Level=1)
pe
%!w(main.PE={})
%!w(<nil>)
%!w(<nil>)
%!w(main.Level=1) %!w(main.Name=q)
%!w(main.Level=     1)
%!w([]main.Level=[1 2])
e and L
`},
		{"Errorf's %w of a script interface holding a script error wraps it (156)", `package main

import (
	"errors"
	"fmt"
)

type Coded interface {
	error
	Code() int
}

type E struct{ c int }

func (e E) Error() string { return fmt.Sprint("e", e.c) }
func (e E) Code() int     { return e.c }

type PE struct{ c int }

func (p *PE) Error() string { return "pe" }
func (p *PE) Code() int     { return p.c }

type Level int

type Lv interface{ Lvl() int }

func (l Level) Lvl() int { return int(l) }

func main() {
	var c Coded = E{3}
	err := fmt.Errorf("wrap %w", c)
	fmt.Println(err, errors.Unwrap(err) != nil)
	var e E
	fmt.Println(errors.As(err, &e), e.c)
	c = &PE{6}
	err = fmt.Errorf("wrap %w and %v", c, c)
	fmt.Println(err, errors.Unwrap(err) != nil)
	c = nil
	fmt.Println(fmt.Errorf("wrap %w", c))
	var l Lv = Level(2)
	fmt.Println(fmt.Errorf("wrap %w", l))
	var a any = E{4}
	err = fmt.Errorf("wrap %w", a)
	fmt.Println(err, errors.Unwrap(err) != nil)
	var ae error = E{5}
	err = fmt.Errorf("wrap %w", ae)
	fmt.Println(err, errors.Unwrap(err) != nil)
}
`, `wrap e3 true
true 3
wrap pe and pe true
wrap %!w(<nil>)
wrap %!w(main.Level=2)
wrap e4 true
wrap e5 true
`},
		{"Errorf's %w of the elements of a spread slice (156)", `package main

import (
	"errors"
	"fmt"
)

type Level int

type E struct{ c int }

func (e E) Error() string { return fmt.Sprint("e", e.c) }

func main() {
	args := []any{Level(1), E{2}, 3}
	err := fmt.Errorf("%w %w %v", args...)
	fmt.Println(err, errors.Unwrap(err) == nil)
	if u, ok := err.(interface{ Unwrap() []error }); ok {
		fmt.Println(len(u.Unwrap()))
	}
	err = fmt.Errorf("%w", []any{E{5}}...)
	fmt.Println(err, errors.Unwrap(err) != nil)
	err = fmt.Errorf("x %w %d", []any{Level(6), 7}...)
	fmt.Println(err, errors.Unwrap(err) == nil)
	fmt.Println(fmt.Errorf("%v %d", args[0], 8))
}
`, `%!w(main.Level=1) e2 3 true
1
e5 true
x %!w(main.Level=6) 7 true
1 8
`},
	})
}

// TestLoggerMethods checks patch 157: the print methods of a *log.Logger
// (log.New's, log.Default's, one promoted from an embedded *log.Logger)
// print script values as log's print functions do, their String and
// Error methods called. Each want is what go run prints.
func TestLoggerMethods(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"the print methods of a *log.Logger print script values as log's functions do (157)", `package main

import (
	"fmt"
	"log"
	"strings"
)

type Name string

func (n Name) String() string { return "N" + string(n) }

type E struct{ C int }

func (e E) Error() string { return "e" }

type P struct {
	a int
	N Name
}

type W struct {
	*log.Logger
}

func main() {
	var sb strings.Builder
	l := log.New(&sb, "p: ", 0)
	l.Printf("%v %s %d", Name("q"), E{3}, P{1, "r"})
	l.Println(Name("q"), E{3}, P{2, "s"}, []Name{"t"})
	l.Print(E{3})
	l.Print(Name("a"), 1, 2)
	func() {
		defer func() { fmt.Println("recovered:", recover() != nil) }()
		l.Panicf("bad %v", Name("x"))
	}()
	func() {
		defer func() { fmt.Println("recovered:", recover() != nil) }()
		l.Panicln(Name("y"), 3)
	}()
	d := log.Default()
	d.SetOutput(&sb)
	d.SetFlags(0)
	d.Printf("%v|%+v", Name("d"), P{3, "u"})
	log.Default().Println(Name("e"), E{1})
	w := W{l}
	w.Printf("%v", Name("w"))
	fmt.Print(sb.String())
}
`, `recovered: true
recovered: true
p: Nq e {1 %!d(main.Name=r)}
p: Nq e {2 Ns} [Nt]
p: e
p: Na1 2
p: bad Nx
p: Ny 3
Nd|{a:3 N:Nu}
Ne e
p: Nw
`},
	})
}

// TestLoggerMethodValue checks patch 157's loud failure: a print method of
// a *log.Logger as a function value would print the representations of
// script values.
func TestLoggerMethodValue(t *testing.T) {
	_, err := runStmtProgram(t, `package main

import (
	"log"
	"strings"
)

type Name string

func (n Name) String() string { return "N" }

func main() {
	var sb strings.Builder
	l := log.New(&sb, "", 0)
	pf := l.Printf
	pf("%v", Name("a"))
}
`)
	require.ErrorContains(t, err, "(*log.Logger).Printf as a function value is not supported")
}
