package interp // toolscript patch 196

// toolscript patch 196: %T of a run-time panic's value that a script
// recovers names Go's runtime type (runtime.boundsError,
// runtime.errorString, *runtime.TypeAssertionError), not the
// interpreter's *interp.RuntimeError and *interp.TypeAssertionError,
// which stay the values (errors.As of a runtime.Error still finds them).

import (
	"reflect"
	"strconv"
	"strings"
)

// goRuntimeTypeName is the name of Go's type of the run-time error the
// interpreter's v stands for, "" if v is not one.
func goRuntimeTypeName(v reflect.Value) string {
	if !v.IsValid() || !v.CanInterface() {
		return ""
	}
	switch e := v.Interface().(type) {
	case *TypeAssertionError:
		if e != nil {
			return "*runtime.TypeAssertionError"
		}
	case *RuntimeError:
		if e == nil {
			return ""
		}
		switch e.Kind {
		case KindIndex, KindSliceBounds, KindSliceToArray:
			return "runtime.boundsError"
		case KindNilDereference, KindUnhashable, KindMakeSlice, KindNegativeShift:
			return "runtime.errorString"
		}
	}
	return ""
}

// goRuntimeGoSyntax is %#v of v, a run-time error of the interpreter
// (goRuntimeTypeName): Go's for a runtime.errorString, its quoted
// message; the fields of Go's other runtime types are not known, so %#v
// of them is a run-time error naming the verb and the type at n.
func goRuntimeGoSyntax(n *node, v reflect.Value, name string) string {
	if e, ok := v.Interface().(*RuntimeError); ok && name == "runtime.errorString" {
		return strconv.Quote(strings.TrimPrefix(e.Error(), "runtime error: "))
	}
	panic(n.cfgErrorf("%%#v of a recovered run-time error (%s) is not supported", name))
}
