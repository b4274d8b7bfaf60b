package interp // toolscript patch 226

import "strings"

// goNamedInstance tells whether t, an instance of a generic type of the
// script recorded under name, has Go's name for %T and %#v: a named
// instance (a struct, or a slice, array or map type named by patch 224)
// whose type arguments are spelled as Go spells them (predeclared types,
// error, the script's top-level named types and instances of them, and
// pointers, slices, arrays and maps of those). Go's name of an instance
// with another argument (any, which the interpreter spells any where Go
// spells interface {}; a type declared in a function body, which Go
// suffixes; a native type) is not known, so %T and %#v of it still fail
// naming it (patch 92).
func (interp *Interpreter) goNamedInstance(t *itype, name string, depth int) bool {
	if depth > 8 || t == nil || t.name == "" || t.path != "main" || t.str != name || !strings.HasSuffix(name, "]") {
		return false
	}
	switch t.cat {
	case structT, sliceT, arrayT, mapT, linkedT:
	default:
		return false
	}
	args, ok := interp.instArgs[t]
	if !ok || len(args) == 0 {
		return false
	}
	for _, a := range args {
		if !interp.goSpelledArg(a, depth+1) {
			return false
		}
	}
	return true
}

// goSpelledArg tells whether the interpreter's spelling of the type
// argument a (its id, in an instance's name) is Go's.
func (interp *Interpreter) goSpelledArg(a *itype, depth int) bool {
	if a == nil || depth > 8 || a.local != nil {
		return false
	}
	switch a.cat {
	case boolT, intT, int8T, int16T, int32T, int64T, uintT, uint8T, uint16T, uint32T, uint64T, uintptrT,
		float32T, float64T, complex64T, complex128T, stringT:
		if a.path == "" {
			return a.id() == a.str
		}
	case errorT:
		return a.id() == "error"
	case ptrT:
		return a.id() == "*"+a.val.id() && interp.goSpelledArg(a.val, depth+1)
	case sliceT:
		if a.name == "" {
			return a.id() == "[]"+a.val.id() && interp.goSpelledArg(a.val, depth+1)
		}
	case mapT:
		if a.name == "" {
			return a.id() == "map["+a.key.id()+"]"+a.val.id() && interp.goSpelledArg(a.key, depth+1) && interp.goSpelledArg(a.val, depth+1)
		}
	}
	if a.name == "" || a.path != "main" || a.str != "main."+a.name || a.id() != a.str {
		return false
	}
	switch a.cat {
	case interfaceT, valueT, genericT, nilT:
		return false
	}
	interp.named.RLock()
	iname, inst := interp.named.inst[a]
	interp.named.RUnlock()
	if inst {
		return interp.goNamedInstance(a, iname, depth+1)
	}
	return !strings.ContainsAny(a.name, "[]")
}
