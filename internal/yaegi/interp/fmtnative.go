package interp // toolscript patch 146

// toolscript patch 146: a value of a script struct (array, slice, map)
// type given back by native code (sync.Map's Load, a list.Element's
// Value) as its representation prints its fields (elements) of a type
// with a method fmt calls by that method, as Go does, when the
// representation is the type's own (fmt printed Wrap{Sub{1}} as {{1}},
// not {Sub!}); patch 112 converted it only when the type itself had
// such a method.

// printsByMethod tells whether a value of t, printed by fmt, has a part
// fmt prints by a method (String, Error, Format, GoString): a field of a
// struct, an element of an array, a slice or a map, a map's key, at any
// depth (a pointer's only by its own method).
func printsByMethod(t *itype, depth int) bool {
	if t == nil || depth > 16 || isBin(t) || isInterface(t) {
		return false
	}
	if depth > 0 && printMethod(t) != nil {
		return true
	}
	switch t.cat {
	case linkedT:
		return printsByMethod(t.val, depth)
	case arrayT, sliceT, variadicT:
		return printsByMethod(t.val, depth+1)
	case mapT:
		return printsByMethod(t.key, depth+1) || printsByMethod(t.val, depth+1)
	case structT:
		for _, f := range t.field {
			if printsByMethod(f.typ, depth+1) {
				return true
			}
		}
	}
	return false
}
