package interp

// toolscript patch 43: the reflect type of a script struct marks an
// embedded field as embedded (anonymous) whenever reflect.StructOf allows
// it (the field's type and its pointer have no methods: a script type's
// reflect type has none), so that encoding/json flattens an embedded
// script struct or pointer as Go does, in Marshal and Unmarshal. Upstream
// marked it only for a struct of one field (golang/go#15924): json wrote
// {"Base":{...}} for an embedded Base.

import "reflect"

// embeddable tells whether reflect.StructOf accepts a field of type rt as
// embedded among others.
func embeddable(rt reflect.Type) bool {
	if rt == nil || rt.NumMethod() > 0 {
		return false
	}
	switch rt.Kind() {
	case reflect.Ptr:
		e := rt.Elem()
		return e.Kind() == reflect.Struct && e.NumMethod() == 0 && reflect.PointerTo(e).NumMethod() == 0
	case reflect.Struct:
		return reflect.PointerTo(rt).NumMethod() == 0
	}
	return false
}
