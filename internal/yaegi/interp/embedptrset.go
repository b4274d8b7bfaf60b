package interp // toolscript patch 221

import "reflect"

// embeddedValuePtrMethods returns the pointer methods of the native
// types that a script struct type t embeds by value, directly or through
// script structs it embeds by value: the methods a pointer to t gets
// from them (*Report with Report embedding strings.Builder has Write).
// The method set of a pointer to a script struct lacked them, so
// fmt.Fprintf(&r, ...) and var w io.Writer = &r were compile errors
// ("cannot use type *main.Report as type io.Writer"); the wrapper finds
// the method at run time through the field's address (patch 197).
func embeddedValuePtrMethods(t *itype, seen map[*itype]bool) methodSet {
	for t != nil && t.cat == linkedT {
		t = t.val
	}
	if t == nil || t.cat != structT {
		return nil
	}
	if seen == nil {
		seen = map[*itype]bool{}
	}
	if seen[t] {
		return nil
	}
	seen[t] = true
	var res methodSet
	add := func(k, v string) {
		if res == nil {
			res = methodSet{}
		}
		if _, ok := res[k]; !ok {
			res[k] = v
		}
	}
	for _, f := range t.field {
		if !f.embed {
			continue
		}
		ft := f.typ
		for ft != nil && ft.cat == linkedT {
			ft = ft.val
		}
		if ft == nil {
			continue
		}
		switch ft.cat {
		case valueT:
			rt := ft.rtype
			if rt == nil || rt.Kind() == reflect.Ptr || rt.Kind() == reflect.Interface {
				continue
			}
			pt := reflect.PointerTo(rt)
			for i := pt.NumMethod() - 1; i >= 0; i-- {
				m := pt.Method(i)
				add(m.Name, m.Type.String())
			}
		case structT:
			for k, v := range embeddedValuePtrMethods(ft, seen) {
				add(k, v)
			}
		}
	}
	return res
}

// embeddedNativeMethod returns the method name of a native field that the
// script value held in val embeds (through embedded script structs), and
// the field's value or its address it is bound to: a pointer method of a
// field embedded by value where val holds a pointer (s.String() with s a
// script interface holding a *Report, Report embedding strings.Builder).
// It returns zero Values where there is none.
func embeddedNativeMethod(val valueInterface, name string) (recv, met reflect.Value) {
	if val.node == nil || val.node.typ == nil || !val.value.IsValid() {
		return
	}
	_, index, _, ok := val.node.typ.lookupBinMethod(name)
	if !ok || len(index) == 0 {
		return
	}
	v := val.value
	for _, i := range index {
		for v.Kind() == reflect.Ptr || v.Kind() == reflect.Interface {
			if v.IsNil() {
				panic(&RuntimeError{Kind: KindNilDereference})
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct || i >= v.NumField() {
			return reflect.Value{}, reflect.Value{}
		}
		v = v.Field(i)
	}
	if m := v.MethodByName(name); m.IsValid() {
		return v, m
	}
	if v.CanAddr() {
		if m := v.Addr().MethodByName(name); m.IsValid() {
			return v.Addr(), m
		}
	}
	return reflect.Value{}, reflect.Value{}
}
