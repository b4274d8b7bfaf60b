package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNativeInterfaceValues checks patch 152: a script value in a
// variable of a native interface type (fmt.Stringer, io.Writer, error,
// sort.Interface) is the interpreter's wrapper of it, which fmt printed
// (%T named stdlib._fmt_Stringer, %v of an io.Writer holding a struct
// printed the wrapper's fields), encoding/json failed to marshal
// ("unsupported type: func() string") and == could not compare. Each want
// is what go run prints.
func TestNativeInterfaceValues(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"stdlib interface values print as the value they hold (fmt.Stringer, io.Writer)", `package main

import (
	"fmt"
	"io"
)

type Money struct{ Cents int }

func (m Money) String() string { return fmt.Sprintf("$%d.%02d", m.Cents/100, m.Cents%100) }

type Sink struct {
	N    int
	name string
}

func (s *Sink) Write(p []byte) (int, error) { s.N += len(p); return len(p), nil }

type Plain struct{ A, B int }

func (p Plain) Write(b []byte) (int, error) { return len(b), nil }

func main() {
	var s fmt.Stringer = Money{1250}
	fmt.Printf("%T %v %+v %s %q %d %#v\n", s, s, s, s, s, s, s)
	fmt.Println(s, fmt.Sprint(s))
	items := []fmt.Stringer{Money{5}, Money{199}}
	fmt.Println(items, len(items))
	fmt.Printf("%T %v %#v %T\n", items, items, items, items[0])
	var w io.Writer = &Sink{name: "x"}
	fmt.Fprintf(w, "hello")
	fmt.Printf("%T %v %+v %#v\n", w, w, w, w)
	var w2 io.Writer = Plain{1, 2}
	fmt.Printf("%T %v %+v %#v\n", w2, w2, w2, w2)
	fmt.Println(w2)
	m := map[string]fmt.Stringer{"a": Money{1}}
	fmt.Printf("%v %T\n", m, m)
	arr := [2]io.Writer{Plain{3, 4}, nil}
	fmt.Printf("%v %#v\n", arr, arr)
}
`, `main.Money $12.50 $12.50 $12.50 "$12.50" {1250} main.Money{Cents:1250}
$12.50 $12.50
[$0.05 $1.99] 2
[]fmt.Stringer [$0.05 $1.99] []fmt.Stringer{main.Money{Cents:5}, main.Money{Cents:199}} main.Money
*main.Sink &{5 x} &{N:5 name:x} &main.Sink{N:5, name:"x"}
main.Plain {1 2} {A:1 B:2} main.Plain{A:1, B:2}
{1 2}
map[a:$0.01] map[string]fmt.Stringer
[{3 4} <nil>] [2]io.Writer{main.Plain{A:3, B:4}, io.Writer(nil)}
`},
		{"error values print as the value they hold for every verb", `package main

import (
	"errors"
	"fmt"
)

type MyErr struct{ Code int }

func (e MyErr) Error() string { return fmt.Sprintf("code %d", e.Code) }

type PErr struct{ Msg string }

func (e *PErr) Error() string { return e.Msg }

func main() {
	var e error = MyErr{7}
	fmt.Printf("%d|%x|%v|%s|%q|%+v|%T|%#v\n", e, e, e, e, e, e, e, e)
	es := []error{MyErr{1}, nil}
	fmt.Printf("%d %v %#v\n", es, es, es)
	var pe error = &PErr{"p"}
	fmt.Printf("%v %+v %T\n", pe, pe, pe)
	var ne error
	fmt.Printf("%#v %v\n", ne, ne)
	err := fmt.Errorf("wrap %w: %v %d %T", e, e, e, e)
	fmt.Println(err, errors.Unwrap(err) == e)
}
`, `{7}|636f64652037|code 7|code 7|"code 7"|code 7|main.MyErr|main.MyErr{Code:7}
[{1} <nil>] [code 1 <nil>] []error{main.MyErr{Code:1}, error(nil)}
p p *main.PErr
<nil> <nil>
wrap code 7: code 7 {7} main.MyErr true
`},
		{"structs, slices, maps and any holding native interface values", `package main

import (
	"fmt"
	"io"
	"strings"
)

type Money struct{ Cents int }

func (m Money) String() string { return fmt.Sprintf("$%d", m.Cents) }

type Plain struct{ A int }

func (p Plain) Write(b []byte) (int, error) { return len(b), nil }

type MyErr struct{ Code int }

func (e MyErr) Error() string { return "my error" }

type Outer struct {
	S   fmt.Stringer
	W   io.Writer
	Err error
	s   fmt.Stringer
	w   io.Writer
}

func main() {
	o := Outer{S: Money{1}, W: Plain{2}, Err: MyErr{3}, s: Money{4}, w: Plain{5}}
	fmt.Printf("%v\n%+v\n", o, o)
	fmt.Printf("%#v\n", o)
	var s fmt.Stringer = Money{6}
	var x any = s
	xs := []any{s, Plain{7}, io.Writer(Plain{8})}
	fmt.Printf("%T %v %v %T %T\n", x, x, xs, xs[0], xs[2])
	f := func() fmt.Stringer { return Money{9} }
	fmt.Printf("%T %v\n", f(), f())
	ch := make(chan fmt.Stringer, 1)
	ch <- s
	v := <-ch
	fmt.Printf("%T %v\n", v, v)
	var r io.Reader = strings.NewReader("abc")
	rs := []io.Reader{r}
	t := fmt.Sprintf("%#v", rs)
	fmt.Println(strings.HasPrefix(t, "[]io.Reader{(*strings.Reader)(0x"), fmt.Sprintf("%T", r))
}
`, `{$1 {2} my error {4} {5}}
{S:$1 W:{A:2} Err:my error s:{Cents:4} w:{A:5}}
main.Outer{S:main.Money{Cents:1}, W:main.Plain{A:2}, Err:main.MyErr{Code:3}, s:main.Money{Cents:4}, w:main.Plain{A:5}}
main.Money $6 [$6 {7} {8}] main.Money main.Plain
main.Money $9
main.Money $6
true *strings.Reader
`},
		{"a script interface's value converted to a native interface names its own type", `package main

import "fmt"

type Money struct{ Cents int }

func (m Money) String() string { return fmt.Sprintf("$%d", m.Cents) }

type Shape interface{ String() string }

type MyErr struct{ Code int }

func (e MyErr) Error() string { return "e" }

type Failure interface{ error }

func main() {
	var sh Shape = Money{4}
	var s fmt.Stringer = sh
	fmt.Printf("%T %v %#v\n", s, s, s)
	var fl Failure = MyErr{2}
	var e error = fl
	fmt.Printf("%T %#v\n", e, e)
	_, ok := s.(Shape)
	m, ok2 := s.(Money)
	fmt.Println(ok, m, ok2)
}
`, `main.Money $4 main.Money{Cents:4}
main.MyErr main.MyErr{Code:2}
true $4 true
`},
		{"json marshals the value a native interface holds", `package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

type Money struct{ Cents int }

func (m Money) String() string { return fmt.Sprintf("$%d", m.Cents) }

type JM struct{ X int }

func (j JM) String() string              { return "jm" }
func (j JM) MarshalJSON() ([]byte, error) { return []byte(` + "`" + `"custom"` + "`" + `), nil }

type TM struct{ X int }

func (t TM) String() string               { return "tm" }
func (t TM) MarshalText() ([]byte, error) { return []byte("text"), nil }

type Sink struct{ N int }

func (s *Sink) Write(p []byte) (int, error) { return len(p), nil }

type MyErr struct{ Code int }

func (e MyErr) Error() string { return "e" }

type Tagged struct {
	S fmt.Stringer ` + "`" + `json:"s,omitempty"` + "`" + `
	E error        ` + "`" + `json:"e"` + "`" + `
	W io.Writer    ` + "`" + `json:"-"` + "`" + `
	X any          ` + "`" + `json:"x"` + "`" + `
}

func main() {
	var s fmt.Stringer = Money{1250}
	b, err := json.Marshal(s)
	fmt.Println(string(b), err)
	b, err = json.Marshal([]fmt.Stringer{Money{5}, JM{1}, TM{2}})
	fmt.Println(string(b), err)
	b, err = json.MarshalIndent(map[string]fmt.Stringer{"a": s}, "", " ")
	fmt.Println(string(b), err)
	var w io.Writer = &Sink{3}
	var e error = MyErr{4}
	b, err = json.Marshal([]any{w, e, s, nil})
	fmt.Println(string(b), err)
	b, err = json.Marshal(Tagged{S: s, E: e, W: w, X: s})
	fmt.Println(string(b), err)
	b, err = json.Marshal(Tagged{})
	fmt.Println(string(b), err)
	var sb strings.Builder
	fmt.Println(json.NewEncoder(&sb).Encode(s), sb.String())
	b, err = json.Marshal(errors.New("native"))
	fmt.Println(string(b), err)
}
`, `{"Cents":1250} <nil>
[{"Cents":5},"custom","text"] <nil>
{
 "a": {
  "Cents": 1250
 }
} <nil>
[{"N":3},{"Code":4},{"Cents":1250},null] <nil>
{"s":{"Cents":1250},"e":{"Code":4},"x":{"Cents":1250}} <nil>
{"e":null,"x":null} <nil>
<nil> {"Cents":1250}

{} <nil>
`},
		{"json errors of a held value are Go's", `package main

import (
	"encoding/json"
	"errors"
	"fmt"
)

type Bad struct{ X int }

func (b Bad) String() string              { return "bad" }
func (b Bad) MarshalJSON() ([]byte, error) { return nil, errors.New("boom") }

type Ch struct{ C chan int }

func (c Ch) String() string { return "ch" }

func main() {
	var s fmt.Stringer = Bad{1}
	_, err := json.Marshal(s)
	fmt.Println(err)
	_, err = json.Marshal([]fmt.Stringer{Bad{1}})
	fmt.Println(err)
	var c fmt.Stringer = Ch{make(chan int)}
	_, err = json.Marshal(c)
	fmt.Println(err)
	_, err = json.Marshal(map[string]any{"a": c})
	fmt.Println(err)
}
`, `json: error calling MarshalJSON for type main.Bad: boom
json: error calling MarshalJSON for type main.Bad: boom
json: unsupported type: chan int
json: unsupported type: chan int
`},
		{"== compares the values native interfaces hold", `package main

import "fmt"

type Money struct{ Cents int }

func (m Money) String() string { return fmt.Sprintf("$%d", m.Cents) }

type MyErr struct{ Code int }

func (e MyErr) Error() string { return "e" }

func main() {
	var s fmt.Stringer = Money{3}
	var s2 fmt.Stringer = Money{3}
	var s3 fmt.Stringer = Money{4}
	fmt.Println(s == s2, s == s3, s != s2, s == Money{3}, s == fmt.Stringer(Money{3}))
	var x any = s
	fmt.Println(x == s, x == Money{3}, x == any(Money{3}), any(Money{3}) == x)
	var e error = MyErr{1}
	var y any = MyErr{1}
	fmt.Println(y == any(e), e == MyErr{1})
	m := map[any]int{}
	m[s]++
	m[Money{3}]++
	m[x]++
	fmt.Println(len(m), m[Money{3}])
	for k := range m {
		fmt.Printf("%T %v\n", k, k)
	}
}
`, `true false false true true
true true true true
true true
1 3
main.Money $3
`},
		{"a native interface value in sort, heap and Errorf", `package main

import (
	"container/heap"
	"fmt"
	"sort"
)

type byLen []string

func (b byLen) Len() int           { return len(b) }
func (b byLen) Less(i, j int) bool { return len(b[i]) < len(b[j]) }
func (b byLen) Swap(i, j int)      { b[i], b[j] = b[j], b[i] }

type IntHeap []int

func (h IntHeap) Len() int           { return len(h) }
func (h IntHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h IntHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *IntHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *IntHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

type Money struct{ Cents int }

func (m Money) String() string { return fmt.Sprintf("$%d", m.Cents) }

func main() {
	var si sort.Interface = byLen{"ccc", "a", "bb"}
	sort.Sort(si)
	fmt.Println(si)
	fmt.Printf("%T %v\n", si, si)
	var hi heap.Interface = &IntHeap{5, 2, 8}
	heap.Init(hi)
	fmt.Printf("%T %v %v\n", hi, heap.Pop(hi), hi)
	var s fmt.Stringer = Money{3}
	err := fmt.Errorf("s=%v %+v %T %d", s, s, s, s)
	fmt.Println(err)
}
`, `[a bb ccc]
main.byLen [a bb ccc]
*main.IntHeap 2 &[5 8]
s=$3 $3 main.Money {3}
`},
	})
}

