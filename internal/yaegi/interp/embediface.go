package interp // toolscript patch 175

// toolscript patch 175: a script struct embedding a native interface with
// methods, alone in its struct (type rev struct{ sort.Interface }), is no
// longer embedded (anonymous) in its reflect type: reflect.StructOf gives
// such a struct the interface's methods as stubs that panic when called
// ("StructOf does not support methods of embedded interfaces"), and the
// struct, whose reflect type then implemented the interface, was handed to
// native code (sort.Sort) as it was, without the wrapper that calls the
// script's methods (Less overridden, Len and Swap promoted).

import "reflect"

// nativeIfaceEmbed tells whether rt, the type of an embedded field, is an
// interface with methods, whose methods reflect.StructOf cannot promote.
func nativeIfaceEmbed(rt reflect.Type) bool {
	return rt != nil && rt.Kind() == reflect.Interface && rt.NumMethod() > 0
}
