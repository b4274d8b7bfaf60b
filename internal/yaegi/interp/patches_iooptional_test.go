package interp

import "testing"

// TestScriptIOOptionalMethods checks toolscript patch 197: a script value given
// to native code as an io.Writer or io.Reader keeps the optional methods
// the io and bufio functions look for (WriteString, ReadFrom, WriteTo):
// io.WriteString, io.MultiWriter, bufio.Writer.WriteString and ReadFrom,
// io.Copy and bufio.Reader.WriteTo called the script's Write or Read
// instead. Each want is what go run prints.
func TestScriptIOOptionalMethods(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"own and promoted WriteString (197)", `// io.WriteString calls the writer's WriteString when it has one
// (io.StringWriter): given a script type with a WriteString method of its
// own, or one promoted from an embedded *bytes.Buffer, it calls that
// method, not the script's Write, and an assertion in the script to
// io.StringWriter says yes.
package main

import (
	"bytes"
	"fmt"
	"io"
)

type W struct{ log []string }

func (w *W) Write(p []byte) (int, error)       { w.log = append(w.log, "W:"+string(p)); return len(p), nil }
func (w *W) WriteString(s string) (int, error) { w.log = append(w.log, "S:"+s); return len(s), nil }

type CountingWriter struct {
	*bytes.Buffer
	writes int
}

func (c *CountingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.Buffer.Write(p)
}

func main() {
	w := &W{}
	io.WriteString(w, "hello")
	fmt.Fprint(w, "fp")
	fmt.Println(w.log)
	cw := &CountingWriter{Buffer: &bytes.Buffer{}}
	io.WriteString(cw, "direct;")
	var iw io.Writer = cw
	_, isSW := iw.(io.StringWriter)
	fmt.Println(cw.String(), cw.writes, isSW)
}
`, `[S:hello W:fp]
direct; 0 true
`},
		{"own and promoted WriteTo (197)", `// io.Copy uses the source's WriteTo method when it has one (io.WriterTo),
// as it uses the destination's ReadFrom: a script type with both Read and
// WriteTo given to io.Copy as the source has its WriteTo called, and so
// does one whose WriteTo is promoted from an embedded *strings.Reader and
// that overrides Read (its Read is not called).
package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

type Gen struct {
	n     int
	calls []string
}

func (g *Gen) Read(p []byte) (int, error) {
	g.calls = append(g.calls, "Read")
	if g.n == 0 {
		return 0, io.EOF
	}
	p[0] = byte('a' + g.n - 1)
	g.n--
	return 1, nil
}

func (g *Gen) WriteTo(w io.Writer) (int64, error) {
	g.calls = append(g.calls, "WriteTo")
	n, err := io.WriteString(w, strings.Repeat("z", g.n))
	g.n = 0
	return int64(n), err
}

type RS struct {
	*strings.Reader
	reads int
}

func (r *RS) Read(p []byte) (int, error) { r.reads++; return r.Reader.Read(p) }

func main() {
	rs := &RS{Reader: strings.NewReader("xyz")}
	var sb strings.Builder
	io.Copy(&sb, rs)
	fmt.Println(sb.String(), rs.reads)
	g := &Gen{n: 3}
	var buf bytes.Buffer
	n, err := io.Copy(&buf, g)
	fmt.Println(buf.String(), n, err, g.calls)
	var src io.Reader = g
	_, isWT := src.(io.WriterTo)
	fmt.Println(isWT)
}
`, `xyz 0
zzz 3 <nil> [WriteTo]
true
`},
		{"writers: WriteString, ReadFrom, value and pointer methods, a field embedded by value (197)", `package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

type W struct{ log []string }

func (w *W) Write(p []byte) (int, error)       { w.log = append(w.log, "W:"+string(p)); return len(p), nil }
func (w *W) WriteString(s string) (int, error) { w.log = append(w.log, "S:"+s); return len(s), nil }

type RF struct{ got string }

func (r *RF) Write(p []byte) (int, error) { r.got += "W:" + string(p); return len(p), nil }
func (r *RF) ReadFrom(src io.Reader) (int64, error) {
	b, err := io.ReadAll(src)
	r.got += "RF:" + string(b)
	return int64(len(b)), err
}

type V struct{ Name string }

func (v V) Write(p []byte) (int, error)       { fmt.Println("V.Write", string(p)); return len(p), nil }
func (v V) WriteString(s string) (int, error) { fmt.Println("V.WriteString", s); return len(s), nil }

type P struct{ Name string }

func (v P) Write(p []byte) (int, error)        { fmt.Println("P.Write", string(p)); return len(p), nil }
func (v *P) WriteString(s string) (int, error) { fmt.Println("P.WriteString", s); return len(s), nil }

type Sink interface{ Write([]byte) (int, error) }

type SB struct {
	strings.Builder
	n int
}

func (s *SB) Write(p []byte) (int, error) { s.n++; return s.Builder.Write(p) }

func main() {
	w := &W{}
	var iw io.Writer = w
	io.WriteString(iw, "a")
	var s Sink = w
	_ = s
	mw := io.MultiWriter(w)
	io.WriteString(mw, "c")
	bw := bufio.NewWriterSize(w, 16)
	bw.WriteString("a long string longer than the buffer")
	bw.Flush()
	fmt.Println(w.log)
	fmt.Printf("%T %v\n", iw, iw == io.Writer(w))

	r := &RF{}
	n, err := io.Copy(r, strings.NewReader("data"))
	fmt.Println(r.got, n, err)
	r2 := &RF{}
	bw2 := bufio.NewWriter(r2)
	bw2.ReadFrom(strings.NewReader("x"))
	bw2.Flush()
	fmt.Println(r2.got)

	io.WriteString(V{"v"}, "val")
	io.WriteString(P{"p"}, "pval")
	io.WriteString(&P{"p"}, "pptr")
	b, _ := json.Marshal(struct{ W io.Writer }{V{"x"}})
	fmt.Println(string(b))

	sb := &SB{}
	io.WriteString(sb, "q")
	fmt.Fprint(sb, "r")
	fmt.Println(sb.String(), sb.n)
	var buf bytes.Buffer
	io.Copy(&buf, io.MultiReader(strings.NewReader("m")))
	fmt.Println(buf.String())
}
`, `[S:a S:c S:a long string longer than the buffer]
*main.W true
W:data 4 <nil>
RF:x
V.WriteString val
P.Write pval
P.WriteString pptr
{"W":{"Name":"x"}}
qr 1
m
`},
		{"assertions, parameters, slices, maps and MultiWriter (197)", `package main

import (
	"fmt"
	"io"
	"strings"
)

type W struct{ log []string }

func (w *W) Write(p []byte) (int, error)       { w.log = append(w.log, "W:"+string(p)); return len(p), nil }
func (w *W) WriteString(s string) (int, error) { w.log = append(w.log, "S:"+s); return len(s), nil }

func use(w io.Writer) { io.WriteString(w, "u") }

func main() {
	ww := &W{}
	var a any = ww
	w := a.(io.Writer)
	io.WriteString(w, "x")
	if sw, ok := a.(io.Writer); ok {
		io.WriteString(sw, "y")
	}
	switch v := a.(type) {
	case io.Writer:
		io.WriteString(v, "z")
	}
	use(ww)
	ws := []io.Writer{ww}
	io.WriteString(ws[0], "s")
	m := map[string]io.Writer{"k": ww}
	io.WriteString(m["k"], "m")
	var sb strings.Builder
	io.WriteString(io.MultiWriter(ww, &sb), "mw\n")
	fmt.Print(sb.String())
	fmt.Println(ww.log)
}
`, `mw
[S:x S:y S:z S:u S:s S:m S:mw
]
`},
		{"readers: bufio WriteTo, a Read-only reader, %T and assertion (197)", `package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
)

type Gen struct{ calls []string }

func (g *Gen) Read(p []byte) (int, error) { g.calls = append(g.calls, "Read"); return 0, io.EOF }
func (g *Gen) WriteTo(w io.Writer) (int64, error) {
	g.calls = append(g.calls, "WriteTo")
	n, err := io.WriteString(w, "zz")
	return int64(n), err
}

type RS struct {
	strings.Reader
	reads int
}

func (r *RS) Read(p []byte) (int, error) { r.reads++; return r.Reader.Read(p) }

type OnlyR struct{ done bool }

func (o *OnlyR) Read(p []byte) (int, error) {
	if o.done {
		return 0, io.EOF
	}
	o.done = true
	return copy(p, "only"), nil
}

func main() {
	g := &Gen{}
	var buf bytes.Buffer
	bufio.NewReader(g).WriteTo(&buf)
	fmt.Println(buf.String(), g.calls)
	rs := &RS{}
	*rs = RS{Reader: *strings.NewReader("abc")}
	var sb strings.Builder
	n, err := io.Copy(&sb, rs)
	fmt.Println(sb.String(), n, err, rs.reads)
	b, _ := io.ReadAll(&OnlyR{})
	fmt.Println(string(b))
	var r io.Reader = g
	fmt.Printf("%T\n", r)
	_, ok := r.(io.WriterTo)
	fmt.Println(ok)
}
`, `zz [WriteTo]
abc 3 <nil> 0
only
*main.Gen
true
`},
	})
}

