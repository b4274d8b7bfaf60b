package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// methodExprDecls are the script types the method expression tests use.
const methodExprDecls = `type Inner struct{ n int }
func (i Inner) Get() int   { return i.n }
func (i *Inner) Inc(d int) { i.n += d }
type Outer struct {
	Inner
	name string
}
type ByPtr struct{ *Inner }
type Item struct {
	Name string
	Qty  int
}
func (a Item) Cmp(b Item) int { return a.Qty - b.Qty }
func (a Item) Label() string  { return strings.ToUpper(a.Name) }
type T struct{ n int }
func (t T) Seq(yield func(int) bool) {
	for i := range t.n {
		if !yield(i * 10) {
			return
		}
	}
}
type Acc struct{ total int }
func (a *Acc) Add(n int) { a.total += n }
type Stack[E any] struct{ items []E }
func (s *Stack[E]) Push(v E) { s.items = append(s.items, v) }
func (s Stack[E]) Len() int  { return len(s.items) }
func apply(f func(Item) string, xs []Item) (out []string) {
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
func each[V, W any](f func(V) W, xs []V) (out []W) {
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}`

// TestMethodExpressions checks patch 93: a method expression (T.M,
// (*T).M) of a script type called directly, held in a variable, a map or
// a struct field, passed to a function, deferred and
// run in goroutines; value and pointer receivers, methods promoted from
// an embedded value or pointer, a generic type's methods and a native
// type's (each want is go run's output). Upstream panicked in reflect.
func TestMethodExpressions(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"value receiver held", `f := T.Seq; f(T{2}, func(v int) bool { fmt.Print(v, " "); return true })`, "0 10 "},
		{"pointer receiver held", `a := Acc{1}; add := (*Acc).Add; add(&a, 5); fmt.Print(a.total)`, "6"},
		{"pointer receiver direct", `a := Acc{1}; (*Acc).Add(&a, 2); fmt.Print(a.total)`, "3"},
		{"value method through pointer type", `i := Inner{4}; g := (*Inner).Get; fmt.Print(g(&i), (*Inner).Get(&i))`, "4 4"},
		{"promoted from value", `o := Outer{Inner{2}, "o"}; (*Outer).Inc(&o, 3); inc := (*Outer).Inc; inc(&o, 10); fmt.Print(Outer.Get(o), (*Outer).Get(&o), o.n)`, "15 15 15"},
		{"promoted from pointer", `b := ByPtr{&Inner{7}}; ByPtr.Inc(b, 1); f := ByPtr.Get; fmt.Print(f(b), b.n)`, "8 8"},
		{"native method as argument", `fmt.Print(each(time.Duration.String, []time.Duration{time.Second, time.Minute}))`, "[1s 1m0s]"},
		{"script function argument", `fmt.Print(apply(Item.Label, []Item{{"x", 1}, {"y", 2}}))`, "[X Y]"},
		{"map and struct field", `fs := map[string]func(Item) string{"l": Item.Label}; h := struct{ f func(Item, Item) int }{Item.Cmp}; fmt.Print(fs["l"](Item{"q", 1}), h.f(Item{"a", 5}, Item{"b", 2}))`, "Q3"},
		{"deferred", `var a Acc; add := (*Acc).Add; func() { defer (*Acc).Add(&a, 100); defer add(&a, 10) }(); fmt.Print(a.total)`, "110"},
		{"goroutines", `var a Acc; add := (*Acc).Add; var wg sync.WaitGroup; var mu sync.Mutex; for i := range 4 { wg.Add(1); go func() { defer wg.Done(); mu.Lock(); defer mu.Unlock(); add(&a, i) }() }; wg.Wait(); fmt.Print(a.total)`, "6"},
		{"generic type", `var s Stack[int]; push := (*Stack[int]).Push; push(&s, 1); (*Stack[int]).Push(&s, 2); fmt.Print(Stack[int].Len(s), len(s.items))`, "2 2"},
		{"native types", `var sb strings.Builder; w := (*strings.Builder).WriteString; w(&sb, "hi"); d := time.Duration.String; fmt.Print(d(90*time.Second), " ", sb.String(), (*strings.Builder).Len(&sb))`, "1m30s hi2"},
		{"nil receiver pointer", `defer func() { fmt.Print(recover()) }(); (*Outer).Get(nil)`, "runtime error: invalid memory address or nil pointer dereference"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package main\nimport (\"fmt\"; \"strings\"; \"sync\"; \"time\")\nvar _ sync.Mutex\nvar _ time.Duration\n" + methodExprDecls + "\nfunc main() {\n" + tt.body + "\n}"
			assert.Equal(t, tt.want, runOutput(t, src))
		})
	}
}

// TestMethodExpressionErrors checks patch 93: T.M of a pointer-receiver
// method is Go's compile error; and patch 101: a method expression of an
// interface type naming no method of it is Go's error too (patch 93
// refused every method expression of an interface type; upstream
// compiled it as a method value without a receiver: "too many
// arguments" at its call).
func TestMethodExpressionErrors(t *testing.T) {
	tests := []struct{ body, want string }{
		{`f := Acc.Add; _ = f`, "invalid method expression Acc.Add (needs pointer receiver (*Acc).Add)"},
		{`f := strings.Builder.Len; _ = f`, "invalid method expression strings.Builder.Len (needs pointer receiver (*strings.Builder).Len)"},
		{`f := Shape.Perimeter; _ = f`, "Shape.Perimeter undefined (type Shape has no method Perimeter)"},
		{`f := fmt.Stringer.Format; _ = f`, "fmt.Stringer.Format undefined (type fmt.Stringer has no method Format)"},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			src := "package main\nimport (\"fmt\"; \"strings\")\nvar _ strings.Builder\nvar _ = fmt.Sprint\ntype Acc struct{ total int }\nfunc (a *Acc) Add(n int) { a.total += n }\ntype Shape interface{ Area() float64 }\nfunc main() {\n" + tt.body + "\n}"
			_, err := runGeneric(t, src)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
