package interp // toolscript patch 163

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIsErrorWrapper checks patch 163: IsErrorWrapper tells the
// interpreter's wrapper of a script error given to native code (of each
// method set: with Unwrap too) from a native error and from other values,
// so that the engine's walk of a template's data stops there instead of
// following the wrapper's node into the syntax tree.
func TestIsErrorWrapper(t *testing.T) {
	it := New(Options{})
	require.NoError(t, it.Use(stdlib.Symbols))
	_, err := it.Eval(`package main

import "errors"

type E struct{ Code int }

func (E) Error() string { return "e" }

type U struct{ err error }

func (u U) Error() string { return "u" }
func (u U) Unwrap() error { return u.err }

type P struct{ N int }

func (*P) Error() string { return "p" }

func Script() error  { return E{1} }
func Wrapped() error { return U{E{2}} }
func Pointer() error { return &P{3} }
func Plain() error   { return errors.New("plain") }
`)
	require.NoError(t, err)
	for name, want := range map[string]bool{"Script": true, "Wrapped": true, "Pointer": true, "Plain": false} {
		v, err := it.Eval("main." + name)
		require.NoError(t, err, name)
		e := v.Interface().(func() error)()
		assert.Equal(t, want, IsErrorWrapper(reflect.TypeOf(e)), name)
	}
	assert.False(t, IsErrorWrapper(reflect.TypeOf(struct{ X int }{})))
	assert.False(t, IsErrorWrapper(valueInterfaceType))
	assert.False(t, IsErrorWrapper(nil))
}
