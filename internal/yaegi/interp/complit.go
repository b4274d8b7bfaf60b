package interp // toolscript patch 220

// compositeLitToIface reports whether a composite literal of type src
// assigned to a variable of type dest must go through the assignment,
// which wraps it, rather than be written in the variable's slot: dest is
// a script interface type with methods (its slot holds a valueInterface)
// and the literal is not of a script struct type (whose literal writes
// the record itself, patch 125). A slice, map or array literal of a
// script type with methods (var l Lister = ints{3, 1, 2}) panicked in
// reflect.Set, and a native struct literal replaced the record.
func compositeLitToIface(dest, src *itype) bool {
	if dest == nil || src == nil || !isInterfaceSrc(dest) || isEmptyInterface(dest) {
		return false
	}
	return baseType(src).cat != structT
}
