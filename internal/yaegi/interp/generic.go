package interp

import (
	"reflect" // toolscript patch 73
	"slices"  // toolscript patch 119
	"strconv" // toolscript patch 74
	"strings"
	"sync/atomic"
)

// adot produces an AST dot(1) directed acyclic graph for the given node. For debugging only.
// func (n *node) adot() { n.astDot(dotWriter(n.interp.dotCmd), n.ident) }

// genAST returns a new AST where generic types are replaced by instantiated types.
func genAST(sc *scope, root *node, types []*itype) (*node, bool, error) {
	typeParam := map[string]*node{}
	pindex := 0
	tname := ""
	rtname := ""
	recvrPtr := false
	fixNodes := []*node{}
	var tps []genericParam // toolscript patch 74
	var gtree func(*node, *node) (*node, error)
	sname := root.child[0].ident + "["
	if root.kind == funcDecl {
		sname = root.child[1].ident + "["
		// toolscript patch 76: a method's instances are keyed by its
		// receiver's type too (A[int].Len and B[int].Len were one).
		if rt := root.child[0]; len(rt.child) > 0 {
			sname = recvTypeName(rt.child[0].lastChild()) + "." + sname
		}
	}
	// toolscript patch 76: and by package (a script's Contains[int] was
	// slices.Contains[int], whichever was instantiated first).
	if root.scope != nil && root.scope.pkgID != "" {
		sname = root.scope.pkgID + "." + sname
	}

	// Input type parameters must be resolved prior AST generation, as compilation
	// of generated AST may occur in a different scope.
	for _, t := range types {
		sname += t.id() + ","
	}
	sname = strings.TrimSuffix(sname, ",") + "]" + localGenericKey(root) // toolscript patch 222

	gtree = func(n, anc *node) (*node, error) {
		nod := copyNode(n, anc, false)
		switch n.kind {
		case funcDecl, funcType:
			nod.val = nod

		case identExpr:
			// Replace generic type by instantiated one.
			nt, ok := typeParam[n.ident]
			if !ok {
				break
			}
			nod = copyNode(nt, anc, true)
			nod.typ = nt.typ

		case indexExpr, indexListExpr: // toolscript patch 128: and of several type parameters
			// Catch a possible recursive generic type definition
			if root.kind != typeSpec {
				break
			}
			if root.child[0].ident != n.child[0].ident {
				break
			}
			// toolscript patch 128: only a use with the definition's own
			// type parameters, in order, is the type being defined
			// (Pair[V, K] inside Pair[K, V] is another instance).
			if !sameTypeParams(root, n) {
				break
			}
			nod := copyNode(n.child[0], anc, false)
			fixNodes = append(fixNodes, nod)
			return nod, nil

		case fieldList:
			//  Node is the type parameters list of a generic function.
			if root.kind == funcDecl && n.anc == root.child[2] && childPos(n) == 0 {
				// Fill the types lookup table used for type substitution.
				for _, c := range n.child {
					l := len(c.child) - 1
					for _, cc := range c.child[:l] {
						if pindex >= len(types) {
							return nil, cc.cfgErrorf("undefined type for %s", cc.ident)
						}
						t, err := nodeType(c.interp, declScope(root, sc), c.child[l]) // toolscript patch 96
						if err != nil {
							return nil, err
						}
						// toolscript patch 74: constraints are checked
						// once every type parameter is known.
						tps = append(tps, genericParam{name: cc.ident, constraint: t, node: cc})
						typeParam[cc.ident] = copyNode(cc, cc.anc, false)
						typeParam[cc.ident].ident = types[pindex].id()
						typeParam[cc.ident].typ = types[pindex]
						pindex++
					}
				}
				if err := checkConstraints(tps, types); err != nil {
					return nil, err
				}
				// Skip type parameters specification, so generated func doesn't look generic.
				return nod, nil
			}

			// Node is the receiver of a generic method.
			if root.kind == funcDecl && n.anc == root && childPos(n) == 0 && len(n.child) > 0 {
				rtn := n.child[0].child[1]
				// Method receiver is a generic type if it takes some type parameters.
				if rtn.kind == indexExpr || rtn.kind == indexListExpr || (rtn.kind == starExpr && (rtn.child[0].kind == indexExpr || rtn.child[0].kind == indexListExpr)) {
					if rtn.kind == starExpr {
						// Method receiver is a pointer on a generic type.
						rtn = rtn.child[0]
						recvrPtr = true
					}
					rtname = rtn.child[0].ident + "["
					for _, cc := range rtn.child[1:] {
						if pindex >= len(types) {
							return nil, cc.cfgErrorf("undefined type for %s", cc.ident)
						}
						it := types[pindex]
						typeParam[cc.ident] = copyNode(cc, cc.anc, false)
						typeParam[cc.ident].ident = it.id()
						typeParam[cc.ident].typ = it
						rtname += it.id() + ","
						pindex++
					}
					rtname = strings.TrimSuffix(rtname, ",") + "]"
				}
			}

			// Node is the type parameters list of a generic type.
			// toolscript patch 76: a generic type alias (type Set[T comparable] = map[T]struct{}) too.
			if (root.kind == typeSpec || root.kind == typeSpecAssign) && n.anc == root && childPos(n) == 1 {
				// Fill the types lookup table used for type substitution.
				tname = n.anc.child[0].ident + "["
				for _, c := range n.child {
					l := len(c.child) - 1
					for _, cc := range c.child[:l] {
						if pindex >= len(types) {
							return nil, cc.cfgErrorf("undefined type for %s", cc.ident)
						}
						it := types[pindex]
						t, err := nodeType(c.interp, declScope(root, sc), c.child[l]) // toolscript patch 96
						if err != nil {
							return nil, err
						}
						tps = append(tps, genericParam{name: cc.ident, constraint: t, node: cc}) // toolscript patch 74
						typeParam[cc.ident] = copyNode(cc, cc.anc, false)
						typeParam[cc.ident].ident = it.id()
						typeParam[cc.ident].typ = it
						tname += it.id() + ","
						pindex++
					}
				}
				if err := checkConstraints(tps, types); err != nil { // toolscript patch 74
					return nil, err
				}
				tname = strings.TrimSuffix(tname, ",") + "]"
				return nod, nil
			}
		}

		for _, c := range n.child {
			gn, err := gtree(c, nod)
			if err != nil {
				return nil, err
			}
			nod.child = append(nod.child, gn)
		}
		return nod, nil
	}

	if nod, found := root.interp.generic[sname]; found {
		return nod, true, nil
	}
	// toolscript patch 29: an instantiation cycle (f[T] instantiating
	// f[[]T]) or an exploding set of instantiations is refused, as Go
	// refuses the cycle, instead of instantiating without end.
	if err := instanceBound(root, sname); err != nil {
		return nil, false, err
	}

	r, err := gtree(root, root.anc)
	if err != nil {
		return nil, false, err
	}
	root.interp.generic[sname] = r
	r.param = append(r.param, types...)
	if tname != "" {
		for _, nod := range fixNodes {
			nod.ident = tname
		}
		r.child[0].ident = tname
	}
	if rtname != "" {
		// Replace method receiver type by synthetized ident.
		nod := r.child[0].child[0].child[1]
		if recvrPtr {
			nod = nod.child[0]
		}
		nod.kind = identExpr
		nod.ident = rtname
		nod.child = nil
	}
	// r.adot() // Used for debugging only.
	return r, false, nil
}

