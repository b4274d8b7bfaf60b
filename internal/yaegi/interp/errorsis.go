package interp // toolscript patch 194

// toolscript patch 194: errors.Is with a script error value compares the
// values the interpreter's wrappers hold. A wrapper has func fields, so
// it is not comparable and the native errors.Is never found a script
// error equal to its target (errors.Is(z(), E{}) was false); and two
// values of distinct script types with one underlying type (struct{})
// are not equal, as in Go.

import "reflect"

// errorsIsFunc is the type of errors.Is.
type errorsIsFunc = func(err, target error) bool

// errorsIsScript returns, for a call n of errors.Is, the function that
// replaces it there; an invalid value for any other call.
func errorsIsScript(n *node) reflect.Value {
	if path, name, ok := binSymbol(n); !ok || path != "errors" || name != "Is" || len(n.child) != 3 {
		return reflect.Value{}
	}
	if c0 := n.child[0]; c0.typ == nil || c0.typ.rtype == nil || c0.typ.rtype != reflect.TypeOf(errorsIsFunc(nil)) {
		return reflect.Value{}
	}
	return reflect.ValueOf(errorsIsFunc(scriptErrorsIs))
}

// scriptErrorsIs is errors.Is, an error of err's chain equal to target
// compared as == compares them in a script (ifaceEqual).
func scriptErrorsIs(err, target error) bool {
	if err == nil || target == nil {
		return err == nil && target == nil
	}
	tv := reflect.ValueOf(target)
	if generatedWrapperNode(tv) != nil || wrapperNode(tv) != nil {
		tv = tv.Field(0).Elem()
	}
	return scriptIsChain(err, target, tv.IsValid() && tv.Type().Comparable())
}

func scriptIsChain(err, target error, comparable bool) bool {
	for {
		if comparable && errorsEqual(err, target) {
			return true
		}
		if x, ok := err.(interface{ Is(error) bool }); ok && x.Is(target) {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
			if err == nil {
				return false
			}
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if e != nil && scriptIsChain(e, target, comparable) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
}

// errorsEqual is err == target for errors.Is: false for values of
// distinct types (the wrapped value of an incomparable type is not
// compared).
func errorsEqual(err, target error) bool {
	ev, tv := reflect.ValueOf(err), reflect.ValueOf(target)
	en, tn := wrapperNode(ev), wrapperNode(tv)
	if (en == nil) != (tn == nil) {
		return false
	}
	if en == nil {
		return ev.Type() == tv.Type() && err == target
	}
	if !sameWrappedType(en, tn) {
		return false
	}
	ev, tv = ev.Field(0).Elem(), tv.Field(0).Elem()
	if !ev.IsValid() || !tv.IsValid() || ev.Type() != tv.Type() || !ev.Type().Comparable() {
		return false
	}
	return ifaceEqual(err, target)
}

// sameWrappedType reports whether the nodes of two interface wrappers
// record one script type.
func sameWrappedType(a, b *node) bool {
	ta, tb := a.typ, b.typ
	if ta == tb {
		return true
	}
	if ta == nil || tb == nil {
		return false
	}
	return sameNamed(ta, tb)
}
