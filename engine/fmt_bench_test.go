package engine_test

import (
	"context"
	"testing"

	"github.com/toolscript/toolscript/engine"
)

// anyValuesScript fills a []any with values of script types (one with
// methods, one without), switches on their types and prints them: the
// conversions to interfaces and the fmt calls that patch 89 checks.
const anyValuesScript = `package main

import "fmt"

type P struct{ X, Y int }

type L struct{ N string }

func (l L) String() string { return l.N }

func main() {
	xs := make([]any, 0, 1000)
	for i := 0; i < 1000; i++ {
		if i%2 == 0 {
			xs = append(xs, P{i, i})
		} else {
			xs = append(xs, L{"x"})
		}
	}
	n := 0
	for _, x := range xs {
		switch v := x.(type) {
		case P:
			n += v.X
		case L:
			n += len(v.N)
		}
	}
	s := ""
	for i := 0; i < 100; i++ {
		s = fmt.Sprintf("%v %T %+v %d", xs[i], xs[1], xs[i], n)
	}
	fmt.Println(s)
}`

// BenchmarkExecute_AnyValues is a whole execution of a script whose
// values of script types go through a []any, a type switch and fmt.
func BenchmarkExecute_AnyValues(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := engine.Execute(ctx, anyValuesScript, nil)
		if err != nil || res.ReturnCode != 0 {
			b.Fatal(err, res.Error)
		}
	}
}
