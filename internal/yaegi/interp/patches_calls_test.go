package interp

import (
	"bytes"
	"io"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCallResultsStartAtZero checks patch 79: each call from one call site
// starts with zero results, whatever the previous call from that site
// returned.
func TestCallResultsStartAtZero(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"named result summed in a loop", `
import "fmt"
func g(id int) (n int) { n += id; return n }
func main() {
	for _, id := range []int{1, 2, 3} { fmt.Print(g(id), " ") }
}`, "1 2 3 "},
		{"named slice result appended in a loop", `
import "fmt"
func h(id int) (out []int) { out = append(out, id); return }
func main() {
	for i := 0; i < 3; i++ { fmt.Print(h(i), " ") }
}`, "[0] [1] [2] "},
		{"recovered panic returns zero values", `
import "fmt"
func plain(x int) int {
	defer func() { recover() }()
	if x > 1 { panic("big") }
	return x * 10
}
func named(x int) (r int, err error) {
	defer func() { recover() }()
	if x > 1 { panic("big") }
	return x * 10, fmt.Errorf("e%d", x)
}
func main() {
	for _, x := range []int{1, 2} {
		r, err := named(x)
		fmt.Print(plain(x), " ", r, " ", err, "; ")
	}
}`, "10 10 e1; 0 0 <nil>; "},
		{"an argument read from the result slot", `
import "fmt"
func twice(n int) (m int) { m += n * 2; return }
func main() {
	n := 3
	for i := 0; i < 2; i++ { n = twice(n) }
	fmt.Print(n)
}`, "12"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, runOutput(t, c.src))
		})
	}
}

// TestSelectSendEvaluatesValue checks patch 80: a select's send case
// evaluates the operands of the value it sends.
func TestSelectSendEvaluatesValue(t *testing.T) {
	got := runOutput(t, `
import "fmt"
type P struct { Name string; Price float64 }
func twice(p P) float64 { return p.Price * 2 }
func main() {
	p := P{"z", 3}
	ch := make(chan P, 1)
	fs := make(chan float64, 1)
	chs := []chan float64{fs}
	select {
	case ch <- P{p.Name, p.Price}:
	}
	select {
	case chs[len(chs)-1] <- twice(P{p.Name, p.Price + 1}):
	default:
		fmt.Print("full ")
	}
	fmt.Print(<-ch, " ", <-fs)
}`)
	assert.Equal(t, "{z 3} 8", got)
}

// TestUnnamedParameters checks patch 81: an unnamed parameter has its own
// frame slot, so the argument a call copies there overwrites no local.
func TestUnnamedParameters(t *testing.T) {
	got := runOutput(t, `
import (
	"fmt"
	"strings"
)
type fe struct{ attempt int }
func (e fe) Error() string { return fmt.Sprint("busy ", e.attempt) }
type H struct{ n int }
func (h H) Handle(string, int) (H, error) { x := H{h.n + 1}; return x, fe{x.n} }
func first(int, string) (int, error) { a := []int{4, 5}; return a[1], fe{2} }
func main() {
	f := func(int) (int, error) { return 0, fe{1} }
	fmt.Println(f(1))
	fmt.Println(first(1, "x"))
	fmt.Println(H{3}.Handle("a", 2))
	fmt.Println(strings.Map(func(rune) rune { r := 'z'; return r }, "ab"))
}`)
	assert.Equal(t, "0 busy 1\n5 busy 2\n{4} busy 4\nzz\n", got)
}

// TestNegativeZeroArgument checks patch 82: a negative zero passed to a
// function (alone or in a struct) keeps its sign.
func TestNegativeZeroArgument(t *testing.T) {
	got := runOutput(t, `
import (
	"fmt"
	"math"
)
type Pt struct{ X, Y float64 }
func id(x float64) float64 { return x }
func gen[T float64 | int](x T, ys ...T) T { return x }
func sign(p Pt) bool { return math.Signbit(p.X) }
func main() {
	z := 0.0
	nz := -z
	fmt.Print(math.Signbit(id(nz)), math.Signbit(gen(nz, z)), sign(Pt{X: nz}), sign(Pt{}))
}`)
	assert.Equal(t, "true true true false", got)
}

