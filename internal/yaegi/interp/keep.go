package interp // toolscript patch 118

// toolscript patch 118: a value of a named type the script declares,
// with or without methods, converted to an interface keeps its type: it
// is held as the interpreter's record of it (keepsMethods). A host sees
// the value a record holds: the result of Eval and Execute is given
// with the records in its interfaces, maps, slices, arrays and structs
// replaced by their values (plainResult), as it was before for a type
// without methods (it was its representation) and for a type with them.

import "reflect"

var scriptKeyType = reflect.TypeOf(scriptKey{})

// plainDepth bounds how deep plainResult looks into a value (a
// map[string]any may hold itself).
const plainDepth = 64

// plainResult returns v, a value a host gets from the script, with each
// record of a script value in it replaced by the value it holds (PlainValue):
// the containers that hold records are copied, and v is returned as it is
// when it holds none. Pointers are not followed (what they point to is the
// script's).
func plainResult(v reflect.Value) reflect.Value {
	if !v.IsValid() {
		return v
	}
	if v.Type() == valueInterfaceType && v.CanInterface() {
		if p, ok := PlainValue(v.Interface()); ok {
			v = reflect.ValueOf(p)
		}
	}
	if p, changed := plainOf(v, 0, false); changed {
		return p
	}
	return v
}

// plainOf is plainResult of v at depth; changed tells that the value
// returned is a copy without records. follow copies what a pointer
// points to when it holds records.
func plainOf(v reflect.Value, depth int, follow bool) (reflect.Value, bool) {
	if depth > plainDepth || !v.IsValid() || !mayHoldRecord(v.Type(), 0, follow) {
		return v, false
	}
	switch v.Kind() {
	case reflect.Ptr:
		if v.IsNil() {
			return v, false
		}
		e, changed := plainOf(v.Elem(), depth+1, follow)
		if !changed {
			return v, false
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(e)
		return out, true
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		e := v.Elem()
		changed := false
		for e.IsValid() && (e.Type() == valueInterfaceType || e.Type() == scriptKeyType) && e.CanInterface() {
			if sk, ok := e.Interface().(scriptKey); ok { // a map[any] key
				e = reflect.ValueOf(sk.v)
			} else {
				e = e.Interface().(valueInterface).value
			}
			changed = true
			for e.IsValid() && e.Kind() == reflect.Interface && !e.IsNil() {
				e = e.Elem()
			}
		}
		if !e.IsValid() {
			return reflect.Zero(v.Type()), changed
		}
		if p, ok := plainOf(e, depth+1, follow); ok {
			e, changed = p, true
		}
		if !changed {
			return v, false
		}
		out := reflect.New(v.Type()).Elem()
		if e.Type().AssignableTo(v.Type()) {
			out.Set(e)
			return out, true
		}
		return v, false
	case reflect.Map:
		if v.IsNil() {
			return v, false
		}
		var out reflect.Value
		for it := v.MapRange(); it.Next(); {
			k, kc := plainOf(it.Key(), depth+1, follow)
			e, ec := plainOf(it.Value(), depth+1, follow)
			if (kc || ec) && !out.IsValid() {
				out = reflect.MakeMapWithSize(v.Type(), v.Len())
				for it2 := v.MapRange(); it2.Next(); {
					out.SetMapIndex(it2.Key(), it2.Value())
				}
			}
			if out.IsValid() && (kc || ec) {
				if kc {
					out.SetMapIndex(it.Key(), reflect.Value{})
				}
				out.SetMapIndex(k, e)
			}
		}
		if out.IsValid() {
			return out, true
		}
		return v, false
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return v, false
		}
		var out reflect.Value
		for i := 0; i < v.Len(); i++ {
			e, ec := plainOf(v.Index(i), depth+1, follow)
			if !ec {
				continue
			}
			if !out.IsValid() {
				if v.Kind() == reflect.Slice {
					out = reflect.MakeSlice(v.Type(), v.Len(), v.Len())
				} else {
					out = reflect.New(v.Type()).Elem()
				}
				reflect.Copy(out, v)
			}
			out.Index(i).Set(e)
		}
		if out.IsValid() {
			return out, true
		}
		return v, false
	case reflect.Struct:
		var out reflect.Value
		for i := 0; i < v.NumField(); i++ {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			e, ec := plainOf(v.Field(i), depth+1, follow)
			if !ec {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(v.Type()).Elem()
				out.Set(v)
			}
			out.Field(i).Set(e)
		}
		if out.IsValid() {
			return out, true
		}
	}
	return v, false
}

