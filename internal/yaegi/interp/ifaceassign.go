package interp // toolscript patch 213

// toolscript patch 213: a value of a script interface type converted to
// a native interface type (var w io.Writer = s; w = s; io.Writer(s); a
// struct field, a result, a slice or map element of that type) was
// wrapped by patch 38's interfaceWrapperOf for the script interface's
// node: the wrapper had the native interface's methods only, so
// io.WriteString(w, "a") called Write where Go calls the held value's
// WriteString (patch 197's optional methods were not seen), and w.(*T)
// found no *T. A nil one panicked (reflect: call of
// reflect.Value.Interface on zero Value) where Go gives a nil interface.
// The value held is now converted as a value of its own type is, as
// patch 209 does for an argument of a native function.

import (
	"reflect"
	"sync"
)

// heldIfaceWrapperOf returns, for a node n of a script interface type,
// the conversion to the native interface type typ of the value an
// interface value of n's type holds; nil for any other n. Its second
// result is false where the value is not one it converts.
func heldIfaceWrapperOf(n *node, typ reflect.Type) func(*frame, reflect.Value) (reflect.Value, bool) {
	if n.typ == nil || !isInterfaceSrc(n.typ) {
		return nil
	}
	var mu sync.Mutex
	convs := map[*node]func(*frame, reflect.Value) reflect.Value{}
	return func(f *frame, v reflect.Value) (reflect.Value, bool) {
		if !v.IsValid() {
			return reflect.New(typ).Elem(), true
		}
		if v.Kind() == reflect.Interface && v.IsNil() {
			return reflect.New(typ).Elem(), true
		}
		vi, ok := v.Interface().(valueInterface)
		if !ok {
			return reflect.Value{}, false
		}
		if vi.node == nil || !vi.value.IsValid() {
			return reflect.New(typ).Elem(), true // a nil interface value
		}
		if vi.node.typ == nil || isInterface(vi.node.typ) {
			return reflect.Value{}, false
		}
		mu.Lock()
		conv, seen := convs[vi.node]
		if !seen {
			conv = interfaceWrapperOf(vi.node, typ)
			convs[vi.node] = conv
		}
		mu.Unlock()
		if conv == nil {
			r := valueInterfaceValue(vi.value)
			if !r.IsValid() || !r.Type().Implements(typ) {
				return reflect.Value{}, false
			}
			return r, true
		}
		return conv(f, vi.value), true
	}
}
