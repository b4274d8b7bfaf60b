package interp

import (
	"reflect"
)

// toolscript patch 40: readOnlyWrite refuses an assignment through the
// dereference n (*p = v, also in parentheses, in a multiple or a range
// assignment) when the value written is of one of Options.ReadOnlyTypes,
// or of a type with the same underlying struct.
func readOnlyWrite(n *node) error {
	ro := n.interp.opt.readOnly
	if len(ro) == 0 || n.typ == nil || !isAssignDest(n) {
		return nil
	}
	// Only a native type, or a script type defined from one, can be
	// read-only; asking the type of anything else (a type parameter in a
	// generic body) is not done: its instantiations are checked.
	typ := n.typ
	for typ.cat == linkedT && typ.val != nil {
		typ = typ.val
	}
	if typ.cat != valueT || typ.rtype == nil {
		return nil
	}
	t := typ.rtype
	for _, r := range ro {
		if t == r || t.Kind() == reflect.Struct && r.Kind() == reflect.Struct && t.ConvertibleTo(r) {
			return n.cfgErrorf("cannot assign to %s through a pointer: values of type %s belong to the host and are read-only in scripts", n.typ.id(), r)
		}
	}
	return nil
}

// toolscript patch 40: isAssignDest reports whether n is written by the
// statement it is in: a left-hand side of an assignment, or the key or
// value of a range clause.
func isAssignDest(n *node) bool {
	p := n
	for p.anc != nil && p.anc.kind == parenExpr {
		p = p.anc
	}
	a := p.anc
	if a == nil {
		return false
	}
	i := childPos(p)
	switch a.kind {
	case assignStmt:
		return i < a.nleft
	case assignXStmt:
		return i < len(a.child)-1
	case rangeStmt:
		return i < len(a.child)-2
	}
	return false
}

// toolscript patch 41: hiddenField refuses the selection of the field f
// of a native struct when Options.HiddenFieldType says its type must not
// reach scripts.
func hiddenField(n *node, f reflect.StructField) error {
	if h := n.interp.opt.hideField; h != nil && h(f.Type) {
		return n.cfgErrorf("field %s of type %s is not available to scripts", f.Name, f.Type)
	}
	return nil
}
