package engine

import (
	"fmt"
	"math"
	"reflect"

	"github.com/toolscript/toolscript/internal/policy"
)

// Allocation guards: MaxAllocBytes bounds, in bytes and before the call,
// every single allocation whose size a script chooses: make (through the
// interpreter's make hook), array and struct types (at compile time), and
// the native functions and methods internal/policy replaces per execution
// (its alloc.go lists them), which would otherwise exhaust memory in one
// call that no watchdog can stop: they call checkAlloc first (hooks.go).
//
// Each guarded native works exactly as the standard one under the bound
// and fails with a *LimitError naming MaxAllocBytes, the call and the size
// over it.

// allocError ends the execution with a MaxAllocBytes error for call.
func (x *execution) allocError(call string, size uint64) *LimitError {
	err := &LimitError{Limit: "MaxAllocBytes", Value: x.limits.MaxAllocBytes,
		Detail: fmt.Sprintf("(%s would allocate %d bytes)", call, size)}
	x.abort(err) // a recover of the script cannot hide it
	return err
}

// checkAlloc panics with a MaxAllocBytes error when size is over the limit.
func (x *execution) checkAlloc(call string, size uint64) {
	if x.limits.MaxAllocBytes >= 0 && size > uint64(x.limits.MaxAllocBytes) {
		panic(x.allocError(call, size))
	}
}

// mulSat multiplies without overflow, saturating at math.MaxUint64.
func mulSat(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}

// makeCheck is the interpreter's make hook: n is the largest size
// argument of make (or a keyed slice literal) of type t.
func (x *execution) makeCheck(t reflect.Type, n int) {
	if n < 0 {
		return // the standard make panics with its own message
	}
	if x.limits.MaxAllocLen >= 0 && n > x.limits.MaxAllocLen {
		x.limit(&LimitError{Limit: "MaxAllocLen", Value: int64(x.limits.MaxAllocLen), Detail: fmt.Sprintf("(make of length %d)", n)})
	}
	var unit uint64
	switch t.Kind() {
	case reflect.Map:
		unit = uint64(t.Key().Size()+t.Elem().Size()) + 8
	default:
		unit = uint64(t.Elem().Size())
	}
	if size := mulSat(unit, uint64(n)); x.limits.MaxAllocBytes >= 0 && size > uint64(x.limits.MaxAllocBytes) {
		panic(x.allocError(fmt.Sprintf("make(%s, %d)", t, n), size))
	}
}

// typeCheck is the interpreter's compile-time hook for array and struct
// types: a variable of a type over the limit could not be allocated.
func (x *execution) typeCheck(size uint64, typ string) error {
	if x.limits.MaxAllocBytes >= 0 && size > uint64(x.limits.MaxAllocBytes) {
		return &LimitError{Limit: "MaxAllocBytes", Value: x.limits.MaxAllocBytes,
			Detail: fmt.Sprintf("(type %s takes %d bytes)", typ, size)}
	}
	return nil
}

// binMethod is the interpreter's hook for methods of native values: the
// methods policy replaces per execution (allocation bounds, callbacks,
// printing checks), bound to this execution.
func (x *execution) binMethod(t reflect.Type, name string) func(reflect.Value) reflect.Value {
	g := policy.Method(t, name)
	if g == nil {
		return nil
	}
	h := hooks{x}
	return func(recv reflect.Value) reflect.Value { return g(h, recv) }
}