// TestReceiveAssigns checks patch 83: a value received from a channel and
// assigned to an element, a field, a dereferenced pointer, a variable a
// pointer or closure shares, an interface variable, or returned, lands
// where Go puts it.
func TestReceiveAssigns(t *testing.T) {
	got := runOutput(t, `
import "fmt"
type T struct{ F int }
type S interface{ Name() string }
type N string
func (n N) Name() string { return string(n) }
func first(ch chan bool) bool { return <-ch }
func name(ch chan N) S { return <-ch }
func main() {
	ch := make(chan int, 9)
	for i := range 9 { ch <- i + 1 }
	arr := []int{0, 0}
	arr[1] = <-ch
	t := T{}
	t.F = <-ch
	pt := &T{}
	pt.F = <-ch
	x := 0
	p := &x
	*p = <-ch
	y := 0
	py := &y
	inc := func() { y++ }
	y = <-ch
	inc()
	var s S
	cn := make(chan N, 2)
	cn <- "ann"
	s = <-cn
	cn <- "bo"
	cb := make(chan bool, 1)
	cb <- true
	fmt.Print(arr, t, *pt, x, y, *py, s.Name(), name(cn).Name(), first(cb))
}`)
	assert.Equal(t, "[0 1] {2} {3} 4 6 6annbotrue", got)
}

// nativeCustomer is a host struct type a native function returns in a
// slice, as a typed tool's result is.
type nativeCustomer struct{ Name string }

// TestNativeElementInCompositeLiteral checks patch 84: the element type of
// a native slice or map value is known where a composite literal's
// element selects from it.
func TestNativeElementInCompositeLiteral(t *testing.T) {
	var out bytes.Buffer
	it := New(Options{Stdout: &out, Stderr: io.Discard})
	require.NoError(t, it.Use(stdlib.Symbols))
	require.NoError(t, it.Use(Exports{"shop/shop": {
		"List":  reflect.ValueOf(func() []nativeCustomer { return []nativeCustomer{{"Ada"}, {"Bo"}} }),
		"Index": reflect.ValueOf(func() map[string]nativeCustomer { return map[string]nativeCustomer{"b": {"Bo"}} }),
	}}))
	_, err := it.Eval(`
import (
	"fmt"
	"shop"
)
type match struct{ x string }
func main() {
	list := shop.List()
	idx := shop.Index()
	ms := []match{{list[1].Name}, {idx["b"].Name}}
	fmt.Print(match{list[0].Name}, ms)
}`)
	require.NoError(t, err)
	assert.Equal(t, "{Ada} [{Bo} {Bo}]", out.String())
}

// TestSingleVariableOfMultiValueCall checks patch 85: one variable cannot
// take the results of a call that returns several.
func TestSingleVariableOfMultiValueCall(t *testing.T) {
	cases := []struct{ src, want string }{
		{`import "strconv"; func main() { n := strconv.Atoi("5"); _ = n }`, "assignment mismatch: 1 variable but strconv.Atoi returns 2 values"},
		{`func two() (int, error) { return 1, nil }; func main() { var n int; n = two(); _ = n }`, "assignment mismatch: 1 variable but two returns 2 values"},
		{`func main() { f := func() (int, int) { return 1, 2 }; x := f(); _ = x }`, "assignment mismatch: 1 variable but f returns 2 values"},
	}
	for _, c := range cases {
		it := New(Options{Stdout: io.Discard, Stderr: io.Discard})
		require.NoError(t, it.Use(stdlib.Symbols))
		_, err := it.Eval(c.src)
		require.Error(t, err, c.src)
		assert.Contains(t, err.Error(), c.want)
	}
	// Every other form still compiles: two variables, a call as the
	// arguments of another, a single-result call.
	assert.Equal(t, "5 <nil> 5 <nil>\n3\n", runOutput(t, `
import ("fmt"; "strconv")
func one() int { return 3 }
func main() {
	n, err := strconv.Atoi("5")
	fmt.Print(n, " ", err, " ")
	fmt.Println(strconv.Atoi("5"))
	x := one()
	fmt.Println(x)
}`))
}

