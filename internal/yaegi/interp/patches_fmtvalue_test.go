package interp

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestTypeVerbSpelling checks patch 113: %T of a value whose static type
// names a script type spells the type as Go does, function types
// included (it printed func(*main.Acc,int), and func(*struct { ... },
// int) for a function value). Each want is what go run prints.
func TestTypeVerbSpelling(t *testing.T) {
	decls := `type Acc struct{ total int }
func (a *Acc) Add(n int) { a.total += n }
type P struct{ X int }
type Name string
func mk(ps ...P) []P { return ps }`
	tests := []struct{ body, want string }{
		{`add := (*Acc).Add; var g func(*Acc, int) = add; fmt.Printf("%T|%T", add, g)`, "func(*main.Acc, int)|func(*main.Acc, int)"},
		{`h := func(p P) (map[string]P, error) { return nil, nil }; fmt.Printf("%T|%T", h, mk)`, "func(main.P) (map[string]main.P, error)|func(...main.P) []main.P"},
		{`fs := []func(P, int) bool{}; fmt.Printf("%T", fs)`, "[]func(main.P, int) bool"},
		{"var anon struct {\nP\nN Name `json:\"n\"`\nList []*P\n}; fmt.Printf(\"%T|%T\", anon, &anon)", `struct { main.P; N main.Name "json:\"n\""; List []*main.P }|*struct { main.P; N main.Name "json:\"n\""; List []*main.P }`},
		{`var ch chan<- P; var rc <-chan Name; arr := [3]Name{}; mp := map[Name][]P{}; fmt.Printf("%T|%T|%T|%T", ch, rc, arr, mp)`, "chan<- main.P|<-chan main.Name|[3]main.Name|map[main.Name][]main.P"},
		{`fmt.Printf("%T %T %T %T", P{}, Name(""), []Name{}, func(int) string { return "" })`, "main.P main.Name []main.Name func(int) string"},
	}
	for _, tt := range tests {
		if got := runOutput(t, goMain(decls, tt.body)); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.body, got, tt.want)
		}
	}
}

// TestPrintFuncValue checks patch 113: a print function of fmt or log
// used as a function value, which would print the interpreter's
// representation of script values, is a compile error naming it; given
// to the blank identifier (an import kept used) it compiles.
func TestPrintFuncValue(t *testing.T) {
	for _, body := range []string{`f := fmt.Sprintf; _ = f("%d", 1)`, `var printf func(string, ...any) (int, error) = fmt.Printf; printf("x")`, `apply(fmt.Println)`} {
		it := New(Options{})
		if err := it.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		_, err := it.Eval(goMain("func apply(f func(...any) (int, error)) { f(1) }", body))
		if err == nil || !strings.Contains(err.Error(), "as a function value is not supported by the interpreter") {
			t.Errorf("%s: got %v, want the function value refused", body, err)
		}
	}
	if got := runOutput(t, goMain("var _ = fmt.Sprint", `_ = fmt.Println; fmt.Println("ok")`)); got != "ok\n" {
		t.Errorf("blank: got %q", got)
	}
}

// TestTypeVerbToolTypes checks patch 114: %T of a value whose static
// type the script wrote with a native package's type that its reflect
// type does not name (a typed tool's struct, its string enum) prints
// Go's name (it failed, or printed []string for a []shop.Status); one of
// a composite type a native function gives ([]string, which may be a
// []shop.Status) fails at run time naming the enum.
func TestTypeVerbToolTypes(t *testing.T) {
	order := reflect.StructOf([]reflect.StructField{{Name: "ID", Type: reflect.TypeFor[int]()}})
	shop := map[string]reflect.Value{
		"Order":         reflect.Zero(reflect.PointerTo(order)),
		"Status":        reflect.Zero(reflect.PointerTo(reflect.TypeFor[string]())),
		"Statuses":      reflect.ValueOf(func() []string { return []string{"paid"} }),
		TypeNamesSymbol: reflect.ValueOf(map[reflect.Type]string{order: "shop.Order", reflect.TypeFor[string](): "shop.Status"}),
	}
	run := func(body string) (string, error) { return runWithShop(t, shop, body) }
	for _, tt := range []struct{ body, want string }{
		{`var s []shop.Status; st := shop.Status("x"); fmt.Printf("%T %T", s, st)`, "[]shop.Status shop.Status"},
		{`var o shop.Order; fmt.Printf("%T %T", o, &o)`, "shop.Order *shop.Order"},
		{`m := map[shop.Status][]shop.Order{}; fmt.Printf("%T", m)`, "map[shop.Status][]shop.Order"},
		{`fmt.Printf("%T %T", []string{}, map[string]any{})`, "[]string map[string]interface {}"},
	} {
		got, err := run(tt.body)
		if err != nil || got != tt.want {
			t.Errorf("%s: got %q, %v, want %q", tt.body, got, err, tt.want)
		}
	}
	_, err := run(`fmt.Printf("%T", shop.Statuses())`)
	if err == nil || !strings.Contains(err.Error(), "%T of a value of a type made of shop.Status is not supported") {
		t.Errorf("a []string of a native function: got %v, want %%T refused", err)
	}
}

// runWithShop runs body as main of a program importing fmt and the
// native package shop, whose symbols are shop; it returns what the
// program printed and its error.
func runWithShop(t *testing.T, shop map[string]reflect.Value, body string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	it := New(Options{Stdout: &out, Stderr: io.Discard})
	if err := it.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if err := it.Use(Exports{"shop/shop": shop}); err != nil {
		t.Fatal(err)
	}
	_, err := it.Eval("package main\nimport (\"fmt\"; \"shop\")\nfunc main() {\n" + body + "\n}")
	return out.String(), err
}

// TestPrintNestedRecords checks patch 115: fmt prints a script value held
// in a slice or map of interfaces inside an interface as it prints one
// given directly, also shared between two places; a container that holds
// itself is left to the print function's own check. Each want is what go
// run prints.
func TestPrintNestedRecords(t *testing.T) {
	decls := `type L struct{ N string }
func (l L) Label() string { return l.N }
type S struct{ N string }
func (s S) String() string { return "S" + s.N }`
	tests := []struct{ body, want string }{
		{`fmt.Println([]any{[]any{L{"z"}}}, map[string]any{"k": []any{L{"q"}}})`, "[[{z}]] map[k:[{q}]]"},
		{`var x any = []any{L{"w"}, S{"v"}}; fmt.Println(x); fmt.Printf("%v %s\n", x, []any{x})`, "[{w} Sv]\n[{w} Sv] [[{w} Sv]]"},
		{`a := []any{S{"a"}}; fmt.Println([]any{a, a, map[string]any{"x": a}})`, "[[Sa] [Sa] map[x:[Sa]]]"},
		{`xs := []any{1, "s", nil}; fmt.Println([]any{xs})`, "[[1 s <nil>]]"},
	}
	for _, tt := range tests {
		if got := runOutput(t, goMain(decls, tt.body)); got != tt.want+"\n" {
			t.Errorf("%s:\n got %q\nwant %q", tt.body, got, tt.want)
		}
	}
}
