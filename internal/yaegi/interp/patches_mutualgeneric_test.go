package interp

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMutualGenericRecursion checks patch 168: mutually recursive
// generic functions (Even[int] calling Odd[int] calling Even[int]) run
// as Go runs them. The instance of the first was the callee node of the
// second's call, which the first's body held: the tree had a cycle, the
// deadlock scan's walk overflowed the stack (a fatal error of the whole
// process), and a call in a binary expression (1 + walkB(...)) crashed
// the compiler in fixUntyped, which walked into the instance still being
// compiled. Each program runs with the deadlock detection on, as the
// engine runs it; each want is what go run prints.
func TestMutualGenericRecursion(t *testing.T) {
	for _, tc := range []goCase{
		{"Even and Odd", `package main

import "fmt"

func Even[T ~int](n T) bool {
	if n == 0 {
		return true
	}
	return Odd(n - 1)
}

func Odd[T ~int](n T) bool {
	if n == 0 {
		return false
	}
	return Even(n - 1)
}

type Level int

func main() {
	fmt.Println(Even(4), Odd(4), Even(Level(3)), Odd(Level(3)))
}
`, `true false false true
`},
		{"in a binary expression", `package main

import "fmt"

func walkA[K comparable](ks []K, depth int) int {
	if depth == 0 || len(ks) == 0 {
		return 0
	}
	return 1 + walkB(ks[1:], depth-1)
}

func walkB[K comparable](ks []K, depth int) int {
	return 10 + walkA(ks, depth-1)
}

func main() {
	fmt.Println(walkA([]string{"a", "b", "a", "c"}, 6))
}
`, `33
`},
		{"several type arguments, explicit and inferred, untyped constants", `package main

import "fmt"

func isEven[T ~int | ~int64](n T) bool {
	if n == 0 {
		return true
	}
	return !isOdd(n) || n < 0 || isOdd(n-1)
}

func isOdd[T ~int | ~int64](n T) bool {
	if n == 0 {
		return false
	}
	return isEven(n - 1)
}

func count[T any](xs []T) int {
	if len(xs) == 0 {
		return 0
	}
	return 1 + countRest(xs) + 0*2
}

func countRest[T any](xs []T) int { return count(xs[1:]) }

func main() {
	fmt.Println(isEven(int64(6)), isOdd(7), isEven[int](3))
	fmt.Println(count([]string{"a", "b", "c"}), countRest([]float64{1.5, 2}))
	const half = 0.5
	fmt.Println(float64(count([]int{1, 2}))*half + 1)
}
`, `true true false
3 1
2
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			it := New(Options{Stdout: &out, Stderr: io.Discard, Deadlock: func(string) {}})
			require.NoError(t, it.Use(stdlib.Symbols))
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err := it.EvalWithContext(ctx, tc.src)
			require.NoError(t, err, out.String())
			require.Equal(t, tc.want, out.String())
		})
	}
}
