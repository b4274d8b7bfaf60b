package interp

import (
	"errors"
	"go/constant"
	"reflect"
	"strings"
	"testing"
)

// fmtTypeDecls are the script types the %T and %#v tests use.
const fmtTypeDecls = `type P struct{ X, Y int }
type C float64
type IDs []int
type Pair[T any] struct{ A, B T }
type L struct{ N string }
func (l L) String() string { return "L" + l.N }
type Tier int
func (t Tier) String() string { return "tier" }
type W struct{ V any }
func show(v any) string { return fmt.Sprintf("%T", v) }
func goSyntax(v any) string { return fmt.Sprintf("%#v", v) }`

// TestFmtLostTypeName checks patch 89: %T and %#v of a value held in an
// interface whose script type name the interpreter lost (a script type
// without methods, or a type made of one, in an any, a []any, a map, a
// struct field, a parameter) fail at run time naming the verb and the
// type, rather than print its structure.
func TestFmtLostTypeName(t *testing.T) {
	tests := []struct{ body, verb, names string }{
		{`var x any = []P{{}}; y := x; fmt.Printf("%T\n", y)`, "%T", "main.P"},
		{`fmt.Println(show([]L{{"a"}}))`, "%T", "main.L"},
	}
	for _, tt := range tests {
		p := runPanic(t, goMain(fmtTypeDecls, tt.body))
		msg := p.Error()
		want := tt.verb + " of a value held in an interface is not supported when it may be of type " + tt.names
		if !strings.Contains(msg, want) {
			t.Errorf("%s: got %q, want it to contain %q", tt.body, msg, want)
		}
	}
}

// TestFmtKeptTypeName checks patch 89: a value whose type no script type
// shares, or whose script type the interpreter keeps (a type with
// methods, a pointer to one, a static type), prints as in Go, and so do
// the verbs that print no type name (each want is go run's output).
func TestFmtKeptTypeName(t *testing.T) {
	tests := []struct{ body, want string }{
		{`var x any = P{1, 2}; fmt.Printf("%v %+v %d\n", x, x, x)`, "{1 2} {X:1 Y:2} {1 2}"},
		{`fmt.Println(show(L{}), show(&L{}), show(Tier(1)), show(42), show("s"), show(nil))`, "main.L *main.L main.Tier int string <nil>"},
		{`fmt.Println(goSyntax(L{"a"}), goSyntax(42), goSyntax([]string{"x"}), goSyntax(Tier(2)))`, `main.L{N:"a"} 42 []string{"x"} 2`},
		{`p := P{1, 2}; fmt.Printf("%T %#v %T %#v\n", p, p, []P{p}, &p)`, "main.P main.P{X:1, Y:2} []main.P &main.P{X:1, Y:2}"},
		{`fmt.Printf("%#v\n", []any{L{"b"}, "s", 2})`, `[]interface {}{main.L{N:"b"}, "s", 2}`},
		{`fmt.Printf("%#v\n", W{L{"c"}})`, `main.W{V:main.L{N:"c"}}`},
		{`c := C(1.5); fmt.Printf("%T %#v %v\n", c, c, []any{c})`, "main.C 1.5 [1.5]"},
		// toolscript patch 118: a value of a named type without methods
		// keeps its type in an interface (each was patch 89's error).
		{`var x any = P{1, 2}; fmt.Printf("%T\n", x)`, "main.P"},
		{`var x any = P{1, 2}; fmt.Printf("%#v\n", x)`, "main.P{X:1, Y:2}"},
		{`xs := []any{P{}}; fmt.Printf("%T\n", xs[0])`, "main.P"},
		{`fmt.Printf("%#v\n", []any{1, P{}})`, "[]interface {}{1, main.P{X:0, Y:0}}"},
		{`m := map[string]any{"a": P{}}; fmt.Printf("%#v\n", m)`, `map[string]interface {}{"a":main.P{X:0, Y:0}}`},
		{`fmt.Printf("%#v\n", W{P{}})`, "main.W{V:main.P{X:0, Y:0}}"},
		{`fmt.Println(show(P{}))`, "main.P"},
		{`fmt.Println(goSyntax(&P{}))`, "&main.P{X:0, Y:0}"},
		{`var x any = C(1); fmt.Printf("%T\n", x)`, "main.C"},
		{`fmt.Println(show(IDs{1}))`, "main.IDs"},
		{`fmt.Println(goSyntax(IDs{1}))`, "main.IDs{1}"},
		{`fmt.Println(show(Pair[int]{}))`, "main.Pair[int]"},
		{`fmt.Println(show(1.5))`, "float64"},
		{`args := []any{P{}}; fmt.Printf("%T\n", args...)`, "main.P"},
	}
	for _, tt := range tests {
		if got := runOutput(t, goMain(fmtTypeDecls, tt.body)); got != tt.want+"\n" {
			t.Errorf("%s: got %q, want %q", tt.body, got, tt.want)
		}
	}
}

