package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBadVerbNested checks patch 153: a printf verb that does not apply
// to a value of a script type names the script's type wherever the
// value is, as Go does; patch 145 renamed it for a value given directly
// only, and fmt printed %!s(int=4) for a struct field's or a slice
// element's %!s(main.Level=4), a pointer's *struct { L int } for
// *main.Row, and %!p(int=4), %!(EXTRA int=4) for a value given directly.
// Each want is what go run prints.
func TestBadVerbNested(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"a flag after an explicit index is a bad verb (153)", `package main

import "fmt"

type Level int

type Name string

func (n Name) String() string { return "N" + string(n) }

func main() {
	fmt.Printf("%[1]+d|\n", Level(42))
	fmt.Printf("%[1]-5d|\n", Level(42))
	fmt.Printf("%[1]#x|\n", Level(42))
	fmt.Printf("%[1] d|\n", Level(42))
	fmt.Printf("%[2]-5q|\n", Level(1), Name("a"))
	fmt.Printf("%-[1]+d|\n", Level(42))
	fmt.Printf("%[1]+d %[1]d|\n", 7)
	fmt.Printf("%[1]d %[1]+v|\n", Level(3))
}
`, "%!+(main.Level=42)d|\n%!-(main.Level=42)5d|\n%!#(main.Level=42)x|\n%! (main.Level=42)d|\n%!-(main.Name=a)5q|\n%!+(main.Level=42)d|\n%!+(int=7)d 7|\n3 %!+(main.Level=3)v|\n"},
		{"a bad verb of a struct field, a slice, array or map element names the script's type", `package main

import "fmt"

type Level int

type Name string

type Code uint8

type Row struct{ L Level }

type Deep struct {
	R  Row
	Ls [2]Level
	M  map[Level]Name
}

func main() {
	fmt.Printf("%s\n", Row{4})
	fmt.Printf("%s\n", []Level{1, 2})
	fmt.Printf("%+s|%5s|%-3d|%x|%+v\n", Row{4}, Row{4}, Row{4}, []Level{10, 11}, Row{5})
	fmt.Printf("%s %d\n", map[Level]Name{1: "a", 2: "b"}, map[string]Level{"x": 1})
	fmt.Printf("%s|%t|%q|%x\n", []Code{65, 66}, []Code{65}, []Code{65, 66}, [2]Code{1, 2})
	fmt.Printf("%s\n%v\n", Deep{Row{1}, [2]Level{2, 3}, map[Level]Name{4: "n"}}, Deep{})
	fmt.Printf("%6.2f|%e|%c %U\n", []Level{1}, Row{3}, []Level{65}, Row{66})
	fmt.Println(fmt.Sprintf("%s", []Row{{1}}), fmt.Errorf("%s", Row{2}))
	type Local int
	type LRow struct{ X Local }
	fmt.Printf("%s %s %s\n", LRow{1}, []Local{2}, struct{ A Level }{3})
}
`, `{%!s(main.Level=4)}
[%!s(main.Level=1) %!s(main.Level=2)]
{%!s(main.Level=+4)}|{%!s(main.Level=    4)}|{4  }|[a b]|{L:5}
map[%!s(main.Level=1):a %!s(main.Level=2):b] map[%!d(string=x):1]
AB|[%!t(main.Code=65)]|"AB"|0102
{{%!s(main.Level=1)} [%!s(main.Level=2) %!s(main.Level=3)] map[%!s(main.Level=4):n]}
{{0} [0 0] map[]}
[%!f(main.Level=    01)]|{%!e(main.Level=3)}|[A] {U+0042}
[{%!s(main.Level=1)}] {%!s(main.Level=2)}
{%!s(main.Local=1)} [%!s(main.Local=2)] {%!s(main.Level=3)}
`},
		{"unexported fields print without methods but with the script's type names", `package main

import (
	"errors"
	"fmt"
	"time"
)

type Level int

type Name string

type Sn string

func (s Sn) String() string { return "S" }

type Hid struct {
	l Level
	N Name
}

type Deep struct {
	h  Hid
	xs []Level
	m  map[string]Level
	s  Sn
}

type Wrap struct {
	a   any
	err error
	d   time.Duration
}

func main() {
	fmt.Printf("%s|%+v|%v|%d\n", Hid{4, "n"}, Hid{4, "n"}, Hid{4, "n"}, Hid{4, "n"})
	d := Deep{Hid{1, "a"}, []Level{3}, map[string]Level{"k": 5}, "x"}
	fmt.Printf("%s\n%+s\n%v\n", d, d, d)
	fmt.Printf("%s %v %+v\n", Wrap{a: Level(3)}, Wrap{a: Hid{1, "b"}}, Wrap{a: Sn("q")})
	w := Wrap{err: errors.New("boom"), d: time.Second}
	fmt.Printf("%v\n", w.d == time.Second && fmt.Sprint(w) != "{<nil> boom 1s}")
	fmt.Println(Hid{1, "x"}, &Hid{2, "y"}, []Hid{{3, "z"}})
}
`, `{%!s(main.Level=4) n}|{l:4 N:n}|{4 n}|{4 %!d(main.Name=n)}
{{%!s(main.Level=1) a} [%!s(main.Level=3)] map[k:%!s(main.Level=5)] x}
{{%!s(main.Level=+1) a} [%!s(main.Level=+3)] map[k:%!s(main.Level=+5)] x}
{{1 a} [3] map[k:5] x}
{%!s(main.Level=3) <nil> %!s(time.Duration=0)} {{1 b} <nil> 0} {a:q err:<nil> d:0}
true
{1 x} &{2 y} [{3 z}]
`},
		{"pointers of script types name their types in a bad verb", `package main

import "fmt"

type Level int

type Row struct{ L Level }

type R struct{ L Level }

func (*R) String() string { return "R!" }

type S struct {
	P *R
	p *Level
}

func main() {
	var nl *Level
	var nr *Row
	fmt.Printf("%s|%v|%s|%v\n", nl, nl, nr, nr)
	fmt.Printf("%s %v %d\n", []*Level{nil}, []*Row{nil}, []*Level{nil})
	fmt.Printf("%s %v %+v\n", &Row{4}, &Row{4}, &Row{4})
	fmt.Printf("%t|%v|%s\n", &R{1}, &R{1}, []*R{nil})
	fmt.Printf("%s|%v|%+v\n", S{}, S{}, S{})
	fmt.Println(&Row{5}, &map[Level]int{1: 2}, &[]Level{3})
}
`, `%!s(*main.Level=<nil>)|<nil>|%!s(*main.Row=<nil>)|<nil>
[%!s(*main.Level=<nil>)] [<nil>] [0]
&{%!s(main.Level=4)} &{4} &{L:4}
&{%!t(main.Level=1)}|R!|[R!]
{R! %!s(*main.Level=<nil>)}|{R! <nil>}|{P:R! p:<nil>}
&{5} &map[1:2] &[3]
`},
		{"types with a String method name themselves where fmt formats their values", `package main

import "fmt"

type Level int

type Sn string

func (s Sn) String() string { return "S" }

type R struct {
	L Level
	n Level
}

func (R) String() string { return "R!" }

type Ls []Level

func (Ls) String() string { return "Ls!" }

func main() {
	fmt.Printf("%d|%x|%s|%v\n", Sn("ab"), Sn("ab"), []Sn{"a"}, Sn("c"))
	fmt.Printf("%d|%t|%v|%s|%x\n", R{1, 2}, R{1, 2}, R{1, 2}, R{1, 2}, R{1, 2})
	fmt.Printf("%d|%t|%v\n", Ls{1}, Ls{1}, []R{{3, 4}})
	fmt.Printf("%t\n", map[Sn]R{"k": {5, 6}})
}
`, `%!d(main.Sn=ab)|53|[S]|S
{1 2}|{%!t(main.Level=1) %!t(main.Level=2)}|R!|R!|5221
[1]|[%!t(main.Level=1)]|[R!]
map[%!t(main.Sn=k):{%!t(main.Level=5) %!t(main.Level=6)}]
`},
		{"values in interfaces and spread arguments", `package main

import "fmt"

type Level int

type Row struct{ L Level }

func main() {
	var x any = Level(4)
	xs := []any{Level(1), "a", Row{2}}
	fmt.Printf("%s %s %v %d\n", x, xs, xs, xs)
	args := []any{Level(1), Row{2}, Level(3)}
	fmt.Printf("%s %s %d\n", args...)
	fmt.Printf("%T %v %*d|\n", args...)
	fmt.Printf("%d\n", args...)
	fmt.Println()
	m := map[string]any{"a": Level(5), "b": Row{6}}
	fmt.Printf("%s\n", m)
}
`, `%!s(main.Level=4) [%!s(main.Level=1) a {%!s(main.Level=2)}] [1 a {2}] [1 %!d(string=a) {2}]
%!s(main.Level=1) {%!s(main.Level=2)} 3
main.Level {2} %!d(MISSING)|
1
%!(EXTRA main.Row={2}, main.Level=3)
map[a:%!s(main.Level=5) b:{%!s(main.Level=6)}]
`},
		{"%p of a script value", `package main

import "fmt"

type Level int

type Name string

type Flag bool

type Money struct{ Cents int }

func (m Money) String() string { return fmt.Sprintf("$%d", m.Cents) }

type Row struct{ L Level }

type Hid struct{ l Level }

func main() {
	fmt.Printf("%p|%5p|%p|%p\n", Level(4), Name("x"), Flag(true), Row{1})
	fmt.Printf("%p|%-8p|%p\n", Money{2}, Level(3), Hid{5})
	var x any = Money{5}
	var y any = Level(6)
	fmt.Printf("%p %p\n", x, y)
	p := &Row{1}
	xs := []Level{1}
	fmt.Println(fmt.Sprintf("%p", p) == fmt.Sprintf("%p", p), fmt.Sprintf("%p", xs) == fmt.Sprintf("%p", &xs[0]))
	fmt.Println(fmt.Sprintf("%p", p) == fmt.Sprintf("%v", []*Row{p})[1:len(fmt.Sprintf("%v", []*Row{p}))-1])
	fmt.Printf("%w|%T %p %v\n", Level(1), Level(2), Level(3), Row{4})
}
`, `%!p(main.Level=4)|%!p(main.Name=    x)|%!p(main.Flag=true)|%!p(main.Row={1})
%!p(main.Money={2})|%!p(main.Level=3       )|%!p(main.Hid={5})
%!p(main.Money={5}) %!p(main.Level=6)
true true
true
%!w(main.Level=1)|main.Level %!p(main.Level=3) {4}
`},
		{"explicit argument indexes", `package main

import "fmt"

type Level int

type Row struct{ L Level }

func main() {
	fmt.Printf("%[1]s %[1]d %[2]s\n", Level(4), Row{5})
	fmt.Printf("%[2]d %[1]s %[2]*[1]d|\n", Level(1), 3)
	fmt.Printf("%[3]s %[1]v\n", Level(1), Row{2})
	fmt.Printf("%[1]s %[5]s %[1]p\n", Level(1))
	fmt.Println(fmt.Sprintf("%[1]d%%", Level(7)))
	fmt.Printf("%[1]*[2]d|%-[1]*[2]d|\n", Level(4), 5)
}
`, `%!s(main.Level=4) 4 {%!s(main.Level=5)}
3 %!s(main.Level=1)   1|
%!s(BADINDEX) 1
%!s(main.Level=1) %!s(BADINDEX) %!p(main.Level=1)
7%
   5|5   |
`},
		{"extra arguments and malformed directives", `package main

import (
	"fmt"
	"log"
	"strings"
)

type Level int

type Money struct{ Cents int }

func (m Money) String() string { return fmt.Sprintf("$%d", m.Cents) }

type Row struct{ L Level }

func main() {
	fmt.Printf("x;", Level(4))
	fmt.Println()
	fmt.Printf("%d;", 1, Money{2}, Row{3}, Level(4), nil, "s", []Level{5})
	fmt.Println()
	var x any
	fmt.Printf("a;", x, Level(1))
	fmt.Println()
	fmt.Printf("%s %d %", Level(1), 2)
	fmt.Println()
	fmt.Printf("%!;%*s;%.*d;", Level(1), "x", "y", Level(2), 3)
	fmt.Println()
	fmt.Printf("%%%d%%;%5%|%d\n", Level(1), Level(3))
	err := fmt.Errorf("x %d", Level(1), Level(2))
	fmt.Println(err)
	var sb strings.Builder
	log.SetFlags(0)
	log.SetOutput(&sb)
	log.Printf("%p %s", Level(1), Row{2})
	log.Printf("extra", Level(3))
	fmt.Print(sb.String())
	fmt.Println(string(fmt.Appendf(nil, "%p|%d", Level(1), Level(2), Level(3))))
	fmt.Println(fmt.Sprintf("%v%%%s", Level(1), "x"))
}
`, `x;%!(EXTRA main.Level=4)
1;%!(EXTRA main.Money=$2, main.Row={3}, main.Level=4, <nil>, string=s, []main.Level=[5])
a;%!(EXTRA <nil>, main.Level=1)
%!s(main.Level=1) 2 %!(NOVERB)
%!!(main.Level=1);%!(BADWIDTH)y;03;
%1%;%|3
x 1%!(EXTRA main.Level=2)
%!p(main.Level=1) {%!s(main.Level=2)}
extra%!(EXTRA main.Level=3)
%!p(main.Level=1)|2%!(EXTRA main.Level=3)
1%x
`},
	})
}

