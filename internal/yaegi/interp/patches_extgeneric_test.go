package interp

import (
	"bytes"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

// TestExtensionGenericType checks patch 165: a generic type of a binary
// package's source extension (sync/atomic's Pointer[T]) is instantiated
// with its fields resolved in the extension's scope, where the package
// it imports and its own types are: the compiler crashed on its field of
// type stdatomic.Value, and a field of the extension's own type box was
// looked up in the script's scope (which has a box of its own). The
// native functions and types of sync/atomic stay. The want is what go
// run prints with Go's atomic.Pointer.
func TestExtensionGenericType(t *testing.T) {
	fsys := fstest.MapFS{
		"src/toolscript/sync/atomic/pointer.go": {Data: []byte(`package atomic

import stdatomic "sync/atomic"

type box struct{ n int }

type Pointer[T any] struct {
	v stdatomic.Value
	b box
}

func (x *Pointer[T]) Load() *T {
	x.b.n++
	p, _ := x.v.Load().(*T)
	return p
}

func (x *Pointer[T]) Store(val *T) { x.v.Store(val) }

func (x *Pointer[T]) Swap(new *T) (old *T) {
	old, _ = x.v.Swap(new).(*T)
	return old
}

func (x *Pointer[T]) CompareAndSwap(old, new *T) (swapped bool) {
	if old == nil && x.v.CompareAndSwap(nil, new) {
		return true
	}
	return x.v.CompareAndSwap(old, new)
}
`)},
	}
	const prog = `package main

import (
	"fmt"
	"sync/atomic"
)

type box struct{ s string }

type Config struct{ Name string }

func main() {
	var p atomic.Pointer[Config]
	fmt.Println(p.Load() == nil, p.CompareAndSwap(nil, &Config{"a"}), p.Load().Name)
	old := p.Swap(&Config{"b"})
	fmt.Println(old.Name, p.Load().Name, p.CompareAndSwap(old, nil), p.Load().Name)
	var n atomic.Int32
	n.Add(2)
	fmt.Println(n.Load(), box{"mine"}.s)
}
`
	var out bytes.Buffer
	it := New(Options{GoPath: ".", SourcecodeFilesystem: fsys, Stdout: &out,
		BinaryExtensions: map[string]string{"sync/atomic": "toolscript/sync/atomic"}})
	require.NoError(t, it.Use(stdlib.Symbols))
	_, err := it.Eval(prog)
	require.NoError(t, err, out.String())
	require.Equal(t, "true true a\na b false b\n2 mine\n", out.String())
}
