package interp // toolscript patch 185

// reflectNilCall is reflect's panic for a call of a nil func value
// (reflect.Value.Call of a zero func): Go's runtime panics there with a
// nil dereference, "runtime error: invalid memory address or nil pointer
// dereference", a runtime.Error. runtimePanic turns the first into the
// second where the panic starts, before the script may recover it (a
// recover saw a string, not an error). A script's own panic of that
// string reaches there as a reflect.Value, not a string.
const reflectNilCall = "reflect.Value.Call: call of nil function"

// reflectNilMethod is reflect's panic for a method of a nil interface
// value of a native interface type (w.Write of a nil io.Writer, called
// or taken as a method value): Go's nil dereference too.
const reflectNilMethod = "reflect: Method on nil interface value"
