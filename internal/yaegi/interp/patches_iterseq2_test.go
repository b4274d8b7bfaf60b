package interp

import (
	"bytes"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seq2Package is an imported source package as toolscript's iter and
// maps are: a generic type with two type parameters and a function
// returning a value of an unnamed func type.
const seq2Package = `package it

type Seq2[K, V any] func(yield func(K, V) bool)

func All[K comparable, V any](m map[K]V) func(yield func(K, V) bool) {
	return func(yield func(K, V) bool) {
		for k, v := range m {
			if !yield(k, v) {
				return
			}
		}
	}
}
`

// seq2Decls are the script declarations the cases of TestGenericTwoArgs use.
const seq2Decls = `package main

import (
	"fmt"
	"it"
	"sort"
)

type Pair[K comparable, V any] func(yield func(K, V) bool)

type Group[K comparable, V any] map[K][]V

func Map2[K comparable, V, W any](seq it.Seq2[K, V], f func(V) W) it.Seq2[K, W] {
	return func(yield func(K, W) bool) {
		for k, v := range seq {
			if !yield(k, f(v)) {
				return
			}
		}
	}
}

func Keys[K comparable, V any](g Group[K, V]) []K {
	var ks []K
	for k := range g {
		ks = append(ks, k)
	}
	return ks
}

func Swap[K comparable, V any](p Pair[K, V]) (out []V) {
	for _, v := range p {
		out = append(out, v)
	}
	return out
}

func main() {
`

// TestGenericTwoArgs checks patch 94: a conversion to an instance of a
// generic type with two type arguments (it.Seq2[string, int](f), a
// script's Pair[string, int](f)) and type inference through a parameter
// of such a type from an argument of an unnamed type (Map2(it.All(m),
// f), a map[string][]int for a Group[K, V]); upstream crashed the
// compiler on the conversion and could not infer K (each want is go
// run's output).
func TestGenericTwoArgs(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"conversion imported", `d := it.Seq2[string, int](func(yield func(string, int) bool) { yield("k", 1) }); for k, v := range d { fmt.Println(k, v) }`, "k 1\n"},
		{"conversion script type", `d := Pair[string, int](func(yield func(string, int) bool) { _ = yield("a", 1) && yield("b", 2) }); for k, v := range d { fmt.Print(k, v, " ") }; fmt.Println(Swap(d))`, "a1 b2 [1 2]\n"},
		{"inference from unnamed func", `m := map[string]int{"a": 1, "bb": 2}; n := 0.0; for _, v := range Map2(it.All(m), func(v int) float64 { return float64(v) * 1.5 }) { n += v }; fmt.Println(n)`, "4.5\n"},
		{"inference from an instance", `var s it.Seq2[string, int] = it.All(map[string]int{"x": 3}); for k, v := range Map2(s, func(v int) string { return fmt.Sprint(v, "!") }) { fmt.Println(k, v) }`, "x 3!\n"},
		{"inference through map and slice", `ks := Keys(map[string][]int{"b": {1}, "a": nil}); sort.Strings(ks); fmt.Println(ks)`, "[a b]\n"},
		{"inference from a func literal", `fmt.Println(Swap(func(yield func(int, string) bool) { yield(1, "one") }))`, "[one]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			i := New(Options{Stdout: &out, GoPath: ".", SourcecodeFilesystem: fstest.MapFS{
				"src/it/it.go": {Data: []byte(seq2Package)},
			}})
			require.NoError(t, i.Use(stdlib.Symbols))
			_, err := i.Eval(seq2Decls + tt.body + "\n}\n")
			require.NoError(t, err)
			assert.Equal(t, tt.want, out.String())
		})
	}
}
