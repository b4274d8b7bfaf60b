package interp

import "reflect"

// toolscript patch 100: a generic function named without type arguments
// where a value of a function type is wanted (var idx func([]int, int)
// int = slices.Index, c = cmp.Compare with c a func(a, b string) int, an
// argument: slices.SortFunc(xs, cmp.Compare)) is
// instantiated with the type arguments that unify its parameters with
// the wanted type's, as Go infers them; it was assigned as the generic
// itself and failed: "cannot use type func([]slices.E,slices.E) int as
// type func([]int,int) int in assignment".

// instantiateFor replaces src, a generic function named without type
// arguments, by its instance for a destination of type want, a function
// type. It does nothing for another source or another destination type.
func (interp *Interpreter) instantiateFor(sc *scope, src *node, want *itype, importPath, pkgName string) error {
	if want == nil || src.typ == nil || !isGeneric(src.typ) || (src.kind != identExpr && src.kind != selectorExpr) {
		return nil
	}
	for want.cat == linkedT && want.val != nil {
		want = want.val
	}
	var params []*itype
	switch {
	case want.cat == funcT:
		params = want.arg
	case want.cat == valueT && want.rtype != nil && want.rtype.Kind() == reflect.Func:
		for i := 0; i < want.rtype.NumIn(); i++ {
			params = append(params, valueTOf(want.rtype.In(i)))
		}
	default:
		return nil
	}
	// Each parameter of the wanted type stands for an argument of a call.
	args := make([]*node, len(params))
	for i, p := range params {
		c := *src
		c.typ = p
		args[i] = &c
	}
	fun := src.typ.node.anc
	types, err := inferTypeArgs(sc, src, fun, nil, args, false)
	if err != nil {
		return err
	}
	g, found, err := genAST(sc, fun, types)
	if err != nil {
		return atUse(src, err) // toolscript patch 96
	}
	if !found {
		if _, err = interp.cfg(g, fun.scope, importPath, pkgName); err != nil {
			return err
		}
		if err = genRun(g); err != nil {
			return err
		}
	}
	src.anc.child[childPos(src)] = g
	return nil
}

// paramType returns the type of the parameter i of the function type t
// (not a variadic one), or nil.
func paramType(t *itype, i int) *itype {
	switch {
	case t == nil:
	case t.cat == funcT:
		if i < len(t.arg) && t.arg[i].cat != variadicT {
			return t.arg[i]
		}
	case t.cat == valueT && t.rtype != nil && t.rtype.Kind() == reflect.Func:
		if i < t.rtype.NumIn() && !(t.rtype.IsVariadic() && i == t.rtype.NumIn()-1) {
			return valueTOf(t.rtype.In(i))
		}
	}
	return nil
}
