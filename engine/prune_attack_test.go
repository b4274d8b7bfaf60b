package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

// Attacks on the pruned interpreted sources (policy.SourceFSFor): an
// execution compiles only the functions of slices, maps, cmp and iter its
// text names, and what those use. A script that reaches them without
// writing each name at its call (an import alias, a method expression
// given to a generic function, a function value, a generic function of
// the script calling one, iterators passed from one function to another,
// iter.Pull) runs as Go runs it, in both runtimes; a session, whose later
// inputs call functions no earlier input named, too.

// pruneAttackScript's output is Go's (go run).
const pruneAttackScript = `
package main

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	s "slices"
	"strings"
)

type P struct {
	Name string
	Age  int
}

func (p P) Older(q P) int { return cmp.Compare(q.Age, p.Age) }

func MaxOf[T cmp.Ordered](xs []T) T { return s.Max(xs) }

func apply[T any](f func([]T, T) int, xs []T, x T) int { return f(xs, x) }

func main() {
	ps := []P{{"a", 3}, {"b", 9}, {"c", 1}}
	s.SortFunc(ps, P.Older)
	fmt.Println(ps)
	by := P.Older
	s.SortStableFunc(ps, func(a, b P) int { return -by(a, b) })
	fmt.Println(ps)
	fmt.Println(MaxOf([]string{"x", "zz", "y"}))
	cmpf := cmp.Compare[int]
	idx := func(xs []int, x int) int { return s.IndexFunc(xs, func(y int) bool { return cmpf(x, y) == 0 }) }
	fmt.Println(apply(idx, []int{4, 5, 6}, 6))
	m := map[string]int{"b": 2, "a": 1, "c": 3}
	fmt.Println(s.Sorted(maps.Keys(m)))
	fmt.Println(s.SortedFunc(maps.Values(m), func(a, b int) int { return cmp.Compare(b, a) }))
	next, stop := iter.Pull(s.Values([]string{"p", "q"}))
	v, ok := next()
	fmt.Println(v, ok)
	stop()
	for c := range s.Chunk([]int{1, 2, 3, 4, 5}, 2) {
		fmt.Print(c, " ")
	}
	fmt.Println()
	fmt.Println(s.Compact([]int{1, 1, 2, 2, 3}), cmp.Or("", "dflt"))
	var seq iter.Seq2[string, int] = maps.All(m)
	got := maps.Collect(seq)
	fmt.Println(maps.Equal(got, m), len(got))
	fmt.Println(s.Collect(s.Values(strings.Fields("u v w"))))
	i, found := s.BinarySearchFunc(ps, 3, func(p P, t int) int { return cmp.Compare(p.Age, t) })
	fmt.Println(i, found)
}
`

const pruneAttackOutput = `[{b 9} {a 3} {c 1}]
[{c 1} {a 3} {b 9}]
zz
2
[a b c]
[3 2 1]
p true
[1 2] [3 4] [5] 
[1 2 3] dflt
true 3
[u v w]
1 true
`

// TestPruneAttack_Reached: the script above gives Go's output in both
// runtimes, several times over (one execution's pruning is its own).
func TestPruneAttack_Reached(t *testing.T) {
	for name, rt := range bothRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			for range 2 {
				res, err := rt.Execute(context.Background(), pruneAttackScript, nil)
				require.NoError(t, err)
				require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
				assert.Equal(t, pruneAttackOutput, res.Stdout)
				// A script naming one function only between two that name others.
				res, err = rt.Execute(context.Background(), "xs := []int{3, 1, 2}\nslices.Sort(xs)\nfmt.Println(xs, slices.Contains(xs, 2))", nil)
				require.NoError(t, err)
				require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
				assert.Equal(t, "[1 2 3] true\n", res.Stdout)
			}
		})
	}
}

// TestPruneAttack_Session: a session's later inputs call functions of
// slices and maps that no earlier input named, with a function value an
// earlier input made (an instantiation such as cmp.Compare[int] as a
// value fails to compile in a session input: a gap of sessions); a panic in slices points at the input's line.
func TestPruneAttack_Session(t *testing.T) {
	e := engine.New(engine.Config{})
	s, err := engine.NewSession(e, map[string]projection.ToolProjection{})
	require.NoError(t, err)
	defer s.Close()
	ctx := context.Background()
	inputs := []struct{ code, out string }{
		{"import \"slices\"\nimport \"maps\"\nimport \"cmp\"\ncf := func(a, b int) int { return cmp.Compare(a, b) }\nxs := []int{4, 9, 2}\nfmt.Println(cf(xs[0], xs[1]))", "-1\n"},
		{"fmt.Println(slices.Min(xs), slices.Sorted(maps.Keys(map[string]int{\"b\": 1, \"a\": 2})))", "2 [a b]\n"},
		{"var ys []int\nys = slices.Clone(xs)\nslices.Reverse(ys)\nfmt.Println(ys, slices.Equal(xs, ys))\nslices.SortFunc(ys, cf)\nfmt.Println(ys, slices.IsSortedFunc(ys, cf))", "[2 9 4] false\n[2 4 9] true\n"},
	}
	for _, in := range inputs {
		res, err := s.Execute(ctx, in.code)
		require.NoError(t, err)
		require.Equal(t, engine.CodeOK, res.ReturnCode, in.code+": "+res.Error)
		assert.Equal(t, in.out, res.Stdout, in.code)
	}
	res, err := s.Execute(ctx, "var none []int\n\nfmt.Println(slices.Max(none))")
	require.NoError(t, err)
	assert.Equal(t, engine.CodeError, res.ReturnCode)
	assert.Contains(t, res.Error, "slices.Max: empty list")
}

// TestPruneAttack_PanicLine: a panic raised inside a pruned slices
// function names the script's line, as an unpruned one does.
func TestPruneAttack_PanicLine(t *testing.T) {
	code := "xs := []int{}\nfmt.Println(slices.Contains(xs, 1))\n\nfmt.Println(slices.Max(xs))"
	for name, rt := range bothRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			res, err := rt.Execute(context.Background(), code, nil)
			require.NoError(t, err)
			assert.Equal(t, engine.CodeError, res.ReturnCode)
			assert.Equal(t, "false\n", res.Stdout)
			assert.Contains(t, res.Error, "slices.Max: empty list")
			assert.Contains(t, res.Error, "line 4:")
		})
	}
}