// TestFmtNoNamedTypes checks patch 89: a program without named types of
// its own prints %T and %#v of what its interfaces hold as Go does.
func TestFmtNoNamedTypes(t *testing.T) {
	src := goMain("", `xs := []any{struct{ A int }{1}, []int{2}, map[string]any{"k": 1.5}, nil}
fmt.Printf("%T %T %T %T\n", xs[0], xs[1], xs[2], xs[3])
fmt.Printf("%#v\n", xs)`)
	want := "struct { A int } []int map[string]interface {} <nil>\n" +
		`[]interface {}{struct { A int }{A:1}, []int{2}, map[string]interface {}{"k":1.5}, interface {}(nil)}` + "\n"
	if got := runOutput(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestFmtSpreadTypeVerbs checks patch 90: %T and %#v of the elements of
// a slice spread into a printf call's arguments print Go's type names
// (fmt saw the interpreter's representation, interp.fmtPrinted), a lost
// name is the run-time error of patch 89, and a format with explicit
// argument indexes that prints a type is a run-time error (each want is
// go run's output).
func TestFmtSpreadTypeVerbs(t *testing.T) {
	tests := []struct{ body, want string }{
		{`args := []any{L{"a"}, 3, "s"}; fmt.Printf("%T %T %T\n", args...)`, "main.L int string"},
		{`args := []any{L{"a"}, 3, "s"}; fmt.Printf("%#v %#v %#v|%v\n", args...)`, `main.L{N:"a"} 3 "s"|%!v(MISSING)`},
		{`args := []any{L{"a"}, 3}; fmt.Printf("%v %-6T|\n", args...)`, "La int   |"},
		{`fmt.Print(fmt.Sprintf("%s:%T\n", []any{"k", Tier(1)}...))`, "k:main.Tier"},
		{`fmt.Printf("%[2]v %[1]v\n", 1, L{"b"})`, "Lb 1"},
	}
	for _, tt := range tests {
		if got := runOutput(t, goMain(fmtTypeDecls, tt.body)); got != tt.want+"\n" {
			t.Errorf("%s: got %q, want %q", tt.body, got, tt.want)
		}
	}
	for _, tt := range []struct{ body, want string }{
		{`args := []any{[]P{}}; fmt.Printf("%T\n", args...)`, "%T of a value held in an interface is not supported when it may be of type main.P"},
		{`fmt.Printf("%[1]T %[1]v\n", P{})`, "%T or %#v in a format with explicit argument indexes"},
		{`var x any = L{}; fmt.Printf("%#[1]v\n", x)`, "%T or %#v in a format with explicit argument indexes"},
	} {
		p := runPanic(t, goMain(fmtTypeDecls, tt.body))
		if !strings.Contains(p.Error(), tt.want) {
			t.Errorf("%s: got %q, want it to contain %q", tt.body, p.Error(), tt.want)
		}
	}
}

// TestFmtToolTypeNames checks patch 91: %T and %#v of a value of a
// native package's type that its reflect type does not name (a typed
// tool's struct, built with reflect.StructOf, and its enum, a string),
// the package giving the names under TypeNamesSymbol, fail at run time
// naming the type, statically and held in an interface; an enum's type
// counts only for a value of the enum itself (a map[string]any is not
// one); other verbs print as before.
func TestFmtToolTypeNames(t *testing.T) {
	order := reflect.StructOf([]reflect.StructField{
		{Name: "ID", Type: reflect.TypeFor[int]()},
		{Name: "Status", Type: reflect.TypeFor[string]()},
	})
	get := reflect.MakeFunc(reflect.FuncOf(nil, []reflect.Type{order}, false), func([]reflect.Value) []reflect.Value {
		o := reflect.New(order).Elem()
		o.Field(0).SetInt(7)
		o.Field(1).SetString("paid")
		return []reflect.Value{o}
	})
	shop := map[string]reflect.Value{
		"Get":           get,
		"Order":         reflect.Zero(reflect.PointerTo(order)),
		"StatusPaid":    reflect.ValueOf(constant.MakeString("paid")),
		TypeNamesSymbol: reflect.ValueOf(map[reflect.Type]string{order: "shop.Order", reflect.TypeFor[string](): "shop.Status"}),
	}
	run := func(body string) (string, error) { return runWithShop(t, shop, body) }
	for _, tt := range []struct{ body, want string }{
		{`o := shop.Get(); fmt.Printf("%T\n", o)`, "%T of a value of type shop.Order is not supported"},
		{`o := shop.Get(); fmt.Printf("%#v\n", []any{o})`, "%#v of a value held in an interface is not supported when it may be of type shop.Order"},
		{`o := shop.Get(); fmt.Printf("%#v\n", o)`, "%#v of a value of type shop.Order is not supported"},
		{`o := shop.Get(); fmt.Printf("%T\n", o.Status)`, "%T of a value of type shop.Status is not supported"},
		{`fmt.Printf("%T\n", shop.StatusPaid)`, "%T of a value of the constant shop.StatusPaid is not supported"},
		{`var x any = "s"; fmt.Printf("%T\n", x)`, "may be of type shop.Status"},
	} {
		_, err := run(tt.body)
		var p Panic
		if !errors.As(err, &p) || !strings.Contains(p.Error(), tt.want) {
			t.Errorf("%s: got %v, want a panic containing %q", tt.body, err, tt.want)
		}
	}
	if _, err := run(`fmt.Println(len(shop._typeNames))`); err == nil || !strings.Contains(err.Error(), "_typeNames") {
		t.Errorf("the type names are a symbol of the script's: %v", err)
	}
	for _, tt := range []struct{ body, want string }{
		{`o := shop.Get(); fmt.Printf("%v %+v %s\n", o, o, o.Status)`, "{7 paid} {ID:7 Status:paid} paid"},
		{`m := map[string]any{"k": 1}; fmt.Printf("%T %#v\n", m, m)`, `map[string]interface {} map[string]interface {}{"k":1}`},
	} {
		got, err := run(tt.body)
		if err != nil || got != tt.want+"\n" {
			t.Errorf("%s: got %q, %v, want %q", tt.body, got, err, tt.want)
		}
	}
}

// TestFmtGenericInstance checks patch 92: %T and %#v of a value whose
// static type is, or is made of, an instance of a generic type whose
// name the interpreter does not know (an any argument: Go prints
// interface {}) fail at run time naming the instance, and so do those of
// a function of an iterator's type (maps.Keys's result, iter.Seq[string]
// in Go); other verbs print as in Go. An instance of arguments spelled
// as Go spells them prints Go's name (patch 226).
func TestFmtGenericInstance(t *testing.T) {
	for _, body := range []string{
		`fmt.Printf("%T\n", Pair[any]{1, 2})`,
		`fmt.Printf("%#v\n", []Pair[any]{{1, 2}})`,
		`p := &Pair[any]{}; fmt.Printf("%v %T\n", p, p)`,
	} {
		p := runPanic(t, goMain(fmtTypeDecls, body))
		if want := "%T and %#v of a value of type main.Pair[any]"; !strings.Contains(p.Error(), want) {
			t.Errorf("%s: got %q, want it to contain %q", body, p.Error(), want)
		}
	}
	for _, tt := range []struct{ body, want string }{ // toolscript patch 226
		{`fmt.Printf("%T\n", Pair[int]{1, 2})`, "main.Pair[int]\n"},
		{`fmt.Printf("%#v\n", []Pair[int]{{1, 2}})`, "[]main.Pair[int]{main.Pair[int]{A:1, B:2}}\n"},
		{`p := &Pair[int]{}; fmt.Printf("%v %T\n", p, p)`, "&{0 0} *main.Pair[int]\n"},
	} {
		if got := runOutput(t, goMain(fmtTypeDecls, tt.body)); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.body, got, tt.want)
		}
	}
	if got := runOutput(t, goMain(fmtTypeDecls, `p := Pair[string]{"a", "b"}; fmt.Printf("%v %+v %s\n", p, p, p.A)`)); got != "{a b} {A:a B:b} a\n" {
		t.Errorf("got %q", got)
	}
	// An iterator's function type may be iter.Seq or iter.Seq2 (the
	// interpreted maps and slices return them as plain function types).
	for _, tt := range []struct{ body, want string }{
		{`seq := func(yield func(string) bool) { yield("a") }; fmt.Printf("%T\n", seq)`, "%T and %#v of a value of type iter.Seq[string]"},
		{`var x any = func(yield func(int, P) bool) {}; fmt.Printf("%T\n", x)`, "may be of type iter.Seq2[int, struct { X int; Y int }]"},
	} {
		p := runPanic(t, goMain(fmtTypeDecls, tt.body))
		if !strings.Contains(p.Error(), tt.want) {
			t.Errorf("%s: got %q, want it to contain %q", tt.body, p.Error(), tt.want)
		}
	}
}
