package interp // toolscript patch 227

// definedUnder returns the type that t, a type defined by another named
// type (type M2 M, with M a map type; type Ps2 Ps), is defined by in
// the end: the map, slice or array type whose key and element types a
// composite literal of t has. A literal of such a type read them from
// the defined type, which has none: M2{"a": 1} killed the compilation
// with a nil dereference, and an element of Ps2{{1, 2}} with its type
// elided took the type Ps.
func definedUnder(t *itype) *itype {
	for t != nil && t.cat == linkedT && t.val != nil {
		switch t.val.cat {
		case linkedT, mapT, sliceT, arrayT:
			t = t.val
		default:
			return t
		}
	}
	return t
}
