package interp // toolscript patch 223

// shadowOuterType makes the name of the type declaration n, in a
// function body, undeclared in the current scope while its type is
// resolved, as it is in Go until its declaration is done (save for its
// own references, which the placeholder resolves once the type is
// declared): a type of that name declared outside (at the top level, or
// in an enclosing block) was taken for the type being declared, so
// `type T int` in main, with a top-level `type T int` that has a String
// method, declared the top-level type again (fmt printed T(2) with the
// other type's String method, an assertion to fmt.Stringer held), and
// a struct of another layout was a compile error where it was used.
func shadowOuterType(sc *scope, n *node) {
	name := n.child[0].ident
	if _, _, found := sc.lookup(name); !found {
		return
	}
	t := &itype{name: name, path: sc.pkgName, node: n.child[0], incomplete: true, scope: sc}
	sc.sym[name] = &symbol{kind: typeSym, typ: t}
}
