// Package errors extends the native errors package with its generic
// function, which a native symbol table cannot hold: the interpreter
// resolves errors.AsType here (internal/policy's extensions).
package errors

import stderrors "errors"

// AsType finds the first error in err's tree that has the type E and, if
// one is found, returns that error value and true; otherwise it returns
// the zero value of E and false (Go 1.26's errors.AsType).
func AsType[E error](err error) (E, bool) {
	var target E
	ok := stderrors.As(err, &target)
	return target, ok
}
