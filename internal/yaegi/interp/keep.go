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
	if p, changed := plainOf(v, 0); changed {
		return p
	}
	return v
}

// plainOf is plainResult of v at depth; changed tells that the value
// returned is a copy without records.
func plainOf(v reflect.Value, depth int) (reflect.Value, bool) {
	if depth > plainDepth || !v.IsValid() || !mayHoldRecord(v.Type(), 0) {
		return v, false
	}
	switch v.Kind() {
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
		if p, ok := plainOf(e, depth+1); ok {
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
			k, kc := plainOf(it.Key(), depth+1)
			e, ec := plainOf(it.Value(), depth+1)
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
			e, ec := plainOf(v.Index(i), depth+1)
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
			e, ec := plainOf(v.Field(i), depth+1)
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

// mayHoldRecord tells whether a value of type t may hold a record without
// a pointer's indirection: t is an interface type or a map, slice, array
// or struct type (its exported fields) of one.
func mayHoldRecord(t reflect.Type, depth int) bool {
	if depth > plainDepth {
		return false
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Map:
		return mayHoldRecord(t.Key(), depth+1) || mayHoldRecord(t.Elem(), depth+1)
	case reflect.Slice, reflect.Array:
		return mayHoldRecord(t.Elem(), depth+1)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); f.IsExported() && mayHoldRecord(f.Type, depth+1) {
				return true
			}
		}
	}
	return false
}
