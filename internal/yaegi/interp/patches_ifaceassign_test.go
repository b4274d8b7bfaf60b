package interp

import "testing"

// TestScriptIfaceToNativeIface checks patch 213: a value of a script
// interface type converted to a native interface type (a var
// declaration, an assignment, a conversion, a struct field, a result, a
// slice or map element, append) is the held value converted as a value of
// its own type: io.WriteString calls its WriteString (the wrapper had the
// native interface's methods only, and Write was called), an assertion
// finds its type, and a nil one is a nil interface (it panicked). A value
// without WriteString, a native value held, error, sort.Interface and a
// nil pointer held stay right. Each want is what go run prints.
func TestScriptIfaceToNativeIface(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"script interface to io.Writer keeps WriteString", `package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

type Sink interface {
	Write(p []byte) (int, error)
}

type tagged struct{ out strings.Builder }

func (t *tagged) Write(p []byte) (int, error) { return t.out.Write(p) }

func (t *tagged) WriteString(s string) (int, error) {
	return t.out.WriteString("<" + s + ">")
}

type plain struct{ out strings.Builder }

func (t *plain) Write(p []byte) (int, error) { return t.out.Write(p) }

type holder struct{ W io.Writer }

func asWriter(s Sink) io.Writer { return s }

func main() {
	tg := &tagged{}
	var s Sink = tg
	var w io.Writer = s
	io.WriteString(w, "a")
	var w2 io.Writer
	w2 = s
	io.WriteString(w2, "b")
	io.WriteString(io.Writer(s), "c")
	h := holder{W: s}
	io.WriteString(h.W, "d")
	h.W = s
	io.WriteString(h.W, "e")
	io.WriteString(asWriter(s), "f")
	ws := []io.Writer{s}
	io.WriteString(ws[0], "g")
	m := map[string]io.Writer{"k": s}
	io.WriteString(m["k"], "h")
	ws = append(ws, s)
	io.WriteString(ws[1], "i")
	w3 := w
	io.WriteString(w3, "j")
	fmt.Fprint(w, "k")
	fmt.Println(tg.out.String())
	p := &plain{}
	s = p
	w = s
	io.WriteString(w, "a")
	fmt.Println(p.out.String())
	var b bytes.Buffer
	s = &b
	w = s
	io.WriteString(w, "x")
	fmt.Println(b.String())
	s = nil
	w = s
	fmt.Println(w == nil)
	_, isSW := w.(io.StringWriter)
	fmt.Println(isSW)
	s = tg
	w = s
	_, isSW = w.(io.StringWriter)
	fmt.Println(isSW)
	_, isT := w.(*tagged)
	fmt.Println(isT)
}
`, `<a><b><c><d><e><f><g><h><i><j>k
a
x
true
false
true
true
`},
		{"script interfaces to error, sort.Interface, io.Writer", `package main

import (
	"errors"
	"fmt"
	"io"
	"sort"
)

type Sink interface {
	Write(p []byte) (int, error)
	Name() string
}

type val struct{ tag string }

func (v val) Write(p []byte) (int, error) { fmt.Println(v.tag, "Write", string(p)); return len(p), nil }
func (v val) Name() string                 { return v.tag }


type E interface{ Error() string }

type myErr struct{ code int }

func (m *myErr) Error() string { return fmt.Sprint("code ", m.code) }

type Lister interface {
	Len() int
	Less(i, j int) bool
	Swap(i, j int)
}

type ints []int

func (x ints) Len() int           { return len(x) }
func (x ints) Less(i, j int) bool { return x[i] > x[j] }
func (x ints) Swap(i, j int)      { x[i], x[j] = x[j], x[i] }

type nilp struct{}

func (p *nilp) Write(b []byte) (int, error) { fmt.Println("nilp", p == nil); return len(b), nil }
func (p *nilp) Name() string                 { return "nilp" }

func main() {
	var s Sink = val{"v"}
	var w io.Writer = s
	io.WriteString(w, "a")
	fmt.Fprintf(w, "%d", 3)
	_, ok := w.(val)
	fmt.Println(ok)
	s2, ok := w.(Sink)
	fmt.Println(ok, s2.Name())
	var x E = &myErr{7}
	var err error = x
	fmt.Println(err)
	var me *myErr
	fmt.Println(errors.As(err, &me), me.code)
	is := ints{3, 1, 2}
	var l Lister = is
	var si sort.Interface = l
	sort.Sort(si)
	fmt.Println(l)
	var np *nilp
	s = np
	w = s
	fmt.Println(w == nil)
	w.Write([]byte("z"))
	fmt.Printf("%T\n", w)
	var s3 Sink
	w = s3
	fmt.Println(w == nil)
	ws := make([]io.Writer, 0)
	ws = append(ws, Sink(val{"q"}))
	io.WriteString(io.MultiWriter(ws...), "m")
}
`, `v Write a
v Write 3
true
true v
code 7
true 7
[3 2 1]
false
nilp true
*main.nilp
true
q Write m
`},
	})
}

