package interp

import "testing"

// TestRangeChanClosure checks patch 193: the value a range over a channel
// receives is a variable of its own per iteration (closures, goroutines and
// addresses taken in the body saw the last value), as for the other forms
// of range, which stay right; with = the variable is the outer one.
// Each want is what go run prints.
func TestRangeChanClosure(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"chan closure", `// Closures and goroutines started in the body of a range over a channel
// see the value of their own iteration: each value received is a new
// variable per iteration, as for the other forms of range (Go 1.22).
package main

import (
	"fmt"
	"sync"
)

type P struct{ X int }

func main() {
	ch := make(chan int, 5)
	for i := range 5 {
		ch <- i
	}
	close(ch)
	var fs []func()
	for v := range ch {
		fs = append(fs, func() { fmt.Print(v) })
	}
	for _, f := range fs {
		f()
	}
	fmt.Println()

	cs := make(chan P, 2)
	cs <- P{1}
	cs <- P{2}
	close(cs)
	var ps []*P
	for p := range cs {
		ps = append(ps, &p)
	}
	fmt.Println(ps[0].X, ps[1].X)

	ci := make(chan int, 4)
	for i := range 4 {
		ci <- i
	}
	close(ci)
	var wg sync.WaitGroup
	res := make([]int, 4)
	for v := range ci {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[v] = v + 100
		}()
	}
	wg.Wait()
	fmt.Println(res)

	// With = the variable is declared outside the loop: one for all.
	cw := make(chan int, 3)
	cw <- 7
	cw <- 8
	cw <- 9
	close(cw)
	var w int
	fs = nil
	for w = range cw {
		fs = append(fs, func() { fmt.Print(w) })
	}
	for _, f := range fs {
		f()
	}
	fmt.Println(" w =", w)

	cn := make(chan int, 2)
	cn <- 1
	cn <- 2
	close(cn)
	n := 0
	for range cn {
		n++
	}
	fmt.Println("n", n)
}
`, `01234
1 2
[100 101 102 103]
999 w = 9
n 2
`},
		{"other forms", `package main

import "fmt"

type MyInt int

func main() {
	sl := []string{"x", "y", "z"}
	var fs []func()
	for k, v := range sl {
		fs = append(fs, func() { fmt.Print(k, v, " ") })
	}
	for _, v := range sl {
		fs = append(fs, func() { fmt.Print(v) })
	}
	for k := range [2]int{} {
		fs = append(fs, func() { fmt.Print(k) })
	}
	for i, r := range "hé!" {
		fs = append(fs, func() { fmt.Print(i, string(r), " ") })
	}
	for i := range MyInt(3) {
		fs = append(fs, func() { fmt.Print(i) })
	}
	m := map[string]int{"a": 1}
	for k, v := range m {
		fs = append(fs, func() { fmt.Print(" ", k, v, " ") })
	}
	seq2 := func(yield func(int, string) bool) {
		for i, s := range []string{"p", "q"} {
			if !yield(i, s) {
				return
			}
		}
	}
	for k, v := range seq2 {
		fs = append(fs, func() { fmt.Print(k, v, " ") })
	}
	var kk int
	var vv string
	for kk, vv = range sl {
		fs = append(fs, func() { fmt.Print(kk, vv, " ") })
	}
	for _, f := range fs {
		f()
	}
	fmt.Println()
}
`, `0x 1y 2z xyz010h 1é 3! 012 a1 0p 1q 2z 2z 2z 
`},
		{"chan body control", `package main

import "fmt"

func main() {
	ch := make(chan int, 6)
	for i := range 6 {
		ch <- i
	}
	close(ch)
	var fs []func() int
outer:
	for v := range ch {
		if v == 1 {
			continue
		}
		for j := 0; j < 3; j++ {
			if v == 3 {
				continue outer
			}
		}
		v *= 10
		fs = append(fs, func() int { return v })
		if v == 40 {
			break
		}
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println(len(ch))
	var rc <-chan string
	c2 := make(chan string, 2)
	c2 <- "a"
	c2 <- "b"
	close(c2)
	rc = c2
	var ss []*string
	for s := range rc {
		ss = append(ss, &s)
	}
	fmt.Println(*ss[0], *ss[1])
}
`, `0 20 40 1
a b
`},
	})
}
