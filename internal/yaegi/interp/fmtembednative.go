package interp // toolscript patch 187

// toolscript patch 187: a script struct that embeds a native type with a
// method fmt calls (time.Duration's String, *strconv.NumError's Error,
// *bytes.Buffer's String, *big.Int's Format) has that method promoted, as
// in Go: fmt calls it wherever the value is printed (directly, behind a
// pointer, in a slice, a map, an interface or a struct field), when the
// method is in the value's method set (a pointer-receiver method of a
// type embedded by value only for a pointer to the struct) and no field
// or method at a shallower depth, nor another at the same depth, hides it.

import (
	"fmt"
	"reflect"
)

var (
	fmtStateType  = reflect.TypeOf((*fmt.State)(nil)).Elem()
	fmtStringType = reflect.TypeOf("")
	fmtRuneType   = reflect.TypeOf(rune(0))
)

// fmtNativeMethodOf returns the method name that t promotes from an
// embedded native field, found as Go's selector finds it (the shallowest
// depth, unambiguous), or nil when the method found is not native or not
// in t's method set. decided tells whether a native field had the name
// at the depth found: then nil means t's method set has no such method.
func fmtNativeMethodOf(t *itype, name string) (fm *fmtMethod, decided bool) {
	type level struct {
		t      *itype
		path   []int
		viaPtr bool
	}
	addr := false
	for t != nil && (t.cat == ptrT || t.cat == linkedT && t.val != nil) {
		if t.getMethod(name) != nil {
			return nil, false
		}
		addr = addr || t.cat == ptrT
		t = t.val
	}
	if t == nil || t.cat != structT || ownsScriptMethod(t, name) {
		return nil, false
	}
	cur := []level{{t: t, viaPtr: addr}}
	seen := map[*itype]bool{t: true}
	for depth := 0; depth < 8 && len(cur) > 0; depth++ {
		var next []level
		count, native := 0, false
		var found *fmtMethod
		for _, l := range cur {
			for i, fl := range l.t.field {
				path := append(append([]int{}, l.path...), i)
				if fl.name == name {
					count++
					continue
				}
				if !fl.embed || fl.typ == nil {
					continue
				}
				if isInterface(fl.typ) {
					if _, has := fl.typ.methods()[name]; has {
						count++ // an embedded interface: patch 126's
					} else if rt := fl.typ.TypeOf(); rt != nil && rt.Kind() == reflect.Interface {
						if _, has := rt.MethodByName(name); has {
							count++
						}
					}
					continue
				}
				ft, ptr := fl.typ, false
				if ft.cat == ptrT && ft.val != nil {
					ft, ptr = ft.val, true
				}
				if ft.cat == valueT && ft.rtype != nil {
					rt := ft.rtype
					if ptr {
						rt = reflect.PtrTo(rt)
					}
					if rt.Kind() == reflect.Interface {
						if _, ok := rt.MethodByName(name); ok {
							count++ // an embedded interface: patch 126's
						}
						continue
					}
					m, ok := rt.MethodByName(name)
					inSet := ok
					if !ok && rt.Kind() != reflect.Ptr {
						m, ok = reflect.PtrTo(rt).MethodByName(name)
						inSet = ok && (l.viaPtr || ptr)
					}
					if ok {
						count++
						native = true
						if inSet && fmtNativeSig(m.Type, name) {
							found = &fmtMethod{native: path, nativeAddr: rt.Kind() != reflect.Ptr && !hasValueMethod(rt, name)}
						} else {
							found = nil
						}
					}
					continue
				}
				if ownsScriptMethod(fl.typ, name) {
					count++
					continue
				}
				if ft.cat == linkedT && ft.val != nil {
					ft = ft.val
				}
				if ft.cat == structT && !seen[ft] {
					seen[ft] = true
					next = append(next, level{t: ft, path: path, viaPtr: l.viaPtr || ptr})
				}
			}
		}
		if count > 0 {
			if count == 1 && native {
				return found, true
			}
			return nil, native
		}
		cur = next
	}
	return nil, false
}

// ownsScriptMethod tells whether the script type t (or the type t points
// to) declares the method name.
func ownsScriptMethod(t *itype, name string) bool {
	for i := 0; t != nil && i < 8; i++ {
		if t.getMethod(name) != nil {
			return true
		}
		if t.cat != ptrT && t.cat != linkedT {
			return false
		}
		t = t.val
	}
	return false
}

func hasValueMethod(rt reflect.Type, name string) bool {
	_, ok := rt.MethodByName(name)
	return ok
}

// fmtNativeSig tells whether mt, the type of a native method with its
// receiver, is the method fmt calls: Format(fmt.State, rune), or
// String, Error, GoString() string.
func fmtNativeSig(mt reflect.Type, name string) bool {
	if name == "Format" {
		return mt.NumIn() == 3 && mt.In(1) == fmtStateType && mt.In(2) == fmtRuneType && mt.NumOut() == 0
	}
	return mt.NumIn() == 1 && mt.NumOut() == 1 && mt.Out(0) == fmtStringType
}

// bindNative returns the native method name of the embedded field at
// path of v as a function value, or nil when a nil pointer on the way
// makes the call dereference it (the method of a nil embedded pointer
// with a pointer receiver is called, as in Go).
func (fm *fmtMethod) bindNative(v reflect.Value, name string) reflect.Value {
	fv := v
	for _, i := range fm.native {
		for fv.Kind() == reflect.Ptr || fv.Kind() == reflect.Interface {
			if fv.IsNil() {
				return reflect.Value{}
			}
			fv = fv.Elem()
		}
		if fv.Kind() != reflect.Struct || i >= fv.NumField() {
			return reflect.Value{}
		}
		fv = fv.Field(i)
	}
	for fv.Kind() == reflect.Interface && !fv.IsNil() {
		fv = fv.Elem()
	}
	if fm.nativeAddr {
		if !fv.CanAddr() {
			return reflect.Value{}
		}
		fv = fv.Addr()
	}
	if fv.Kind() == reflect.Ptr && fv.IsNil() {
		if _, ok := fv.Type().Elem().MethodByName(name); ok {
			return reflect.Value{} // a value method through a nil pointer
		}
	}
	if !fv.CanInterface() {
		return reflect.Value{}
	}
	return fv.MethodByName(name)
}
