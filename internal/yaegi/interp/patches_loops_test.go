package interp

import "testing"

// TestLoopsAndSwitches checks patches 141 to 143: programs the interpreter
// crashed on or ran with another output than Go's (a define in a loop's
// body of the name of a loop variable, a range over a string with an
// invalid byte or a multibyte rune, a fallthrough into a default clause
// that is not the last). Each want is what go run prints.
func TestLoopsAndSwitches(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"a loop variable shadowed in the body (141)", `package main

import "fmt"

func main() {
	for i := 0; i < 2; i++ {
		i := i + 1
		fmt.Println(i)
	}
	for x := 1; x < 3; x++ {
		x := x * 100
		fmt.Println(x)
	}
	for i := 0; i < 3; i++ {
		i := i
		i += 5
		fmt.Print(i, " ")
	}
	fmt.Println()
	var fs []func()
	for i := 0; i < 3; i++ {
		i := i * 10
		fs = append(fs, func() { fmt.Print(i, " ") })
	}
	for _, f := range fs {
		f()
	}
	fmt.Println()
	for i, s := 0, "a"; i < 2; i++ {
		i, s := i+1, s+"b"
		fmt.Println(i, s)
	}
	for i := range 3 {
		i := i * 2
		fmt.Print(i, " ")
	}
	fmt.Println()
	for k, v := range []string{"x", "y"} {
		p := &v
		k, v := k+1, v+"!"
		fmt.Println(k, v, *p)
	}
	for i := 0; i < 2; i++ {
		i := fmt.Sprint(i)
		fmt.Println(i + "s")
	}
}
`, `1
2
100
200
5 6 7 
0 10 20 
1 ab
2 ab
0 2 4 
1 x! x
2 y! y
0s
1s
`},
		{"a range over a string decodes it (142)", `package main

import "fmt"

type S string

func main() {
	for i, r := range "a\xffb" {
		fmt.Println(i, r)
	}
	for i := range "héllo" {
		fmt.Print(i, " ")
	}
	fmt.Println()
	for i, r := range S("é\xe2\x82x") {
		fmt.Print(i, " ", r, " ")
	}
	fmt.Println()
	for i, _ := range "aé" {
		fmt.Print(i, " ")
	}
	fmt.Println()
	n := 0
	for range "日本\xff" {
		n++
	}
	fmt.Println(n)
}
`, `0 97
1 65533
2 98
0 1 3 4 5 
0 233 2 65533 3 65533 4 120 
0 1 
3
`},
		{"a default clause keeps its place (143)", `package main

import "fmt"

func id(x int) int { fmt.Print("t", x, " "); return x }

type A interface{ A() }
type B interface{ B() }
type T struct{}

func (T) A() {}
func (T) B() {}

func main() {
	switch 1 {
	case 1:
		fmt.Println("one")
		fallthrough
	default:
		fmt.Println("default")
	case 2:
		fmt.Println("two")
	}
	v := 1
	switch {
	case v == 1:
		fmt.Println("one")
		fallthrough
	default:
		fmt.Println("default")
	case v == 2:
		fmt.Println("two")
	}
	for _, v := range []int{1, 2, 5} {
		switch x := v; id(x) {
		default:
			fmt.Println("default")
		case id(1):
			fmt.Println("is1")
		case id(2):
			fmt.Println("is2")
			fallthrough
		case id(3):
			fmt.Println("is3")
		}
	}
	for _, v := range []int{1, 2} {
		switch {
		default:
			fmt.Println("d")
			fallthrough
		case v == 1:
			fmt.Println("c1")
		}
	}
	var x any = T{}
	switch x.(type) {
	default:
		fmt.Println("none")
	case A:
		fmt.Println("A")
	case B:
		fmt.Println("B")
	}
}
`, `one
default
one
default
t1 t1 is1
t2 t1 t2 is2
is3
t5 t1 t2 t3 default
c1
d
c1
A
`},
	})
}
