package interp

import "testing"

// TestRangeOnce checks patch 180: a range clause evaluates its range
// expression once (an int or a channel variable assigned in the body
// was read again at every iteration). Each want is what go run prints.
func TestRangeOnce(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"range over an int variable assigned in the body (180)", `package main

import "fmt"

func main() {
	n := 3
	var seen []int
	for i := range n {
		if i == 0 {
			n = 6
		}
		seen = append(seen, i)
	}
	fmt.Println(seen, n)
	var u8 uint8 = 2
	for i := range u8 {
		u8 = 5
		fmt.Print(i, " ")
	}
	fmt.Println()
	k := 0
	n = 3
	for range n {
		n = 10
		k++
	}
	fmt.Println(k)
}
`, "[0 1 2] 6\n0 1 \n3\n"},
		{"range over a field, *p and a global assigned in the body (180)", `package main

import "fmt"

type S struct{ N int; L []int }

var gn = 2
var gs = []int{7, 8}

func main() {
	st := S{N: 2, L: []int{1, 2}}
	for i := range st.N {
		st.N = 5
		fmt.Print(i, " ")
	}
	for _, v := range st.L {
		st.L = []int{9, 9, 9, 9}
		fmt.Print(v, " ")
	}
	fmt.Println()
	p := &st
	p.N = 2
	for i := range p.N {
		p.N = 7
		fmt.Print(i, " ")
	}
	n := 0
	q := &n
	*q = 2
	for i := range *q {
		*q = 9
		fmt.Print(i, " ")
	}
	fmt.Println()
	for i := range gn {
		gn = 8
		fmt.Print(i, " ")
	}
	for _, v := range gs {
		gs = nil
		fmt.Print(v, " ")
	}
	fmt.Println()
}
`, "0 1 1 2 \n0 1 0 1 \n0 1 7 8 \n"},
		{"range over a channel variable assigned in the body (180)", `package main

import "fmt"

func main() {
	ch := make(chan int, 2)
	ch <- 1
	ch <- 2
	close(ch)
	c2 := make(chan int, 1)
	c2 <- 50
	close(c2)
	for v := range ch {
		ch = c2
		fmt.Print(v, " ")
	}
	fmt.Println()
	ch = make(chan int, 2)
	ch <- 1
	ch <- 2
	close(ch)
	k := 0
	for range ch {
		ch = nil
		k++
	}
	fmt.Println(k)
	done := make(chan bool)
	work := make(chan int)
	go func() {
		for i := range 3 {
			work <- i
		}
		close(work)
	}()
	go func() {
		sum := 0
		for w := range work {
			sum += w
		}
		fmt.Println("sum", sum)
		done <- true
	}()
	<-done
}
`, "1 2 \n2\nsum 3\n"},
		{"range over a slice, an array, a map, a string, a func (180)", `package main

import "fmt"

func main() {
	s := []int{1, 2, 3}
	for i, v := range s {
		if i == 0 {
			s = []int{10, 20, 30, 40, 50}
		}
		fmt.Print(v, " ")
	}
	fmt.Println(len(s))
	s = []int{1, 2, 3}
	for i := range s {
		if i == 0 {
			s = append(s, 4, 5)
		}
		fmt.Print(i, " ")
	}
	fmt.Println()
	s = []int{1, 2, 3}
	for i, v := range s {
		if i == 0 {
			s[2] = 99
		}
		fmt.Print(v, " ")
	}
	fmt.Println()
	a := [3]int{1, 2, 3}
	for i, v := range a {
		if i == 0 {
			a[2] = 99
		}
		fmt.Print(v, " ")
	}
	fmt.Println()
	a = [3]int{1, 2, 3}
	for i, v := range &a {
		if i == 0 {
			a[2] = 99
		}
		fmt.Print(v, " ")
	}
	fmt.Println()
	m := map[string]int{"a": 1}
	cnt := 0
	for range m {
		m = map[string]int{"x": 1, "y": 2, "z": 3}
		cnt++
	}
	fmt.Println(cnt)
	str := "abc"
	for i, r := range str {
		str = "zzzzzz"
		fmt.Print(i, string(r), " ")
	}
	fmt.Println()
	it := func(yield func(int) bool) { yield(1); yield(2) }
	for v := range it {
		it = func(yield func(int) bool) { yield(100) }
		fmt.Print(v, " ")
	}
	fmt.Println()
}
`, "1 2 3 5\n0 1 2 \n1 2 99 \n1 2 3 \n1 2 99 \n1\n0a 1b 2c \n1 2 \n"},
	})
}

