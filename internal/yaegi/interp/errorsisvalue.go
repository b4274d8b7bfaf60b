package interp // toolscript patch 207

// toolscript patch 207: errors.Is and errors.As as function values
// (is := errors.Is; f(errors.Is)). A direct call is replaced at compile
// time by the script's implementation (patches 88, 158, 194); a value
// went to the native function, which found two values of distinct
// script types with one underlying type equal, and errors.As, which
// needs the target's script type known only at the call, answered
// wrongly.

import "reflect"

// errorsFuncValue sets the value of the selector n of errors.Is used
// as a function value to the script's errors.Is, and returns the
// compile error of errors.As used so.
func errorsFuncValue(n *node, name string) error {
	switch name {
	case "Is":
		if n.rval.IsValid() && n.rval.Type() == reflect.TypeOf(errorsIsFunc(nil)) {
			n.rval = reflect.ValueOf(errorsIsFunc(scriptErrorsIs))
		}
	case "As":
		id := n.child[0].ident
		return n.cfgErrorf("%s.As as a function value is not supported by the interpreter, which finds the script's target type only in a direct call: call %s.As directly, or in a function literal that passes its arguments on", id, id)
	}
	return nil
}