// TestUnexportedFieldsHiddenFromJSON checks patch 86: encoding/json skips
// the unexported fields of a script struct, as Go's does, whatever their
// own tags, and still flattens an embedded unexported struct type.
func TestUnexportedFieldsHiddenFromJSON(t *testing.T) {
	got := runOutput(t, `
import (
	"encoding/json"
	"fmt"
)
type inner struct{ Code int `+"`json:\"code\"`"+` }
type P struct {
	Name     string `+"`json:\"name\"`"+`
	internal int    `+"`json:\"internal\" db:\"x\"`"+`
	secret   string
	inner
}
func main() {
	b, _ := json.Marshal(P{Name: "a", internal: 7, secret: "s", inner: inner{3}})
	var p P
	err := json.Unmarshal([]byte(`+"`"+`{"name":"b","internal":9,"Xinternal":8,"secret":"z","code":4}`+"`"+`), &p)
	fmt.Print(string(b), " ", err, " ", p.Name, p.internal, p.secret, p.Code)
}`)
	assert.Equal(t, `{"name":"a","code":3} <nil> b04`, got)
	assert.Equal(t, reflect.StructTag(`json:"-" db:"x" q:"a\"b"`), hiddenFieldTag(`json:"internal" db:"x" q:"a\"b"`))
}

// TestAssertWrappedScriptErrorToScriptInterface checks patch 87: a
// script error held in an error (a function's error result) asserts to a
// script interface its type implements, in an assertion and a type
// switch.
func TestAssertWrappedScriptErrorToScriptInterface(t *testing.T) {
	got := runOutput(t, `
import "fmt"
type temporary interface{ Temporary() bool }
type flakyErr struct{ attempt int }
func (e flakyErr) Error() string   { return "busy" }
func (e flakyErr) Temporary() bool { return e.attempt < 3 }
type hardErr struct{}
func (hardErr) Error() string { return "hard" }
func get(n int) (int, error) { if n > 5 { return 0, hardErr{} }; return 0, flakyErr{n} }
func main() {
	for _, n := range []int{1, 4, 9} {
		_, err := get(n)
		t, ok := err.(temporary)
		_, ok2 := err.(interface{ Temporary() bool })
		fmt.Print(ok, ok2, " ")
		if ok {
			fmt.Print(t.Temporary(), " ")
		}
		switch x := err.(type) {
		case temporary:
			fmt.Println("temporary", x.Temporary())
		default:
			fmt.Println("other", x)
		}
	}
}`)
	assert.Equal(t, "true true true temporary true\ntrue true false temporary false\nfalse false other hard\n", got)
}

// TestErrorsAsScriptInterface checks patch 88: errors.As into a script
// interface type, named or written in place, finds the first error of the
// chain that implements it, script or native.
func TestErrorsAsScriptInterface(t *testing.T) {
	got := runOutput(t, `
import (
	"errors"
	"fmt"
)
type temporary interface{ Temporary() bool }
type busy struct{ n int }
func (e busy) Error() string   { return fmt.Sprint("busy ", e.n) }
func (e busy) Temporary() bool { return true }
type hard struct{}
func (hard) Error() string { return "hard" }
func main() {
	var t temporary
	wrapped := fmt.Errorf("call: %w", busy{2})
	fmt.Println(errors.As(wrapped, &t), t != nil && t.Temporary())
	var t2 temporary
	fmt.Println(errors.As(fmt.Errorf("x: %w", hard{}), &t2), t2 == nil)
	joined := errors.Join(hard{}, fmt.Errorf("y: %w", busy{3}))
	var t3 temporary
	fmt.Println(errors.As(joined, &t3), t3.(busy).n)
	var u interface{ Unwrap() error }
	fmt.Println(errors.As(wrapped, &u), u.Unwrap())
}`)
	assert.Equal(t, "true true\nfalse true\ntrue 3\ntrue busy 2\n", got)
}
