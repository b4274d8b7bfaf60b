package interp // toolscript patch 163

import "reflect"

// IsErrorWrapper tells whether t is the type of the interpreter's
// wrapper of a script value converted to error (patch 39): what native
// code, a template's data, sees of a script error in an error interface.
// Besides the value it holds the node of the value's script type, the
// root of the interpreter's syntax tree, which a walk of the data must not
// follow: the engine's check of a template's data for cycles walked that
// tree until the execution's timeout (a template executed on an error
// holding a script error, or on a struct of an error field holding one).
func IsErrorWrapper(t reflect.Type) bool {
	if t == nil || t.Kind() != reflect.Struct {
		return false
	}
	for _, byKind := range scriptErrorWrappers {
		for _, byIs := range byKind {
			for _, w := range byIs {
				if w == t {
					return true
				}
			}
		}
	}
	return false
}