// TestBadVerbNestedLoud checks patch 153's loud sub-cases: %p with the
// flags + or # of a value of a struct type with unexported fields, which
// fmt prints without methods with a %v that is not %+v, and Errorf with
// %w and %p or an extra argument of a value of a script type (the
// interpreter prints such a call itself, but %w needs the error itself)
// fail naming the construct.
func TestBadVerbNestedLoud(t *testing.T) {
	for _, tc := range []struct{ call, want string }{
		{`fmt.Printf("%+p\n", Hid{1})`, `%p with the flags "+" of a value of type main.Hid is not supported`},
		{`fmt.Println(fmt.Errorf("%w %p", errors.New("e"), Level(3)))`, `Errorf with %w and %p or an extra argument`},
		{`fmt.Println(fmt.Errorf("%w", errors.New("e"), Level(3)))`, `Errorf with %w and %p or an extra argument`},
	} {
		src := "package main\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n)\n\nvar _ = errors.New\n\ntype Level int\n\n" +
			"type Hid struct{ l Level }\n\nfunc main() {\n\t" + tc.call + "\n}\n"
		_, err := runStmtProgram(t, src)
		require.Error(t, err, tc.call)
		require.Contains(t, err.Error(), tc.want, tc.call)
		require.Regexp(t, `^15:\d+: `, err.Error(), tc.call)
	}
}