// TestNativeInterfaceMapKey checks patch 152's loud sub-case: a script
// value held in a native interface is a key of a map of that interface
// type. Go hashes the value; the interpreter's wrapper has func fields
// and cannot be hashed, so the store fails naming the construct and the
// line, instead of Go's run-time error for a type the script never
// wrote (hash of unhashable type stdlib._fmt_Stringer).
func TestNativeInterfaceMapKey(t *testing.T) {
	for _, body := range []string{
		// a key written of the script type, Money{1} in a literal, is patch 167's compile error
		"m := map[fmt.Stringer]int{}\n\tvar s fmt.Stringer = Money{1}\n\tm[s] = 1",
		"m := map[error]int{}\n\tvar e error = Failure{}\n\tm[e]++",
	} {
		src := "package main\n\nimport \"fmt\"\n\ntype Money struct{ Cents int }\n\n" +
			"func (m Money) String() string { return \"m\" }\n\ntype Failure struct{}\n\n" +
			"func (Failure) Error() string { return \"f\" }\n\nfunc main() {\n\t" + body + "\n}\n"
		_, err := runStmtProgram(t, src)
		require.Error(t, err, body)
		require.Contains(t, err.Error(), "used as a map key is not supported", body)
		require.Regexp(t, `^\d+:\d+: a script value held in an interface of type (fmt\.Stringer|error) used`, err.Error(), body)
	}
}
