package interp // toolscript patch 184

// opIntoInterface reports whether n, an operation (binary or unary
// expression) on the right of a single assignment, is assigned to a
// destination of an interface type (a field of type any of a native
// struct, e.Value of a *list.Element; a map element; a variable). The
// operation then keeps its own type and frame slot, and the assignment
// wraps its result: given the destination's interface type and slot, the
// operation generated no code for that type and ended its function
// silently (e.Value = n * 10 returned zero values).
func opIntoInterface(n *node) bool {
	a := n.anc
	i := childPos(n) - a.nright
	if i < 0 || i >= len(a.child) {
		return false
	}
	dest := a.child[i]
	return dest.typ != nil && isInterface(dest.typ)
}

// opReturnedAsInterface reports whether n, a unary operation returned
// by a return statement, is returned as a result of an interface type
// (func f(n int) any { return -n } returned nil): the operation then
// keeps its own type, as a binary one does, and the return wraps it.
func opReturnedAsInterface(sc *scope, n *node) bool {
	pos := childPos(n)
	if sc.def == nil || sc.def.typ == nil || pos < 0 || pos >= len(sc.def.typ.ret) {
		return false
	}
	return isInterface(sc.def.typ.ret[pos])
}
