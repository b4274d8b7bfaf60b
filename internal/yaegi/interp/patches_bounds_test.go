package interp

import "testing"

// TestBoundsAndLaterMethods checks patches 147 to 149: a slice expression
// or a make out of range panics with Go's run-time error (reflect's
// message before), %#v of a pointer to a recursive script struct type
// names it (it printed (*struct {})(nil)), and a generic type's method
// calls one declared after it ("undefined selector" before). Each want is
// what go run prints.
func TestBoundsAndLaterMethods(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"slice bounds and makeslice (147)", `package main

import "fmt"

func try(name string, f func()) {
	defer func() {
		r := recover()
		_, ok := r.(interface{ RuntimeError() })
		fmt.Println(name, ok, r)
	}()
	f()
}

func main() {
	s := []int{1, 2, 3}
	str := "abc"
	arr := [3]int{1, 2, 3}
	n, m, k, neg := 5, 3, 2, -1
	var u uint = 7
	try("a", func() { _ = s[:n] })
	try("b", func() { _ = s[n:m] })
	try("c", func() { _ = s[m:k] })
	try("d", func() { _ = s[:m:n] })
	try("e", func() { _ = s[:m:k] })
	try("f", func() { _ = s[m:k:m] })
	try("g", func() { _ = str[:n-1] })
	try("h", func() { _ = arr[:n] })
	try("i", func() { _ = s[neg:] })
	try("j", func() { _ = s[:u] })
	try("k", func() { _ = s[:k:neg] })
	try("l", func() { _ = make([]int, neg) })
	try("m", func() { _ = make([]int, m, k) })
	try("n", func() { fmt.Println(s[1:2], str[1:], arr[:2], s[:2:3], s[k:]) })
}
`, `a true runtime error: slice bounds out of range [:5] with capacity 3
b true runtime error: slice bounds out of range [5:3]
c true runtime error: slice bounds out of range [3:2]
d true runtime error: slice bounds out of range [::5] with capacity 3
e true runtime error: slice bounds out of range [:3:2]
f true runtime error: slice bounds out of range [3:2:]
g true runtime error: slice bounds out of range [:4] with length 3
h true runtime error: slice bounds out of range [:5] with length 3
i true runtime error: slice bounds out of range [-1:]
j true runtime error: slice bounds out of range [:7] with capacity 3
k true runtime error: slice bounds out of range [::-1]
l true runtime error: makeslice: len out of range
m true runtime error: makeslice: cap out of range
[2] bc [1 2] [1 2] [3]
n false <nil>
`},
		{"%#v of a pointer to a recursive struct type (148)", `package main

import "fmt"

type Node struct {
	Val  int
	Next *Node
}

type L struct {
	Kids []*L
}

func main() {
	var n *Node
	fmt.Printf("%#v\n", n)
	fmt.Printf("%#v\n", &Node{Val: 1})
	fmt.Printf("%#v\n", L{Kids: []*L{nil}})
	var pp **Node
	fmt.Printf("%#v %T\n", pp, n)
}
`, `(*main.Node)(nil)
&main.Node{Val:1, Next:(*main.Node)(nil)}
main.L{Kids:[]*main.L{(*main.L)(nil)}}
(**main.Node)(nil) *main.Node
`},
		{"generic method calling a later one (149)", `package main

import "fmt"

type S[T any] struct{ v T }

func (s S[T]) A() T { return s.B() }
func (s S[T]) B() T { return s.v }

func main() {
	fmt.Println(S[int]{3}.A())
	fmt.Println(S[string]{"x"}.A())
}
`, `3
x
`},
	})
}
