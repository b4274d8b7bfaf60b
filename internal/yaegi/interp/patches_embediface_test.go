package interp

import "testing"

// TestEmbeddedInterfaces checks patches 175 and 176: a script struct
// embedding a native interface alone (type rev struct{ sort.Interface })
// is given to native code through its wrapper (its reflect type had
// reflect's stubs of the interface's methods, which panic), Fprintf's
// io.Writer is not wrapped as a fmt.Stringer, methods promoted from an
// embedded script interface reach the wrapper, and Errorf's %w wraps a
// struct whose Error is promoted from an embedded interface. And patch
// 177: mutually recursive struct types, generic or not, get their fields'
// own types (Cell's next was a *List) and layout (a List holding an Elem
// by value). Each want is what go run prints.
func TestEmbeddedInterfaces(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"struct embedding sort.Interface, Less overridden (175)", `package main

import (
	"fmt"
	"sort"
)

type rev struct{ sort.Interface }

func (r rev) Less(i, j int) bool { return r.Interface.Less(j, i) }

type person struct {
	name string
	age  int
}
type byAge []person

func (b byAge) Len() int           { return len(b) }
func (b byAge) Less(i, j int) bool { return b[i].age < b[j].age }
func (b byAge) Swap(i, j int)      { b[i], b[j] = b[j], b[i] }

func main() {
	xs := []int{3, 1, 2, 5, 4}
	sort.Sort(rev{sort.IntSlice(xs)})
	fmt.Println(xs)
	people := []person{{"a", 30}, {"b", 20}, {"c", 40}}
	sort.Sort(rev{byAge(people)})
	fmt.Println(people)
	r := rev{sort.IntSlice(xs)}
	fmt.Println(r.Len(), r.Less(0, 1))
	var si sort.Interface = r
	fmt.Println(si.Len())
}
`, `[5 4 3 2 1]
[{c 40} {a 30} {b 20}]
5 true
5
`},
		{"structs embedding io.Writer, fmt.Stringer and error (175, 176)", `package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

type countW struct {
	io.Writer
	n int
}

func (c *countW) Write(p []byte) (int, error) {
	c.n += len(p)
	return c.Writer.Write(p)
}

type upW struct{ io.Writer }

func (u upW) Write(p []byte) (int, error) { return u.Writer.Write([]byte(strings.ToUpper(string(p)))) }

type plainW struct{ io.Writer }

type named struct{ fmt.Stringer }

type myS int

func (m myS) String() string { return fmt.Sprintf("myS(%d)", int(m)) }

type over struct{ fmt.Stringer }

func (o over) String() string { return "over:" + o.Stringer.String() }

type wrapped struct {
	error
	code int
}

type wrap1 struct{ error }

var ErrBase = errors.New("base")

type myErr struct{ msg string }

func (e *myErr) Error() string { return "myErr:" + e.msg }

func main() {
	var buf bytes.Buffer
	c := &countW{Writer: &buf}
	fmt.Fprintf(c, "hello %d", 42)
	fmt.Println(buf.String(), c.n)
	var out bytes.Buffer
	fmt.Fprintln(upW{&out}, "shout")
	fmt.Fprintln(plainW{&out}, "plain")
	io.WriteString(plainW{&out}, "ws\n")
	fmt.Print(out.String())
	var w io.Writer = plainW{&buf}
	w.Write([]byte("!"))
	fmt.Println(buf.String())

	fmt.Println(named{myS(3)})
	fmt.Println(over{myS(4)})
	fmt.Printf("%v %s\n", named{myS(5)}, over{myS(6)})
	var st fmt.Stringer = named{myS(7)}
	fmt.Println(st.String())

	var e error = wrapped{ErrBase, 7}
	fmt.Println(e)
	fmt.Println(errors.Is(e, ErrBase))
	w2 := wrapped{fmt.Errorf("ctx: %w", ErrBase), 3}
	fmt.Println(w2, w2.code, w2.Error())
	fmt.Println(errors.Is(w2, ErrBase))
	var e1 error = wrap1{&myErr{"x"}}
	fmt.Println(e1)
	var me *myErr
	fmt.Println(errors.As(e1, &me))
	e3 := fmt.Errorf("outer: %w", wrapped{&myErr{"y"}, 1})
	fmt.Println(e3, errors.As(e3, &me))
	var wp wrapped
	fmt.Println(errors.As(e3, &wp), wp.code)
	fmt.Printf("%v|%+v\n", wrapped{ErrBase, 2}, wrap1{ErrBase})
}
`, `hello 42 8
SHOUT
plain
ws
hello 42!
myS(3)
over:myS(4)
myS(5) over:myS(6)
myS(7)
base
false
ctx: base 3 ctx: base
false
myErr:x
false
outer: myErr:y false
true 1
base|base
`},
		{"Errorf %w of a struct embedding error, errors.As through it (176)", `package main

import (
	"errors"
	"fmt"
)

type wrapped struct {
	error
	code int
}

type MyE interface {
	error
	Code() int
}

type codeErr struct{ c int }

func (c codeErr) Error() string { return fmt.Sprint("code ", c.c) }
func (c codeErr) Code() int     { return c.c }

type viaScript struct{ MyE }

type inner struct{ error }
type viaPtr struct {
	*inner
	n int
}

var ErrBase = errors.New("base")

func main() {
	e := fmt.Errorf("outer: %w", wrapped{ErrBase, 1})
	fmt.Println(e)
	var wp wrapped
	fmt.Println(errors.As(e, &wp), wp.code, wp.error == ErrBase)
	u := errors.Unwrap(e)
	fmt.Printf("%T %v\n", u, u)
	fmt.Println(u == error(wrapped{ErrBase, 1}))
	fmt.Println(errors.Is(e, ErrBase))

	e2 := fmt.Errorf("s: %w", viaScript{codeErr{5}})
	fmt.Println(e2)
	var vs viaScript
	fmt.Println(errors.As(e2, &vs), vs.Code())
	var me MyE
	fmt.Println(errors.As(e2, &me), me.Code())

	e3 := fmt.Errorf("p: %w", viaPtr{&inner{ErrBase}, 2})
	fmt.Println(e3)
	var vp viaPtr
	fmt.Println(errors.As(e3, &vp), vp.n)

	e4 := fmt.Errorf("nil: %w", wrapped{nil, 0})
	fmt.Println(e4)
	e5 := fmt.Errorf("two: %w %w", wrapped{ErrBase, 1}, ErrBase)
	fmt.Println(e5, errors.Is(e5, ErrBase))
	fmt.Printf("%v %d\n", wrapped{ErrBase, 9}, wrapped{ErrBase, 9}.code)
}
`, `outer: base
true 1 true
main.wrapped base
true
false
s: code 5
true 5
true 5
p: base
true 2
nil: %!v(PANIC=Error method: runtime error: invalid memory address or nil pointer dereference)
two: base base true
base 9
`},
		{"struct embedding a script interface converted to error (176)", `package main

import (
	"errors"
	"fmt"
)

type MyE interface {
	error
	Code() int
}

type codeErr struct{ c int }

func (c codeErr) Error() string { return fmt.Sprint("code ", c.c) }
func (c codeErr) Code() int     { return c.c }

type viaScript struct{ MyE }

func main() {
	var e error = viaScript{codeErr{5}}
	fmt.Println(e)
	fmt.Println(viaScript{codeErr{6}})
	var vs viaScript
	fmt.Println(errors.As(e, &vs), vs.Code())
}
`, `code 5
code 6
true 5
`},
		{"embedded interface field reassigned after the conversion (175)", `package main

import (
	"bytes"
	"fmt"
	"io"
	"sort"
)

type W struct{ io.Writer }
type W2 struct {
	io.Writer
	n int
}

type rev struct{ sort.Interface }

func (r rev) Less(i, j int) bool { return r.Interface.Less(j, i) }

func main() {
	var buf, other bytes.Buffer
	w := &W{&other}
	var x io.Writer = w
	w.Writer = &buf
	fmt.Fprint(x, "to buf")
	fmt.Println("buf:", buf.String())
	w2 := &W2{&other, 1}
	x = w2
	w2.Writer = &buf
	fmt.Fprint(x, "+w2")
	fmt.Println("buf:", buf.String())

	a := []int{1, 2, 3}
	b := []int{7, 8, 9}
	r := &rev{sort.IntSlice(a)}
	var si sort.Interface = r
	r.Interface = sort.IntSlice(b)
	sort.Sort(si)
	fmt.Println(a, b, other.Len())
}
`, `buf: to buf
buf: to buf+w2
[1 2 3] [9 8 7] 0
`},
		{"heap.Interface and sort.Interface embedded (175)", `package main

import (
	"container/heap"
	"errors"
	"fmt"
	"sort"
	"strings"
)

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

type maxHeap struct{ heap.Interface }

func (m maxHeap) Less(i, j int) bool { return m.Interface.Less(j, i) }

type countingHeap struct {
	heap.Interface
	pushes int
}

func (c *countingHeap) Push(x any) { c.pushes++; c.Interface.Push(x) }

type revCount struct {
	sort.Interface
	calls *int
}

func (r revCount) Less(i, j int) bool { *r.calls++; return r.Interface.Less(j, i) }

type stable struct{ sort.Interface }

func main() {
	h := &IntHeap{5, 2, 8}
	mh := maxHeap{h}
	heap.Init(mh)
	heap.Push(mh, 3)
	heap.Push(mh, 9)
	var out []int
	for mh.Len() > 0 {
		out = append(out, heap.Pop(mh).(int))
	}
	fmt.Println(out)

	ch := &countingHeap{Interface: &IntHeap{}}
	for _, x := range []int{4, 1, 7} {
		heap.Push(ch, x)
	}
	fmt.Println(ch.pushes, heap.Pop(ch), ch.Len())

	n := 0
	words := []string{"b", "c", "a"}
	sort.Sort(revCount{sort.StringSlice(words), &n})
	fmt.Println(words, n > 0)
	sort.Stable(stable{sort.StringSlice(words)})
	fmt.Println(words, sort.IsSorted(stable{sort.StringSlice(words)}))
	sort.Sort(sort.Reverse(stable{sort.StringSlice(words)}))
	fmt.Println(words)

	var e error = struct{ error }{errors.New("anon")}
	fmt.Println(e)
	func() {
		defer func() { fmt.Println("recovered:", recover() != nil) }()
		var e2 error = struct{ error }{}
		fmt.Println(e2.Error())
	}()
	var sb strings.Builder
	fmt.Fprintf(struct{ *strings.Builder }{&sb}, "x=%d", 1)
	fmt.Println(sb.String())
}
`, `[9 8 5 3 2]
3 1 2
[c b a] true
[a b c] true
[c b a]
anon
recovered: true
x=1
`},
		{"generic list and cell pointing at each other (177)", `package main

import "fmt"

type List[T any] struct {
	head *Cell[T]
	n    int
}

type Cell[T any] struct {
	v    T
	next *Cell[T]
	list *List[T]
}

func (l *List[T]) Push(v T) {
	l.head = &Cell[T]{v: v, next: l.head, list: l}
	l.n++
}

func (l *List[T]) Each(f func(T)) {
	for c := l.head; c != nil; c = c.next {
		f(c.v)
	}
}

func main() {
	l := &List[int]{}
	for i := 0; i < 4; i++ {
		l.Push(i)
	}
	l.Each(func(v int) { fmt.Print(v, " ") })
	fmt.Println(l.n, l.head.list == l, l.head.next.list.n)
	s := &List[string]{}
	s.Push("a")
	s.Push("b")
	s.Each(func(v string) { fmt.Print(v) })
	fmt.Println()
}
`, `3 2 1 0 4 true 4
ba
`},
		{"list and cell pointing at each other (177)", `package main

import "fmt"

type List struct {
	head *Cell
	n    int
}

type Cell struct {
	v    int
	next *Cell
	list *List
}

func (l *List) Push(v int) {
	l.head = &Cell{v: v, next: l.head, list: l}
	l.n++
}

func (l *List) Each(f func(int)) {
	for c := l.head; c != nil; c = c.next {
		f(c.v)
	}
}

func main() {
	l := &List{}
	for i := 0; i < 4; i++ {
		l.Push(i)
	}
	l.Each(func(v int) { fmt.Print(v, " ") })
	fmt.Println(l.n, l.head.list == l, l.head.next.list.n)
}
`, `3 2 1 0 4 true 4
`},
		{"generic tree with parent pointers (177)", `package main

import (
	"fmt"
	"strings"
)

type Node[T any] struct {
	kids   []*Node[T]
	parent *Node[T]
	v      T
}

func (n *Node[T]) Add(v T) *Node[T] {
	c := &Node[T]{parent: n, v: v}
	n.kids = append(n.kids, c)
	return c
}

func (n *Node[T]) Depth() int {
	d := 0
	for p := n.parent; p != nil; p = p.parent {
		d++
	}
	return d
}

func (n *Node[T]) Walk(f func(*Node[T])) {
	f(n)
	for _, k := range n.kids {
		k.Walk(f)
	}
}

type Tree[T any] struct {
	root  *Node[T]
	index map[string]*Node[T]
}

type plain struct {
	kids   []*plain
	parent *plain
	name   string
}

func main() {
	root := &Node[string]{v: "root"}
	a := root.Add("a")
	a.Add("a1").Add("a1x")
	root.Add("b")
	root.Walk(func(n *Node[string]) {
		fmt.Println(strings.Repeat("  ", n.Depth())+n.v, len(n.kids))
	})
	t := Tree[string]{root: root, index: map[string]*Node[string]{}}
	root.Walk(func(n *Node[string]) { t.index[n.v] = n })
	fmt.Println(t.index["a1x"].parent.parent.v, len(t.index))
	ni := &Node[int]{v: 1}
	ni.Add(2).Add(3)
	fmt.Println(ni.kids[0].kids[0].Depth(), ni.kids[0].kids[0].parent.v)
	fmt.Printf("%v %+v\n", ni.kids[0].kids[0].v, ni.kids[0].kids[0].kids == nil)
	p := &plain{name: "p"}
	p.kids = append(p.kids, &plain{parent: p, name: "c"})
	fmt.Println(p.kids[0].parent.name)
}
`, `root 2
  a 1
    a1 1
      a1x 0
  b 0
a 5
2 2
3 true
p
`},
		{"generic graph with map[K]*Vertex[K, V] (177)", `package main

import (
	"fmt"
	"sort"
)

type ordered interface{ ~int | ~string }

type Vertex[K comparable, V any] struct {
	key   K
	val   V
	edges map[K]*Edge[K, V]
	graph *Graph[K, V]
}

type Edge[K comparable, V any] struct {
	from, to *Vertex[K, V]
	w        int
}

type Graph[K comparable, V any] struct {
	verts map[K]*Vertex[K, V]
}

func NewGraph[K ordered, V any]() *Graph[K, V] {
	return &Graph[K, V]{verts: map[K]*Vertex[K, V]{}}
}

func (g *Graph[K, V]) Add(k K, v V) *Vertex[K, V] {
	x := &Vertex[K, V]{key: k, val: v, edges: map[K]*Edge[K, V]{}, graph: g}
	g.verts[k] = x
	return x
}

func (g *Graph[K, V]) Link(a, b K, w int) {
	va, vb := g.verts[a], g.verts[b]
	va.edges[b] = &Edge[K, V]{from: va, to: vb, w: w}
}

func Keys[K ordered, V any](g *Graph[K, V]) []K {
	var ks []K
	for k := range g.verts {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	return ks
}

func main() {
	g := NewGraph[string, int]()
	g.Add("a", 1)
	g.Add("b", 2)
	g.Add("c", 3)
	g.Link("a", "b", 5)
	g.Link("a", "c", 7)
	g.Link("b", "c", 1)
	for _, k := range Keys(g) {
		v := g.verts[k]
		var out []string
		for _, e := range v.edges {
			out = append(out, fmt.Sprintf("%s->%s:%d(%d)", e.from.key, e.to.key, e.w, e.to.val))
		}
		sort.Strings(out)
		fmt.Println(k, v.val, out, v.graph == g)
	}
	g2 := NewGraph[int, string]()
	g2.Add(1, "one")
	g2.Add(2, "two")
	g2.Link(1, 2, 9)
	fmt.Println(g2.verts[1].edges[2].to.val, g2.verts[1].edges[2].from.graph == g2)
}
`, `a 1 [a->b:5(2) a->c:7(3)] true
b 2 [b->c:1(3)] true
c 3 [] true
two true
`},
		{"list holding its sentinel element by value (177)", `package main

import "fmt"

type DList struct {
	root Elem
	len  int
}

type Elem struct {
	next *Elem
	list *DList
	V    int
}

func (e *Elem) Len() int { return e.list.len }

func main() {
	l := &DList{}
	e := &Elem{list: l, V: 1}
	l.root.next = e
	l.len = 1
	fmt.Println(e.Len(), l.root.next.V)
}
`, `1 1
`},
		{"list by value, element first (177)", `package main

import "fmt"

type DList struct {
	root Elem
	len  int
}

type Elem struct {
	next *Elem
	list *DList
	V    int
}

func (e *Elem) Len() int { return e.list.len }

func main() {
	l := &DList{}
	e := &Elem{list: l, V: 1}
	l.root.next = e
	l.len = 1
	fmt.Println(l.root.next.V)
	fmt.Println(e.Len())
	fmt.Println(e.Len(), l.root.next.V)
}
`, `1
1
1 1
`},
		{"generic list holding its element by value (177)", `package main

import "fmt"

type Elem[T any] struct {
	next *Elem[T]
	list *DList[T]
	V    T
}

type DList[T any] struct {
	root Elem[T]
	len  int
}

func main() {
	l := &DList[int]{}
	e := &Elem[int]{list: l, V: 1}
	l.root.next = e
	fmt.Println(l.root.next.V)
	fmt.Println(e.list.len)
	l.len = 3
	fmt.Println(e.list.len, e.list.root.next.V)
}
`, `1
0
3 1
`},
	})
}
