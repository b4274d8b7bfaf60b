package interp

import "testing"

// TestScriptRuneScanner checks patch 208: a script reader converted to
// io.Reader keeps its ReadRune and UnreadRune (io.RuneScanner, which
// fmt.Fscan, Fscanf and Fscanln probe and read through), with WriteTo
// too; the
// wrapper had Read only, so the native code read through Read. A reader
// without them, and one promoting a native reader's, stay right. Each
// want is what go run prints.
func TestScriptRuneScanner(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"fmt scans through a script rune scanner", `package main

import (
	"bytes"

	"fmt"
	"io"
	"strings"
)

type upper struct {
	s     []rune
	i     int
	runes int
	reads int
}

func (u *upper) Read(p []byte) (int, error) {
	u.reads++
	if u.i >= len(u.s) {
		return 0, io.EOF
	}
	n := copy(p, string(u.s[u.i:u.i+1]))
	u.i++
	return n, nil
}

func (u *upper) ReadRune() (rune, int, error) {
	u.runes++
	if u.i >= len(u.s) {
		return 0, 0, io.EOF
	}
	r := u.s[u.i]
	u.i++
	if r >= 'a' && r <= 'z' {
		r -= 'a' - 'A'
	}
	return r, 1, nil
}

func (u *upper) UnreadRune() error { u.i--; return nil }

type counted struct {
	r     *strings.Reader
	bytes int
	reads int
}

func (c *counted) Read(p []byte) (int, error) { c.reads++; return c.r.Read(p) }
func (c *counted) ReadByte() (byte, error)    { c.bytes++; return c.r.ReadByte() }

type both struct {
	*upper
	wt int
}

func (b *both) WriteTo(w io.Writer) (int64, error) {
	b.wt++
	n, err := io.WriteString(w, "[wt]")
	return int64(n), err
}

type plain struct{ r *strings.Reader }

func (p plain) Read(b []byte) (int, error) { return p.r.Read(b) }

type emb struct{ *strings.Reader }

func main() {
	u := &upper{s: []rune("abc 12\nxy")}
	var a, c string
	var n int
	k, err := fmt.Fscanln(u, &a, &n)
	fmt.Println(k, err, a, n, u.runes > 0, u.reads)
	fmt.Fscan(u, &c)
	fmt.Println(c)

	cr := &counted{r: strings.NewReader("<a><B>hi</B></a>")}
	var v struct{ B string }
	_, _ = v, cr

	b := &both{upper: &upper{s: []rune("q 7")}}
	var s string
	var m int
	fmt.Fscan(b, &s, &m)
	var buf bytes.Buffer
	io.Copy(&buf, b)
	fmt.Println(s, m, b.runes > 0, b.reads, b.wt, buf.String())

	var x, y int
	fmt.Fscan(plain{strings.NewReader("3 4")}, &x, &y)
	fmt.Println(x, y)
	var w1, w2 string
	fmt.Fscan(emb{strings.NewReader("hello world")}, &w1, &w2)
	fmt.Println(w1, w2)
	var r io.Reader = u
	_, ok := r.(io.RuneScanner)
	fmt.Println(ok)
}
`, `2 <nil> ABC 12 true 0
XY
Q 7 true 0 1 [wt]
3 4
hello world
true
`},
	})
}

// TestScriptIfaceNativeArg checks patch 209: a value of a script
// interface type given to a native io.Writer or io.Reader parameter is
// converted as the value it holds is (the call panicked: reflect: Call
// using *struct as type io.Writer), with the held value's WriteString;
// a native value held, and fmt.Fprintf, stay right. The want is what go
// run prints.
func TestScriptIfaceNativeArg(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"script interface to a native interface parameter", `package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
)

type W struct{ n int }

func (w *W) Write(p []byte) (int, error) { w.n += len(p); fmt.Printf("write %q\n", p); return len(p), nil }

type WS struct{ W }

func (w *WS) WriteString(s string) (int, error) { fmt.Printf("ws %q\n", s); return len(s), nil }

type Sink interface{ Write([]byte) (int, error) }

type Src interface{ Read([]byte) (int, error) }

type R struct{ r *strings.Reader }

func (r R) Read(p []byte) (int, error) { return r.r.Read(p) }

func main() {
	w := &W{}
	var s Sink = w
	io.WriteString(s, "b")
	fmt.Fprintf(s, "x%d", 1)
	var s2 Sink = &WS{}
	io.WriteString(s2, "c")
	var buf bytes.Buffer
	var s3 Sink = &buf
	io.WriteString(s3, "native")
	fmt.Println(w.n, buf.String())
	var src Src = R{strings.NewReader("line1\nline2\n")}
	sc := bufio.NewScanner(src)
	for sc.Scan() {
		fmt.Println(sc.Text())
	}
	n, err := io.Copy(s, src)
	fmt.Println(n, err)
	bw := bufio.NewWriter(s2)
	bw.WriteString("buffered")
	bw.Flush()
}
`, `write "b"
write "x1"
ws "c"
3 native
line1
line2
0 <nil>
write "buffered"
`},
	})
}