// TestIotaPerSpec checks patch 181: iota advances once per const spec,
// not per name, and an implicit repetition of a spec of several names
// repeats all its expressions. Each want is what go run prints.
func TestIotaPerSpec(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"iota per spec in global and local const groups (181)", `package main

import "fmt"

const (
	A, B = iota, iota * 10
	C, D
	E    = iota
	F, G = iota, "s"
	H, I
)

type W int

const (
	W0, W1 W = iota + 1, iota * 2
	W2, W3
	_, _
	W4, W5
)

const (
	X = iota
	Y
	Z, ZZ = iota, -iota
	Q, QQ
)

func main() {
	fmt.Println(A, B, C, D, E, F, G, H, I)
	fmt.Println(W0, W1, W2, W3, W4, W5)
	fmt.Printf("%T %T\n", W3, W5)
	fmt.Println(X, Y, Z, ZZ, Q, QQ)
	const (
		a, b = iota, iota * 10
		c, d
		e    = iota
	)
	fmt.Println(a, b, c, d, e)
	const (
		p    = iota
		q, r = iota, iota + 100
		s, s2
		t, u = 7, iota
	)
	fmt.Println(p, q, r, s, s2, t, u)
}
`, "0 0 1 10 2 3 s 4 s\n1 0 2 2 4 6\nmain.W main.W\n0 1 2 -2 3 -3\n0 0 1 10 2\n0 1 101 2 102 7 3\n"},
		{"iota with single-name specs unchanged (181)", `package main

import "fmt"

type Weekday int

const (
	Sunday Weekday = iota
	Monday
	Tuesday
)

const (
	_  = iota
	KB = 1 << (10 * iota)
	MB
)

func main() {
	const (
		x = iota * 2
		y
		z
	)
	fmt.Println(Sunday, Monday, Tuesday, KB, MB, x, y, z)
}
`, "0 1 2 1024 1048576 0 2 4\n"},
	})
}

// TestNegativeShift checks patch 182: a shift by a negative count that
// is not a constant panics with Go's run-time error. Each want is what
// go run prints.
func TestNegativeShift(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"negative shift counts of every signed type panic (182)", `package main

import "fmt"

func try(name string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Println(name, "panic:", r)
		}
	}()
	f()
}

func main() {
	var i8 int8 = -1
	var i16 int16 = -2
	var i32 int32 = -3
	var i64 int64 = -4
	var i int = -5
	x := 5
	try("int8 <<", func() { fmt.Println(x << i8) })
	try("int16 >>", func() { fmt.Println(x >> i16) })
	try("int32 <<", func() { fmt.Println(uint(7) << i32) })
	try("int64 >>", func() { fmt.Println(uint8(7) >> i64) })
	try("int <<=", func() { y := 3; y <<= i; fmt.Println(y) })
	try("int >>=", func() { y := uint16(3); y >>= i8; fmt.Println(y) })
	try("const <<", func() { fmt.Println(1 << i) })
	try("map <<=", func() { m := map[string]int{"a": 1}; m["a"] <<= i; fmt.Println(m) })
	try("any", func() { var v any = x << i16; fmt.Println(v) })
}
`, "int8 << panic: runtime error: negative shift amount\nint16 >> panic: runtime error: negative shift amount\nint32 << panic: runtime error: negative shift amount\nint64 >> panic: runtime error: negative shift amount\nint <<= panic: runtime error: negative shift amount\nint >>= panic: runtime error: negative shift amount\nconst << panic: runtime error: negative shift amount\nmap <<= panic: runtime error: negative shift amount\nany panic: runtime error: negative shift amount\n"},
		{"unsigned, zero and large shift counts keep Go's results (182)", `package main

import "fmt"

func main() {
	x := 5
	var u64 uint64 = 1
	var c64 uint = 64
	var c100 = 100
	fmt.Println(u64<<c64, -1>>c100, int64(-8)>>c64, uint8(200)>>c100, int8(1)<<c100, int8(-128)>>3)
	n := 3
	fmt.Println(1<<n, x<<n, x>>1, uint32(1)<<31<<n)
	z := -7
	z >>= c64
	fmt.Println(z)
	var nz int = 0
	fmt.Println(x<<nz, x>>nz)
	var b uint8 = 7
	fmt.Println(x<<b, int8(3)<<b)
}
`, "0 -1 -1 0 0 -16\n8 40 2 0\n-1\n5 5\n640 -128\n"},
	})
}
