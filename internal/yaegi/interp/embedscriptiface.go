package interp // toolscript patch 176

// toolscript patch 176: a script struct converted to a native interface
// type (error, fmt.Stringer, sort.Interface) gets the methods promoted
// from an embedded script interface (type E interface{ error; Code() int };
// type W struct{ E }): the wrapper's method reads the embedded field when
// called, as Go does, and calls the method of the value it holds. The
// conversion failed with "method not found: Error". Errorf's %w of a
// struct whose Error is promoted from an embedded interface, script or
// native (type wrapped struct{ error; code int }), now wraps it as Go
// does (errors.As finds it), where patch 126 failed it at run time.

import "reflect"

// nilIfaceField tells whether v is a nil interface, whose methods reflect
// cannot give.
func nilIfaceField(v reflect.Value) bool {
	return v.IsValid() && v.Kind() == reflect.Interface && v.IsNil()
}

// embeddedIfaceField returns the field at path in the struct v (or the
// struct v points to), the zero Value if there is none.
func embeddedIfaceField(v reflect.Value, path []int) reflect.Value {
	for _, i := range path {
		for v.Kind() == reflect.Ptr {
			if v.IsNil() {
				panic(&RuntimeError{Kind: KindNilDereference})
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct || i >= v.NumField() {
			return reflect.Value{}
		}
		v = v.Field(i)
	}
	return v
}

// embeddedIfaceMethodFunc returns, as a function of type ft, the method
// name of the value held by the embedded interface (script, or a nil
// native one) at path in the
// struct v (or the struct v points to), read at each call; the zero Value
// if path is nil.
func embeddedIfaceMethodFunc(f *frame, n *node, v reflect.Value, path []int, name string, ft reflect.Type) reflect.Value {
	if path == nil || ft.Kind() != reflect.Func {
		return reflect.Value{}
	}
	return reflect.MakeFunc(ft, func(args []reflect.Value) []reflect.Value {
		vi, ok := embeddedIfaceValue(v, path)
		if !ok {
			if fv := embeddedIfaceField(v, path); fv.Kind() == reflect.Interface && !fv.IsNil() {
				met := fv.MethodByName(name)
				if ft.IsVariadic() {
					return met.CallSlice(args)
				}
				return met.Call(args)
			}
			panic(&RuntimeError{Kind: KindNilDereference}) // a nil native interface
		}
		for {
			inner, ok := vi.value.Interface().(valueInterface)
			if !ok || inner.node == nil {
				break
			}
			vi = inner
		}
		met := vi.value.MethodByName(name)
		if !met.IsValid() {
			m, index := vi.node.typ.lookupMethod(name)
			if m == nil {
				panic(n.cfgErrorf("method not found: %s", name))
			}
			nod := *m
			nod.recv = &receiver{val: vi.value, index: index}
			nod.recvAtCall = true
			met = genFunctionWrapper(&nod)(f)
		}
		if ft.IsVariadic() {
			return met.CallSlice(args)
		}
		return met.Call(args)
	})
}