func copyNode(n, anc *node, recursive bool) *node {
	var i interface{}
	nindex := atomic.AddInt64(&n.interp.nindex, 1)
	nod := &node{
		debug:  n.debug,
		anc:    anc,
		interp: n.interp,
		index:  nindex,
		level:  n.level,
		nleft:  n.nleft,
		nright: n.nright,
		kind:   n.kind,
		pos:    n.pos,
		action: n.action,
		gen:    n.gen,
		val:    &i,
		rval:   n.rval,
		ident:  n.ident,
		meta:   n.meta,
	}
	nod.start = nod
	if recursive {
		for _, c := range n.child {
			nod.child = append(nod.child, copyNode(c, nod, true))
		}
	}
	return nod
}

// toolscript patch 73: inferTypesFromCall, which bound type arguments by
// position of occurrence, is replaced by inferTypeArgs.

func checkConstraint(it, ct *itype, at *node) error {
	if it.node != nil {
		at = it.node // toolscript patch 74: at, when the type has no node
	}
	// toolscript patch 74: comparable is checked (a slice passed as a
	// comparable type argument compiled).
	if ct.cat == comparableT {
		if rt := it.TypeOf(); rt != nil && !rt.Comparable() {
			return unsatisfied(at, it, ct) // toolscript patch 96
		}
		return nil
	}
	if len(ct.constraint) == 0 && len(ct.ulconstraint) == 0 {
		return nil
	}
	for _, c := range ct.constraint {
		if it.equals(c) || it.matchDefault(c) {
			return nil
		}
	}
	for _, c := range ct.ulconstraint {
		if it.underlying().equals(c) || it.matchDefault(c) || underlyingID(it) == c.id() { // toolscript patch 74
			return nil
		}
	}
	return unsatisfied(at, it, ct) // toolscript patch 96
}

// toolscript patch 29: bounds of generic instantiation. Real programs stay
// far below both; a cycle through ever larger type arguments, or a
// combinatorial set of them, meets one within milliseconds.
const (
	maxInstanceName = 2048 // characters of one instance's name, type arguments included
	maxInstances    = 4096 // instantiations in one interpreter
)

// instanceBound reports an error when instantiating sname would exceed the
// bounds of generic instantiation.
func instanceBound(root *node, sname string) error {
	switch {
	case len(sname) > maxInstanceName:
		return root.cfgErrorf("instantiation cycle: %s... has type arguments of more than %d characters", sname[:80], maxInstanceName)
	case len(root.interp.generic) >= maxInstances:
		return root.cfgErrorf("too many generic instantiations (more than %d): instantiation cycle?", maxInstances)
	}
	return nil
}

