package interp // toolscript patch 222

import "fmt"

// localGenericType declares the generic type of the type declaration n
// in a function body (type Pair[T any] struct{ A, B T } in main), as the
// global type analysis declares one at the top level: its instances are
// made where they are used, and are of this declaration (patch 135: two
// functions' Box[int] are two types). It was a compile error ("type
// definition not implemented: fieldList"). A name that a type outside
// the declaration has too is refused: the instances' generated types are
// found by name in the scopes.
func localGenericType(interp *Interpreter, sc *scope, n *node, pkgName string) (*itype, error) {
	typeName := n.child[0].ident
	if sym, _, found := sc.lookup(typeName); found && sym.kind == typeSym {
		return nil, n.cfgErrorf("generic type %s declared in a function body has the name of a type declared outside it: not supported (rename it)", typeName)
	}
	typ := genericOf(nil, typeName, pkgName, withNode(n.child[0]), withScope(sc))
	typ.local = n
	sc.sym[typeName] = &symbol{kind: typeSym, node: n, typ: typ}
	return typ, nil
}

// localGenericKey is what keys the instances of the generic type
// declared by root, apart from the name they share with the instances
// of another function's type of its name, when root is a type
// declaration in a function body; "" otherwise. The generated AST of
// one function's Box[int] was taken for the other's.
func localGenericKey(root *node) string {
	if root.kind != typeSpec {
		return ""
	}
	for a := root.anc; a != nil; a = a.anc {
		switch a.kind {
		case funcDecl, funcLit:
			return fmt.Sprintf("#%p", root)
		case fileStmt:
			return ""
		}
	}
	return ""
}
