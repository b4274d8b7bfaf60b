// Package sync extends the native sync package with its generic
// functions, which a native symbol table cannot hold: the interpreter
// resolves sync.OnceValue and sync.OnceValues here (internal/policy's
// extensions).
package sync

import stdsync "sync"

// OnceValue returns a function that calls f on its first call and returns
// f's result on every call (Go's sync.OnceValue). If f panics, every call
// panics with the value f panicked with.
func OnceValue[T any](f func() T) func() T {
	var (
		once    stdsync.Once
		done    bool
		panicky any
		value   T
	)
	return func() T {
		once.Do(func() {
			defer func() {
				if !done {
					panicky = recover()
				}
			}()
			value = f()
			f = nil
			done = true
		})
		if !done {
			panic(panicky)
		}
		return value
	}
}

// OnceValues returns a function that calls f on its first call and
// returns f's two results on every call (Go's sync.OnceValues). If f
// panics, every call panics with the value f panicked with.
func OnceValues[T1, T2 any](f func() (T1, T2)) func() (T1, T2) {
	var (
		once    stdsync.Once
		done    bool
		panicky any
		v1      T1
		v2      T2
	)
	return func() (T1, T2) {
		once.Do(func() {
			defer func() {
				if !done {
					panicky = recover()
				}
			}()
			v1, v2 = f()
			f = nil
			done = true
		})
		if !done {
			panic(panicky)
		}
		return v1, v2
	}
}
