package interp // toolscript patch 224

// definedInstance returns the type of the instance name of the generic
// type lt, whose generated declaration g defines it as t, the type its
// body resolved to. Where the body names a type (type ID[T any] int,
// type W[T any] Pair[T]), t is that type itself, shared with every other
// use of it: the instance is a new type of its own, as a declaration
// without type parameters makes it (cfg's typeSpec). The instance was the
// named type: any(6) asserted to ID[string], a map[any] key 4 found
// ID[string](4)'s entry, and a method of the generic type (String) was
// added to int, so every int printed with it. A generic alias is left
// alone (its instance is the type it names).
func definedInstance(t, lt *itype, name string, g *node) *itype {
	if t == nil || lt == nil || lt.node == nil || lt.node.anc == nil || lt.node.anc.kind != typeSpec {
		return t
	}
	if len(name) < len(lt.id()) {
		return t
	}
	switch g.lastChild().kind {
	case identExpr, selectorExpr, indexExpr, indexListExpr, parenExpr:
	case arrayType, mapType:
		if t.name == "" && (t.cat == sliceT || t.cat == arrayT || t.cat == mapT) {
			t.name = lt.name + name[len(lt.id()):]
			t.path = lt.path
			t.str = t.path + "." + t.name
		}
		return t
	default:
		return t
	}
	nt := namedOf(t, lt.path, lt.name+name[len(lt.id()):], withNode(g.child[0]), withScope(lt.scope))
	nt.incomplete = t.incomplete
	nt.field = t.field
	return nt
}
