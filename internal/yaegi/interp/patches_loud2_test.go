package interp

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runL2 runs src as a program with the standard library and returns what
// it printed.
func runL2(t *testing.T, src string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	it := New(Options{Stdout: &out})
	require.NoError(t, it.Use(stdlib.Symbols))
	_, err := it.Eval(src)
	return out.String(), err
}

// TestMultiVarInterface checks declarations and assignments of several
// variables of an interface type given values of a script type
// (toolscript patch 98): package level, function local, var with an
// interface type, := of conversions, swaps, fields, map entries and slice
// elements print what Go prints (they panicked in reflect.Set). The
// expected output is the program's under go run.
func TestMultiVarInterface(t *testing.T) {
	out, err := runL2(t, `package main

import "fmt"

type Shape interface{ Area() float64 }

type Square struct{ Side float64 }

func (s Square) Area() float64 { return s.Side * s.Side }

type Rect struct{ W, H float64 }

func (r *Rect) Area() float64 { return r.W * r.H }

type P struct{ X int }
type Q struct{ Y string }

var ga, gb Shape = Square{2}, &Rect{2, 3}
var gx, gy any = P{1}, Q{"q"}

func main() {
	var a, b Shape = Square{2}, Square{3}
	fmt.Println(a.Area(), b.Area())
	var x, y any = P{1}, Q{"q"}
	fmt.Println(x, y)
	c, d := Shape(Square{1}), Shape(&Rect{1, 2})
	fmt.Println(c.Area(), d.Area())
	fmt.Println(ga.Area(), gb.Area(), gx, gy)
	var e Shape
	var k int
	e, k = Square{5}, 7
	fmt.Println(e.Area(), k)
	a, b = b, a
	fmt.Println(a.Area(), b.Area())
	var s1, s2 fmt.Stringer
	_, _ = s1, s2
	var m, n any = Square{4}, 3
	if sh, ok := m.(Shape); ok {
		fmt.Println(sh.Area(), n)
	}
	var e1, e2 error = fmt.Errorf("x"), nil
	fmt.Println(e1, e2 == nil)
	shapes := []Shape{a, b, c, d, e}
	total := 0.0
	for _, s := range shapes {
		total += s.Area()
	}
	fmt.Println(total)
	a, b = Square{6}, &Rect{1, 1}
	fmt.Println(a.Area(), b.Area())
	type holder struct{ s1, s2 Shape }
	var h holder
	h.s1, h.s2 = Square{1}, Square{2}
	ms := map[string]Shape{}
	ms["a"], ms["b"] = Square{3}, &Rect{2, 2}
	sl := make([]Shape, 2)
	sl[0], sl[1] = Square{7}, Square{8}
	fmt.Println(h.s1.Area(), h.s2.Area(), ms["a"].Area(), ms["b"].Area(), sl[0].Area(), sl[1].Area())
	var i1, i2 any = Square{1}, P{2}
	i1, i2 = i2, i1
	fmt.Println(i1, i2.(Shape).Area())
	p1, p2 := Square{1}, P{3}
	fmt.Println(p1, p2)
}
`)
	require.NoError(t, err)
	assert.Equal(t, `4 9
{1} {q}
1 2
4 6 {1} {q}
25 7
9 4
16 3
x true
41
36 1
1 4 9 4 49 64
{2} 1
{1} {3}
`, out)
}
