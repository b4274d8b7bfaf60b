package interp // toolscript patch 158

// toolscript patch 158: errors.As with a target of a pointer to a script
// type (var c Code; errors.As(err, &c)) calls the As method of a script
// error of the chain with the target as the script passed it: a pointer
// of its script type. The native errors.As gave As the target as its
// representation (*int for *Code, *interp.valueInterface for a pointer
// to a script interface), so the method's t.(*Code) failed and
// errors.As returned false where Go's returns true.

import (
	"reflect"
)

// errorsAsScriptPointer returns, for a call n of errors.As whose target
// is a pointer to a script type that is not an interface, or is of type
// any (an As method giving its target on: errors.As(w.err, t)), the
// function that replaces errors.As there; nil for any other call.
func errorsAsScriptPointer(n *node) reflect.Value {
	if path, name, ok := binSymbol(n); !ok || path != "errors" || name != "As" || len(n.child) != 3 {
		return reflect.Value{}
	}
	c0, tn := n.child[0], n.child[2]
	t := tn.typ
	if c0.typ == nil || c0.typ.rtype == nil || c0.typ.rtype != reflect.TypeOf(errorsAsFunc(nil)) {
		return reflect.Value{}
	}
	interp := n.interp
	if isEmptyInterface(t) && c0.rval.IsValid() {
		// The value of an any may be the interpreter's record of a
		// pointer of a script type, which the native errors.As takes
		// for no pointer.
		orig, ok := c0.rval.Interface().(errorsAsFunc)
		if !ok {
			return reflect.Value{}
		}
		return reflect.ValueOf(errorsAsFunc(func(err error, target any) bool {
			vi, ok := target.(valueInterface)
			if !ok {
				return orig(err, target)
			}
			if pt := recordType(vi.node.typ); pt != nil && pt.cat == ptrT && pt.val != nil && vi.value.Kind() == reflect.Pointer && !vi.value.IsNil() {
				switch {
				case isInterfaceSrc(pt.val) && !isEmptyInterface(pt.val):
					return asScriptInterface(newIfaceAssertion(pt.val), err, vi.value, vi.node)
				case !isInterface(pt.val) && recordType(pt.val) != nil:
					return scriptTypeAs(interp, pt.val, vi.node, err, vi.value)
				}
			}
			return orig(err, valueInterfaceValue(reflect.ValueOf(target)).Interface())
		}))
	}
	if t == nil || t.cat != ptrT || t.val == nil || isInterface(t.val) || recordType(t.val) == nil {
		return reflect.Value{}
	}
	typ := t.val
	return reflect.ValueOf(errorsAsFunc(func(err error, target any) bool {
		if target == nil {
			panic("errors: target cannot be nil")
		}
		tv := reflect.ValueOf(target)
		if tv.Kind() != reflect.Pointer || tv.IsNil() {
			panic("errors: target must be a non-nil pointer")
		}
		return scriptTypeAs(interp, typ, tn, err, tv)
	}))
}

// scriptTypeAs is errors.As for a non-nil pointer tv to a value of the
// script type typ: it panics as Go's if typ is no error.
func scriptTypeAs(interp *Interpreter, typ *itype, tn *node, err error, tv reflect.Value) bool {
	if !scriptHasMethod(typ, "Error", "func() string") {
		panic("errors: *target must be interface or implement error")
	}
	return asScriptType(interp, typ, tn, err, tv)
}

// asScriptType is errors.As for a target tv, the value of the node tn,
// whose element is of the script type typ: the first error of err's
// chain (depth first) that holds a value of typ, or whose As method
// accepts the target, sets it.
func asScriptType(interp *Interpreter, typ *itype, tn *node, err error, tv reflect.Value) bool {
	for err != nil {
		if res, ok := holdsType(interp, reflect.ValueOf(&err).Elem(), typ); ok && res.IsValid() && res.Type().AssignableTo(tv.Elem().Type()) {
			tv.Elem().Set(res)
			return true
		}
		if x, ok := err.(interface{ As(any) bool }); ok && x.As(asTarget(err, tn, tv)) {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if e != nil && asScriptType(interp, typ, tn, e, tv) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// asTarget is the argument the As method of err gets for the target tv,
// the value of the node tn: for a script error, the interpreter's record
// of tv with its script type; for a native one, tv.
func asTarget(err error, tn *node, tv reflect.Value) any {
	if tn != nil && wrapperNode(reflect.ValueOf(err)) != nil {
		return valueInterface{node: tn, value: tv}
	}
	return tv.Interface()
}
