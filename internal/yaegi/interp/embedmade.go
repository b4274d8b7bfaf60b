package interp // toolscript patch 216

import "reflect"

// madeWithMethods reports whether rt, or the type it points to, is a
// type made at run time (reflect.StructOf's, unnamed) with methods: the
// interpreter's struct of a script type that embeds a native type with
// methods (struct{ time.Time }). reflect.StructOf cannot embed such a
// type: promoting its methods reads its method table by offsets into
// the binary's type section, which a type made at run time is not in,
// and the runtime dies ("fatal error: runtime: type offset base pointer
// out of range") for type Outer struct{ *Inner }. Such a field is not
// made anonymous; the interpreter promotes its methods itself.
func madeWithMethods(rt reflect.Type) bool {
	if rt == nil {
		return false
	}
	e := rt
	if e.Kind() == reflect.Ptr {
		e = e.Elem()
	}
	if e.Name() != "" || e.Kind() != reflect.Struct {
		return false // a declared type, compiled with its method table
	}
	return rt.NumMethod() > 0 || e.NumMethod() > 0 || reflect.PointerTo(e).NumMethod() > 0
}
