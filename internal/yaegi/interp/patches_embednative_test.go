package interp

import "testing"

// TestEmbeddedNativeMethods checks patches 187 and 188: a script struct
// that embeds a native type with a method fmt calls (time.Duration's
// String, *strconv.NumError's Error, *big.Int's Format, time.Time's
// GoString, *bytes.Buffer's pointer-receiver String) prints by that
// method wherever it is, as in Go, and by its fields for the verbs that
// call no method and where Go promotes none. Each want is what go run
// prints.
func TestEmbeddedNativeMethods(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"promoted String with an unexported field, in a slice, a map, behind a pointer, in an interface (187)", `package main

import (
	"fmt"
	"math/big"
	"time"
)

type Timed struct {
	time.Duration
	label string
}

type Event struct {
	time.Time
	seq int
}

type Wait struct {
	time.Duration
	Label string
}

type Money struct {
	*big.Int
	Cur string
}

func main() {
	t := Timed{90 * time.Second, "build"}
	fmt.Println(t)
	fmt.Printf("%v|%s\n", t, t)
	fmt.Println(Event{time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC), 1})
	var s fmt.Stringer = t
	fmt.Println(s.String(), s)
	w := Wait{time.Second, "x"}
	var a any = w
	fmt.Println(w, []Wait{w}, map[string]Wait{"k": w}, &w, a)
	fmt.Println(Money{big.NewInt(3), "c"}, []Money{{big.NewInt(1), "a"}})
}
`, `1m30s
1m30s|1m30s
2024-05-06 07:08:09 +0000 UTC
1m30s 1m30s
1s [1s] map[k:1s] 1s 1s
3 [1]
`},
		{"pointer-receiver String of *bytes.Buffer embedded by pointer, a nil one, bytes.Buffer by value (187)", `package main

import (
	"bytes"
	"fmt"
	"strings"
)

type Buf struct {
	*bytes.Buffer
	n int
}

type BufV struct {
	bytes.Buffer
	N int
}

type SB struct {
	*strings.Builder
	n int
}

func main() {
	b := Buf{bytes.NewBufferString("hi"), 1}
	fmt.Println(b, &b, []Buf{b}, map[string]Buf{"k": b})
	fmt.Printf("%v %s %q %x|%5s|\n", b, b, b, b, b)
	var bv BufV
	bv.WriteString("yo")
	fmt.Println(&bv, []*BufV{&bv}, bv.N)
	fmt.Printf("%v %s\n", &bv, &bv)
	var nb Buf
	fmt.Println(nb, []Buf{nb})
	sb := SB{&strings.Builder{}, 3}
	sb.WriteString("sb")
	fmt.Println(sb, &sb)
}
`, `hi hi [hi] map[k:hi]
hi hi "hi" 6869|   hi|
yo [yo] 0
yo yo
<nil> [<nil>]
sb sb
`},
		{"promoted Error of *strconv.NumError, Errorf %w, a nil embedded pointer (187)", `package main

import (
	"errors"
	"fmt"
	"strconv"
)

type NumErr struct {
	*strconv.NumError
	Code int
}

func main() {
	_, err := strconv.Atoi("zz")
	ne := NumErr{err.(*strconv.NumError), 7}
	fmt.Println(ne, &ne, []NumErr{ne})
	fmt.Printf("%v %s %q\n", ne, ne, ne)
	var e error = ne
	fmt.Println(e)
	w := fmt.Errorf("wrap: %w", ne)
	fmt.Println(w, errors.Is(w, strconv.ErrSyntax))
	w2 := fmt.Errorf("wrap: %w / %v", &ne, []NumErr{ne})
	fmt.Println(w2, errors.Is(w2, strconv.ErrSyntax))
	var nn NumErr
	fmt.Println(nn)
}
`, `strconv.Atoi: parsing "zz": invalid syntax strconv.Atoi: parsing "zz": invalid syntax [strconv.Atoi: parsing "zz": invalid syntax]
strconv.Atoi: parsing "zz": invalid syntax strconv.Atoi: parsing "zz": invalid syntax "strconv.Atoi: parsing \"zz\": invalid syntax"
strconv.Atoi: parsing "zz": invalid syntax
wrap: strconv.Atoi: parsing "zz": invalid syntax true
wrap: strconv.Atoi: parsing "zz": invalid syntax / [strconv.Atoi: parsing "zz": invalid syntax] true
%!v(PANIC=Error method: runtime error: invalid memory address or nil pointer dereference)
`},
		{"promoted Format of *big.Int and GoString of time.Time (187)", `package main

import (
	"fmt"
	"math/big"
	"time"
)

type Event struct {
	time.Time
	seq int
}

type Money struct {
	*big.Int
	Cur string
}

func main() {
	ev := Event{time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC), 1}
	fmt.Printf("%v|%#v|%T\n", ev, ev, ev)
	fmt.Printf("%#v\n", []Event{ev})
	m := Money{big.NewInt(255), "c"}
	fmt.Printf("%v %d %x %X %s %+v %08d|%T\n", m, m, m, m, m, m, m, m)
	fmt.Printf("%v %x\n", []Money{m}, map[string]*Money{"a": &m})
	var nm *Money
	fmt.Println(nm, Money{})
}
`, `2024-05-06 07:08:09 +0000 UTC|time.Date(2024, time.May, 6, 7, 8, 9, 0, time.UTC)|main.Event
[]main.Event{time.Date(2024, time.May, 6, 7, 8, 9, 0, time.UTC)}
255 255 ff FF 255 +255 00000255|main.Money
[255] map[61:ff]
<nil> <nil>
`},
		{"hidden, ambiguous and deeper native methods, a nil embedded *time.Duration (187, 188)", `package main

import (
	"fmt"
	"time"
)

type Shadow struct {
	time.Duration
	Y int
}

func (s Shadow) String() string { return "shadow" }

type Fld struct {
	time.Duration
	String int
}

type inner struct{ N int }

func (inner) String() string { return "inner" }

type Mix struct {
	inner
	time.Duration
}

type Mix2 struct {
	time.Month
}

type Deeper struct {
	Mix2
}

type Amb struct {
	time.Duration
	time.Month
}

type PD struct {
	*time.Duration
	K int
}

func main() {
	fmt.Println(Shadow{3, 4}, Fld{3, 4}, Mix{inner{1}, 5}, Deeper{Mix2{3}}, []Deeper{{Mix2{4}}})
	fmt.Println(Amb{1, 2}, []Amb{{}}, map[Amb]string{{1, 1}: "z"}, &Amb{3, 3})
	var a any = Amb{1, 2}
	fmt.Printf("%v %d %+v %6.2v|\n", a, Amb{}, Amb{}, Amb{})
	var pd PD
	fmt.Println(pd)
	d := time.Minute
	pd.Duration = &d
	fmt.Println(pd, &pd, []PD{pd})
}
`, `shadow {3ns 4} {{1} 5ns} March [April]
{1ns February} [{0s %!Month(0)}] map[{1ns January}:z] &{3ns March}
{1ns February} {0 0} {Duration:0s Month:%!Month(0)} {    0s     %!}|
%!v(PANIC=String method: runtime error: invalid memory address or nil pointer dereference)
1m0s 1m0s [1m0s]
`},
		{"%d of a struct embedding time.Month prints its fields (188)", `package main

import (
	"fmt"
	"strings"
	"time"
)

type Month struct {
	time.Month
	Days int
}

func main() {
	d := fmt.Sprintf("%d", Month{time.June, 30})
	fmt.Println(d == "{6 30}", strings.HasPrefix(d, "{{6 30} "))
	p := fmt.Sprintf("%+d", Month{time.June, 30})
	fmt.Println(p == "{+6 +30}", strings.Count(p, " "))
	fmt.Printf("%v %s\n", Month{time.June, 30}, Month{time.May, 31})
}
`, `true false
true 1
June May
`},
		{"verbs that call no method, a nested pointer to a struct embedding *bytes.Buffer (188)", `package main

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

type BP struct {
	*bytes.Buffer
}

type Wait struct {
	time.Duration
	Label string
}

func main() {
	b := BP{bytes.NewBufferString("buf")}
	ps := []*BP{&b}
	s := fmt.Sprintf("%v %s %t", ps, ps, strings.HasPrefix(fmt.Sprintf("%d", ps), "[0x"))
	fmt.Println(s, strings.Count(fmt.Sprintf("%d", b), "{"))
	fmt.Printf("%q %x\n", b, &b)
	fmt.Printf("%+d|%x %X % x\n", Wait{3, "a"}, Wait{3, "a"}, &Wait{4, "b"}, []Wait{{5, "c"}})
	fmt.Printf("%t %e\n", Wait{3, "a"}, Wait{3, "a"})
	fmt.Println(fmt.Errorf("e: %v %d", Wait{3, "a"}, Wait{3, "a"}))
	type local struct {
		time.Month
		x int
	}
	fmt.Println(local{5, 1}, []local{{6, 2}})
	fmt.Printf("%#v %+v %d\n", local{5, 1}, local{7, 3}, local{5, 1})
}
`, `[buf] [buf] false 1
"buf" 627566
{+3 %!d(string=a)}|336e73 346E73 [35 6e 73]
{%!t(time.Duration=3) %!t(string=a)} {%!e(time.Duration=3) %!e(string=a)}
e: 3ns {3 %!d(string=a)}
May [June]
main.local{Month:5, x:1} July {5 1}
`},
		{"through a nil embedded script pointer, beside an embedded interface, an alias (187, 188)", `package main

import (
	"fmt"
	"strconv"
	"time"
)

type Wait struct {
	time.Duration
	Label string
}

type A struct {
	*Wait
	n int
}

type E2 struct {
	error
	*strconv.NumError
}

type S2 struct {
	fmt.Stringer
	time.Duration
}

type S3 struct {
	fmt.Stringer
	X int
}

type Alias = time.Duration

type AL struct {
	Alias
	y int
}

func main() {
	fmt.Println(A{&Wait{1, "a"}, 1}, []A{{nil, 2}}, &A{})
	_, err := strconv.Atoi("q")
	fmt.Println(E2{nil, err.(*strconv.NumError)}, S2{time.Second, 2}, S3{time.Second, 3}, AL{5, 1})
}
`, `1ns [%!v(PANIC=String method: runtime error: invalid memory address or nil pointer dereference)] %!v(PANIC=String method: runtime error: invalid memory address or nil pointer dereference)
{<nil> strconv.Atoi: parsing "q": invalid syntax} {1s 2ns} 1s 5ns
`},
	})
}