// toolscript patch 73: type arguments are inferred by type parameter name,
// as Go does (function argument inference, untyped constants given the
// default type of the largest kind among them, then core types of the
// constraints), and returned in the order of the type parameters. Upstream
// collected the types met in the parameters in order of occurrence, so
// Map[T, U any](xs []T, f func(T) U) bound U to T's type argument.

// genericParam is a type parameter of a generic function: its name, its
// constraint and the node that declares it.
type genericParam struct {
	name       string
	constraint *itype
	node       *node
}

// funcTypeParams returns the type parameters of the generic function fun,
// in their order of declaration.
func funcTypeParams(sc *scope, fun *node) ([]genericParam, error) {
	var tps []genericParam
	for _, c := range fun.typ.node.child[0].child {
		typ, err := nodeType(fun.interp, sc, c.lastChild())
		if err != nil {
			return nil, err
		}
		for _, cc := range c.child[:len(c.child)-1] {
			tps = append(tps, genericParam{name: cc.ident, constraint: typ, node: cc})
		}
	}
	return tps, nil
}

// funcName returns the name of a generic function declaration, for errors.
func genericFuncName(fun *node) string {
	if fun.kind == funcDecl && len(fun.child) > 1 {
		return fun.child[1].ident
	}
	return "function"
}

// inferTypeArgs returns the type arguments of an instantiation of the
// generic function fun at node n: the explicit ones first, the others
// inferred from the call's arguments (args; nil when fun is not called)
// and from the core types of the constraints. spread is true for a call
// of the form f(xs...). A type parameter that cannot be inferred, or is
// inferred as two different types, is an error at n.
func inferTypeArgs(sc *scope, n, fun *node, explicit []*itype, args []*node, spread bool) ([]*itype, error) {
	return inferTypes(sc, n, fun, explicit, args, spread, nil)
}

