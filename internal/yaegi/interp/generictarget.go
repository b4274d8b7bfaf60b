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
	if want == nil || src.typ == nil || !isGeneric(src.typ) || !genericName(src) { // toolscript patch 119: f[T] too
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
	// toolscript patch 119: the wanted results too (var f func() int =
	// zero, with zero[T any]() T).
	var rets []*itype
	if want.cat == funcT {
		rets = want.ret
	} else {
		for i := 0; i < want.rtype.NumOut(); i++ {
			rets = append(rets, valueTOf(want.rtype.Out(i)))
		}
	}
	fun := src.typ.node.anc
	types, err := inferFuncValue(sc, src, explicitTypeArgs(src), params, rets) // toolscript patch 119
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

// toolscript patch 119: a generic function given as an argument of a
// call of a generic function whose type arguments it determines (U of
// mapTo[T, U any](xs []T, f func(T) U) in mapTo(xs, id)).

// funcArg is a generic function given as an argument of a call of a
// generic function, for a parameter of type param.
type funcArg struct {
	arg   *node
	param *itype
	done  bool
}

// inferFuncValue returns the type arguments of src, a generic function
// named without type arguments, for a function value of parameter
// types params and result types rets (a nil one is not known).
func inferFuncValue(sc *scope, src *node, explicit, params, rets []*itype) ([]*itype, error) {
	// Each parameter of the wanted type stands for an argument of a call.
	args := make([]*node, len(params))
	for i, p := range params {
		c := *src
		c.typ = p
		args[i] = &c
	}
	return inferTypes(sc, src, src.typ.node.anc, explicit, args, false, rets)
}

// funcArgInstanceType returns the type of the instance of the generic
// function arg for a parameter of type param, a function type whose type
// parameters (isParam) are bound so far as bound says, or nil while
// that does not determine its type arguments.
func funcArgInstanceType(sc *scope, arg *node, param *itype, bound []*itype, isParam func(*itype) int) *itype {
	for param.cat == linkedT && param.val != nil {
		param = param.val
	}
	if param.cat != funcT || len(param.arg) != len(arg.typ.arg) || len(param.ret) != len(arg.typ.ret) {
		return nil
	}
	known := func(ts []*itype) []*itype {
		out := make([]*itype, len(ts))
		for i, t := range ts {
			if t.cat != variadicT {
				out[i] = substType(t, bound, isParam)
			}
		}
		return out
	}
	types, err := inferFuncValue(sc, arg, explicitTypeArgs(arg), known(param.arg), known(param.ret))
	if err != nil {
		return nil
	}
	tps, err := funcTypeParams(sc, arg.typ.node.anc)
	if err != nil || len(tps) != len(types) {
		return nil
	}
	index := map[string]int{}
	for i, tp := range tps {
		index[tp.name] = i
	}
	return substType(arg.typ, types, func(t *itype) int {
		if t == nil || (t.cat != genericT && !(t.incomplete && t.cat == nilT)) {
			return -1
		}
		if i, ok := index[t.name]; ok {
			return i
		}
		return -1
	})
}

// uninstantiated returns a compile error if n is a generic function named
// without type arguments where no function type gives them (x := id,
// var a any = id, ch <- id, fmt.Println(id)): Go's error; the
// interpreter panicked at run time making the function value
// ("reflect: call of MakeFunc with non-Func type").
func uninstantiated(sc *scope, n *node) error {
	if n.typ == nil || !isGeneric(n.typ) {
		return nil
	}
	name := n.ident
	switch n.kind {
	case selectorExpr:
		if len(n.child) == 2 {
			name = n.child[0].ident + "." + n.child[1].ident
		}
	case indexExpr, indexListExpr:
		// A partial instantiation left for its use (see funcTarget): the
		// error of its inference without one.
		if _, err := inferTypeArgs(sc, n, n.typ.node.anc, explicitTypeArgs(n), nil, false); err != nil {
			return err
		}
		return n.cfgErrorf("cannot use generic function without instantiation")
	case identExpr:
	default:
		return nil
	}
	return n.cfgErrorf("cannot use generic function %s without instantiation", name)
}

// genericName reports whether n names a generic function without all its
// type arguments: f, pkg.F, or a partial instantiation f[T] left for its
// use (funcTarget).
func genericName(n *node) bool {
	switch n.kind {
	case identExpr, selectorExpr:
		return true
	case indexExpr, indexListExpr:
		return isGeneric(n.typ) && len(n.child) > 0 && n.child[0].typ != nil && isGeneric(n.child[0].typ)
	}
	return false
}

// funcTarget reports whether n is where a value of a function type may
// be wanted, which instantiates a generic function given there (patch
// 100): the right side of an assignment or a declaration, an argument of
// a call, a result.
func funcTarget(n *node) bool {
	switch n.anc.kind {
	case assignStmt, defineStmt, returnStmt:
		return true
	case callExpr:
		return childPos(n) > 0
	}
	return false
}

// genericFuncDef returns the function type that x, the instance of a
// generic function type in the declaration of the generic function fun
// (f Mapper[T, U] with type Mapper[T, U any] func(T) U), stands for, its
// type arguments as fun's declaration names them (func(T) U), or nil
// when x is not one or its definition names a type parameter other than
// as a parameter or a result itself.
func genericFuncDef(fun, x *node) *itype {
	if (x.kind != indexExpr && x.kind != indexListExpr) || len(x.child) < 2 {
		return nil
	}
	gt := x.child[0].typ
	if gt == nil {
		gt, _ = nodeType(fun.interp, fun.scope, x.child[0])
	}
	if gt == nil || gt.cat != genericT || gt.node == nil {
		return nil
	}
	spec := gt.node
	for spec != nil && spec.kind != typeSpec {
		spec = spec.anc
	}
	if spec == nil || len(spec.child) < 3 || spec.child[2].kind != funcType {
		return nil
	}
	params := typeArgsByParam(spec, x)
	if params == nil {
		return nil
	}
	sc := gt.scope
	if sc == nil {
		sc = fun.scope
	}
	// typeOf is the type of the field type d of the definition.
	typeOf := func(d *node) *itype {
		if d.kind == identExpr {
			if a, ok := params[d.ident]; ok {
				t, err := nodeType(fun.interp, fun.scope, a)
				if err != nil {
					return nil
				}
				return t
			}
		}
		named := false
		d.Walk(func(c *node) bool {
			if c.kind == identExpr && params[c.ident] != nil {
				named = true
			}
			return !named
		}, nil)
		if named {
			return nil
		}
		t, err := nodeType(fun.interp, sc, d)
		if err != nil {
			return nil
		}
		return t
	}
	fields := func(l *node) ([]*itype, bool) {
		var types []*itype
		for _, f := range l.child {
			t := typeOf(f.lastChild())
			if t == nil {
				return nil, false
			}
			for k := 0; k < max(1, len(f.child)-1); k++ { // upstream builds as go1.21
				types = append(types, t)
			}
		}
		return types, true
	}
	d := spec.child[2]
	if len(d.child) < 2 {
		return nil
	}
	args, ok := fields(d.child[1])
	if !ok {
		return nil
	}
	var rets []*itype
	if len(d.child) > 2 {
		if rets, ok = fields(d.child[2]); !ok {
			return nil
		}
	}
	return funcOf(args, rets)
}

// typeArgsByParam maps the type parameters of spec, a generic type's
// declaration, to the type arguments of x, its instantiation
// (Name[A, B]); nil when their numbers differ.
func typeArgsByParam(spec, x *node) map[string]*node {
	params := map[string]*node{}
	j := 0
	for _, f := range spec.child[1].child {
		for _, id := range f.child[:max(1, len(f.child)-1)] {
			if j+1 < len(x.child) {
				params[id.ident] = x.child[j+1]
			}
			j++
		}
	}
	if j != len(x.child)-1 {
		return nil
	}
	return params
}
