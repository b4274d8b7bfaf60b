package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chanDirPrelude declares the functions the cases of
// TestChannelDirections use; each case is the body of main.
const chanDirPrelude = `package main

import (
	"fmt"
	"time"
)

type Job struct{ ID int }

func produce(out chan<- int, n int) {
	for i := range n {
		out <- i
	}
	close(out)
}

func sum(in <-chan int) int {
	s := 0
	for v := range in {
		s += v
	}
	return s
}

func gen(n int) <-chan Job {
	c := make(chan Job)
	go func() {
		defer close(c)
		for i := range n {
			c <- Job{i}
		}
	}()
	return c
}

func drain[T any](c <-chan T) []T {
	var out []T
	for v := range c {
		out = append(out, v)
	}
	return out
}

func fill[T any](c chan<- T, vs ...T) {
	for _, v := range vs {
		c <- v
	}
}

func recv1[T any](c <-chan T) T { return <-c }

var _ = time.Second

func main() {
`

// TestChannelDirections checks channels of one direction (toolscript
// patch 120): made with make(chan<- T) and make(<-chan T) (reflect
// panicked: "unidirectional channel type"), of the script's types, with
// len, cap and %T, assigned and converted from channels of both
// directions, given to directional parameters, ranged over, held in an
// interface, fields, slices, maps and channels of them; and a channel of
// both directions, or a native one, given for a generic <-chan T or
// chan<- T parameter, whose T was not inferred. The expected outputs are
// the programs' under go run.
func TestChannelDirections(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
	}{
		{name: "make send-only", body: `s := make(chan<- int, 2)
s <- 4
fmt.Println(len(s), cap(s))
fmt.Printf("%T\n", s)
close(s)`, want: "1 2\nchan<- int\n"},
		{name: "make receive-only", body: `r := make(<-chan string)
fmt.Printf("%T %d %d\n", r, len(r), cap(r))
select { case v, ok := <-r: fmt.Println(v, ok)
default: fmt.Println("empty") }`, want: "<-chan string 0 0\nempty\n"},
		{name: "make unbuffered send-only", body: `s := make(chan<- Job)
fmt.Printf("%T %d %v\n", s, cap(s), s == nil)`, want: "chan<- main.Job 0 false\n"},
		{name: "send-only of a script type", body: `s := make(chan<- *Job, 3)
s <- &Job{1}
fmt.Printf("%T %d\n", s, len(s))`, want: "chan<- *main.Job 1\n"},
		{name: "assigned from bidirectional", body: `var c chan<- int = make(chan int, 1)
c <- 1
var r <-chan int
b := make(chan int, 1)
r = b
b <- 2
fmt.Printf("%T %T %d %d\n", c, r, len(c), <-r)`, want: "chan<- int <-chan int 1 2\n"},
		{name: "directional parameters", body: `ch := make(chan int, 5)
go produce(ch, 4)
fmt.Println(sum(ch))`, want: "6\n"},
		{name: "range over a returned receive-only", body: `for j := range gen(3) { fmt.Print(j.ID, " ") }
fmt.Println()
fmt.Printf("%T\n", gen(0))`, want: "0 1 2 \n<-chan main.Job\n"},
		{name: "conversion", body: `ch := make(chan int, 1)
ro := (<-chan int)(ch)
so := (chan<- int)(ch)
so <- 9
fmt.Printf("%T %T %d\n", ro, so, <-ro)`, want: "<-chan int chan<- int 9\n"},
		{name: "generic receive-only parameter", body: `fmt.Println(drain(gen(2)))
ch := make(chan int, 3)
fill(ch, 1, 2, 3)
close(ch)
fmt.Println(drain(ch))`, want: "[{0} {1}]\n[1 2 3]\n"},
		{name: "generic send-only parameter of a made one", body: `s := make(chan<- Job, 2)
fill(s, Job{7}, Job{8})
fmt.Println(len(s), cap(s))`, want: "2 2\n"},
		{name: "in an interface", body: `var a any = make(<-chan int, 3)
_, isRecv := a.(<-chan int)
_, isBoth := a.(chan int)
fmt.Println(isRecv, isBoth)
fmt.Printf("%T\n", a)
switch v := a.(type) { case chan int: fmt.Println("both", cap(v))
case <-chan int: fmt.Println("recv", cap(v)) }`, want: "true false\n<-chan int\nrecv 3\n"},
		{name: "fields, slices and maps", body: `c := make(chan string, 1)
p := struct { in chan<- string
out <-chan string }{c, c}
p.in <- "x"
fmt.Println(<-p.out)
cs := []chan<- int{make(chan int, 1), make(chan<- int, 2)}
m := map[string]<-chan int{"a": make(<-chan int)}
fmt.Printf("%T %d %T %d\n", cs, cap(cs[1]), m, cap(m["a"]))`, want: "x\n[]chan<- int 2 map[string]<-chan int 0\n"},
		{name: "channel of channels", body: `cc := make(chan chan<- int, 1)
cc <- make(chan<- int, 4)
fmt.Printf("%T %d\n", cc, cap(<-cc))
rr := make(<-chan <-chan int)
fmt.Printf("%T\n", rr)`, want: "chan chan<- int 4\n<-chan <-chan int\n"},
		{name: "nil directional", body: `var s chan<- int
var r <-chan int
fmt.Println(s == nil, r == nil, len(s), cap(r))`, want: "true true 0 0\n"},
		{name: "native channel to a generic parameter", body: `t := recv1(time.After(time.Millisecond))
tk := time.NewTicker(time.Millisecond)
u := recv1(tk.C)
tk.Stop()
fmt.Println(t.IsZero(), u.IsZero())`, want: "false false\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runL2(t, chanDirPrelude+tc.body+"\n}\n")
			require.NoError(t, err)
			assert.Equal(t, tc.want, out)
		})
	}
}
