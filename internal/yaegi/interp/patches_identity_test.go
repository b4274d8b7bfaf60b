package interp

import (
	"io"
	"strings"
	"testing"
)

// TestScriptTypeIdentity checks patch 112: type switches, type
// assertions, == and map[any] keys of interface values holding values
// of script types tell their types apart as Go does: with patch 118,
// those of types without methods too, which failed loudly rather than
// guess.
func TestScriptTypeIdentity(t *testing.T) {
	decls := `type Square struct{ S int }
func (s Square) Area() int { return s.S * s.S }
type Twin struct{ S int }
func (t Twin) Area() int { return 0 }
type Shape interface{ Area() int }
type Name string
type P struct{ X int }
type E struct{ code int }
func (e E) Error() string { return fmt.Sprint("E", e.code) }
func kind(v any) string {
	switch v.(type) {
	case Square:
		return "Square"
	case Twin:
		return "Twin"
	case struct{ S int }:
		return "anon"
	}
	return "other"
}`
	tests := []struct{ name, body, want string }{
		{"switch", `fmt.Println(kind(Square{1}), kind(Twin{1}), kind(struct{ S int }{1}), kind(1))`, "Square Twin anon other"},
		{"assert same layout", `_, ok := any(Square{1}).(Twin); _, ok2 := any(Square{1}).(struct{ S int }); s, ok3 := any(Square{3}).(Square); fmt.Println(ok, ok2, ok3, s.S)`, "false false true 3"},
		{"assert panics naming the type", `defer func() { fmt.Println(recover()) }(); _ = any(Square{1}).(Twin)`, "interface conversion: interface {} is main.Square, not main.Twin"},
		{"iface == operand", `var s Shape = Square{2}; var x any = Square{2}; fmt.Println(s == Square{2}, x == Square{2}, s != Square{2}, s == Twin{2}, s == Square{3})`, "true true false false false"},
		{"converted operands", `var s Shape = Square{2}; fmt.Println(s == Shape(Square{2}), Shape(Square{2}) == Shape(Twin{2}), Shape(Square{2}) != Shape(Twin{2}))`, "true false true"},
		{"map any keys", `m := map[any]int{}; var k any = Square{2}; m[Square{2}]++; m[k]++; m[Twin{2}] += 5; m[struct{ S int }{2}] = 7; fmt.Println(len(m), m[Square{2}], m[k], m[Twin{2}], m[struct{ S int }{2}])`, "3 2 2 5 7"},
		{"map any literal, delete, comma ok", `m := map[any]bool{Square{1}: true, Twin{1}: false}; _, ok := m[Square{1}]; delete(m, Twin{1}); _, ok2 := m[Twin{1}]; fmt.Println(len(m), ok, ok2)`, "1 true false"},
		{"map any range and print", `m := map[any]int{Square{1}: 1}; for k := range m { _, ok := k.(Square); fmt.Println(ok, k.(Shape).Area()) }; fmt.Println(m)`, "true 1\nmap[{1}:1]"},
		{"literal keys of two types", `m := map[any]int{Twin{1}: 1, struct{ S int }{1}: 2}; fmt.Println(len(m))`, "2"},
		{"a struct type without methods of its own representation", `var x any = P{4}; p, ok := x.(P); switch v := x.(type) { case P: fmt.Println("P", v.X, p.X, ok) }`, "P 4 4 true"},
		{"a type without methods only printed", `fmt.Println(Name("n")); var x any = "s"; switch x.(type) { case string: fmt.Println("string", x == "s") }`, "n\nstring true"},
		{"a context key of a type without methods", `type key string; ctx := context.WithValue(context.Background(), key("k"), 1); fmt.Println(ctx.Value(key("k"))); var x any = "s"; _, ok := x.(string); fmt.Println(ok)`, "1\ntrue"},
		{"a literal only given to fmt", `fmt.Println(map[string]any{"n": Name("x")}, &struct{ V any }{Name("y")}, []any{[]any{Name("z")}}); var x any = "s"; _, ok := x.(string); fmt.Println(ok)`, "map[n:x] &{y} [[z]]\ntrue"},
		{"recover keeps the type", `defer func() { r := recover(); e, ok := r.(E); fmt.Println(ok, e.code) }(); panic(E{3})`, "true 3"},
		// toolscript patch 118: a value of a type without methods keeps
		// its type too (each of these failed with an AmbiguousTypeError).
		{"case of a type without methods", `var x any = "s"; switch x.(type) { case Name: fmt.Println("Name"); case string: fmt.Println("string") }`, "string"},
		{"assertion of a type without methods", `var x any = Name("n"); n, _ := x.(Name); fmt.Println(n)`, "n"},
		{"key of a type without methods", `m := map[any]int{}; m[Name("x")] = 1; fmt.Println(len(m))`, "1"},
		{"literal key of a type without methods", `m := map[any]int{Name("x"): 1, "x": 2}; fmt.Println(len(m))`, "2"},
		{"a representation an unnamed struct type shares", `var x any = P{4}; _ = struct{ X int }{}; p, _ := x.(P); fmt.Println(p)`, "{4}"},
		{"case string when the script holds a Name", `label := func(v any) string { switch v.(type) { case string: return "string" }; return "other" }; fmt.Println(label(Name("x")))`, "other"},
		{"== when the script holds a Name", `var x any = Name("a"); fmt.Println(x == "a")`, "false"},
		{"a dynamic map key when the script holds a Name", `var k any = Name("a"); m := map[any]int{}; m[k] = 1; fmt.Println(m)`, "map[a:1]"},
		{"case string when a function returns a Name", `ret := func() any { return Name("r") }; _ = ret(); var y any = "p"; _, ok := y.(string); fmt.Println(ok)`, "true"},
		{"case string when a Name is sent on a chan any", `ch := make(chan any, 1); ch <- Name("c"); var y any = "p"; _, ok := y.(string); fmt.Println(ok)`, "true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := runOutput(t, identityMain(decls, tt.body)); got != tt.want+"\n" {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}

	loud := []struct{ name, body, want string }{
		{"map with keys of a script interface", `m := map[Shape]int{}; fmt.Println(len(m))`, "a map with keys of the script's interface type main.Shape is not supported"},
	}
	for _, tt := range loud {
		t.Run(tt.name, func(t *testing.T) {
			it := New(Options{})
			if err := it.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			_, err := it.Eval(identityMain(decls, tt.body))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// identityMain is goMain with the context package imported too.
func identityMain(decls, body string) string {
	return strings.Replace(goMain("var _ = context.Background\n"+decls, body), `"fmt")`, `"fmt"; "context")`, 1)
}

// TestScriptTypeIdentityNative checks patch 112's values that native
// functions give back: a native function gets a value of a script type
// with methods as its representation, so what sync.Map's Load, a
// list.Element's Value or context's Value gives back is the value without
// its type. A type assertion on a native function's any goes by the held
// value as on a script's any (it compared representations); such a value
// is of the type if no other type has its representation, and a case, an
// assertion, an ==, a map[any] key or fmt's printing that cannot tell
// fails loudly (they answered by the representation). An == of values of
// unequal representations needs no type.
func TestScriptTypeIdentityNative(t *testing.T) {
	decls := `type Square struct{ S int }
func (s Square) Area() int { return s.S * s.S }
type Twin struct{ S int }
func (t Twin) Area() int { return 0 }
type Circle struct{ R float64 }
func (c Circle) Area() int { return 1 }
type Label struct{ L string }
func (l Label) String() string { return "label " + l.L }
type Celsius float64
func (c Celsius) String() string { return "C" }
type Name string
type ck string
func kind(v any) string {
	switch v.(type) {
	case Circle:
		return "Circle"
	case Label:
		return "Label"
	}
	return "other"
}`
	tests := []struct{ name, body, want string }{
		{"own representation", `var m sync.Map; m.Store("k", Circle{2}); v, _ := m.Load("k"); c, ok := v.(Circle); _, ok2 := v.(Square); fmt.Println(c.R, ok, ok2, kind(v))`, "2 true false Circle"},
		{"a native struct's field, own representation", `l := list.New(); e := l.PushBack(1); e.Value = Circle{4}; c, ok := e.Value.(Circle); fmt.Println(c.R, ok)`, "4 true"},
		{"list and context", `l := list.New(); l.PushBack(Circle{1}); ctx := context.WithValue(context.Background(), ck("a"), Circle{3}); fmt.Println(kind(l.Front().Value), kind(ctx.Value(ck("a"))))`, "Circle Circle"},
		{"== own representation", `var a atomic.Value; a.Store(Circle{1}); v := a.Load(); fmt.Println(v == Circle{1}, v == Circle{2}, v != Circle{1})`, "true false false"},
		{"== of unequal representations", `var m sync.Map; m.Store("k", Square{1}); v, _ := m.Load("k"); fmt.Println(v == Square{2}, v != Twin{3})`, "false true"},
		{"fmt by the type's method", `var m sync.Map; m.Store("k", Label{"x"}); v, _ := m.Load("k"); fmt.Println(v); m.Range(func(k, v any) bool { fmt.Println(k, v); return true })`, "label x\nk label x"},
		{"a method-less type's == of unequal representations", `var x any = Name("a"); fmt.Println(x == "b", x != "c")`, "false true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := runOutput(t, nativeMain(decls, tt.body)); got != tt.want+"\n" {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	loud := []struct{ name, body, want string }{
		{"assertion on a native any, shared representation", `var m sync.Map; m.Store("k", Square{1}); v, _ := m.Load("k"); _, ok := v.(Square); fmt.Println(ok)`, "type switch case or type assertion main.Square: the interpreter cannot tell a value of type struct { S int } held in an interface from one of main.Square that a native function gave back"},
		{"the other type of the representation", `var m sync.Map; m.Store("k", Square{1}); v, _ := m.Load("k"); var w any = v; _, ok := w.(struct{ S int }); fmt.Println(ok)`, "from one of main.Square that a native function gave back"},
		{"a basic representation", `var a atomic.Value; a.Store(Celsius(3)); c, ok := a.Load().(Celsius); fmt.Println(c, ok)`, "type assertion main.Celsius: the interpreter cannot tell a value of type float64"},
		{"==", `var m sync.Map; m.Store("k", Square{1}); v, _ := m.Load("k"); fmt.Println(v == Square{1})`, "comparison of an interface: the interpreter cannot tell a value of type struct { S int }"},
		{"map key", `var m sync.Map; m.Store("k", Circle{1}); v, _ := m.Load("k"); mm := map[any]int{Circle{1}: 1}; mm[v]++; fmt.Println(len(mm))`, "map key of an interface"},
		{"printing", `var a atomic.Value; a.Store(Celsius(3)); fmt.Println(a.Load())`, "printing of an interface: the interpreter cannot tell a value of type float64 held in an interface from one of main.Celsius"},
		{"a native struct's field of type any", `l := list.New(); e := l.PushBack(1); e.Value = Twin{2}; switch e.Value.(type) { case Square: fmt.Println("Square"); case Twin: fmt.Println("Twin") }`, "type switch case or type assertion main.Twin: the interpreter cannot tell a value of type struct { S int } held in an interface from one of main.Twin that a native function gave back"},
		{"%T", `var m sync.Map; m.Store("k", Circle{1}); v, _ := m.Load("k"); fmt.Printf("%T\n", v)`, "may be of type main.Circle"},
	}
	for _, tt := range loud {
		t.Run(tt.name, func(t *testing.T) {
			it := New(Options{Stdout: io.Discard})
			if err := it.Use(stdlib.Symbols); err != nil {
				t.Fatal(err)
			}
			_, err := it.Eval(nativeMain(decls, tt.body))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// nativeMain is goMain with the packages of native containers imported.
func nativeMain(decls, body string) string {
	return strings.Replace(goMain("var _ = context.Background\nvar _ = list.New\nvar _ sync.Map\nvar _ atomic.Value\n"+decls, body),
		`"fmt")`, `"fmt"; "context"; "container/list"; "sync"; "sync/atomic")`, 1)
}
