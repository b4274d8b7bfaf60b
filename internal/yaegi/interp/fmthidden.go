package interp // toolscript patch 127

// toolscript patch 127: fmt prints the script's names of the unexported
// fields of a struct below another value's unexported field ({inner:{x:0}}
// for %+v, where it printed the interpreter's renamed field Xx), and %#v
// and %T spell a struct type with an unexported field as Go does
// (struct { X int; y int }, not the reflect type's renamed, tagged field).
// Below an unexported field fmt calls no method, as Go's fmt cannot.

import "reflect"

// hasHiddenField tells whether t, spelled by its structure, has a struct
// type with an unexported field, which the interpreter renames in its
// reflect type: Go's spelling of t is the script's, not the reflect
// type's.
func hasHiddenField(t *itype, seen map[*itype]bool) bool {
	if t == nil || seen[t] || isBin(t) || t.name != "" && t.cat != structT && t.cat != linkedT {
		return false
	}
	seen[t] = true
	if t.name != "" && t.path != "" {
		return false // spelled by its name
	}
	switch t.cat {
	case ptrT, sliceT, variadicT, arrayT, chanT, chanSendT, chanRecvT:
		return hasHiddenField(t.val, seen)
	case mapT:
		return hasHiddenField(t.key, seen) || hasHiddenField(t.val, seen)
	case structT:
		for _, fl := range t.field {
			if !isExportedName(fl.name) || hasHiddenField(fl.typ, seen) {
				return true
			}
		}
	case funcT:
		for _, a := range t.arg {
			if hasHiddenField(a, seen) {
				return true
			}
		}
		for _, a := range t.ret {
			if hasHiddenField(a, seen) {
				return true
			}
		}
	}
	return false
}

// fmtPlainLocked returns the conversion of a value of type t under an
// unexported field, where fmt calls no method but prints the script's
// field names: nil when t has no struct with an unexported field.
func (interp *Interpreter) fmtPlainLocked(t *itype) fmtConvFunc {
	if nativeIface(t) { // toolscript patch 152: the value a wrapper holds, without its methods
		return interp.fmtPlainWrapped
	}
	if t == nil || !hasHiddenFieldIn(t, map[*itype]bool{}) {
		return nil
	}
	if interp.fmtConvs.plain == nil {
		interp.fmtConvs.plain = map[*itype]*fmtConvEntry{}
	}
	if e, ok := interp.fmtConvs.plain[t]; ok {
		return func(f *frame, v reflect.Value) reflect.Value {
			if e.fn == nil {
				return v
			}
			return e.fn(f, v)
		}
	}
	e := &fmtConvEntry{}
	interp.fmtConvs.plain[t] = e
	switch t.cat {
	case linkedT:
		e.fn = interp.fmtPlainLocked(t.val)
	case arrayT, sliceT, variadicT:
		if ec := interp.fmtPlainLocked(t.val); ec != nil {
			e.fn = fmtElems(ec)
		}
	case mapT:
		if ec := interp.fmtPlainLocked(t.val); ec != nil && interp.fmtPlainLocked(t.key) == nil {
			e.fn = func(f *frame, v reflect.Value) reflect.Value {
				if v.IsNil() {
					return v
				}
				out := reflect.MakeMapWithSize(reflect.MapOf(v.Type().Key(), anyType), v.Len())
				for it := v.MapRange(); it.Next(); {
					out.SetMapIndex(it.Key(), reflect.ValueOf(ifaceOf(ec(f, it.Value()))))
				}
				return out
			}
		}
	case structT:
		e.fn = interp.fmtStructOf(t, true)
	}
	if e.fn == nil {
		return nil
	}
	return e.fn
}

// hasHiddenFieldIn tells whether a value of type t holds, not through a
// pointer, a struct with an unexported field.
func hasHiddenFieldIn(t *itype, seen map[*itype]bool) bool {
	if t == nil || seen[t] || isBin(t) {
		return false
	}
	seen[t] = true
	switch t.cat {
	case linkedT, arrayT, sliceT, variadicT:
		return hasHiddenFieldIn(t.val, seen)
	case mapT:
		return hasHiddenFieldIn(t.val, seen)
	case structT:
		for _, fl := range t.field {
			if !isExportedName(fl.name) || hasHiddenFieldIn(fl.typ, seen) {
				return true
			}
		}
	}
	return false
}

// fmtElems converts a slice or an array for printing: a []interface{} of
// its elements, each converted by ec; a nil slice stays as it is.
func fmtElems(ec fmtConvFunc) fmtConvFunc {
	return func(f *frame, v reflect.Value) reflect.Value {
		if v.Kind() == reflect.Slice && v.IsNil() {
			return v
		}
		out := make([]interface{}, v.Len())
		for i := range out {
			out[i] = ifaceOf(ec(f, v.Index(i)))
		}
		return reflect.ValueOf(out)
	}
}
