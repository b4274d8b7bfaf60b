package interp // toolscript patch 115

// toolscript patch 115: fmt prints the values of script types that an
// interface's slice, array or map of interfaces holds ([]any{[]any{L{}}},
// map[string]any{"k": []any{L{}}} in an any) as a direct argument's:
// such a container is the native value it is, and fmt printed the
// interpreter's record of each element ({0xc000... {...}}).

import "reflect"

// fmtHolders returns v, a native value held in an interface, converted
// for printing when it is a slice, array or map of interfaces that holds
// a record of a script value at some depth; converted is false when v
// holds none (printed as it is, without a copy). A container met again
// on the way (one that holds itself) is left as it is, for the print
// function's own check of such values to refuse.
func (interp *Interpreter) fmtHolders(f *frame, v reflect.Value, depth int) (reflect.Value, bool) {
	if !holdsRecords(v, map[uintptr]bool{}, 0) {
		return v, false
	}
	return interp.convertHolders(f, v, map[uintptr]bool{}, depth)
}

func (interp *Interpreter) convertHolders(f *frame, v reflect.Value, seen map[uintptr]bool, depth int) (reflect.Value, bool) {
	if depth > 64 || !enterHolder(v, seen) {
		return v, false
	}
	if v.Kind() != reflect.Array {
		defer delete(seen, v.Pointer()) // on the way only: a container met twice side by side is converted twice
	}
	elem := func(e reflect.Value) interface{} {
		if e.Kind() == reflect.Interface && !e.IsNil() {
			x := e.Elem()
			switch x.Kind() {
			case reflect.Slice, reflect.Array, reflect.Map:
				if c, ok := interp.convertHolders(f, x, seen, depth+1); ok {
					return ifaceOf(c)
				}
				return ifaceOf(e)
			}
		}
		return ifaceOf(interp.fmtDynamic(f, e))
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() != reflect.Interface {
			return v, false
		}
		out := make([]interface{}, v.Len())
		for i := range out {
			out[i] = elem(v.Index(i))
		}
		return reflect.ValueOf(out), true
	case reflect.Map:
		if v.Type().Elem().Kind() != reflect.Interface {
			return v, false
		}
		out := reflect.MakeMapWithSize(reflect.MapOf(v.Type().Key(), anyType), v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(it.Key(), anyValue(elem(it.Value()))) // toolscript patch 125: a nil element stays
		}
		return out, true
	}
	return v, false
}

// enterHolder records v, a slice or map, in seen, and tells whether it
// was not there (an array is a value: it cannot hold itself).
func enterHolder(v reflect.Value, seen map[uintptr]bool) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Map:
		p := v.Pointer()
		if p == 0 {
			return true
		}
		if seen[p] {
			return false
		}
		seen[p] = true
	}
	return true
}

// holdsRecords tells whether v, a slice, array or map of interfaces,
// holds the interpreter's record of a script value, directly or in such
// containers it holds (each container looked at once).
func holdsRecords(v reflect.Value, seen map[uintptr]bool, depth int) bool {
	if depth > 64 || !v.IsValid() || !enterHolder(v, seen) {
		return false
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() != reflect.Interface {
			return false
		}
		for i := 0; i < v.Len(); i++ {
			if heldRecordIn(v.Index(i), seen, depth) {
				return true
			}
		}
	case reflect.Map:
		if v.Type().Elem().Kind() != reflect.Interface {
			return false
		}
		for it := v.MapRange(); it.Next(); {
			if heldRecordIn(it.Value(), seen, depth) {
				return true
			}
		}
	}
	return false
}

// heldRecordIn tells whether e, an interface element, holds a record or
// a container of interfaces that holds one.
func heldRecordIn(e reflect.Value, seen map[uintptr]bool, depth int) bool {
	if e.Kind() != reflect.Interface || e.IsNil() {
		return false
	}
	x := e.Elem()
	if !x.CanInterface() {
		return false
	}
	if _, ok := x.Interface().(valueInterface); ok {
		return true
	}
	switch x.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return holdsRecords(x, seen, depth+1)
	}
	return false
}
