package interp // toolscript patch 161

import "testing"

// TestUnnamedCompare checks patch 161: an operand of a named type
// compared with one of an unnamed type of its underlying type (assignable
// to each other, as Go's == needs) was refused as mismatched types (p ==
// struct{ X int }{1}, an A [2]int and a [2]int literal), and once
// accepted compared as two types, unequal; held in interfaces they stay
// two types. Each want is what go run prints.
func TestUnnamedCompare(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"a named struct, array or channel type compared with an unnamed one", `package main

import "fmt"

type P struct{ X int }
type A [2]int
type F func()
type C chan int
type S []int
type M map[string]int
type I interface{ M() }

func main() {
	p := P{1}
	fmt.Println(p == struct{ X int }{1}, struct{ X int }{2} != p)
	var u struct{ X int } = struct{ X int }{1}
	fmt.Println(p == u, u == p)
	a := A{1, 2}
	fmt.Println(a == [2]int{1, 2}, [2]int{1, 3} == a)
	var f F
	fmt.Println(f == nil)
	c := make(C)
	var c2 chan int = c
	fmt.Println(c == c2, c2 == c)
	var s S
	var m M
	fmt.Println(s == nil, m == nil)
	var pp *P
	var up *struct{ X int }
	fmt.Println(pp == (*P)(up))
	switch p {
	case struct{ X int }{1}:
		fmt.Println("case")
	}
	ms := map[P]int{}
	ms[struct{ X int }{3}] = 3
	fmt.Println(ms)
}
`, `true true
true true
true false
true
true true
true true
true
case
map[{3}:3]
`},
		{"interfaces still tell the two types apart; switch cases and map keys", `package main

import "fmt"

type P struct{ X int }

func (P) M() {}

type Q struct {
	P P
	N string
}
type A [2]P
type C chan int
type RC <-chan int
type Pt struct{ X, Y int }

func main() {
	p := P{1}
	fmt.Println(p == struct{ X int }{1}, p != struct{ X int }{1})
	fmt.Println(any(p) == any(struct{ X int }{1}))
	var i any = p
	fmt.Println(i == struct{ X int }{1}, i == P{1})
	q := Q{P{1}, "a"}
	fmt.Println(q == struct {
		P P
		N string
	}{P{1}, "a"})
	a := A{{1}, {2}}
	fmt.Println(a == [2]P{{1}, {2}}, a == [2]P{{1}, {3}})
	c := make(chan int)
	var rc RC = c
	var rc2 <-chan int = c
	fmt.Println(rc == rc2, C(c) == c)
	pts := []Pt{{1, 2}, {3, 4}}
	for _, pt := range pts {
		switch pt {
		case struct{ X, Y int }{3, 4}:
			fmt.Println("found", pt)
		}
		if struct{ X, Y int }{1, 2} == pt {
			fmt.Println("first", pt)
		}
	}
	anon := struct{ X int }{1}
	switch anon {
	case p:
		fmt.Println("anon matches p")
	}
	fmt.Printf("%T %T\n", anon, p)
	m := map[struct{ X int }]string{p: "p"}
	fmt.Println(m[P{1}], len(m))
}
`, `true false
false
false true
true
true false
true true
first {1 2}
found {3 4}
anon matches p
struct { X int } main.P
p 1
`},
	})
}
