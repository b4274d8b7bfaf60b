package interp // toolscript patch 225

import "strings"

// definedGoSyntax returns s, the %#v of a value of the underlying type of
// t, a type defined by another named type (type W P, with P a struct
// type; type W[T any] Pair[T]), with t's name where s starts with the
// underlying type's: fmt prints main.W{A:1, B:2}, where the interpreter
// printed main.P{A:1, B:2}.
func definedGoSyntax(t *itype, s string) string {
	if t.val == nil {
		return s
	}
	switch t.val.cat {
	case structT, sliceT, arrayT, mapT:
	default:
		return s
	}
	from, to := goTypeName(t.val), goTypeName(t)
	if from == to || !strings.HasPrefix(s, from) {
		return s
	}
	return to + s[len(from):]
}

// underlyingCat is the category of t's underlying type: a defined type's
// (type W P) is that of the type it is defined by.
func underlyingCat(t *itype) tcat {
	for t != nil && t.cat == linkedT && t.val != nil {
		t = t.val
	}
	if t == nil {
		return nilT
	}
	return t.cat
}
