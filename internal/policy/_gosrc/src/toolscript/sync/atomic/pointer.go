// Package atomic extends the native sync/atomic package with its generic
// type, which a native symbol table cannot hold: the interpreter resolves
// atomic.Pointer here (internal/policy's extensions).
package atomic

import stdatomic "sync/atomic"

// A Pointer is an atomic pointer of type *T. The zero value is a nil *T
// (Go's sync/atomic.Pointer). It holds the pointer in a native
// atomic.Value, always as a *T.
type Pointer[T any] struct {
	v stdatomic.Value
}

// Load atomically loads and returns the value stored in x.
func (x *Pointer[T]) Load() *T {
	p, _ := x.v.Load().(*T)
	return p
}

// Store atomically stores val into x.
func (x *Pointer[T]) Store(val *T) { x.v.Store(val) }

// Swap atomically stores new into x and returns the previous value.
func (x *Pointer[T]) Swap(new *T) (old *T) {
	old, _ = x.v.Swap(new).(*T)
	return old
}

// CompareAndSwap executes the compare-and-swap operation for x: if x
// holds old, it stores new and reports true. A zero Pointer holds nil.
func (x *Pointer[T]) CompareAndSwap(old, new *T) (swapped bool) {
	if old == nil && x.v.CompareAndSwap(nil, new) {
		return true // x was never stored
	}
	return x.v.CompareAndSwap(old, new)
}