// TestEmbeddedNativePtrMethod checks patch 214: a native method promoted
// through an embedded pointer field of a script struct (struct{
// *time.Time }) is the method of its name: the index in time.Time's
// method set was used on a *time.Time, another method (e.Year() failed
// with reflect: Call with too few input arguments, e.Nanosecond() called
// Month). A method value reads the value pointed to when taken, pointer
// methods (UnmarshalJSON, *strings.Builder's) act on the pointer, and a
// nil embedded pointer panics with Go's nil dereference. Each want is
// what go run prints.
func TestEmbeddedNativePtrMethod(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"methods of an embedded *time.Time", `package main

import (
	"fmt"
	"time"
)

type Ev struct {
	*time.Time
	Name string
}

func main() {
	t := time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)
	e := Ev{Time: &t, Name: "x"}
	fmt.Println(e.Format("2006-01-02"))
	fmt.Println(e.Year())
	fmt.Println(e.Unix())
	fmt.Println(e.IsZero())
	fmt.Println(e.Month(), e.Day())
	pe := &e
	fmt.Println(pe.Year(), pe.YearDay())
	f := e.Year
	fmt.Println(f())
	e.Time = nil
	defer func() { fmt.Println("recovered:", recover()) }()
	fmt.Println(e.Year())
}
`, `2024-03-05
2024
1709632800
false
March 5
2024 65
2024
recovered: runtime error: invalid memory address or nil pointer dereference
`},
		{"embedded native pointers: value, pointer and nil", `package main

import (
	"fmt"
	"strings"
	"time"
)

type Ev struct {
	Name string
	*time.Time
}

type Doc struct {
	*strings.Builder
	n int
}

type Deep struct{ Ev }

func main() {
	t := time.Date(2024, 3, 5, 10, 11, 12, 13, time.UTC)
	e := Ev{"x", &t}
	fmt.Println(e.Nanosecond(), e.Minute(), e.Second(), e.Hour(), e.Weekday())
	fmt.Println(e.Unix(), e.IsZero(), e.UnixMilli())
	y, m, d := e.Date()
	fmt.Println(y, m, d, e.String())
	f := e.Year
	t2 := time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC)
	*e.Time = t2
	fmt.Println(f(), e.Year())
	b, _ := e.MarshalJSON()
	fmt.Println(string(b))
	_ = e.UnmarshalJSON([]byte("\"2001-02-03T00:00:00Z\""))
	fmt.Println(t.Year(), e.Year())
	pe := &e
	fmt.Println(pe.Month(), pe.Add(time.Hour).Hour())
	dd := Deep{e}
	fmt.Println(dd.Year(), dd.YearDay())
	doc := Doc{&strings.Builder{}, 0}
	doc.WriteString("hi")
	doc.WriteByte('!')
	fmt.Println(doc.String(), doc.Len())
	var ze Ev
	func() {
		defer func() { fmt.Println("recovered:", recover()) }()
		fmt.Println(ze.Year())
	}()
	func() {
		defer func() { fmt.Println("recovered:", recover()) }()
		fmt.Println(ze.IsZero())
	}()
	func() {
		defer func() { fmt.Println("recovered:", recover()) }()
		g := ze.Unix
		fmt.Println("not reached", g)
	}()
	var np *Ev
	func() {
		defer func() { fmt.Println("recovered:", recover()) }()
		fmt.Println(np.Year())
	}()
}
`, `13 11 12 10 Tuesday
1709633472 false 1709633472000
2024 March 5 2024-03-05 10:11:12.000000013 +0000 UTC
2024 1999
"1999-01-01T00:00:00Z"
2001 2001
February 1
2001 34
hi! 3
recovered: runtime error: invalid memory address or nil pointer dereference
recovered: runtime error: invalid memory address or nil pointer dereference
recovered: runtime error: invalid memory address or nil pointer dereference
recovered: runtime error: invalid memory address or nil pointer dereference
`},
	})
}
