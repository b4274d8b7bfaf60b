package interp

// toolscript patch 99: the global analysis types a package-level variable
// given an instance of a generic function (cf := cmp.Compare[int], _, ok
// := errors.AsType[*E](err), m := slices.Max(xs)), which the compiler
// instantiates only later: upstream found no type ("constant definition
// loop") or took the generic's own result types (a nil reflect type). A
// session's statements run at package level, so each of these failed at
// the top level of a session input, as in a program's var declarations.

// globalInstanceType returns the function type of the instance of a
// generic function that n makes, n being f[T1, ...] or a call of f or of
// f[T1, ...] (whose arguments infer the type arguments not given). ok is
// false when n makes no instance of a generic function; t is nil when a
// type it depends on is not known yet (the analysis comes back to it).
func globalInstanceType(interp *Interpreter, sc *scope, n *node) (t *itype, ok bool, err error) {
	var fn *node
	var targs, args []*node
	switch n.kind {
	case indexExpr, indexListExpr:
		fn, targs = n.child[0], n.child[1:]
	case callExpr:
		fn, args = n.child[0], n.child[1:]
		if fn.kind == indexExpr || fn.kind == indexListExpr {
			fn, targs = fn.child[0], fn.child[1:]
		}
	default:
		return nil, false, nil
	}
	gt, err := nodeType(interp, sc, fn)
	if err != nil || gt == nil || !isGeneric(gt) {
		return nil, false, nil
	}
	var explicit []*itype
	for _, c := range targs {
		ct, err := nodeType(interp, sc, c)
		if err != nil {
			return nil, true, err
		}
		if ct == nil || ct.incomplete || ct.cat == genericT {
			return nil, true, nil
		}
		explicit = append(explicit, ct)
	}
	// The arguments with their types, for the inference: copies, the
	// compiler types the arguments themselves.
	typed := make([]*node, 0, len(args))
	for _, a := range args {
		at, err := nodeType(interp, sc, a)
		if err != nil {
			return nil, true, err
		}
		if at == nil || at.incomplete {
			return nil, true, nil
		}
		c := *a
		c.typ = at
		typed = append(typed, &c)
	}
	fun := gt.node.anc
	types, err := inferTypeArgs(sc, n, fun, explicit, typed, n.kind == callExpr && n.action == aCallSlice)
	if err != nil {
		return nil, true, err
	}
	tps, err := funcTypeParams(sc, fun)
	if err != nil {
		return nil, true, err
	}
	// The generic's signature in its declaration's scope, each type
	// parameter naming its argument.
	ds := declScope(fun, sc)
	tsc := &scope{anc: ds, level: ds.level, sym: map[string]*symbol{}, types: ds.types, def: ds.def, global: ds.global, pkgID: ds.pkgID, pkgName: ds.pkgName}
	for i, tp := range tps {
		tsc.sym[tp.name] = &symbol{index: -1, kind: typeSym, typ: types[i]}
	}
	fields := func(list *node) ([]*itype, error) {
		var out []*itype
		for _, f := range list.child {
			ft, err := nodeType(interp, tsc, f.lastChild())
			if err != nil {
				return nil, err
			}
			if ft == nil || ft.incomplete {
				return nil, nil
			}
			for k, cnt := 0, max(1, len(f.child)-1); k < cnt; k++ {
				out = append(out, ft)
			}
		}
		return out, nil
	}
	ftn := gt.node
	in, err := fields(ftn.child[1])
	if err != nil || (in == nil && len(ftn.child[1].child) > 0) {
		return nil, true, err
	}
	var out []*itype
	if len(ftn.child) > 2 {
		if out, err = fields(ftn.child[2]); err != nil || (out == nil && len(ftn.child[2].child) > 0) {
			return nil, true, err
		}
	}
	return funcOf(in, out, withScope(tsc)), true, nil
}
