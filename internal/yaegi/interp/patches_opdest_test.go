package interp

import "testing"

// TestOpIntoInterface checks patch 184: an operation (binary or unary)
// assigned to a destination of an interface type (a native struct's field
// of type any, e.Value of a *list.Element, a map element, a variable) or
// returned as a result of an interface type. It ended its function
// silently (e.Value = n * 10 returned zero values; return -n from a func
// returning any gave nil). Each want is what go run prints.
func TestOpIntoInterface(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"operations into any destinations", `package main

import (
	"container/heap"
	"container/list"
	"container/ring"
	"fmt"
	"strings"
)

type S struct {
	V any
	E error
}

type IntHeap []int

func (h IntHeap) Len() int           { return len(h) }
func (h IntHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h IntHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *IntHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *IntHeap) Pop() any {
	old := *h
	n := len(old)
	x := old[n-1]
	*h = old[:n-1]
	return x
}

func double(x int) int { return 2 * x }

func f(n int, a, b string) int {
	l := list.New()
	e := l.PushBack(0)
	e.Value = n * 10
	fmt.Println("mul", e.Value)
	e.Value = a + b
	fmt.Println("cat", e.Value)
	e.Value = -n
	fmt.Println("neg", e.Value)
	e.Value = n > 2
	fmt.Println("cmp", e.Value)
	e.Value = double(n)
	fmt.Println("call", e.Value)
	e.Value = S{V: n * 2}
	fmt.Println("lit", e.Value)
	e.Value = (n + 1) * 2
	fmt.Println("paren", e.Value)
	e.Value = strings.Repeat(a, 2) + b
	fmt.Println("callcat", e.Value)
	r := ring.New(2)
	r.Value = n * n
	fmt.Println("ring", r.Value)
	m := map[string]any{}
	m["k"] = n * 3
	fmt.Println("map", m["k"])
	var s S
	s.V = n * 4
	fmt.Println("script field", s.V)
	p := &S{}
	p.V = n << 1
	fmt.Println("script ptr field", p.V)
	var x any
	x = n * 5
	fmt.Println("var", x)
	xs := []any{nil}
	xs[0] = n * 6
	fmt.Println("slice", xs[0])
	var st fmt.Stringer
	_ = st
	h := &IntHeap{}
	heap.Push(h, n*7)
	fmt.Println("heap", (*h)[0])
	n2 := n
	n2 *= 3
	e.Value = n2
	fmt.Println("plain", e.Value)
	arr := [2]any{}
	arr[1] = n * 8
	fmt.Println("arr", arr[1])
	return n + 1
}

func main() {
	defer fmt.Println("deferred")
	fmt.Println("returned", f(4, "a", "b"))
}
`, `mul 40
cat ab
neg -4
cmp true
call 8
lit {8 <nil>}
paren 10
callcat aab
ring 16
map 12
script field 16
script ptr field 8
var 20
slice 24
heap 28
plain 12
arr 32
returned 5
deferred
`},
		{"the gap script", `// Assigning the value of an operator expression (i*10, a+"!", -i, i>2)
// to a field of type any of a native struct (container/list's
// Element.Value, container/ring's Ring.Value) stores nothing and ends the
// enclosing function at once, without an error: it returns its zero
// values, the caller goes on, and in main the script ends with return
// code 0. A plain variable, a call or a literal on the right works.
package main

import (
	"container/list"
	"fmt"
)

type Cache struct{ l *list.List }

func (c *Cache) Touch(n int) int {
	e := c.l.Front()
	e.Value = n * 10
	fmt.Println("stored", e.Value)
	return n + 1
}

func main() {
	defer fmt.Println("deferred")
	c := &Cache{list.New()}
	c.l.PushBack(0)
	r := c.Touch(4)
	fmt.Println("returned", r)
	fmt.Println("front", c.l.Front().Value)
}
`, `stored 40
returned 5
front 40
deferred
`},
		{"operations returned as interfaces", `package main

import (
	"fmt"
)

func g(n int) any        { return -n }
func h(n int) any        { return n * 2 }
func k(n int) error      { return nil }
func u(b bool) any       { return !b }
func w(n int) (int, any) { return n, ^n }
func v(n int) int        { return -n }

type E struct{}

func (E) Error() string { return "E" }

func z() error { var e E; return e }

func main() {
	fmt.Println(g(3), h(3), k(1), u(true))
	fmt.Println(w(3))
	fmt.Println(v(3), z())
	var x any
	x = -5
	n := 4
	x = -n
	fmt.Println(x)
	x = !(n > 2)
	fmt.Println(x)
	var y fmt.Stringer
	_ = y
}
`, `-3 6 <nil> false
3 -4
-3 E
-4
false
`},
	})
}
