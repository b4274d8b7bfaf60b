package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/demo"
)

// normScripts are scripts whose second execution compiles the first's
// normalisation: a panic's position, a trailer helper (result), constant
// min and max folded by the type checker, generics, goroutines and an
// iterator, each with what it must give every time.
var normScripts = []struct {
	name, code, stdout, err string
}{
	{"panic position", "xs := []int{1, 2}\ni := 5\nfmt.Println(\"before\")\nfmt.Println(xs[i])\n", "before\n", "line 4:13: panic: runtime error: index out of range [5] with length 2"},
	{"result trailer", "n := 0\nfor i := range 4 {\n\tn += i\n}\nresult(map[string]int{\"n\": n})\n", "", ""},
	{"const min max", "const a, b = 3, 9\nvar arr [min(a, b)]int\nfmt.Println(len(arr), max(a, b))\n", "3 9\n", ""},
	{"generics", "func Map[T, U any](xs []T, f func(T) U) []U {\n\tout := make([]U, 0, len(xs))\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}\nfmt.Println(Map([]int{1, 2, 3}, func(i int) string { return strings.Repeat(\"x\", i) }))\n", "[x xx xxx]\n", ""},
	{"goroutines", "var wg sync.WaitGroup\nvar mu sync.Mutex\ntotal := 0\nfor i := range 10 {\n\twg.Go(func() {\n\t\tmu.Lock()\n\t\ttotal += i\n\t\tmu.Unlock()\n\t})\n}\nwg.Wait()\nfmt.Println(total)\n", "45\n", ""},
	{"iterator", "seq := func(yield func(int) bool) {\n\tfor i := 0; i < 3; i++ {\n\t\tif !yield(i * i) {\n\t\t\treturn\n\t\t}\n\t}\n}\nfor v := range seq {\n\tfmt.Print(v, \" \")\n}\nfmt.Println()\n", "0 1 4 \n", ""},
	{"range assign", "k, v := 0, \"\"\nfor k, v = range []string{\"a\", \"b\"} {\n}\nfmt.Println(k, v)\n", "1 b\n", ""},
	{"slices", "xs := []int{3, 1, 2}\nslices.Sort(xs)\nfmt.Println(xs, slices.Index(xs, 2))\n", "[1 2 3] 1\n", ""},
}

// TestNormCache_RepeatedExecutions: each script executed again and
// again, from several goroutines at once on one surface, gives what it
// gave the first time (its output, its error at the same line and
// column), whether its normalisation was kept or not.
func TestNormCache_RepeatedExecutions(t *testing.T) {
	ns := demo.Namespace()
	for _, tc := range normScripts {
		t.Run(tc.name, func(t *testing.T) {
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() {
					for range 5 {
						res, err := Execute(context.Background(), tc.code, ns)
						if !assert.NoError(t, err) {
							return
						}
						assert.Equal(t, tc.stdout, res.Stdout)
						if tc.err == "" {
							assert.Equal(t, 0, res.ReturnCode, res.Error)
						} else {
							assert.Contains(t, res.Error, tc.err)
						}
					}
				})
			}
			wg.Wait()
		})
	}
}

// TestNormCache_Kept: a script's normalisation is kept after its first
// execution and its parse shared, except a tree the interpreter writes
// to (`for k, v = range`), a refused script and a script too large for a
// slot; two scripts that differ in a comment are two entries, and so is
// one script with and without extra globals, and one script on two
// surfaces.
func TestNormCache_Kept(t *testing.T) {
	surf := buildSurface(demo.Namespace())
	im := imports{surf: surf}
	kept := func(code string, globals bool) *normalized {
		norms.mu.Lock()
		defer norms.mu.Unlock()
		return norms.progs[normKey{surf, code, globals}]
	}
	code := "x := 1\nfmt.Println(x)\n"
	first, err := normalizeScript(code, im, false)
	require.NoError(t, err)
	n := kept(code, false)
	require.NotNil(t, n)
	require.NotNil(t, n.prog.parsed)
	assert.NotEmpty(t, n.files)
	again, err := normalizeScript(code, im, false)
	require.NoError(t, err)
	assert.Same(t, first.parsed.File, again.parsed.File, "the tree is shared")
	assert.NotSame(t, first.fset, again.fset, "each execution has a file set of its own")
	assert.Equal(t, first.fset.Position(first.parsed.File.Decls[0].Pos()), again.fset.Position(again.parsed.File.Decls[0].Pos()))
	assert.Equal(t, first.src, again.src)

	other := buildSurface(demo.Namespace())
	elsewhere, err := normalizeScript(code, imports{surf: other}, false)
	require.NoError(t, err)
	assert.NotSame(t, first.parsed.File, elsewhere.parsed.File, "another surface's script is another entry")

	_, err = normalizeScript(code, im, true)
	require.NoError(t, err)
	assert.NotNil(t, kept(code, true))
	_, err = normalizeScript(code+"// again\n", im, false)
	require.NoError(t, err)
	assert.NotNil(t, kept(code+"// again\n", false))

	rangeAssign := "k := 0\nfor k = range []int{1, 2} {\n}\nfmt.Println(k)\n"
	_, err = normalizeScript(rangeAssign, im, false)
	require.NoError(t, err)
	assert.Nil(t, kept(rangeAssign, false), "the interpreter rewrites a range with =")

	refused := "import \"os/exec\"\nfmt.Println(exec.Command)\n"
	_, err = normalizeScript(refused, im, false)
	require.Error(t, err)
	assert.Nil(t, kept(refused, false))

	big := "x := 1\n" + strings.Repeat("// padding padding padding\n", maxNormBytes/16/27+1) + "fmt.Println(x)\n"
	_, err = normalizeScript(big, im, false)
	require.NoError(t, err)
	assert.Nil(t, kept(big, false))
}

// TestNormCache_Bounded: a flood of distinct scripts, on two surfaces,
// never holds more than the cache's bounds (the process's), in count and
// in bytes.
func TestNormCache_Bounded(t *testing.T) {
	ims := []imports{{surf: buildSurface(demo.Namespace())}, {surf: buildSurface(demo.Namespace())}}
	for i := range maxNormScripts + 40 {
		_, err := normalizeScript(fmt.Sprintf("x := %d\nfmt.Println(x)\n", i/2), ims[i%2], false)
		require.NoError(t, err)
		norms.mu.Lock()
		n, b := len(norms.progs), norms.bytes
		norms.mu.Unlock()
		require.LessOrEqual(t, n, maxNormScripts)
		require.LessOrEqual(t, b, maxNormBytes)
	}
}
