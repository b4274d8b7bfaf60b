package interp

import "testing"

// TestLocalTypeIdentity checks patch 135: two types of one name and one
// layout declared in two function bodies are two types, as in Go: type
// switches, assertions, == and map[any] keys tell them apart (they were
// one type, named main.T both, so a's T matched b's). A function
// literal's, a loop body's and a generic function's local types follow
// Go too; the expected output is the Go toolchain's.
func TestLocalTypeIdentity(t *testing.T) {
	src := `package main

import "fmt"

func a() any {
	type T struct{ X int }
	return T{1}
}

func b(v any) {
	type T struct{ X int }
	switch v.(type) {
	case T:
		fmt.Println("b's T")
	default:
		fmt.Printf("other %T\n", v)
	}
	_, ok := v.(T)
	fmt.Println(ok, v == any(T{1}))
	p, ok2 := any(&T{2}).(*T)
	fmt.Println(p.X, ok2)
}

func c() any {
	type L int
	return L(3)
}

func d(v any) {
	type L int
	_, ok := v.(L)
	fmt.Println("L", ok, v == any(L(3)))
}

func gen[X any]() any {
	type G struct{ V X }
	var z X
	return G{z}
}

func loop() []any {
	var out []any
	for i := range 2 {
		type P struct{ I int }
		out = append(out, P{0 * i})
	}
	return out
}

func main() {
	b(a())
	b(func() any { type T struct{ X int }; return T{1} }())
	d(c())
	d(L2())
	fmt.Println(gen[int]() == gen[int](), gen[int]() == gen[string]())
	ps := loop()
	fmt.Println(ps[0] == ps[1])
	m := map[any]bool{a(): true}
	fmt.Println(m[a()], len(m))
}

func L2() any { type L int; return L(3) }
`
	want := `other main.T
false false
2 true
other main.T
false false
2 true
L false false
L false false
true false
true
true 1
`
	if got := runOutput(t, src); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
