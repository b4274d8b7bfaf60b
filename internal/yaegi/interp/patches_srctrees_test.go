package interp

import (
	"bytes"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// srcTreesFS holds two source packages: lib, whose At panics at line 9
// for an index out of range, and its dependency util, whose loop with
// `=` the interpreter rewrites in the tree it compiles.
var srcTreesFS = fstest.MapFS{
	"src/lib/lib.go": {Data: []byte(`package lib

import "util"

func Sum[T int | float64](xs []T) T { return util.Sum(xs) }

func At(xs []int, i int) int {
	// The next line panics for an i out of range.
	return xs[i]
}
`)},
	"src/util/util.go": {Data: []byte(`package util

func Sum[T int | float64](xs []T) T {
	var s, x T
	var i int
	for i, x = range xs {
		s += x
	}
	_ = i
	return s
}
`)},
	"src/alone/alone.go": {Data: []byte(`package alone

func Twice(n int) int { return 2 * n }
`)},
}

// runSrcTrees runs main with srcTreesFS and returns its output and the
// error Eval returned, after the position of a panic.
func runSrcTrees(t *testing.T, main string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	it := New(Options{GoPath: ".", SourcecodeFilesystem: srcTreesFS, Stdout: &out})
	require.NoError(t, it.Use(stdlib.Symbols))
	_, err := it.Eval(main)
	var p Panic
	if errors.As(err, &p) {
		if pos, _, ok := it.PanicSite(p.Value); ok {
			err = fmt.Errorf("%s: %w", pos, err)
		}
	}
	return out.String(), err
}

// TestSourceTreesShared checks patch 171: the files of a source package
// are parsed once per process and shared by the interpreters that import
// them, at once too, with their positions (a panic inside one names its
// line there); a file the interpreter rewrites is parsed by each; and
// an interpreter importing packages in another order than the one that
// parsed them still gets every file right.
func TestSourceTreesShared(t *testing.T) {
	const prog = `package main

import (
	"fmt"
	"lib"
)

func main() {
	fmt.Println(lib.Sum([]int{1, 2, 3}), lib.Sum([]float64{0.5, 0.25}))
	fmt.Println(lib.At([]int{1}, 3))
}
`
	const want = "6 0.75\n"
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			for range 3 {
				out, err := runSrcTrees(t, prog)
				assert.Equal(t, want, out)
				if assert.Error(t, err) {
					assert.Contains(t, err.Error(), "lib/lib.go:9:9")
					assert.Contains(t, err.Error(), "index out of range [3] with length 1")
				}
			}
		})
	}
	wg.Wait()

	sourceTrees.Lock()
	var lib, util *sourceTree
	for key, st := range sourceTrees.m {
		switch {
		case bytes.HasPrefix([]byte(key), []byte("src/lib/lib.go\x00")):
			lib = st
		case bytes.HasPrefix([]byte(key), []byte("src/util/util.go\x00")):
			util = st
		}
	}
	sourceTrees.Unlock()
	require.NotNil(t, lib, "lib.go is shared")
	assert.GreaterOrEqual(t, lib.file.Base(), sharedBase)
	assert.Nil(t, util, "util.go's `for i, x = range` is rewritten in its tree: not shared")

	// alone is parsed after lib here, before it in the next program: its
	// shared file lies below lib's, and is parsed again in place.
	out, err := runSrcTrees(t, "package main\n\nimport (\n\t\"alone\"\n\t\"fmt\"\n)\n\nfunc main() { fmt.Println(alone.Twice(21)) }\n")
	require.NoError(t, err)
	assert.Equal(t, "42\n", out)
	out, err = runSrcTrees(t, "package main\n\nimport (\n\t\"alone\"\n\t\"fmt\"\n\t\"lib\"\n)\n\nfunc main() { fmt.Println(alone.Twice(lib.Sum([]int{4, 5}))) }\n")
	require.NoError(t, err)
	assert.Equal(t, "18\n", out)
}

// TestTreeShareable: only a range statement with = makes a tree one the
// interpreter writes to.
func TestTreeShareable(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"package p\nfunc f(xs []int) { for i, x := range xs { _, _ = i, x } }\n", true},
		{"package p\nfunc f(xs []int) { var i int; for i = range xs { }; _ = i }\n", false},
		{"package p\nfunc f(m map[string]int) { k, v := \"\", 0; for k, v = range m { }; _, _ = k, v }\n", false},
		{"package p\nfunc f() { for range 3 { } }\n", true},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "p.go", tc.src, 0)
		require.NoError(t, err)
		assert.Equal(t, tc.want, TreeShareable(f), tc.src)
	}
}