// TestTemplateEscaperStringer checks toolscript patch 198: text/template's
// HTMLEscaper, JSEscaper and URLQueryEscaper print their arguments as
// fmt.Sprint does: a script value's String method is called, a value held
// in an any is not the interpreter's record, and the spaces between
// operands are Go's. Each want is what go run prints.
func TestTemplateEscaperStringer(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"escapers of Stringers (198)", `package main

import (
	"fmt"
	"text/template"
)

type Tag string

func (t Tag) String() string { return "<" + string(t) + ">" }

func main() {
	fmt.Println(template.HTMLEscaper(Tag("b")))
	fmt.Println(template.URLQueryEscaper(Tag("a b")))
	fmt.Println(template.HTMLEscaper(Tag("b"), 1))
	var x any = Tag("c")
	fmt.Println(template.HTMLEscaper(x))
	fmt.Println(template.JSEscaper(Tag("b")))
}
`, `&lt;b&gt;
%3Ca+b%3E
&lt;b&gt;1
&lt;c&gt;
\u003Cb\u003E
`},
	})
}

// TestDeferNativeHeldAny checks toolscript patch 199: a deferred call of a
// native function is made as the direct call is (patches 172-174): a
// deferred json.Unmarshal into a pointer held in an any decoded into the
// interpreter's record of it. Each want is what go run prints.
func TestDeferNativeHeldAny(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"deferred json.Unmarshal, sort.Slice, fmt.Println, Unlock, a panicking native (199)", `package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
)

type S struct{ A int }

func (s *S) Hello() string { return "hi" }

type T string

func (t T) String() string { return "T<" + string(t) + ">" }

func load(y any) {
	defer json.Unmarshal([]byte(` + "`" + `{"A":3}` + "`" + `), y)
}

func sorted(y any) {
	defer sort.Slice(y, func(i, j int) bool { return y.([]S)[i].A < y.([]S)[j].A })
}

func show(x any) {
	defer fmt.Println("deferred", x, T("d"))
	x = "changed"
}

func main() {
	var y any = &S{}
	load(y)
	fmt.Println(y.(*S).A)
	var z any = []S{{3}, {1}, {2}}
	sorted(z)
	fmt.Println(z)
	show(T("x"))
	var wg sync.WaitGroup
	wg.Add(1)
	var y2 any = &S{}
	go func() {
		defer wg.Done()
		json.Unmarshal([]byte(` + "`" + `{"A":5}` + "`" + `), y2)
	}()
	wg.Wait()
	fmt.Println(y2.(*S).A)
	var mu sync.Mutex
	func() {
		mu.Lock()
		defer mu.Unlock()
	}()
	func() {
		defer func() { fmt.Println("recovered", recover()) }()
		defer strings.Repeat("x", -1)
	}()
	args := []any{1, T("s")}
	func() { defer fmt.Println(args...) }()
	var y3 any = &S{}
	done := make(chan bool)
	go func() { json.Unmarshal([]byte(` + "`" + `{"A":7}` + "`" + `), y3); done <- true }()
	<-done
	fmt.Println(y3.(*S).A)
}
`, `3
[{1} {2} {3}]
deferred T<x> T<d>
5
recovered strings: negative Repeat count
1 T<s>
7
`},
		{"deferred json.Unmarshal into an any (199)", `// A deferred json.Unmarshal into a pointer held in an any decodes into
// that pointer, as the same call made directly does.
package main

import (
	"encoding/json"
	"fmt"
)

type S struct{ A int }

func (s *S) Hello() string { return "hi" }

func load(y any) {
	defer json.Unmarshal([]byte(` + "`" + `{"A":3}` + "`" + `), y)
}

func main() {
	var y any = &S{}
	load(y)
	fmt.Println(y.(*S).A)
}
`, `3
`},
	})
}
