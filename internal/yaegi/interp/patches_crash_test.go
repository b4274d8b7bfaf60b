package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCrashPatches runs programs that crashed the interpreter, or the
// host, and programs of the interpreted slices and cmp sources, against
// their outputs under go run. It tests patches 128 to 131 and the
// sources' Go 1.26 semantics.
func TestCrashPatches(t *testing.T) {
	cases := []struct {
		patch, name, src, want string
	}{
		{
			patch: "128",
			name:  "recursive generic type of two type parameters",
			src: `package main

import "fmt"

type node[K, V any] struct {
	k    K
	v    V
	next *node[K, V]
}

type List[K, V any] struct{ head *node[K, V] }

func (l *List[K, V]) First() K { return l.head.k }

func main() {
	l := &List[string, int]{head: &node[string, int]{k: "a"}}
	fmt.Println(l.First())
}
`,
			want: "a\n",
		},
		{
			patch: "128",
			name:  "mutually recursive generic types, swapped type arguments",
			src: `package main

import "fmt"

type Pair[K, V any] struct {
	k    K
	v    V
	swap *Pair[K, V]
}

type Tri[A, B, C any] struct {
	a    A
	b    B
	c    C
	next *Tri[A, B, C]
	kids []Tri[A, B, C]
	m    map[string]*Tri[A, B, C]
}

type Edge[K comparable, V any] struct {
	to   *Vertex[K, V]
}
type Vertex[K comparable, V any] struct {
	key K
	val V
	out []Edge[K, V]
}

func main() {
	p := Pair[string, int]{k: "a", v: 1}
	p.swap = &Pair[string, int]{k: "b", v: 2}
	fmt.Println(p.k, p.v, p.swap.k, p.swap.v, p.swap.swap == nil)
	t := Tri[int, string, bool]{a: 1, b: "x", c: true}
	t.next = &Tri[int, string, bool]{a: 2}
	t.kids = append(t.kids, Tri[int, string, bool]{a: 3})
	fmt.Println(t.a, t.next.a, t.kids[0].a, len(t.m))
	v := &Vertex[string, int]{key: "a", val: 1}
	w := &Vertex[string, int]{key: "b", val: 2}
	v.out = append(v.out, Edge[string, int]{to: w})
	fmt.Println(v.out[0].to.key, v.out[0].to.val)
}
`,
			want: "a 1 b 2 true\n1 2 3 0\nb 2\n",
		},
		{
			patch: "128",
			name:  "mutually recursive generic types of one parameter",
			src: `package main

import "fmt"

type Edge[K comparable] struct {
	to *Vertex[K]
}
type Vertex[K comparable] struct {
	key K
	out []Edge[K]
}

func main() {
	v := &Vertex[string]{key: "a"}
	w := &Vertex[string]{key: "b"}
	v.out = append(v.out, Edge[string]{to: w})
	fmt.Println(v.out[0].to.key)
}
`,
			want: "b\n",
		},
		{
			patch: "129",
			name:  "generic function instantiated with the receiver's type parameter",
			src: `package main

import "fmt"

type M[T any] struct{ d []T }

func New[T any](n int) M[T] { return M[T]{make([]T, n)} }

func (m M[T]) Clone() M[T] {
	out := New[T](len(m.d))
	copy(out.d, m.d)
	return out
}

func main() {
	fmt.Println(New[int](2).Clone().d)
}
`,
			want: "[0 0]\n",
		},
		{
			patch: "129",
			name:  "instances made while their signature is resolved",
			src: `package main

import "fmt"

type M[T any] struct{ d []T }

func New[T any](n int) M[T] { return M[T]{make([]T, n)} }

func From[T any](xs []T) *M[T] { return &M[T]{append([]T(nil), xs...)} }

func (m M[T]) Clone() M[T] {
	out := New[T](len(m.d))
	copy(out.d, m.d)
	return out
}

func (m *M[T]) Copy() *M[T] { return From(m.d) }

type KV[K comparable, V any] struct{ m map[K]V }

func NewKV[K comparable, V any]() *KV[K, V] { return &KV[K, V]{m: map[K]V{}} }

func (k *KV[K, V]) Empty() *KV[K, V] { return NewKV[K, V]() }

func main() {
	fmt.Println(New[int](2).Clone().d)
	p := From([]string{"a", "b"})
	q := p.Copy()
	q.d[0] = "z"
	fmt.Println(p.d, q.d)
	kv := NewKV[string, int]()
	kv.m["a"] = 1
	fmt.Println(len(kv.Empty().m), len(kv.m))
}
`,
			want: "[0 0]\n[a b] [z b]\n0 1\n",
		},
		{
			patch: "130",
			name:  "range over a generic variadic of receive channels",
			src: `package main

import "fmt"

func count[T any](chs ...<-chan T) int {
	n := 0
	for _, c := range chs {
		n += len(c)
	}
	return n
}

func main() {
	a := make(chan int, 2)
	a <- 1
	var r <-chan int = a
	fmt.Println(count(r, r))
}
`,
			want: "2\n",
		},
		{
			patch: "130",
			name:  "range over slices, maps and arrays of channels",
			src: `package main

import "fmt"

func count[T any](chs ...<-chan T) int {
	n := 0
	for _, c := range chs {
		n += len(c)
	}
	return n
}

func count2[T any](chs ...chan T) int {
	n := 0
	for _, c := range chs {
		n += len(c)
	}
	return n
}

func count3(chs ...<-chan int) int {
	n := 0
	for _, c := range chs {
		n += len(c)
	}
	return n
}

func main() {
	a := make(chan int, 2)
	a <- 1
	var r <-chan int = a
	fmt.Println(count3(r, r))
	fmt.Println(count2(a, a))
	fmt.Println(count(r, r))
}
`,
			want: "2\n2\n2\n",
		},
		{
			patch: "130",
			name:  "range over slices of channels, with the index",
			src: `package main

import "fmt"

func count3(chs ...<-chan int) int {
	n := 0
	for i, c := range chs {
		fmt.Println(i)
		n += len(c)
	}
	return n
}

func count4(chs []<-chan int) int {
	n := 0
	for _, c := range chs {
		n += len(c)
	}
	return n
}

func main() {
	a := make(chan int, 2)
	a <- 1
	var r <-chan int = a
	fmt.Println(count4([]<-chan int{r, r}))
	fmt.Println(count3(r, r))
}
`,
			want: "2\n0\n1\n2\n",
		},
		{
			patch: "130",
			name:  "range over channels and containers of channels",
			src: `package main

import "fmt"

func main() {
	a := make(chan int, 2)
	a <- 1
	a <- 2
	close(a)
	n := 0
	for range a {
		n++
	}
	b := make(chan int, 1)
	b <- 5
	close(b)
	for v := range b {
		fmt.Println(v)
	}
	fmt.Println(n)
	m := map[string]chan int{"x": b}
	for k, c := range m {
		fmt.Println(k, len(c))
	}
	arr := [2]<-chan int{b, b}
	for i, c := range arr {
		fmt.Println(i, cap(c))
	}
}
`,
			want: "5\n2\nx 0\n0 1\n1 1\n",
		},
		{
			patch: "130",
			name:  "range over p[i] with p a pointer to a 2-D array",
			src: `package main

import "fmt"

func main() {
	var g [2][3]int
	p := &g
	for i := range p {
		for j := range p[i] {
			p[i][j] = i*3 + j
		}
	}
	fmt.Println(g)
}
`,
			want: "[[0 1 2] [3 4 5]]\n",
		},
		{
			patch: "130",
			name:  "range over pointers to arrays, nil ones too",
			src: `package main

import "fmt"

func main() {
	var g [2][3]int
	p := &g
	for i := range p {
		fmt.Println(i, len(p[i]))
	}
	for i, r := range p {
		fmt.Println(i, r)
	}
}

func init() {
	a := [3]string{"x", "y", "z"}
	q := &a
	s := "keep"
	for i, v := range q {
		q[i] = v + s
	}
	fmt.Println(a, s, *q)
	var np *[4]int
	for i := range np {
		fmt.Print(i)
	}
	fmt.Println(len(np))
}
`,
			want: "[xkeep ykeep zkeep] keep [xkeep ykeep zkeep]\n01234\n0 3\n1 3\n0 [0 0 0]\n1 [0 0 0]\n",
		},
		{
			patch: "130",
			name:  "len and cap of pointers to arrays",
			src: `package main

import "fmt"

func main() {
	var np *[4]int
	fmt.Println(len(np), cap(np))
	a := [3]int{}
	q := &a
	var x any = len(q)
	fmt.Println(x, cap(q))
	for i := range np {
		fmt.Print(i)
	}
	fmt.Println()
}
`,
			want: "4 4\n3 3\n0123\n",
		},
		{
			patch: "130",
			name:  "a nil pointer to an array ranged with a value",
			src: `package main

import "fmt"

func main() {
	defer func() { fmt.Println(recover()) }()
	var np *[2]int
	for i, v := range np {
		fmt.Println(i, v)
	}
}
`,
			want: "runtime error: invalid memory address or nil pointer dereference\n",
		},
		{
			patch: "131",
			name:  "method promoted from an embedded interface beside a field",
			src: `package main

import "fmt"

type Logger interface{ Log(string) }

type impl struct{ p string }

func (i impl) Log(s string) { fmt.Println(i.p, s) }

type Service struct {
	Logger
	calls int
}

func main() {
	s := &Service{Logger: impl{"x"}}
	s.Log("a")
}
`,
			want: "x a\n",
		},
		{
			patch: "131",
			name:  "promoted interface methods: nesting, two interfaces, nil",
			src: `package main

import "fmt"

type Logger interface{ Log(string) }
type Namer interface{ Name() string }

type impl struct{ p string }

func (i impl) Log(s string) { fmt.Println(i.p, s) }
func (i impl) Name() string { return "impl-" + i.p }

type Service struct {
	Logger
	calls int
}

type Two struct {
	Namer
	Logger
	n int
}

type Outer struct {
	id int
	*Service
}

type Deep struct {
	Outer
	z string
}

func main() {
	s := &Service{Logger: impl{"x"}}
	s.Log("a")
	v := Service{impl{"v"}, 1}
	v.Log("b")
	t := Two{Namer: impl{"n"}, Logger: impl{"l"}}
	t.Log("c")
	fmt.Println(t.Name())
	o := Outer{id: 1, Service: s}
	o.Log("d")
	d := Deep{Outer: o, z: "q"}
	d.Log("e")
	f := s.Log
	f("f")
	var l Logger = s
	l.Log("g")
	defer func() { fmt.Println("recovered:", recover()) }()
	var e Service
	e.Log("h")
}
`,
			want: "x a\nv b\nl c\nimpl-n\nx d\nx e\nx f\nx g\nrecovered: runtime error: invalid memory address or nil pointer dereference\n",
		},
		{
			patch: "131",
			name:  "embedded sort.Interface beside a field, to sort.Sort",
			src: `package main

import (
	"fmt"
	"sort"
)

type rev struct {
	sort.Interface
	n int
}

func (r rev) Less(i, j int) bool { return r.Interface.Less(j, i) }

func main() {
	s := []int{3, 1, 2}
	sort.Sort(rev{sort.IntSlice(s), 0})
	fmt.Println(s)
}
`,
			want: "[3 2 1]\n",
		},
		{
			patch: "131",
			name:  "embedded native interfaces beside fields",
			src: `package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

type rev struct {
	sort.Interface
	n int
}

func (r rev) Less(i, j int) bool { return r.Interface.Less(j, i) }

type counting struct {
	io.Reader
	n int
}

type prev struct {
	n int
	sort.Interface
}

func main() {
	s := []int{3, 1, 2}
	sort.Sort(rev{sort.IntSlice(s), 0})
	fmt.Println(s)
	p := &rev{sort.IntSlice(s), 1}
	sort.Sort(sort.Reverse(p))
	fmt.Println(s, p.Len())
	c := counting{strings.NewReader("hello"), 0}
	b, err := io.ReadAll(c)
	fmt.Println(string(b), err)
	var st sort.Interface = prev{2, sort.StringSlice{"b", "a"}}
	sort.Sort(st)
	fmt.Println(st.(prev).Interface, st.Len())
}
`,
			want: "[3 2 1]\n[1 2 3] 3\nhello <nil>\n[a b] 2\n",
		},
		{
			patch: "131",
			name:  "type assertion to a struct embedding the interface",
			src: `package main

import "fmt"

type Logger interface{ Log(string) }
type NamedLogger interface {
	Logger
	Name() string
}

type Service struct{ NamedLogger }

func main() {
	var nl NamedLogger
	_, ok := nl.(*Service)
	fmt.Println(ok)
}
`,
			want: "false\n",
		},
		{
			patch: "131",
			name:  "assertions and switches with promoted interface methods",
			src: `package main

import "fmt"

type Logger interface{ Log(string) }
type NamedLogger interface {
	Logger
	Name() string
}

type impl struct{}

func (impl) Log(s string)   { fmt.Println("log", s) }
func (impl) Name() string   { return "impl" }

type Service struct{ NamedLogger }

type Wrap struct {
	Logger
	id int
}

func (w Wrap) Name() string { return fmt.Sprint("wrap", w.id) }

func main() {
	var nl NamedLogger = &Service{impl{}}
	s, ok := nl.(*Service)
	fmt.Println(ok, s.Name())
	nl = Wrap{impl{}, 7}
	w, ok := nl.(Wrap)
	fmt.Println(ok, w.id, nl.Name())
	nl.Log("x")
	switch v := nl.(type) {
	case *Service:
		fmt.Println("svc", v)
	case Wrap:
		fmt.Println("wrap", v.id)
	}
	var l Logger = w
	_, ok = l.(NamedLogger)
	fmt.Println(ok)
}
`,
			want: "true impl\ntrue 7 wrap7\nlog x\nwrap 7\ntrue\n",
		},
		{
			patch: "sources",
			name:  "slices.Compact and CompactFunc zero the tail",
			src: `package main

import (
	"fmt"
	"slices"
)

func main() {
	s := []int{1, 3, 3, 9}
	slices.Compact(s)
	g := []int{1, 1, 2}
	slices.CompactFunc(g, func(a, b int) bool { return a == b })
	fmt.Println(s, g)
}
`,
			want: "[1 3 9 0] [1 2 0]\n",
		},
		{
			patch: "sources",
			name:  "NaN ordering of cmp and slices",
			src: `package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

func main() {
	nan := math.NaN()
	fmt.Println(cmp.Compare(nan, 1.0), cmp.Compare(1.0, nan), cmp.Less(nan, 1.0))
	fmt.Println(slices.Max([]float64{1, nan, 3}), slices.Min([]float64{1, nan, 3}))
	s := []float64{3, nan, 1, 2}
	slices.Sort(s)
	fmt.Println(s)
	s2 := []float64{2, nan, 1}
	slices.SortFunc(s2, cmp.Compare[float64])
	fmt.Println(s2)
}
`,
			want: "-1 1 true\nNaN NaN\n[NaN 1 2 3]\n[NaN 1 2]\n",
		},
		{
			patch: "sources",
			name:  "capacities of slices.Concat and Insert",
			src: `package main

import (
	"fmt"
	"slices"
)

func main() {
	c := slices.Concat([]int{1, 2}, []int{3, 4, 5})
	fmt.Println(len(c), cap(c))
	i := slices.Insert([]int{1, 2, 3}, 1, 9, 9)
	fmt.Println(len(i), cap(i))
}
`,
			want: "5 6\n5 6\n",
		},
		{
			patch: "sources",
			name:  "slices and cmp as Go 1.26's",
			src: `package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)



func main() {
	nan := math.NaN()
	fmt.Println(slices.Max([]string{"b", "c", "a"}), slices.Min([]int{3, 1, 2}))
	fmt.Println(slices.BinarySearch([]float64{nan, 1, 2}, nan))
	fmt.Println(slices.BinarySearch([]float64{1, 2, 4}, 3.0))
	fmt.Println(slices.IsSorted([]float64{nan, 1, 2}), slices.IsSorted([]float64{1, nan, 2}))
	r := slices.Replace([]int{1, 2, 3, 4}, 1, 2, 7, 8, 9)
	fmt.Println(r, len(r), cap(r))
	r2 := slices.Replace([]int{1, 2, 3, 4}, 2, 4, 7, 8, 9)
	fmt.Println(r2, len(r2), cap(r2))
	base := []int{1, 2, 3, 4}
	r3 := slices.Replace(base, 1, 4, 9)
	fmt.Println(r3, base)
	r4 := slices.Replace(base[:4], 0, 0, 5)
	fmt.Println(r4, len(r4), cap(r4))
	rp := slices.Repeat([]int{1, 2, 3}, 3)
	fmt.Println(rp, len(rp), cap(rp))
	in := slices.Insert([]int{1, 2, 3}, 3, 4)
	fmt.Println(in, len(in), cap(in))
	in2 := slices.Insert(make([]int, 3, 10), 1, 5, 6)
	fmt.Println(in2, len(in2), cap(in2))
	c := slices.Concat([]string{"a"}, nil, []string{"b", "c"})
	fmt.Println(c, len(c), cap(c), slices.Concat[[]int]() == nil)
	type P struct{ a, b int }
	ps := []P{{1, 1}, {1, 1}, {2, 2}}
	ps2 := slices.Compact(ps)
	fmt.Println(ps2, ps[:3])
	fs := []float64{3, nan, 1, 0, 2, nan}
	slices.Sort(fs)
	fmt.Println(fs)
	fs2 := []float64{3, nan, 1, 2}
	slices.SortStableFunc(fs2, cmp.Compare[float64])
	fmt.Println(fs2, slices.Compare([]float64{nan}, []float64{1}))
	ss := []string{"b", "a", "b"}
	fmt.Println(slices.Compact(slices.Sorted(slices.Values(ss))))
	x := append(make([]int, 0, 7), 1, 2, 3)
	y := slices.Grow(x, 10)
	fmt.Println(len(y), cap(y))
}
`,
			want: "c 1\n0 true\n2 false\ntrue false\n[1 7 8 9 3 4] 6 8\n[1 2 7 8 9] 5 8\n[1 9] [1 9 0 0]\n[5 1 9 0 0] 5 8\n[1 2 3 1 2 3 1 2 3] 9 9\n[1 2 3 4] 4 6\n[0 5 6 0 0] 5 10\n[a b c] 3 3 true\n[{1 1} {2 2}] [{1 1} {2 2} {0 0}]\n[NaN NaN 0 1 2 3]\n[NaN 1 2 3] -1\n[a b]\n3 14\n",
		},
	}
	for _, c := range cases {
		t.Run(c.patch+"/"+c.name, func(t *testing.T) {
			got, err := runGoSrc(t, c.src)
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

// TestCrashPatchErrors checks the programs the patches make compile
// errors, as Go's: a generic type unfolding without end (patch 128, a
// fatal stack overflow of the host before) and a channel ranged over with
// two variables (patch 130, a host panic).
func TestCrashPatchErrors(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{
			name: "channel ranged with two variables",
			src: `package main

import "fmt"

func main() {
	a := make(chan int, 1)
	close(a)
	for i, v := range a {
		fmt.Println(i, v)
	}
}
`,
			want: "range over a permits only one iteration variable",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := runGoSrc(t, c.src)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// TestTypeDepthBound checks that nodeType2 refuses to resolve a type
// nested deeper than maxTypeDepth, the bound that turns a definition
// unfolding without end into a compile error instead of a fatal stack
// overflow of the host (patch 128).
func TestTypeDepthBound(t *testing.T) {
	it := New(Options{})
	root := &node{interp: it}
	n := &node{interp: it, kind: identExpr, ident: "int", anc: root}
	cases := []struct {
		name    string
		depth   int
		wantErr bool
	}{
		{name: "within the bound", depth: maxTypeDepth, wantErr: false},
		{name: "beyond the bound", depth: maxTypeDepth + 1, wantErr: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n.typ = nil
			typ, err := nodeType2(it, it.universe, n, make([]*node, c.depth))
			if c.wantErr {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "type definition nested too deeply")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "int", typ.id())
		})
	}
}