// mayHoldRecord tells whether a value of type t may hold a record (with
// follow, through pointers too): t is an interface type or a map, slice,
// array or struct type (its exported fields) of one.
func mayHoldRecord(t reflect.Type, depth int, follow bool) bool {
	if depth > plainDepth {
		return false
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Ptr:
		return follow && mayHoldRecord(t.Elem(), depth+1, follow)
	case reflect.Map:
		return mayHoldRecord(t.Key(), depth+1, follow) || mayHoldRecord(t.Elem(), depth+1, follow)
	case reflect.Slice, reflect.Array:
		return mayHoldRecord(t.Elem(), depth+1, follow)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); f.IsExported() && mayHoldRecord(f.Type, depth+1, follow) {
				return true
			}
		}
	}
	return false
}

// RecordHasMethods tells whether v, the interpreter's record of a script
// value in an interface (IsRecord), is of a type with methods: a host
// that calls a value's methods (a template) cannot use the value the
// record holds, which has none (toolscript patch 118).
func RecordHasMethods(v interface{}) bool {
	vi, ok := v.(valueInterface)
	if !ok || vi.node == nil {
		return false
	}
	t := recordType(vi.node.typ)
	return t != nil && hasMethods(t)
}

// Plain returns v, a value of the script a host reads, with the records
// in its interfaces, maps, slices, arrays and struct fields replaced by
// the values they hold (PlainValue), copying the containers that hold
// them and what the pointers to them point to (toolscript patch 118).
func Plain(v interface{}) interface{} {
	if v == nil {
		return nil
	}
	if p, ok := PlainValue(v); ok {
		return Plain(p)
	}
	p, changed := plainOf(reflect.ValueOf(v), 0, true)
	if !changed {
		return v
	}
	if !p.IsValid() || !p.CanInterface() {
		return v
	}
	return p.Interface()
}

// recordCycle tells whether v, the value of a record fmt converts for
// printing, holds a slice or map inside itself through the interfaces,
// records, slices, arrays, maps and struct fields that the conversion
// follows (it does not follow pointers): the conversion would recurse
// without end. A value of a type without methods whose fields hold
// interfaces (type Node struct{ Children []any }) is such a record now
// (toolscript patch 118).
func recordCycle(v reflect.Value) bool {
	if !v.IsValid() || !mayHoldRecord(v.Type(), 0, false) {
		return false
	}
	return cycleIn(v, map[[2]uintptr]bool{}, 0)
}

func cycleIn(v reflect.Value, onPath map[[2]uintptr]bool, depth int) bool {
	if depth > plainDepth || !v.IsValid() {
		return false
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return false
		}
		return cycleIn(v.Elem(), onPath, depth+1)
	case reflect.Slice, reflect.Map:
		if v.IsNil() || v.Len() == 0 || !mayHoldRecord(v.Type(), 0, false) {
			return false
		}
		key := [2]uintptr{v.Pointer(), uintptr(v.Kind())}
		if onPath[key] {
			return true
		}
		onPath[key] = true
		defer delete(onPath, key)
		if v.Kind() == reflect.Map {
			for it := v.MapRange(); it.Next(); {
				if cycleIn(it.Key(), onPath, depth+1) || cycleIn(it.Value(), onPath, depth+1) {
					return true
				}
			}
			return false
		}
		for i := 0; i < v.Len(); i++ {
			if cycleIn(v.Index(i), onPath, depth+1) {
				return true
			}
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if cycleIn(v.Index(i), onPath, depth+1) {
				return true
			}
		}
	case reflect.Struct:
		if v.Type() == valueInterfaceType && v.CanInterface() {
			return cycleIn(v.Interface().(valueInterface).value, onPath, depth+1)
		}
		for i := 0; i < v.NumField(); i++ {
			if cycleIn(v.Field(i), onPath, depth+1) {
				return true
			}
		}
	}
	return false
}
