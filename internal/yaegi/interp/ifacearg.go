package interp // toolscript patch 209

// toolscript patch 209: a value of a script interface type given to a
// native function's parameter of a non-empty interface type
// (type Sink interface{ Write([]byte) (int, error) }; io.WriteString(s,
// "b")). The argument was the value the interface held, a script value
// without the methods of its type, and the call panicked (reflect: Call
// using *struct as type io.Writer). The value held is now converted as
// a value of its own type is (patch 38's interfaceWrapperOf, with the
// optional methods of patches 197 and 208).

import (
	"reflect"
	"sync"
)

// scriptIfaceArg returns the argument of the node c of a script
// interface type for a parameter of the native type defType.
func scriptIfaceArg(c *node, defType reflect.Type) func(*frame) reflect.Value {
	plain := genValueInterfaceValue(c)
	if defType == nil || defType.Kind() != reflect.Interface || defType.NumMethod() == 0 {
		return plain
	}
	value := genValue(c)
	var mu sync.Mutex
	convs := map[*node]func(*frame, reflect.Value) reflect.Value{}
	return func(f *frame) reflect.Value {
		r := plain(f)
		if !r.IsValid() || r.Type().Implements(defType) {
			return r
		}
		vi, ok := value(f).Interface().(valueInterface)
		if !ok || vi.node == nil || vi.node.typ == nil || isInterface(vi.node.typ) || !vi.value.IsValid() {
			return r
		}
		mu.Lock()
		conv, seen := convs[vi.node]
		if !seen {
			conv = interfaceWrapperOf(vi.node, defType)
			convs[vi.node] = conv
		}
		mu.Unlock()
		if conv == nil {
			return r
		}
		return conv(f, vi.value)
	}
}
