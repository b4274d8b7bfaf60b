package interp // toolscript patch 228

import "reflect"

// goSyntaxKeyLess orders the keys of kind k of a map that %#v prints with
// the script's type names, as fmt orders them, for the kinds rawLess
// leaves (structs, arrays, booleans, pointers; patch 126's valueCompare
// for %v). %#v of a map with struct keys (map[P]int, a type defined by
// one) failed at run time, saying the value was held in an interface.
// Keys of an interface type are left to the native printing.
func goSyntaxKeyLess(k reflect.Kind) (func(a, b reflect.Value) bool, bool) {
	switch k {
	case reflect.Struct, reflect.Array, reflect.Bool, reflect.Ptr:
		return func(a, b reflect.Value) bool { return valueCompare(a, b, 0) < 0 }, true
	}
	return nil, false
}
