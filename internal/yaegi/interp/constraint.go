package interp

import (
	"errors"
	"strings"
)

// toolscript patch 96: a type argument that does not satisfy its
// constraint is reported where the type arguments are given (the call
// Sum([]string{"a"}), the instantiation Set[[]int]) with Go's message,
// "string does not satisfy Number (string missing in ~int | ~int64 |
// ~float64)". Patch 74 reported it at the type argument's declaration
// or at the type parameter, which may be in a source package the script
// did not write (a generic of slices or maps). And a constraint is
// resolved in the scope of its declaration: the caller's was used, so
// lib.Total[T Number] checked its argument against the script's Number.

// constraintError is a type argument's failure to satisfy a constraint:
// the *cfgError at the declaration, until a caller that knows the use
// puts it there (atUse).
type constraintError struct {
	*cfgError
	msg   string
	index int // of the type parameter
}

func (e *constraintError) Unwrap() error { return e.cfgError }

// unsatisfied is the error of the type argument it, which does not
// satisfy the constraint ct, at the node at.
func unsatisfied(at *node, it, ct *itype) error {
	if ct.cat == comparableT {
		msg := constraintTypeName(it) + " does not satisfy comparable"
		return &constraintError{cfgError: at.cfgErrorf("%s", msg), msg: msg}
	}
	name, terms := constraintName(ct), constraintTerms(ct)
	msg := constraintTypeName(it) + " does not satisfy " + name
	if terms != "" {
		msg += " (" + constraintTypeName(it) + " missing in " + terms + ")"
	}
	return &constraintError{cfgError: at.cfgErrorf("%s", msg), msg: msg}
}

// atUse puts a constraint error at the node n that gives the type
// arguments; any other error is returned as it is.
func atUse(n *node, err error) error {
	var ce *constraintError
	if n == nil || !errors.As(err, &ce) {
		return err
	}
	// An explicit type argument is where Go reports it.
	at := n
	if at.kind == callExpr && len(at.child) > 0 {
		at = at.child[0]
	}
	if (at.kind == indexExpr || at.kind == indexListExpr) && ce.index+1 < len(at.child) {
		n = at.child[ce.index+1]
	}
	return n.cfgErrorf("%s", ce.msg)
}

// declScope is the scope of the generic declaration root, where its
// constraints are named (lib.Total[T Number] names lib's Number, not the
// script's), else sc.
func declScope(root *node, sc *scope) *scope {
	if root.scope != nil {
		return root.scope
	}
	return sc
}

// constraintTypeName is the name of t as Go's errors write it in package main.
func constraintTypeName(t *itype) string {
	return strings.ReplaceAll(t.id(), "main.", "")
}

// constraintName is the constraint's name, or its union of terms when it
// has none.
func constraintName(ct *itype) string {
	if ct.name != "" {
		return constraintTypeName(ct)
	}
	if terms := constraintTerms(ct); terms != "" {
		return terms
	}
	return constraintTypeName(ct)
}

// constraintTerms writes the union of the constraint's type set: its
// exact terms, then its ~terms.
func constraintTerms(ct *itype) string {
	var terms []string
	for _, c := range ct.constraint {
		terms = append(terms, constraintTypeName(c))
	}
	for _, c := range ct.ulconstraint {
		terms = append(terms, "~"+constraintTypeName(c))
	}
	return strings.Join(terms, " | ")
}

// genericMissingMethod is the error of the type argument of tps[i] when
// its constraint is an instance of a generic interface (PT Initer[T])
// whose methods the argument lacks, as Go reports it: "*Bad does not
// satisfy Initer[Bad] (missing method Init)"; nil otherwise
// (toolscript patch 97: such a constraint's methods were not checked).
func genericMissingMethod(tps []genericParam, types []*itype, i int) error {
	tp := tps[i]
	if tp.node == nil || tp.node.anc == nil || i >= len(types) {
		return nil
	}
	x := tp.node.anc.lastChild()
	if x.kind != indexExpr && x.kind != indexListExpr {
		return nil
	}
	gt := x.child[0].typ
	if gt == nil {
		gt = tp.constraint
	}
	spec := genericInterfaceSpec(gt)
	if spec == nil {
		return nil
	}
	it := types[i]
	for _, f := range spec.lastChild().child[0].child {
		if len(f.child) != 2 || f.child[0].kind != identExpr {
			continue // a type term
		}
		name := f.child[0].ident
		if hasMethodNamed(it, name) {
			continue
		}
		var args []string
		for _, a := range x.child[1:] {
			s := a.ident
			for j, p := range tps {
				if p.name == a.ident && j < len(types) {
					s = constraintTypeName(types[j])
				}
			}
			args = append(args, s)
		}
		msg := constraintTypeName(it) + " does not satisfy " + strings.TrimPrefix(x.child[0].ident, "main.") + "[" + strings.Join(args, ", ") + "] (missing method " + name + ")"
		return &constraintError{cfgError: tp.node.cfgErrorf("%s", msg), msg: msg, index: i}
	}
	return nil
}

// hasMethodNamed tells whether the method set of t has a method name.
func hasMethodNamed(t *itype, name string) bool {
	if m, index := t.lookupMethod(name); m != nil && m.typ != nil {
		return m.typ.recv == nil || m.typ.recv.cat != ptrT || t.cat == ptrT || embeddedViaPointer(t, index)
	}
	if _, index, isPtr, ok := t.lookupBinMethod(name); ok && len(index) > 0 {
		return !isPtr || t.cat == ptrT || embeddedViaPointer(t, index)
	}
	if t.cat == valueT && t.rtype != nil {
		_, ok := t.rtype.MethodByName(name)
		return ok
	}
	return false
}
