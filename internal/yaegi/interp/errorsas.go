package interp

// toolscript patch 88: errors.As with a target of a script interface type
// (var t temporary; errors.As(err, &t)) looks through the error chain for
// a value whose method set implements it, as Go's does. The native
// errors.As cannot: the target's element is the interpreter's
// valueInterface, to which no error is assignable, so it returned false.

import (
	"reflect"
)

// errorsAsScriptTarget returns, for a call n of errors.As whose target is
// a pointer to a script interface type with methods, the function that
// replaces errors.As there; nil for any other call.
func errorsAsScriptTarget(n *node) reflect.Value {
	if path, name, ok := binSymbol(n); !ok || path != "errors" || name != "As" || len(n.child) != 3 {
		return reflect.Value{}
	}
	c0 := n.child[0]
	t := n.child[2].typ
	if t == nil || t.cat != ptrT || t.val == nil || !isInterfaceSrc(t.val) || isEmptyInterface(t.val) {
		return reflect.Value{}
	}
	if c0.typ == nil || c0.typ.rtype == nil || c0.typ.rtype != reflect.TypeOf(errorsAsFunc(nil)) {
		return reflect.Value{}
	}
	a := newIfaceAssertion(t.val)
	return reflect.ValueOf(errorsAsFunc(func(err error, target any) bool {
		if target == nil {
			panic("errors: target cannot be nil")
		}
		tv := reflect.ValueOf(target)
		if tv.Kind() != reflect.Pointer || tv.IsNil() {
			panic("errors: target must be a non-nil pointer")
		}
		return asScriptInterface(a, err, tv, n.child[2]) // toolscript patch 158: and its node
	}))
}

// errorsAsFunc is the type of errors.As.
type errorsAsFunc = func(err error, target any) bool

// asScriptInterface is errors.As for a target tv whose element is of the
// script interface type a asserts: the first error of err's chain (depth
// first, as errors.As walks it) whose dynamic type implements it, or
// whose As method accepts tv, sets the target.
func asScriptInterface(a *ifaceAssertion, err error, tv reflect.Value, tn *node) bool { // toolscript patch 158: tn, the target's node
	for err != nil {
		ev := reflect.ValueOf(&err).Elem()
		if res, ok, _, _ := a.assert(nil, ev); ok && res.Type().AssignableTo(tv.Elem().Type()) {
			tv.Elem().Set(res)
			return true
		}
		if x, ok := err.(interface{ As(any) bool }); ok && x.As(asTarget(err, tn, tv)) { // toolscript patch 158: as the script passed it
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if e != nil && asScriptInterface(a, e, tv, tn) { // toolscript patch 158
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
