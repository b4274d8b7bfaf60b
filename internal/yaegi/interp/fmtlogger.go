package interp // toolscript patch 157

// toolscript patch 157: the print methods of a *log.Logger (l.Printf,
// l.Println, l.Print, Fatal and Panic's) print their arguments as log's
// print functions do, converted for printing (a script value's String
// and Error methods called): they were passed as their representations.

import (
	"log"
	"reflect"
)

var loggerType = reflect.TypeOf((*log.Logger)(nil))

// loggerPrintStart returns the index of the first printed argument of a
// call of the method selected by c0, a print method of a *log.Logger
// (log's print functions' names), or -1 for another selector.
func loggerPrintStart(c0 *node) int {
	if c0.action != aGetMethod || len(c0.child) != 2 {
		return -1
	}
	t := c0.child[0].typ
	if c0.recv != nil && len(c0.recv.index) > 0 && t != nil && t.cat != valueT {
		t = t.fieldSeq(c0.recv.index) // a method promoted from an embedded Logger
	}
	if t != nil && t.cat == ptrT {
		t = t.val
	}
	if t == nil || t.cat != valueT || t.rtype != loggerType && t.rtype != loggerType.Elem() {
		return -1
	}
	if start, ok := fmtPrintArgs["log"][c0.child[1].ident]; ok {
		return start
	}
	return -1
}

// loggerMethodValueCheck returns a compile error for the selector n of a
// print method of a *log.Logger that is not called at once (a method
// value): called through it, the method would print the interpreter's
// representation of script values.
func loggerMethodValueCheck(n *node) error {
	if len(n.child) != 2 || n.anc != nil && n.anc.kind == callExpr && n.anc.child[0] == n || toBlank(n) || loggerPrintStart(n) < 0 {
		return nil
	}
	name := n.child[1].ident
	return n.cfgErrorf("(*log.Logger).%s as a function value is not supported by the interpreter, which prints the script's types as Go does only in a direct call: call %s directly, or in a function literal that passes its arguments on", name, name)
}
