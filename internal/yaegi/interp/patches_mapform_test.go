package interp

import (
	"fmt"
	"reflect"
	"sort"
	"testing"
)

// TestMapForm checks patch 50: Options.MapForm is asked, at compile time,
// for each call of a native package's function whose only argument is a
// map[string]any (a literal or a variable) or nil; a valid function of
// the tool signature it gives is called instead, and the call has that
// function's type. Calls with a struct argument keep the symbol.
func TestMapForm(t *testing.T) {
	type args struct{ N int }
	var asked []string
	typed := func(a args) (int, error) { return a.N * 10, nil }
	mapForm := func(m map[string]any) (any, error) { return fmt.Sprint("map ", m["n"]), nil }
	it := New(Options{MapForm: func(pkgPath, name string) reflect.Value {
		asked = append(asked, pkgPath+"."+name)
		if name != "Typed" {
			return reflect.Value{}
		}
		return reflect.ValueOf(mapForm)
	}})
	if err := it.Use(Exports{"tools/./tools": {
		"Typed": reflect.ValueOf(typed),
		"Other": reflect.ValueOf(func(m map[string]any) (any, error) { return "other", nil }),
		"Args":  reflect.ValueOf((*args)(nil)),
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := it.Eval(`import "tools"`); err != nil {
		t.Fatal(err)
	}
	_, err := it.Eval(`func f() string {
	n, _ := tools.Typed(tools.Args{N: 4})
	m := map[string]any{"n": 2}
	a, _ := tools.Typed(m)
	b, _ := tools.Typed(map[string]any{"n": 3})
	c, _ := tools.Typed(nil)
	o, _ := tools.Other(nil)
	if n != 40 {
		return "typed call gave the wrong value"
	}
	return a.(string) + " " + b.(string) + " " + c.(string) + " " + o.(string)
}`)
	if err != nil {
		t.Fatal(err)
	}
	v, err := it.Eval(`f()`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != "map 2 map 3 map <nil> other" {
		t.Errorf("f() = %q", got)
	}
	// Asked for each call with a map or nil (once more where the call
	// defines variables), never for the struct call.
	seen := map[string]bool{}
	for _, a := range asked {
		seen[a] = true
	}
	names := make([]string, 0, len(seen))
	for a := range seen {
		names = append(names, a)
	}
	sort.Strings(names)
	if fmt.Sprint(names) != "[tools.Other tools.Typed]" || len(asked) < 4 {
		t.Errorf("MapForm asked for %v", asked)
	}
	// Without a map form the struct function refuses a map, as Go does.
	if _, err := it.Eval(`func g() { tools.Typed(1) }`); err == nil {
		t.Error("tools.Typed(1) compiled")
	}
}

// TestDirectCall checks patch 51: Options.DirectCall is asked, at compile
// time, for the calls of a native package's functions; its function is
// called with the argument values instead of the symbol's, in a call
// statement, an assignment and a go statement, and a function value of
// the symbol keeps the symbol's function.
func TestDirectCall(t *testing.T) {
	type args struct{ N int }
	calls := make(chan string, 10)
	sym := func(a args) (int, error) { calls <- "symbol"; return a.N, nil }
	it := New(Options{DirectCall: func(pkgPath, name string) func([]reflect.Value) []reflect.Value {
		if pkgPath != "tools" || name != "Typed" {
			return nil
		}
		return func(in []reflect.Value) []reflect.Value {
			calls <- "direct"
			n := int(in[0].Field(0).Int()) * 100
			var err error
			return []reflect.Value{reflect.ValueOf(n), reflect.ValueOf(&err).Elem()}
		}
	}})
	if err := it.Use(Exports{"tools/./tools": {
		"Typed": reflect.ValueOf(sym),
		"Args":  reflect.ValueOf((*args)(nil)),
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := it.Eval(`import "tools"`); err != nil {
		t.Fatal(err)
	}
	v, err := it.Eval(`func f() int {
	tools.Typed(tools.Args{N: 1})
	n, _ := tools.Typed(tools.Args{N: 2})
	g := tools.Typed
	m, _ := g(tools.Args{N: 3})
	done := make(chan bool)
	go func() { tools.Typed(tools.Args{N: 4}); done <- true }()
	<-done
	return n + m
}`)
	if err != nil {
		t.Fatal(err)
	}
	if v, err = it.Eval(`f()`); err != nil {
		t.Fatal(err)
	}
	if v.Int() != 203 {
		t.Errorf("f() = %d", v.Int())
	}
	close(calls)
	var got []string
	for c := range calls {
		got = append(got, c)
	}
	if fmt.Sprint(got) != "[direct direct symbol direct]" {
		t.Errorf("calls: %v", got)
	}
}