// inferTypes is inferTypeArgs that also unifies the results of fun with
// rets, the result types wanted of a function value of it (a nil one is
// not known).
// toolscript patch 119
func inferTypes(sc *scope, n, fun *node, explicit []*itype, args []*node, spread bool, rets []*itype) ([]*itype, error) {
	tps, err := funcTypeParams(sc, fun)
	if err != nil {
		return nil, err
	}
	fname := genericFuncName(fun)
	if len(explicit) > len(tps) {
		return nil, n.cfgErrorf("got %d type arguments but %s has %d type parameters", len(explicit), fname, len(tps))
	}
	index := map[string]int{}
	for i, tp := range tps {
		index[tp.name] = i
	}
	bound := make([]*itype, len(tps))
	copy(bound, explicit)
	untyped := make([][]*itype, len(tps))

	// isParam returns the index of the type parameter that t names, or -1.
	isParam := func(t *itype) int {
		if t == nil || (t.cat != genericT && !(t.incomplete && t.cat == nilT)) {
			return -1
		}
		if i, ok := index[t.name]; ok {
			return i
		}
		return -1
	}

	var unify func(param, input *itype, arg *node) error
	unify = func(param, input *itype, arg *node) error {
		if param == nil || input == nil {
			return nil
		}
		if i := isParam(param); i >= 0 {
			if input.untyped {
				if input.cat == nilT {
					return nil
				}
				untyped[i] = append(untyped[i], input)
				return nil
			}
			if bound[i] == nil {
				bound[i] = input
				return nil
			}
			if bound[i].id() != input.id() {
				return arg.cfgErrorf("in call to %s, type %s of %s does not match inferred type %s for %s", fname, input.id(), argString(arg), bound[i].id(), tps[i].name)
			}
			return nil
		}
		if !hasTypeParam(param, isParam) {
			return nil
		}
		// A type literal parameter unifies with the underlying type of a
		// named argument type (inexact unification).
		if param.cat != linkedT {
			input = input.underlying()
		}
		if input.cat == valueT {
			return unifyValue(param, input.rtype, arg, unify)
		}
		switch param.cat {
		case ptrT, sliceT, arrayT, chanT, chanSendT, chanRecvT:
			// toolscript patch 120: a channel of both directions given
			// for a <-chan T or a chan<- T (drain(ch) with ch a chan int).
			if input.cat == param.cat || (param.cat == chanT && (input.cat == chanSendT || input.cat == chanRecvT)) ||
				((param.cat == chanSendT || param.cat == chanRecvT) && input.cat == chanT) {
				return unify(param.val, input.val, arg)
			}
		case mapT:
			if input.cat == mapT {
				if err := unify(param.key, input.key, arg); err != nil {
					return err
				}
				return unify(param.val, input.val, arg)
			}
		case funcT:
			if input.cat == funcT && len(input.arg) == len(param.arg) && len(input.ret) == len(param.ret) {
				for i := range param.arg {
					if err := unify(param.arg[i], input.arg[i], arg); err != nil {
						return err
					}
				}
				for i := range param.ret {
					if err := unify(param.ret[i], input.ret[i], arg); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}

	// unifyExpr unifies the type expression of a parameter with an
	// argument type, through instances of generic types (Stack[T] with
	// Stack[string]), whose parameter type is the generic type alone.
	var unifyExpr func(x *node, param, input *itype, arg *node) error
	unifyExpr = func(x *node, param, input *itype, arg *node) error {
		if x == nil || input == nil {
			return unify(param, input, arg)
		}
		switch x.kind {
		case starExpr:
			if input.cat == ptrT && len(x.child) == 1 {
				return unifyExpr(x.child[0], nil, input.val, arg)
			}
		case arrayType:
			if input.cat == sliceT && len(x.child) == 1 {
				return unifyExpr(x.child[0], nil, input.val, arg)
			}
		case ellipsisExpr:
			if len(x.child) == 1 {
				return unifyExpr(x.child[0], nil, input, arg)
			}
		case indexExpr, indexListExpr:
			gt := x.child[0].typ
			if gt == nil {
				gt, _ = nodeType(fun.interp, fun.scope, x.child[0])
			}
			targs := instanceArgs(fun.interp, gt, input)
			if targs == nil && gt != nil && gt.cat == genericT && input.cat != linkedT {
				// toolscript patch 94: an argument of an unnamed type
				// (a func(yield func(K, V) bool)) unifies with the
				// generic type's definition (iter.Seq2[K, V]).
				return unifyGenericDef(gt, x.child[1:], input, func(c *node, t *itype) error {
					return unifyExpr(c, c.typ, t, arg)
				})
			}
			if len(targs) != len(x.child)-1 {
				break
			}
			for i, c := range x.child[1:] {
				if err := unifyExpr(c, c.typ, targs[i], arg); err != nil {
					return err
				}
			}
			return nil
		}
		if param == nil {
			t, err := nodeType(fun.interp, fun.scope, x)
			if err != nil {
				return nil
			}
			param = t
		}
		return unify(param, input, arg)
	}

	// Function argument inference.
	params := fun.typ.arg
	var exprs []*node
	for _, c := range fun.typ.node.child[1].child {
		for k, cnt := 0, max(1, len(c.child)-1); k < cnt; k++ { // toolscript patch 119: a counted loop (upstream's module is go1.21)
			exprs = append(exprs, c.lastChild())
		}
	}
	// toolscript patch 119: the generic functions given as arguments, of
	// which the type arguments are inferred once those of their
	// parameter's type are known.
	var funcArgs []funcArg
	for i, a := range args {
		if a.typ == nil {
			continue
		}
		var p *itype
		var x *node
		switch {
		case len(params) == 0:
		case i < len(params)-1 || params[len(params)-1].cat != variadicT:
			if i < len(params) {
				p = params[i]
			}
		case spread:
			p = sliceOf(params[len(params)-1].val)
		default:
			p = params[len(params)-1].val
			if len(exprs) == len(params) {
				x = exprs[len(exprs)-1]
			}
		}
		if p == nil {
			continue
		}
		if x == nil && i < len(params) && len(exprs) == len(params) && !(spread && i == len(params)-1) {
			x = exprs[i]
		}
		if isGeneric(a.typ) { // toolscript patch 100: instantiated for its parameter, once inferred
			if p.cat == genericT && x != nil { // toolscript patch 119: f Mapper[T, U]
				if d := genericFuncDef(fun, x); d != nil {
					p = d
				}
			}
			funcArgs = append(funcArgs, funcArg{arg: a, param: p}) // toolscript patch 119
			continue
		}
		if err := unifyExpr(x, p, a.typ, a); err != nil {
			return nil, err
		}
	}
	// toolscript patch 119: the results of a function value wanted.
	for i, r := range rets {
		if r != nil && i < len(fun.typ.ret) {
			if err := unify(fun.typ.ret[i], r, n); err != nil {
				return nil, err
			}
		}
	}

	// Core types of the constraints, until nothing changes.
	cores := func() error { // toolscript patch 119: run again after each generic function argument
		for changed := true; changed; {
			changed = false
			for i, tp := range tps {
				core := coreType(tp.constraint)
				if core == nil {
					core = genericCore(fun, tp) // toolscript patch 97
				}
				if core == nil {
					continue
				}
				if bound[i] != nil {
					if err := unify(core, bound[i], n); err != nil {
						return err
					}
					continue
				}
				// toolscript patch 119: as Go, a type parameter not
				// inferred otherwise is its constraint's single type only
				// if that term is exact: S ~[]E does not make S []E, nor
				// S ~string string (label[int] compiled, Go: "cannot infer S").
				if c := tp.constraint; c != nil && len(c.constraint) == 0 && len(c.ulconstraint) == 1 {
					continue
				}
				if t := substType(core, bound, isParam); t != nil {
					bound[i] = t
					changed = true
				}
			}
		}
		return nil
	}
	if err := cores(); err != nil {
		return nil, err
	}

	// toolscript patch 119: a generic function given as an argument
	// (mapTo(xs, strconv.Itoa) with a generic id for strconv.Itoa) is
	// instantiated with what its parameter's type says once the other
	// arguments are unified, and its instance's type unified with that
	// parameter's type in turn, until nothing changes: mapTo([]int{1},
	// id) infers id's T as int from func(T) U with T int, then U as int
	// from id's instance func(int) int.
	funcArgsPass := func() error { // toolscript patch 133: before and after the untyped constants' defaults
		for progress := true; progress && slices.Contains(bound, nil); {
			progress = false
			for k := range funcArgs {
				f := &funcArgs[k]
				if f.done {
					continue
				}
				t := funcArgInstanceType(sc, f.arg, f.param, bound, isParam) // toolscript patch 119
				if t == nil {
					continue
				}
				f.done, progress = true, true // toolscript patch 119
				if err := unify(f.param, t, f.arg); err != nil {
					return err
				}
			}
			if err := cores(); err != nil { // toolscript patch 119
				return err
			}
		}
		return nil
	} // toolscript patch 133
	if err := funcArgsPass(); err != nil { // toolscript patch 133
		return nil, err
	}
	// Untyped constants: the default type of the largest kind among them,
	// for a type parameter that nothing else gives a type, as Go does
	// after the typed arguments and the constraints (slices.Index(fs, 2)
	// with fs a []float64 is float64's) (toolscript patch 133).
	defaults := func() { // toolscript patch 133
		for i, uts := range untyped {
			if bound[i] != nil || len(uts) == 0 {
				continue
			}
			best := uts[0]
			for _, t := range uts[1:] {
				if untypedRank(t) > untypedRank(best) {
					best = t
				}
			}
			if best.cat == boolT || best.cat == stringT || untypedRank(best) > 0 {
				bound[i] = sc.getType(best.name)
			}
		}
	} // toolscript patch 133

	defaults()                      // toolscript patch 133
	if err := cores(); err != nil { // toolscript patch 133
		return nil, err
	}
	if err := funcArgsPass(); err != nil { // toolscript patch 133
		return nil, err
	}

	for i, t := range bound {
		if t == nil {
			return nil, n.cfgErrorf("in call to %s, cannot infer %s", fname, tps[i].name)
		}
	}
	return bound, nil
}

// argString names an argument node in an inference error.
func argString(n *node) string {
	if n.kind == identExpr {
		return n.ident
	}
	return "argument"
}

// untypedRank orders the kinds of untyped numeric constants as Go does to
// pick a default type: int < rune < float < complex.
func untypedRank(t *itype) int {
	switch {
	case t.str == "untyped rune":
		return 2
	case t.cat == intT:
		return 1
	case t.cat == float64T:
		return 3
	case t.cat == complex128T:
		return 4
	}
	return 0
}

// hasTypeParam reports whether t mentions a type parameter.
func hasTypeParam(t *itype, isParam func(*itype) int) bool {
	if t == nil {
		return false
	}
	if isParam(t) >= 0 {
		return true
	}
	switch t.cat {
	case ptrT, sliceT, arrayT, chanT, chanSendT, chanRecvT, variadicT:
		return hasTypeParam(t.val, isParam)
	case mapT:
		return hasTypeParam(t.key, isParam) || hasTypeParam(t.val, isParam)
	case funcT:
		for _, a := range t.arg {
			if hasTypeParam(a, isParam) {
				return true
			}
		}
		for _, r := range t.ret {
			if hasTypeParam(r, isParam) {
				return true
			}
		}
	}
	return false
}

// unifyValue unifies a parameter type with a native argument type.
func unifyValue(param *itype, rt reflect.Type, arg *node, unify func(param, input *itype, arg *node) error) error {
	switch param.cat {
	case ptrT, sliceT, arrayT, chanT:
		switch rt.Kind() {
		case reflect.Ptr, reflect.Slice, reflect.Array, reflect.Chan:
			return unify(param.val, valueTOf(rt.Elem()), arg)
		}
	case chanSendT, chanRecvT: // toolscript patch 120: a native channel (time.After's <-chan time.Time)
		if rt.Kind() == reflect.Chan {
			return unify(param.val, valueTOf(rt.Elem()), arg)
		}
	case mapT:
		if rt.Kind() == reflect.Map {
			if err := unify(param.key, valueTOf(rt.Key()), arg); err != nil {
				return err
			}
			return unify(param.val, valueTOf(rt.Elem()), arg)
		}
	case funcT:
		if rt.Kind() == reflect.Func && rt.NumIn() == len(param.arg) && rt.NumOut() == len(param.ret) {
			for i := range param.arg {
				if err := unify(param.arg[i], valueTOf(rt.In(i)), arg); err != nil {
					return err
				}
			}
			for i := range param.ret {
				if err := unify(param.ret[i], valueTOf(rt.Out(i)), arg); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// coreType returns the single type of a constraint's type set (~T or T),
// or nil.
func coreType(c *itype) *itype {
	if c == nil {
		return nil
	}
	switch {
	case len(c.constraint) == 1 && len(c.ulconstraint) == 0:
		return c.constraint[0]
	case len(c.constraint) == 0 && len(c.ulconstraint) == 1:
		return c.ulconstraint[0]
	}
	return nil
}

// substType returns t with its type parameters replaced by their bound
// types, or nil if one is not bound yet or t's form is not handled.
func substType(t *itype, bound []*itype, isParam func(*itype) int) *itype {
	if i := isParam(t); i >= 0 {
		return bound[i]
	}
	if !hasTypeParam(t, isParam) {
		return t
	}
	switch t.cat {
	case ptrT:
		if v := substType(t.val, bound, isParam); v != nil {
			return ptrOf(v, withNode(v.node), withScope(v.scope))
		}
	case sliceT:
		if v := substType(t.val, bound, isParam); v != nil {
			return sliceOf(v, withScope(t.scope))
		}
	case mapT:
		k := substType(t.key, bound, isParam)
		v := substType(t.val, bound, isParam)
		if k != nil && v != nil {
			return mapOf(k, v, withScope(t.scope))
		}
	case arrayT: // toolscript patch 119: arrays, channels, functions
		if v := substType(t.val, bound, isParam); v != nil {
			return arrayOf(v, t.length, withScope(t.scope))
		}
	case chanT, chanSendT, chanRecvT:
		if v := substType(t.val, bound, isParam); v != nil {
			dir := chanSendRecv
			if t.cat == chanSendT {
				dir = chanSend
			} else if t.cat == chanRecvT {
				dir = chanRecv
			}
			return chanOf(v, dir, withScope(t.scope))
		}
	case variadicT:
		if v := substType(t.val, bound, isParam); v != nil {
			return variadicOf(v, withScope(t.scope))
		}
	case funcT:
		args := make([]*itype, len(t.arg))
		for i, a := range t.arg {
			if args[i] = substType(a, bound, isParam); args[i] == nil {
				return nil
			}
		}
		rets := make([]*itype, len(t.ret))
		for i, r := range t.ret {
			if rets[i] = substType(r, bound, isParam); rets[i] == nil {
				return nil
			}
		}
		return funcOf(args, rets, withScope(t.scope))
	}
	return nil
}

// explicitTypeArgs returns the type arguments written in a partial
// instantiation f[T1, ...] of a generic function, or nil.
func explicitTypeArgs(n *node) []*itype {
	if n.kind != indexExpr && n.kind != indexListExpr {
		return nil
	}
	var types []*itype
	for _, c := range n.child[1:] {
		types = append(types, c.typ)
	}
	return types
}

// checkConstraints checks that each type argument satisfies the
// constraint of its type parameter, the other type parameters in the
// constraint replaced by their arguments (PT interface{ *T }, M ~map[K]V).
// toolscript patch 74
func checkConstraints(tps []genericParam, types []*itype) error {
	index := map[string]int{}
	for i, tp := range tps {
		index[tp.name] = i
	}
	isParam := func(t *itype) int {
		if t == nil || (t.cat != genericT && !(t.incomplete && t.cat == nilT)) {
			return -1
		}
		if i, ok := index[t.name]; ok && i < len(types) {
			return i
		}
		return -1
	}
	subst := func(ts []*itype) ([]*itype, error) {
		out := make([]*itype, 0, len(ts))
		for _, t := range ts {
			st := substType(t, types, isParam)
			if st == nil {
				return nil, tps[0].node.cfgErrorf("constraint %s of a generic declaration not supported", t.id())
			}
			out = append(out, st)
		}
		return out, nil
	}
	for i, tp := range tps {
		if i >= len(types) || tp.constraint == nil {
			continue
		}
		if err := genericMissingMethod(tps, types, i); err != nil { // toolscript patch 97
			return err
		}
		ct := tp.constraint
		if ct.cat == comparableT {
			if err := checkConstraint(types[i], ct, tp.node); err != nil {
				if ce, ok := err.(*constraintError); ok {
					ce.index = i // toolscript patch 96
				}
				return err
			}
			continue
		}
		if len(ct.constraint) == 0 && len(ct.ulconstraint) == 0 {
			continue
		}
		c, err := subst(ct.constraint)
		if err != nil {
			return err
		}
		ul, err := subst(ct.ulconstraint)
		if err != nil {
			return err
		}
		sub := *ct
		sub.constraint, sub.ulconstraint = c, ul
		if err := checkConstraint(types[i], &sub, tp.node); err != nil {
			if ce, ok := err.(*constraintError); ok {
				ce.index = i // toolscript patch 96
			}
			return err
		}
	}
	return nil
}

// underlyingID returns the id of t's underlying type: a named map, slice,
// array, pointer or channel type is one of its own category in the
// interpreter, with its name. toolscript patch 74
func underlyingID(t *itype) string {
	switch t.cat {
	case linkedT:
		return underlyingID(t.val)
	case mapT:
		return "map[" + t.key.id() + "]" + t.val.id()
	case sliceT:
		return "[]" + t.val.id()
	case arrayT:
		return "[" + strconv.Itoa(t.length) + "]" + t.val.id()
	case ptrT:
		return "*" + t.val.id()
	case chanT:
		return "chan " + t.val.id()
	}
	return t.id()
}

// instantiateFunc replaces the instantiation n (f[T] or f[T1, T2]) of the
// generic function of type t by the instantiated function, compiled. A
// partial instantiation that is called is left to the call, which infers
// the rest from its arguments. toolscript patch 75 (patch 40: the errors
// of the instantiation are the compilation's).
func (interp *Interpreter) instantiateFunc(sc *scope, n *node, t *itype, importPath, pkgName string) error {
	fun := t.node.anc
	explicit := explicitTypeArgs(n)
	tps, err := funcTypeParams(sc, fun)
	if err != nil {
		return err
	}
	if len(explicit) < len(tps) && n.anc.kind == callExpr && childPos(n) == 0 {
		n.typ = t
		n.gen = nop
		return nil
	}
	types, err := inferTypeArgs(sc, n, fun, explicit, nil, false)
	if err != nil {
		// toolscript patch 119: a partial instantiation where a function
		// type may be wanted (var f func(int) string = label[int], an
		// argument, a result) is completed there, as a generic function
		// named without type arguments is (patch 100), or fails there.
		if len(explicit) < len(tps) && funcTarget(n) {
			n.typ = t
			n.gen = nop
			return nil
		}
		return err
	}
	g, found, err := genAST(sc, fun, types)
	if err != nil {
		return atUse(n, err) // toolscript patch 96
	}
	if !found {
		if _, err = interp.cfg(g, fun.scope, importPath, pkgName); err != nil {
			return err
		}
		// Generate closures for function body, from the declaration,
		// whose function type starts it (genRun of the body alone
		// generated nothing for an instance only a var declaration called).
		if err = genRun(g); err != nil {
			return err
		}
	}
	if err = pendingInstanceType(interp, sc, g); err != nil { // toolscript patch 129
		return atUse(n, err)
	}
	// Replace generic func node by instantiated one.
	n.anc.child[childPos(n)] = g
	n.typ = g.typ
	return nil
}

// pendingInstanceType gives the instance g of a generic function its type
// when g's compilation has not reached it yet: an instantiation made while
// g's own signature is resolved (New[T] called by a method of the type
// M[T] that New returns) finds g in progress. toolscript patch 129
func pendingInstanceType(interp *Interpreter, sc *scope, g *node) error {
	if g.typ != nil || g.kind != funcDecl || len(g.child) < 3 {
		return nil
	}
	typ := g.child[2].typ
	if typ == nil {
		var err error
		if typ, err = nodeType(interp, sc, g.child[2]); err != nil {
			return err
		}
	}
	g.typ = typ
	return nil
}

// recvTypeName returns the name of the generic type of a method receiver
// type expression (T, *T, T[K, V], *T[K, V]). toolscript patch 76
func recvTypeName(n *node) string {
	for n != nil && (n.kind == starExpr || n.kind == indexExpr || n.kind == indexListExpr) && len(n.child) > 0 {
		n = n.child[0]
	}
	if n == nil {
		return ""
	}
	return n.ident
}

// genericRef returns the node that the call n of the instance g takes
// for its function: g itself, or, for a call in g's own body (a generic
// function calling itself with the same type arguments, now inferred as
// such), a node standing for it, so that the tree has no cycle for the
// compiler's walks to follow. toolscript patch 73
func genericRef(g, n *node) *node {
	for a := n.anc; a != nil; a = a.anc {
		if a == g {
			ref := copyNode(g, n, false)
			ref.val = g
			ref.typ = g.typ
			ref.sym = g.sym
			ref.findex = g.findex
			return ref
		}
	}
	// toolscript patch 168: nor for a call that g's body reaches through
	// the instances it calls (Even[int] calling Odd[int] calling
	// Even[int]: the second instance's call of the first made a cycle, and
	// the compiler's walks overflowed the stack, a fatal error).
	if instanceReaches(g, n) {
		ref := copyNode(g, n, false)
		ref.val = g
		ref.typ = g.typ
		ref.sym = g.sym
		ref.findex = g.findex
		return ref
	}
	return g
}

// instanceReaches tells whether the node n is in the tree of the
// instance g, the instances its calls hold included (toolscript patch
// 168).
func instanceReaches(g, n *node) bool {
	seen := map[*node]bool{}
	work := []*node{g}
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		if c == n {
			return true
		}
		if seen[c] {
			continue
		}
		seen[c] = true
		work = append(work, c.child...)
	}
	return false
}

// instanceArgs returns the type arguments of t if t is an instance of the
// generic type g, or nil. toolscript patch 76
func instanceArgs(interp *Interpreter, g, t *itype) []*itype {
	if g == nil || g.cat != genericT || t == nil {
		return nil
	}
	for _, it := range g.instance {
		if it == t {
			return interp.instArgs[t]
		}
	}
	return nil
}

// unifyGenericDef unifies input, a type of no name, with the type that
// defines the generic type gt (type Seq2[K, V any] func(yield func(K, V)
// bool)), instantiated with the type argument expressions args: where the
// definition names gt's type parameter j, unify is called with args[j]
// and the part of input found there. toolscript patch 94
func unifyGenericDef(gt *itype, args []*node, input *itype, unify func(*node, *itype) error) error {
	spec := gt.node
	for spec != nil && spec.kind != typeSpec {
		spec = spec.anc
	}
	if spec == nil || len(spec.child) < 3 {
		return nil
	}
	params := map[string]*node{}
	j := 0
	for _, f := range spec.child[1].child {
		for _, id := range f.child[:max(1, len(f.child)-1)] {
			if j < len(args) {
				params[id.ident] = args[j]
			}
			j++
		}
	}
	if j != len(args) {
		return nil
	}
	fields := func(l *node) (types []*node) {
		for _, f := range l.child {
			for k, cnt := 0, max(1, len(f.child)-1); k < cnt; k++ { // toolscript patch 119: a counted loop (upstream's module is go1.21)
				types = append(types, f.lastChild())
			}
		}
		return types
	}
	var walk func(d *node, in *itype) error
	walk = func(d *node, in *itype) error {
		if d == nil || in == nil {
			return nil
		}
		switch d.kind {
		case identExpr:
			if a, ok := params[d.ident]; ok {
				return unify(a, in)
			}
		case parenExpr:
			return walk(d.child[0], in)
		case starExpr:
			if in.cat == ptrT {
				return walk(d.child[0], in.val)
			}
		case arrayType:
			if len(d.child) == 1 && in.cat == sliceT {
				return walk(d.child[0], in.val)
			}
		case mapType:
			if in.cat == mapT {
				if err := walk(d.child[0], in.key); err != nil {
					return err
				}
				return walk(d.child[1], in.val)
			}
		case funcType:
			if in.cat != funcT || len(d.child) < 2 {
				return nil
			}
			ps := fields(d.child[1])
			var rs []*node
			if len(d.child) > 2 {
				rs = fields(d.child[2])
			}
			if len(ps) != len(in.arg) || len(rs) != len(in.ret) {
				return nil
			}
			for i, p := range ps {
				if err := walk(p, in.arg[i]); err != nil {
					return err
				}
			}
			for i, r := range rs {
				if err := walk(r, in.ret[i]); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(spec.lastChild(), input)
}

// genericInterfaceSpec returns the type spec declaring gt when gt is a
// generic interface type (type Initer[E any] interface{ ... }), else nil.
// toolscript patch 97
func genericInterfaceSpec(gt *itype) *node {
	if gt == nil || gt.cat != genericT {
		return nil
	}
	spec := gt.node
	for spec != nil && spec.kind != typeSpec {
		spec = spec.anc
	}
	if spec == nil || len(spec.child) < 3 || spec.lastChild().kind != interfaceType {
		return nil
	}
	return spec
}

// genericCore returns the core type of the constraint of the type
// parameter tp of fun when the constraint is an instance of a generic
// interface with one type term (PT Initer[T], type Initer[E any]
// interface{ *E; Init() }): the term, the interface's type parameters
// replaced by the instance's type arguments (*T); nil for any other
// constraint. toolscript patch 97
func genericCore(fun *node, tp genericParam) *itype {
	if tp.node == nil || tp.node.anc == nil {
		return nil
	}
	x := tp.node.anc.lastChild()
	if x.kind != indexExpr && x.kind != indexListExpr {
		return nil
	}
	gt := x.child[0].typ
	if gt == nil {
		gt, _ = nodeType(fun.interp, fun.scope, x.child[0])
	}
	spec := genericInterfaceSpec(gt)
	if spec == nil {
		return nil
	}
	params := typeArgsByParam(spec, x) // toolscript patch 97
	if params == nil {
		return nil
	}
	var term *node
	for _, f := range spec.lastChild().child[0].child {
		if len(f.child) != 1 {
			continue // a method
		}
		if term != nil {
			return nil // several terms: no single core type written here
		}
		term = f.child[0]
	}
	var build func(d *node) *itype
	build = func(d *node) *itype {
		switch d.kind {
		case identExpr:
			a, ok := params[d.ident]
			if !ok {
				return nil
			}
			if a.typ != nil {
				return a.typ
			}
			t, err := nodeType(fun.interp, fun.scope, a)
			if err != nil {
				return nil
			}
			return t
		case starExpr:
			if v := build(d.child[0]); v != nil {
				return ptrOf(v, withNode(v.node), withScope(v.scope))
			}
		case arrayType:
			if len(d.child) == 1 {
				if v := build(d.child[0]); v != nil {
					return sliceOf(v, withScope(v.scope))
				}
			}
		}
		return nil
	}
	if term == nil {
		return nil
	}
	return build(term)
}

// sameTypeParams reports whether the index expression n names the generic
// type defined by the type spec root with root's own type parameters, in
// their order. toolscript patch 128
func sameTypeParams(root, n *node) bool {
	if len(root.child) < 3 || root.child[1].kind != fieldList {
		return false
	}
	var params []string
	for _, c := range root.child[1].child {
		for _, cc := range c.child[:len(c.child)-1] {
			params = append(params, cc.ident)
		}
	}
	args := n.child[1:]
	if len(args) != len(params) {
		return false
	}
	for i, a := range args {
		if a.kind != identExpr || a.ident != params[i] {
			return false
		}
	}
	return true
}
