package interp // toolscript patch 214

// toolscript patch 214: a native method promoted through an embedded
// pointer field of a script struct (type Ev struct{ *time.Time };
// e.Year()). The method was found on the pointed type (time.Time) and
// its index in that type's method set was used on the field's value, a
// pointer, whose method set is another one (*time.Time has
// GobDecode and the Unmarshal methods besides): e.Year() called another
// method (reflect: Call with too few input arguments), and a method of
// the same signature would have been called silently. The method is now
// found by name: a method of the pointed type is called on a copy of the
// value pointed to (read when the method is selected, as Go does; a nil
// pointer panics with Go's nil dereference), one of the pointer type on
// the pointer.

import "reflect"

// embeddedPtrMethod generates the selection n of the method of a native
// value reached through the embedded fields fi of a script struct, where
// the last field is a pointer, and reports whether it did.
func embeddedPtrMethod(n *node, fi []int) bool {
	if len(fi) == 0 || n.child[0].typ == nil || len(n.child) < 2 || n.child[1].ident == "" {
		return false
	}
	t := n.child[0].typ.TypeOf()
	if t == nil {
		return false
	}
	isPtr := t.Kind() == reflect.Ptr
	if isPtr {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return false
	}
	ft, ok := fieldByIndexType(t, fi)
	if !ok || ft.Kind() != reflect.Ptr || ft.Elem().Kind() == reflect.Interface {
		return false
	}
	name := n.child[1].ident
	value := genValue(n.child[0])
	i, l, next := n.findex, n.level, getExec(n.tnext)
	field := func(f *frame) reflect.Value {
		v := value(f)
		if isPtr {
			if v.IsNil() {
				panic(&RuntimeError{Kind: KindNilDereference})
			}
			v = v.Elem()
		}
		fv, err := v.FieldByIndexErr(fi)
		if err != nil {
			panic(&RuntimeError{Kind: KindNilDereference})
		}
		return fv
	}
	if vm, ok := ft.Elem().MethodByName(name); ok {
		mi, et := vm.Index, ft.Elem()
		n.exec = func(f *frame) bltn {
			fv := field(f)
			if fv.IsNil() {
				panic(&RuntimeError{Kind: KindNilDereference})
			}
			c := reflect.New(et).Elem()
			c.Set(fv.Elem())
			getFrame(f, l).data[i] = c.Method(mi)
			return next
		}
		return true
	}
	pm, ok := ft.MethodByName(name)
	if !ok {
		return false
	}
	mi := pm.Index
	n.exec = func(f *frame) bltn {
		getFrame(f, l).data[i] = field(f).Method(mi)
		return next
	}
	return true
}

// fieldByIndexType is the type of the field at index of the struct type
// t, through embedded pointers; false where index leads out of a struct.
func fieldByIndexType(t reflect.Type, index []int) (reflect.Type, bool) {
	for k, x := range index {
		if k > 0 && t.Kind() == reflect.Ptr {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || x < 0 || x >= t.NumField() {
			return nil, false
		}
		t = t.Field(x).Type
	}
	return t, true
}
