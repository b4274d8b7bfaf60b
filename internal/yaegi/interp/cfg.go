package interp

import (
	"fmt"
	"go/constant"
	"go/token" // toolscript patch 109
	// toolscript patch 4: no "log" (internal errors panic, the host's logger stays untouched)
	"math"
	"path"
	"reflect"
	// toolscript patch 21: no "strings" (a position is a field of Error)
	"unicode"
)

// toolscript patch 21: cfgError, an error during CFG build stage, is
// Error (errors.go).

var constOp = map[action]func(*node){
	aAdd:    addConst,
	aSub:    subConst,
	aMul:    mulConst,
	aQuo:    quoConst,
	aRem:    remConst,
	aAnd:    andConst,
	aOr:     orConst,
	aShl:    shlConst,
	aShr:    shrConst,
	aAndNot: andNotConst,
	aXor:    xorConst,
	aNot:    notConst,
	aBitNot: bitNotConst,
	aNeg:    negConst,
	aPos:    posConst,
}

var constBltn = map[string]func(*node){
	bltnComplex: complexConst,
	bltnImag:    imagConst,
	bltnReal:    realConst,
}

const nilIdent = "nil"

func init() {
	// Use init() to avoid initialization cycles for the following constant builtins.
	constBltn[bltnAlignof] = alignof
	constBltn[bltnOffsetof] = offsetof
	constBltn[bltnSizeof] = sizeof
}

// cfg generates a control flow graph (CFG) from AST (wiring successors in AST)
// and pre-compute frame sizes and indexes for all un-named (temporary) and named
// variables. A list of nodes of init functions is returned.
// Following this pass, the CFG is ready to run.
func (interp *Interpreter) cfg(root *node, sc *scope, importPath, pkgName string) ([]*node, error) {
	if sc == nil {
		sc = interp.initScopePkg(importPath, pkgName)
	}
	check := typecheck{scope: sc}
	var initNodes []*node
	var err error

	baseName := path.Base(interp.fset.Position(root.pos).Filename)

	root.Walk(func(n *node) bool {
		// Pre-order processing
		if err != nil {
			return false
		}
		if n.scope == nil {
			n.scope = sc
		}
		tracePrintln(n)

		switch n.kind {
		case binaryExpr, unaryExpr, parenExpr:
			if isBoolAction(n) {
				break
			}
			// Gather assigned type if set, to give context for type propagation at post-order.
			switch n.anc.kind {
			case assignStmt, defineStmt:
				a := n.anc
				i := childPos(n) - a.nright
				if i < 0 {
					break
				}
				if len(a.child) > a.nright+a.nleft {
					i--
				}
				dest := a.child[i]
				if dest.typ == nil {
					break
				}
				if dest.typ.incomplete {
					err = n.cfgErrorf("invalid type declaration")
					return false
				}
				if !isInterface(dest.typ) {
					// Interface type are not propagated, and will be resolved at post-order.
					n.typ = dest.typ
				}
			case binaryExpr, unaryExpr, parenExpr:
				n.typ = n.anc.typ
			}

		case defineStmt:
			// Determine type of variables initialized at declaration, so it can be propagated.
			if n.nleft+n.nright == len(n.child) {
				// No type was specified on the left hand side, it will resolved at post-order.
				break
			}
			n.typ, err = nodeType(interp, sc, n.child[n.nleft])
			if err != nil {
				break
			}
			for i := 0; i < n.nleft; i++ {
				n.child[i].typ = n.typ
			}

		case blockStmt:
			var rangek, rangev *node
			if n.anc != nil && n.anc.kind == rangeStmt {
				// For range block: ensure that array or map type is propagated to iterators
				// prior to process block. We cannot perform this at RangeStmt pre-order because
				// type of array like value is not yet known. This could be fixed in ast structure
				// by setting array/map node as 1st child of ForRangeStmt instead of 3rd child of
				// RangeStmt. The following workaround is less elegant but ok.
				c := n.anc.child[1]
				if c != nil && c.typ != nil && isSendChan(c.typ) {
					err = c.cfgErrorf("invalid operation: range %s receive from send-only channel", c.ident)
					return false
				}

				// toolscript patch 130: a channel ranged over with a key
				// and a value is Go's compile error (a host panic, "nil
				// type").
				if len(n.anc.child) == 4 {
					if o := n.anc.child[2]; o.typ != nil && (o.typ.cat == chanT || o.typ.cat == chanRecvT || o.typ.cat == chanSendT ||
						(o.typ.cat == valueT && o.typ.rtype != nil && o.typ.rtype.Kind() == reflect.Chan)) {
						err = o.cfgErrorf("range over %s permits only one iteration variable", o.ident)
						return false
					}
				}
				if t := sc.rangeChanType(n.anc); t != nil {
					// range over channel
					e := n.anc.child[0]
					sc.add(t) // toolscript patch 180: the channel ranged over, evaluated once, just behind the key's slot
					index := sc.add(t.val)
					sc.sym[e.ident] = &symbol{index: index, kind: varSym, typ: t.val}
					e.typ = t.val
					e.findex = index
					n.anc.gen = rangeChan
					// toolscript patch 193: the value received is a
					// variable of its own per iteration, as for the other
					// forms of range (closures shared one variable).
					if e.ident != "_" {
						rangek = e
					}
				} else {
					// range over array or map
					var ktyp, vtyp *itype
					var k, v, o *node
					if len(n.anc.child) == 4 {
						k, v, o = n.anc.child[0], n.anc.child[1], n.anc.child[2]
						if v.ident == "_" {
							v = nil // Do not assign to _ value.
						}
					} else {
						k, o = n.anc.child[0], n.anc.child[1]
					}

					// toolscript patch 65: range over a function (no
					// case of the switch below); a status slot just
					// behind the key's.
					if y, ok := rangeFuncYield(o.typ); ok {
						if ktyp, vtyp, err = rangeFuncVars(sc, n.anc, y, k, v); err != nil {
							return false
						}
						n.anc.gen = rangeFunc
						n.anc.val = &rangeFuncInfo{}
						sc.add(sc.getType("int"))
					}

					switch o.typ.cat {
					case valueT, linkedT:
						typ := o.typ.rtype
						if o.typ.cat == linkedT {
							typ = o.typ.val.TypeOf()
						}
						switch typ.Kind() {
						case reflect.Map:
							n.anc.gen = rangeMap
							ityp := valueTOf(reflect.TypeOf((*reflect.MapIter)(nil)))
							sc.add(ityp)
							ktyp = valueTOf(typ.Key())
							vtyp = valueTOf(typ.Elem())
						case reflect.String:
							sc.add(sc.getType("int")) // Add a dummy type to store array shallow copy for range
							sc.add(sc.getType("int")) // Add a dummy type to store index for range
							ktyp = sc.getType("int")
							vtyp = sc.getType("rune")
						case reflect.Array, reflect.Slice:
							sc.add(sc.getType("int")) // Add a dummy type to store array shallow copy for range
							ktyp = sc.getType("int")
							vtyp = valueTOf(typ.Elem())
						case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
							reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
							// toolscript patch 63: range over a named integer type.
							n.anc.gen = rangeInt
							ktyp = o.typ
							sc.add(ktyp)
						}
					case mapT:
						n.anc.gen = rangeMap
						ityp := valueTOf(reflect.TypeOf((*reflect.MapIter)(nil)))
						sc.add(ityp)
						ktyp = o.typ.key
						vtyp = o.typ.val
					case ptrT:
						// toolscript patch 130: the slot of the array
						// ranged over, just behind the key's, as for an
						// array (the range wrote its array over the
						// variable declared before the key: p itself, in
						// for i := range p).
						sc.add(sc.getType("int"))
						ktyp = sc.getType("int")
						vtyp = o.typ.val
						if vtyp.cat == valueT {
							vtyp = valueTOf(vtyp.rtype.Elem())
						} else {
							vtyp = vtyp.val
						}
					case stringT:
						sc.add(sc.getType("int")) // Add a dummy type to store array shallow copy for range
						sc.add(sc.getType("int")) // Add a dummy type to store index for range
						ktyp = sc.getType("int")
						vtyp = sc.getType("rune")
					case arrayT, sliceT, variadicT:
						sc.add(sc.getType("int")) // Add a dummy type to store array shallow copy for range
						ktyp = sc.getType("int")
						vtyp = o.typ.val
					case intT, int8T, int16T, int32T, int64T, uintT, uint8T, uint16T, uint32T, uint64T, uintptrT:
						// toolscript patch 63: range over any integer type,
						// the index of the operand's type (int for a constant).
						n.anc.gen = rangeInt
						ktyp = o.typ
						if o.typ.untyped {
							ktyp = sc.getType("int")
						}
						sc.add(ktyp)
					}

					kindex := sc.add(ktyp)
					sc.sym[k.ident] = &symbol{index: kindex, kind: varSym, typ: ktyp}
					k.typ = ktyp
					k.findex = kindex
					rangek = k

					if v != nil {
						vindex := sc.add(vtyp)
						sc.sym[v.ident] = &symbol{index: vindex, kind: varSym, typ: vtyp}
						v.typ = vtyp
						v.findex = vindex
						rangev = v
					}
				}
			}

			n.findex = -1
			n.val = nil
			sc = sc.pushBloc()

			// toolscript patch 13: whether the body can keep a reference to
			// a loop variable decides how its iterations store it.
			loopBody := n.anc != nil && (n.anc.kind == rangeStmt || forVarNodes(n.anc) > 0) // toolscript patch 151
			keepsRefs := loopBody && bodyKeepsRefs(n)
			if n.anc != nil && n.anc.kind == rangeStmt {
				lk := n.child[0]
				if rangek != nil {
					lk.ident = rangek.ident
					lk.typ = rangek.typ
					kindex := sc.add(lk.typ)
					sc.sym[lk.ident] = &symbol{index: kindex, kind: varSym, typ: lk.typ}
					lk.findex = kindex
					lk.gen = loopVarKey
					if !keepsRefs && loopVarTypeShared(lk.typ) { // toolscript patch 13
						lk.gen = loopVarCopy(loopKeySrc)
					}
				}
				lv := n.child[1]
				if rangev != nil {
					lv.ident = rangev.ident
					lv.typ = rangev.typ
					vindex := sc.add(lv.typ)
					sc.sym[lv.ident] = &symbol{index: vindex, kind: varSym, typ: lv.typ}
					lv.findex = vindex
					lv.gen = loopVarVal
					if !keepsRefs && loopVarTypeShared(lv.typ) { // toolscript patch 13
						lv.gen = loopVarCopy(loopValSrc)
					}
				}
			}
			if nv := forVarNodes(n.anc); nv > 0 {
				// toolscript patch 151: each variable the init statement
				// defines is a variable of its own per iteration, not
				// only the first, and in every form of the loop that has
				// an init statement, not only for init; cond; post.
				init := n.anc.child[0]
				var fresh []int
				for i := 0; i < nv && (init.kind == defineStmt || init.kind == defineXStmt) && i < init.nleft; i++ {
					fi := init.child[i]
					if fi.kind != identExpr || fi.ident == "_" {
						continue
					}
					lv := n.child[i]
					lv.ident = fi.ident
					lv.typ = fi.typ
					vindex := sc.add(lv.typ)
					sc.sym[lv.ident] = &symbol{index: vindex, kind: varSym, typ: lv.typ}
					lv.findex = vindex
					if !keepsRefs && loopVarTypeShared(lv.typ) { // toolscript patch 13
						lv.gen = loopVarForShared(i)
					} else {
						// The end of the body hands the variable's
						// value to the post statement.
						lv.gen = loopVarFor(i)
						fresh = append(fresh, i)
					}
				}
				if len(fresh) > 0 {
					n.gen = loopVarForEnd(fresh)
				}
			}

			// Pre-define symbols for labels defined in this block, so we are sure that
			// they are already defined when met.
			// TODO(marc): labels must be stored outside of symbols to avoid collisions.
			for _, c := range n.child {
				if c.kind != labeledStmt {
					continue
				}
				label := labelKey(c.child[0].ident) // toolscript patch 77
				sym := &symbol{kind: labelSym, node: c, index: -1}
				sc.sym[label] = sym
				c.sym = sym
			}
			// If block is the body of a function, get declared variables in current scope.
			// This is done in order to add the func signature symbols into sc.sym,
			// as we will need them in post-processing.
			if n.anc != nil && n.anc.kind == funcDecl {
				for k, v := range sc.anc.sym {
					sc.sym[k] = v
				}
			}

		case breakStmt, continueStmt, gotoStmt:
			if len(n.child) == 0 {
				break
			}
			// Handle labeled statements.
			label := labelKey(n.child[0].ident) // toolscript patch 77
			if sym, _, ok := sc.lookup(label); ok {
				if sym.kind != labelSym {
					err = n.child[0].cfgErrorf("label %s not defined", n.child[0].ident)
					break
				}
				n.sym = sym
			} else {
				n.sym = &symbol{kind: labelSym, index: -1}
				sc.sym[label] = n.sym
			}
			if n.kind == gotoStmt {
				n.sym.from = append(n.sym.from, n) // To allow forward goto statements.
			}

		case caseClause:
			sc = sc.pushBloc()
			if sn := n.anc.anc; sn.kind == typeSwitch && sn.child[1].action == aAssign {
				// Type switch clause with a var defined in switch guard.
				var typ *itype
				if len(n.child) == 2 {
					// 1 type in clause: define the var with this type in the case clause scope.
					switch {
					case n.child[0].ident == nilIdent:
						typ = sc.getType("interface{}")
					case !n.child[0].isType(sc):
						err = n.cfgErrorf("%s is not a type", n.child[0].ident)
					default:
						typ, err = nodeType(interp, sc, n.child[0])
					}
				} else {
					// Define the var with the type in the switch guard expression.
					typ = sn.child[1].child[1].child[0].typ
				}
				if err != nil {
					return false
				}
				nod := n.lastChild().child[0]
				index := sc.add(typ)
				sc.sym[nod.ident] = &symbol{index: index, kind: varSym, typ: typ}
				nod.findex = index
				nod.typ = typ
			}

		case commClauseDefault:
			sc = sc.pushBloc()

		case commClause:
			sc = sc.pushBloc()
			if len(n.child) > 0 && n.child[0].action == aAssign {
				ch := n.child[0].child[1].child[0]
				var typ *itype
				if typ, err = nodeType(interp, sc, ch); err != nil {
					return false
				}
				if !isChan(typ) {
					err = n.cfgErrorf("invalid operation: receive from non-chan type")
					return false
				}
				elem := chanElement(typ)
				assigned := n.child[0].child[0]
				index := sc.add(elem)
				sc.sym[assigned.ident] = &symbol{index: index, kind: varSym, typ: elem}
				assigned.findex = index
				assigned.typ = elem
			}

		case compositeLitExpr:
			if len(n.child) > 0 && n.child[0].isType(sc) {
				// Get type from 1st child.
				if n.typ, err = nodeType(interp, sc, n.child[0]); err != nil {
					return false
				}
				// Indicate that the first child is the type.
				n.nleft = 1
			} else {
				// Get type from ancestor (implicit type).
				if n.anc.kind == keyValueExpr && n == n.anc.child[0] {
					n.typ = definedUnder(n.anc.typ).key // toolscript patch 227
				} else if atyp := definedUnder(n.anc.typ); atyp != nil { // toolscript patch 227
					if atyp.cat == valueT && hasElem(atyp.rtype) {
						n.typ = valueTOf(atyp.rtype.Elem())
					} else {
						n.typ = atyp.val
					}
				}
				if n.typ == nil {
					// A nil type indicates either an error or a generic type.
					// A child indexExpr or indexListExpr is used for type parameters,
					// it indicates an instanciated generic.
					if n.child[0].kind != indexExpr && n.child[0].kind != indexListExpr {
						err = n.cfgErrorf("undefined type")
						return false
					}
					// toolscript patch 76: the literal's type is the
					// instance the type expression names, made once with
					// its methods (upstream made a new struct type for each
					// literal and compiled its methods again in the
					// literal's scope: a method whose body has a literal of
					// another instance of its type broke at run time).
					if n.typ, err = nodeType(interp, sc, n.child[0]); err != nil {
						return false
					}
					if n.typ.cat == genericT || n.typ.incomplete {
						err = n.cfgErrorf("undefined type")
						return false
					}
					n.nleft = 1 // Indictate the type of composite literal.
				}
			}

			child := n.child
			if n.nleft > 0 {
				n.child[0].typ = n.typ
				child = n.child[1:]
			}
			// Propagate type to children, to handle implicit types
			for _, c := range child {
				if isBlank(c) {
					err = n.cfgErrorf("cannot use _ as value")
					return false
				}
				switch c.kind {
				case binaryExpr, unaryExpr, compositeLitExpr:
					// Do not attempt to propagate composite type to operator expressions,
					// it breaks constant folding.
				case keyValueExpr, typeAssertExpr, indexExpr:
					c.typ = n.typ
				default:
					if c.ident == nilIdent {
						c.typ = sc.getType(nilIdent)
						continue
					}
					if c.typ, err = nodeType(interp, sc, c); err != nil {
						return false
					}
				}
			}

		case forStmt0, forStmt1, forStmt2, forStmt3, forStmt4, forStmt5, forStmt6, forStmt7, forRangeStmt:
			sc = sc.pushBloc()
			sc.loop, sc.loopRestart = n, n.lastChild()

		case funcLit:
			n.typ = nil // to force nodeType to recompute the type
			if n.typ, err = nodeType(interp, sc, n); err != nil {
				return false
			}
			n.findex = sc.add(n.typ)
			fallthrough

		case funcDecl:
			// Do not allow function declarations without body.
			if len(n.child) < 4 {
				err = n.cfgErrorf("missing function body")
				return false
			}
			n.val = n

			// Skip substree in case of a generic function.
			if len(n.child[2].child[0].child) > 0 {
				return false
			}

			// Skip subtree if the function is a method with a generic receiver.
			if len(n.child[0].child) > 0 {
				recvTypeNode := n.child[0].child[0].lastChild()
				typ, err := nodeType(interp, sc, recvTypeNode)
				if err != nil {
					return false
				}
				if typ.cat == genericT || (typ.val != nil && typ.val.cat == genericT) {
					return false
				}
				if typ.cat == ptrT {
					rc0 := recvTypeNode.child[0]
					rt0, err := nodeType(interp, sc, rc0)
					if err != nil {
						return false
					}
					if rc0.kind == indexExpr && rt0.cat == structT {
						return false
					}
				}
			}

			// Compute function type before entering local scope to avoid
			// possible collisions with function argument names.
			n.child[2].typ, err = nodeType(interp, sc, n.child[2])
			if err != nil {
				return false
			}
			n.typ = n.child[2].typ

			// Add a frame indirection level as we enter in a func.
			sc = sc.pushFunc()
			sc.def = n

			// Allocate frame space for return values, define output symbols.
			if len(n.child[2].child) == 3 {
				for _, c := range n.child[2].child[2].child {
					var typ *itype
					if typ, err = nodeType(interp, sc, c.lastChild()); err != nil {
						return false
					}
					if len(c.child) > 1 {
						for _, cc := range c.child[:len(c.child)-1] {
							sc.sym[cc.ident] = &symbol{index: sc.add(typ), kind: varSym, typ: typ}
						}
					} else {
						sc.add(typ)
					}
				}
			}

			// Define receiver symbol.
			if len(n.child[0].child) > 0 {
				var typ *itype
				fr := n.child[0].child[0]
				recvTypeNode := fr.lastChild()
				if typ, err = nodeType(interp, sc, recvTypeNode); err != nil {
					return false
				}
				if typ.cat == nilT {
					// This may happen when instantiating generic methods.
					s2, _, ok := sc.lookup(typ.id())
					if !ok {
						err = n.cfgErrorf("type not found: %s", typ.id())
						break
					}
					typ = s2.typ
					if typ.cat == nilT {
						err = n.cfgErrorf("nil type: %s", typ.id())
						break
					}
				}
				recvTypeNode.typ = typ
				n.child[2].typ.recv = typ
				n.typ.recv = typ
				index := sc.add(typ)
				if len(fr.child) > 1 {
					sc.sym[fr.child[0].ident] = &symbol{index: index, kind: varSym, typ: typ}
				}
			}

			// Define input parameter symbols.
			for _, c := range n.child[2].child[1].child {
				var typ *itype
				if typ, err = nodeType(interp, sc, c.lastChild()); err != nil {
					return false
				}
				for _, cc := range c.child[:len(c.child)-1] {
					sc.sym[cc.ident] = &symbol{index: sc.add(typ), kind: varSym, typ: typ}
				}
				if len(c.child) == 1 {
					// toolscript patch 81: an unnamed parameter has its
					// slot too, where a call copies its argument (it
					// overwrote the function's first local).
					sc.add(typ)
				}
			}

			if n.child[1].ident == "init" && len(n.child[0].child) == 0 {
				initNodes = append(initNodes, n)
			}

		case ifStmt0, ifStmt1, ifStmt2, ifStmt3:
			sc = sc.pushBloc()

		case switchStmt, switchIfStmt, typeSwitch:
			// toolscript patch 143: the clauses stay in their order, a
			// default clause wherever it is (it was swapped with the last
			// clause, so a fallthrough into a default clause that is not
			// the last went to the clause after it, and the clauses after
			// a first default were tested in another order); the wiring
			// tests it last (nextCaseTest).
			sc = sc.pushBloc()
			sc.loop = n

		case selectStmt:
			// toolscript patch 137: a break in a select leaves the select,
			// wherever it is in a case (it left the enclosing loop from
			// inside an if: only a case's last statement went to the
			// select's end).
			sc = sc.pushBloc()
			sc.loop = n

		case importSpec:
			// Already all done in GTA.
			return false

		case typeSpecAssign:
			// toolscript patch 162: a generic type alias is instantiated
			// where it is used (its body's *T was compiled as a
			// dereference of a value T: type Ptr[T any] = *T failed), and
			// an alias declared in a function body is declared there
			// (type L = []int in main was undefined).
			if len(n.child) > 2 {
				return false
			}
			if sc.def == nil {
				break
			}
			var typ *itype
			if typ, err = nodeType(interp, sc, n.child[1]); err != nil {
				return false
			}
			n.typ = typ
			sc.sym[n.child[0].ident] = &symbol{kind: typeSym, node: n, typ: typ}
			return false

		case typeSpec:
			// Processing already done in GTA pass for global types, only parses inlined types.
			if sc.def == nil {
				return false
			}
			typeName := n.child[0].ident
			if len(n.child) > 2 { // toolscript patch 222: a generic type declared in a function body
				n.typ, err = localGenericType(interp, sc, n, pkgName)
				return false
			}
			shadowOuterType(sc, n) // toolscript patch 223
			var typ *itype
			if typ, err = nodeType(interp, sc, n.child[1]); err != nil {
				return false
			}
			if typ.incomplete {
				// Type may still be incomplete in case of a local recursive struct declaration.
				if typ, err = typ.finalize(); err != nil {
					err = n.cfgErrorf("invalid type declaration")
					return false
				}
			}

			switch n.child[1].kind {
			case identExpr, selectorExpr:
				n.typ = namedOf(typ, pkgName, typeName)
			default:
				n.typ = typ
				n.typ.name = typeName
				if pkgName != "" && !isInterface(typ) { // toolscript patch 118: a local struct type is named as Go names it
					n.typ.path = pkgName
					n.typ.str = pkgName + "." + typeName
				}
			}
			n.typ.local = n // toolscript patch 135: this declaration's type, not another function's of its name
			sc.sym[typeName] = &symbol{kind: typeSym, typ: n.typ}
			interp.noteNamed(n.typ) // toolscript patch 89
			return false

		case constDecl:
			// Early parse of constDecl subtrees, to compute all constant
			// values which may be used in further declarations.
			if !sc.global {
				for _, c := range n.child {
					if _, err = interp.cfg(c, sc, importPath, pkgName); err != nil {
						// No error processing here, to allow recovery in subtree nodes.
						err = nil
					}
				}
			}

		case arrayType, basicLit, chanType, chanTypeRecv, chanTypeSend, funcType, interfaceType, mapType, structType:
			n.typ, err = nodeType(interp, sc, n)
			return false
		}
		return true
	}, func(n *node) {
		// Post-order processing
		if err != nil {
			return
		}

		defer func() {
			if r := recover(); r != nil {
				// Display the exact location in input source which triggered the panic
				panic(n.cfgErrorf("CFG post-order panic: %v", r))
			}
		}()
		check.frame = sc // toolscript patch 95

		switch n.kind {
		case addressExpr:
			if isBlank(n.child[0]) {
				err = n.cfgErrorf("cannot use _ as value")
				break
			}
			wireChild(n)

			err = check.addressExpr(n)
			if err != nil {
				break
			}

			n.typ = ptrOf(n.child[0].typ)
			n.findex = sc.add(n.typ)

		case assignStmt, defineStmt:
			if n.anc.kind == typeSwitch && n.anc.child[1] == n {
				// type switch guard assignment: assign dest to concrete value of src
				n.gen = nop
				break
			}

			var atyp *itype
			if n.nleft+n.nright < len(n.child) {
				if atyp, err = nodeType(interp, sc, n.child[n.nleft]); err != nil {
					break
				}
			}

			var sbase int
			if n.nright > 0 {
				sbase = len(n.child) - n.nright
			}

			// If len(RHS) > 1, each node must be single-valued, and the nth expression
			// on the right is assigned to the nth operand on the left, so the number of
			// nodes on the left and right sides must be equal
			if n.nright > 1 && n.nright != n.nleft {
				err = n.cfgErrorf("cannot assign %d values to %d variables", n.nright, n.nleft)
				return
			}
			// toolscript patch 85: one variable cannot take the results of
			// a call that returns several (it took the first).
			if n.nleft == 1 && n.nright == 1 && isCall(n.child[sbase]) {
				if c := n.child[sbase]; c.child[0].typ != nil {
					if r := c.child[0].typ.numOut(); r > 1 {
						err = n.cfgErrorf("assignment mismatch: 1 variable but %s returns %d values", c.child[0].name(), r)
						return
					}
				}
			}
			// toolscript patch 100: a generic function given to a variable
			// of a function type is instantiated for it.
			for i := 0; n.nright == n.nleft && i < n.nleft; i++ {
				want := atyp
				if want == nil && n.kind == assignStmt {
					want = n.child[i].typ
				}
				if err = interp.instantiateFor(sc, n.child[sbase+i], want, importPath, pkgName); err != nil {
					return
				}
			}
			// toolscript patch 119: one left generic (x := id, var a any
			// = id) is Go's compile error (a run-time reflect panic).
			for i := sbase; i < len(n.child); i++ {
				if err = uninstantiated(sc, n.child[i]); err != nil {
					return
				}
			}

			wireChild(n)
			for i := 0; i < n.nleft; i++ {
				dest, src := n.child[i], n.child[sbase+i]
				if err = templateFuncMapAssign(dest, src); err != nil { // toolscript patch 117
					break
				}
				updateSym := false
				var sym *symbol
				var level int

				if dest.rval.IsValid() && !dest.rval.CanSet() && isConstType(dest.typ) {
					err = n.cfgErrorf("cannot assign to %s (%s constant)", dest.rval, dest.typ.str)
					break
				}
				if isBlank(src) {
					err = n.cfgErrorf("cannot use _ as value")
					break
				}
				if n.kind == defineStmt || (n.kind == assignStmt && dest.ident == "_") {
					if atyp != nil {
						dest.typ = atyp
					} else {
						if src.typ, err = nodeType(interp, sc, src); err != nil {
							return
						}
						if src.typ.isBinMethod {
							dest.typ = valueTOf(src.typ.methodCallType())
						} else {
							// In a new definition, propagate the source type to the destination
							// type. If the source is an untyped constant, make sure that the
							// type matches a default type.
							dest.typ = sc.fixType(src.typ)
						}
					}
					if dest.typ.incomplete {
						return
					}
					if sc.global || sc.isRedeclared(dest) {
						// toolscript patch 141: a define in a loop's body of
						// the name of a loop variable declares a new variable
						// that shadows it, as in Go (it was skipped, leaving
						// its right side's operation without a destination:
						// i := i + 1 crashed; and i := i; i += 5 changed the
						// loop's own variable).
						if !sc.global && shadowsLoopVar(n, dest) {
							sym = nil
						} else {
							// Do not overload existing symbols (defined in GTA) in global scope.
							sym, _, _ = sc.lookup(dest.ident)
						}
					}
					if sym == nil {
						sym = &symbol{index: sc.add(dest.typ), kind: varSym, typ: dest.typ}
						sc.sym[dest.ident] = sym
					}
					dest.val = src.val
					dest.recv = src.recv
					dest.findex = sym.index
					updateSym = true
				} else {
					sym, level, _ = sc.lookup(dest.ident)
				}

				err = check.assignExpr(n, dest, src)
				if err != nil {
					break
				}

				if updateSym {
					sym.typ = dest.typ
					sym.rval = src.rval
					// As we are updating the sym type, we need to update the sc.type
					// when the sym has an index.
					if sym.index >= 0 {
						sc.types[sym.index] = sym.typ.frameType()
					}
				}
				n.findex = dest.findex
				n.level = dest.level

				// In the following, we attempt to optimize by skipping the assign
				// operation and setting the source location directly to the destination
				// location in the frame.
				//
				switch {
				case n.action != aAssign:
					// Do not skip assign operation if it is combined with another operator.
				case src.rval.IsValid():
					// Do not skip assign operation if setting from a constant value.
				case isMapEntry(dest):
					// Setting a map entry requires an additional step, do not optimize.
					// As we only write, skip the default useless getIndexMap dest action.
					dest.gen = nop
				case n.nleft > 1 && n.nright > 0:
					// toolscript patch 54: a multiple assignment assigns
					// every pair itself (writing a source into its
					// destination made the statement a no-op for the
					// other pairs: k, m := "a", map[string]int{} left k
					// empty).
				case isFuncField(dest):
					// Setting a struct field of function type requires an extra step. Do not optimize.
				case isCall(src) && !isInterfaceSrc(dest.typ) && n.kind != defineStmt:
					// Call action may perform the assignment directly.
					if dest.typ.id() != src.typ.id() {
						// Skip optimitization if returned type doesn't match assigned one.
						break
					}
					n.gen = nop
					src.level = level
					src.findex = dest.findex
					if src.typ.untyped && !dest.typ.untyped {
						src.typ = dest.typ
					}
				case src.action == aRecv && isInterfaceSrc(dest.typ) && !isInterfaceSrc(src.typ):
					// toolscript patch 83: a value received into an interface
					// variable goes through the assignment, which wraps it (the
					// variable took the channel's element type: s = <-ch
					// with s of a script interface type panicked at s.M()).
				case src.action == aRecv:
					// Assign by reading from a receiving channel.
					n.gen = nop
					src.findex = dest.findex // Set recv address to LHS.
					dest.typ = src.typ
				case src.action == aCompositeLit:
					if dest.typ.cat == valueT && dest.typ.rtype.Kind() == reflect.Interface {
						// Skip optimisation for assigned interface.
						break
					}
					if (isEmptyInterface(dest.typ) || dest.typ.cat == errorT) && keepsMethods(src.typ) { // toolscript patch 118: a named type keeps its type
						// toolscript patch 60: the value keeps its methods
						// (var x any = T{} lost them: x.(error) failed).
						break
					}
					if dest.action == aGetIndex || dest.action == aStar {
						// Skip optimization, as it does not work when assigning to a struct field or a dereferenced pointer.
						break
					}
					if compositeLitToIface(dest.typ, src.typ) { // toolscript patch 220
						break
					}
					n.gen = nop
					src.findex = dest.findex
					src.level = level
				case len(n.child) < 4 && n.kind != defineStmt && isArithmeticAction(src) && !isInterface(dest.typ):
					// Optimize single assignments from some arithmetic operations.
					src.typ = dest.typ
					src.findex = dest.findex
					src.level = level
					n.gen = nop
				case src.kind == basicLit:
					// Assign to nil.
					src.rval = reflect.New(dest.typ.TypeOf()).Elem()
				case n.nright == 0:
					n.gen = reset
				}

				n.typ = dest.typ
				if sym != nil {
					sym.typ = n.typ
					sym.recv = src.recv
				}

				n.level = level

				if n.anc.kind == constDecl {
					n.gen = nop
					n.findex = notInFrame
					if sym, _, ok := sc.lookup(dest.ident); ok {
						sym.kind = constSym
					}
					// toolscript patch 181: iota advances once per spec,
					// after its last name (it advanced per name).
					if i < n.nleft-1 {
						// not the spec's last name
					} else if childPos(n) == len(n.anc.child)-1 {
						sc.iota = 0
					} else {
						sc.iota++
					}
				}
			}

		case incDecStmt:
			err = check.unaryExpr(n)
			if err != nil {
				break
			}
			wireChild(n)
			n.findex = n.child[0].findex
			n.level = n.child[0].level
			n.typ = n.child[0].typ
			if sym, level, ok := sc.lookup(n.child[0].ident); ok {
				sym.typ = n.typ
				n.level = level
			}

		case assignXStmt:
			wireChild(n)
			l := len(n.child) - 1
			switch lc := n.child[l]; lc.kind {
			case callExpr:
				if n.child[l-1].isType(sc) {
					l--
				}
				if r := lc.child[0].typ.numOut(); r != l {
					err = n.cfgErrorf("assignment mismatch: %d variables but %s returns %d values", l, lc.child[0].name(), r)
				}
				if isBinCall(lc, sc) {
					n.gen = nop
				} else {
					// TODO (marc): skip if no conversion or wrapping is needed.
					n.gen = assignFromCall
				}
			case indexExpr:
				lc.gen = getIndexMap2
				n.gen = nop
			case typeAssertExpr:
				if n.child[0].ident == "_" {
					lc.gen = typeAssertStatus
				} else {
					lc.gen = typeAssertLong
				}
				n.gen = nop
			case unaryExpr:
				if lc.action == aRecv {
					lc.gen = recv2
					n.gen = nop
				}
			}

		case defineXStmt:
			wireChild(n)
			if sc.def == nil {
				// In global scope, type definition already handled by GTA.
				interp.commaOkGen(n) // toolscript patch 47
				break
			}
			err = compDefineX(sc, n)

		case binaryExpr:
			wireChild(n)
			nilSym := interp.universe.symOf(nilIdent) // toolscript patch 9
			c0, c1 := n.child[0], n.child[1]
			// toolscript patch 123: an operation of untyped constants is an
			// untyped constant, computed exactly whatever its use; the use
			// converts the result (the destination's type given before made
			// 5/2 a float division for a float64 variable).
			if t := untypedConstResult(n); t != nil {
				n.typ = t
			}

			err = check.binaryExpr(n)
			if err != nil {
				break
			}
			// toolscript patch 136: an untyped operand of a comparison
			// that is not a constant (1<<s in 1<<s == 8) takes its
			// default type, as its left operand alone would; it took
			// the comparison's bool, whose shift generated no code.
			if err = typeUntypedCompared(check, sc, n); err != nil {
				break
			}

			switch n.action {
			case aRem:
				n.typ = c0.typ
			case aShl, aShr:
				if c0.typ.untyped {
					break
				}
				n.typ = c0.typ
			case aEqual, aNotEqual:
				n.typ = sc.getType("bool")
				if c0.sym == nilSym || c1.sym == nilSym {
					if n.action == aEqual {
						if c1.sym == nilSym {
							n.gen = isNilChild(0)
						} else {
							n.gen = isNilChild(1)
						}
					} else {
						n.gen = isNotNil
					}
				}
			case aGreater, aGreaterEqual, aLower, aLowerEqual:
				n.typ = sc.getType("bool")
			}
			if err != nil {
				break
			}
			// toolscript patch 123: a comparison of constants is an untyped
			// boolean constant, computed now (it was computed at run time,
			// which a constant declaration never ran: const ok = 3 > 2
			// was false).
			if r, ok := constCompare(n); ok {
				n.typ = untypedBool(n)
				n.rval = reflect.ValueOf(r)
			}
			if n.typ == nil {
				if n.typ, err = nodeType(interp, sc, n); err != nil {
					break
				}
			}
			if c0.rval.IsValid() && c1.rval.IsValid() && (!isInterface(n.typ)) && constOp[n.action] != nil {
				// toolscript patch 28: constants bounded before and after.
				if err = checkConstShift(n); err != nil {
					break
				}

				n.typ.TypeOf()       // Force compute of reflection type.
				constOp[n.action](n) // Compute a constant result now rather than during exec.

				// toolscript patch 28
				if err = checkConstSize(n); err != nil {
					break
				}
				if err = checkConstOverflow(n); err != nil { // toolscript patch 109
					break
				}
			}
			switch {
			case n.rval.IsValid():
				// This operation involved constants, and the result is already computed
				// by constOp and available in n.rval. Nothing else to do at execution.
				n.gen = nop
				n.findex = notInFrame
			case n.anc.kind == assignStmt && n.anc.action == aAssign && n.anc.nleft == 1 && !opIntoInterface(n): // toolscript patch 184
				// To avoid a copy in frame, if the result is to be assigned, store it directly
				// at the frame location of destination.
				dest := n.anc.child[childPos(n)-n.anc.nright]
				n.typ = dest.typ
				n.findex = dest.findex
				n.level = dest.level
			case n.anc.kind == returnStmt && !opReturnedAsInterface(sc, n): // toolscript patch 195: returned as an interface, its own slot, which the return wraps
				// To avoid a copy in frame, if the result is to be returned, store it directly
				// at the frame location reserved for output arguments.
				n.findex = childPos(n)
			default:
				// Allocate a new location in frame, and store the result here.
				n.findex = sc.add(n.typ)
			}
			if n.typ != nil && !n.typ.untyped {
				fixUntyped(n, sc)
			}

		case indexListExpr:
			// toolscript patch 75: f[T1, T2] of a generic function is an
			// instantiation, called or used as a value.
			if t := n.child[0].typ; t != nil && isGeneric(t) {
				wireChild(n)
				err = interp.instantiateFunc(sc, n, t, importPath, pkgName)
			} else if t != nil && t.cat == genericT {
				// toolscript patch 94: an instance of a generic type
				// (iter.Seq2[string, int]) is a type, converted to.
				wireChild(n)
				var typ *itype
				if typ, err = nodeType(interp, sc, n); err == nil {
					n.gen = nop
					n.typ = typ
				}
			}

		case indexExpr:
			if isBlank(n.child[0]) {
				err = n.cfgErrorf("cannot use _ as value")
				break
			}
			wireChild(n)
			t := n.child[0].typ
			for t.cat == linkedT {
				t = t.val
			}
			switch t.cat {
			case ptrT:
				n.typ = t.val
				if t.val.cat == valueT {
					n.typ = valueTOf(t.val.rtype.Elem())
				} else {
					n.typ = t.val.val
				}
			case stringT:
				n.typ = sc.getType("byte")
			case valueT:
				if t.rtype.Kind() == reflect.String {
					n.typ = sc.getType("byte")
				} else {
					n.typ = valueTOf(t.rtype.Elem())
				}
			case funcT:
				// A function indexed by a type means an instantiated generic function.
				c1 := n.child[1]
				if !c1.isType(sc) {
					n.typ = t
					return
				}
				// toolscript patch 75: a partial instantiation that is
				// called (New[T]()) is completed by the call's inference;
				// otherwise the missing type arguments are inferred from
				// the constraints, or the instantiation fails.
				err = interp.instantiateFunc(sc, n, t, importPath, pkgName)
				return
			case genericT:
				// toolscript patch 76: the type argument may itself be an
				// instance (Stack[Pair[K, V]]), which has no type of its
				// own node yet: the instance is the type of the whole
				// expression, instantiated if it is not yet.
				var typ *itype
				if typ, err = nodeType(interp, sc, n); err != nil {
					return
				}
				n.gen = nop
				n.typ = typ
				return
			case structT:
				// A struct indexed by a Type means an instantiated generic struct.
				name := t.name + "[" + n.child[1].ident + "]"
				sym, _, ok := sc.lookup(name)
				if ok {
					n.typ = sym.typ
					n.findex = sc.add(n.typ)
					n.gen = nop
					return
				}

			default:
				n.typ = t.val
			}
			n.findex = sc.add(n.typ)
			typ := t.TypeOf()
			if typ.Kind() == reflect.Map {
				err = check.assignment(n.child[1], t.key, "map index")
				if err == nil {
					err = lostKey(n.child[1], t.key) // toolscript patch 112
				}
				if err == nil {
					err = wrappedKey(n.child[1], t.key) // toolscript patch 167
				}
				n.gen = getIndexMap
				break
			}

			l := -1
			switch k := typ.Kind(); k {
			case reflect.Array:
				l = typ.Len()
				fallthrough
			case reflect.Slice, reflect.String:
				n.gen = getIndexArray
			case reflect.Ptr:
				if typ2 := typ.Elem(); typ2.Kind() == reflect.Array {
					l = typ2.Len()
					n.gen = getIndexArray
				} else {
					err = n.cfgErrorf("type %v does not support indexing", typ)
				}
			default:
				err = n.cfgErrorf("type is not an array, slice, string or map: %v", t.id())
			}

			err = check.index(n.child[1], l)

		case blockStmt:
			wireChild(n)
			// toolscript patch 77: a loop body with no statement but its
			// loop variable nodes goes on to its end (the function
			// returned there: nothing after `for i := range 3 {}` ran).
			if nv := loopVarNodes(n); nv > 0 && len(n.child) == nv {
				n.child[nv-1].tnext = n
			}
			if len(n.child) > 0 {
				l := n.lastChild()
				n.findex = l.findex
				n.level = l.level
				n.val = l.val
				n.sym = l.sym
				n.typ = l.typ
				n.rval = l.rval
			}
			sc = sc.pop()

		case constDecl:
			wireChild(n)

		case varDecl:
			// Global varDecl do not need to be wired as this
			// will be handled after cfg.
			if n.anc.kind == fileStmt {
				break
			}
			wireChild(n)

		case sendStmt:
			if !isChan(n.child[0].typ) {
				err = n.cfgErrorf("invalid operation: cannot send to non-channel %s", n.child[0].typ.id())
				break
			}
			if et := n.child[0].typ.val; et != nil && isInterface(et) {
				interp.noteHeld(n.child[1].typ) // toolscript patch 112
			}
			if err = uninstantiated(sc, n.child[1]); err != nil { // toolscript patch 119
				break
			}
			fallthrough

		case declStmt, exprStmt:
			wireChild(n)
			l := n.lastChild()
			n.findex = l.findex
			n.level = l.level
			n.val = l.val
			n.sym = l.sym
			n.typ = l.typ
			n.rval = l.rval

		case breakStmt:
			if len(n.child) == 0 {
				n.tnext = sc.loop
				break
			}
			if !n.hasAnc(n.sym.node) {
				err = n.cfgErrorf("invalid break label %s", n.child[0].ident)
				break
			}
			n.tnext = n.sym.node

		case continueStmt:
			if len(n.child) == 0 {
				n.tnext = sc.loopRestart
				break
			}
			if !n.hasAnc(n.sym.node) {
				err = n.cfgErrorf("invalid continue label %s", n.child[0].ident)
				break
			}
			n.tnext = n.sym.node.child[1].lastChild().start

		case gotoStmt:
			if n.sym.node == nil {
				// It can be only due to a forward goto, to be resolved at labeledStmt.
				// Invalid goto labels are catched at AST parsing.
				break
			}
			n.tnext = n.sym.node.start

		case labeledStmt:
			wireChild(n)
			if len(n.child) > 1 {
				n.start = n.child[1].start
			}
			for _, c := range n.sym.from {
				c.tnext = n.start // Resolve forward goto.
			}

		case callExpr:
			for _, c := range n.child {
				if isBlank(c) {
					err = n.cfgErrorf("cannot use _ as value")
					return
				}
			}
			wireChild(n)
			switch c0 := n.child[0]; {
			case c0.kind == indexListExpr && (c0.typ == nil || !isGeneric(c0.typ)) && !c0.isType(sc): // toolscript patch 94: not a conversion
				// Instantiate a generic function then call it.
				// toolscript patch 75: a partial instantiation goes to the
				// inference below; the errors of this one are the
				// compilation's (the := lost them).
				fun := c0.child[0].sym.node
				lt := []*itype{}
				for _, c := range c0.child[1:] {
					lt = append(lt, c.typ)
				}
				var g *node
				var found bool
				g, found, err = genAST(sc, fun, lt)
				if err != nil {
					err = atUse(n, err) // toolscript patch 96
					return
				}
				if !found {
					_, err = interp.cfg(g, fun.scope, importPath, pkgName)
					if err != nil {
						return
					}
					// toolscript patch 73: from the declaration, whose
					// function type starts the body (genRun of the body
					// alone generated nothing: an instance called only in
					// a var declaration, which genRun does not enter, ran
					// no code and returned zero values).
					err = genRun(g) // Generate closures for function body.
					if err != nil {
						return
					}
				}
				n.child[0] = genericRef(g, n) // toolscript patch 168: without a cycle
				c0 = n.child[0]
				wireChild(n)
				if typ := c0.typ; len(typ.ret) > 0 {
					n.typ = typ.ret[0]
					if n.anc.kind == returnStmt && n.typ.id() == sc.def.typ.ret[0].id() {
						// Store the result directly to the return value area of frame.
						// It can be done only if no type conversion at return is involved.
						n.findex = childPos(n)
					} else {
						n.findex = sc.add(n.typ)
						for _, t := range typ.ret[1:] {
							sc.add(t)
						}
					}
				} else {
					n.findex = notInFrame
				}

			case isBuiltinCall(n, sc):
				bname := c0.ident
				err = check.builtin(bname, n, n.child[1:], n.action == aCallSlice)
				if err != nil {
					break
				}

				n.gen = c0.sym.builtin
				c0.typ = &itype{cat: builtinT, name: bname}
				if n.typ, err = nodeType(interp, sc, n); err != nil {
					return
				}
				if bname == bltnNew && newOfValue(n.child[1], sc) { // toolscript patch 49
					if isInterfaceSrc(n.typ.val) {
						err = n.cfgErrorf("new(expr) of an interface-typed expression is not supported")
						break
					}
					n.gen = _newValue
				}
				switch {
				case n.typ.cat == builtinT:
					n.findex = notInFrame
					n.val = nil
					switch bname {
					case "unsafe.alignOf", "unsafe.Offsetof", "unsafe.Sizeof":
						n.gen = nop
					}
				case n.anc.kind == returnStmt:
					// Store result directly to frame output location, to avoid a frame copy.
					n.findex = 0
				case bname == "cap" && isInConstOrTypeDecl(n):
					t := n.child[1].typ.TypeOf()
					for t.Kind() == reflect.Ptr {
						t = t.Elem()
					}
					switch t.Kind() {
					case reflect.Array, reflect.Chan:
						capConst(n)
					default:
						err = n.cfgErrorf("cap argument is not an array or channel")
					}
					n.findex = notInFrame
					n.gen = nop
				case bname == "len" && isInConstOrTypeDecl(n):
					t := n.child[1].typ.TypeOf()
					for t.Kind() == reflect.Ptr {
						t = t.Elem()
					}
					switch t.Kind() {
					case reflect.Array, reflect.Chan, reflect.String:
						lenConst(n)
					default:
						err = n.cfgErrorf("len argument is not an array, channel or string")
					}
					n.findex = notInFrame
					n.gen = nop
				default:
					n.findex = sc.add(n.typ)
				}
				if op, ok := constBltn[bname]; ok {
					op(n)
				}

			case c0.isType(sc):
				// Type conversion expression
				c1 := n.child[1]
				switch len(n.child) {
				case 1:
					err = n.cfgErrorf("missing argument in conversion to %s", c0.typ.id())
				case 2:
					err = check.conversion(c1, c0.typ)
				default:
					err = n.cfgErrorf("too many arguments in conversion to %s", c0.typ.id())
				}
				if err != nil {
					break
				}
				if isInterface(c0.typ) {
					interp.noteHeld(c1.typ) // toolscript patch 112
				}

				n.action = aConvert
				switch {
				case isEmptyInterface(c0.typ) && keepsMethods(c1.typ): // toolscript patch 38: any(T{}) keeps T's methods
					n.gen = convert
					n.typ = c0.typ
					n.findex = sc.add(n.typ)
				case !isEmptyInterface(c0.typ) && (isInterfaceBin(c0.typ) || isInterfaceSrc(c0.typ)) && !c1.isNil() && c1.typ.implements(c0.typ):
					// toolscript patch 125: a conversion to an interface
					// with methods makes its record (a script interface)
					// or wrapper (a native one) of a copy of the value.
					// The node was the variable: an assignment could not
					// store it in a native interface (error(e) panicked),
					// an any took it without its methods (any(V(s))
					// printed {1}), a method call on it panicked.
					n.gen = convert
					n.typ = c0.typ
					n.findex = sc.add(n.typ)
				case isInterface(c0.typ) && !c1.isNil():
					// Convert to interface: just check that all required methods are defined by concrete type.
					if !c1.typ.implements(c0.typ) {
						err = n.cfgErrorf("type %v does not implement interface %v", c1.typ.id(), c0.typ.id())
					}
					// Convert type to interface while keeping a reference to the original concrete type.
					// besides type, the node value remains preserved.
					n.gen = nop
					t := *c0.typ
					n.typ = &t
					n.typ.val = c1.typ
					n.findex = c1.findex
					n.level = c1.level
					n.val = c1.val
					n.rval = c1.rval
				case c1.rval.IsValid() && isConstType(c0.typ):
					n.gen = nop
					n.findex = notInFrame
					n.typ = c0.typ
					if c, ok := c1.rval.Interface().(constant.Value); ok {
						i, _ := constant.Int64Val(constant.ToInt(c))
						n.rval = reflect.ValueOf(i).Convert(c0.typ.rtype)
					} else {
						n.rval = c1.rval.Convert(c0.typ.rtype)
					}
				default:
					n.gen = convert
					n.typ = c0.typ
					n.findex = sc.add(n.typ)
				}

			case isBinCall(n, sc):
				if alt := mapForm(sc, n); alt.IsValid() { // toolscript patch 50
					c0.rval, c0.typ = alt, valueTOf(alt.Type())
				}
				if alt := errorsAsScriptTarget(n); alt.IsValid() { // toolscript patch 88
					c0.rval = alt
				}
				if alt := errorsAsScriptPointer(n); alt.IsValid() { // toolscript patch 158
					c0.rval = alt
				}
				if alt := errorsIsScript(n); alt.IsValid() { // toolscript patch 194
					c0.rval = alt
				}
				err = check.arguments(n, n.child[1:], c0, n.action == aCallSlice)
				if err != nil {
					break
				}
				// toolscript patch 119: a generic function given to a
				// native function (fmt.Println(id)) is Go's compile error.
				for _, a := range n.child[1:] {
					if err = uninstantiated(sc, a); err != nil {
						break
					}
				}
				if err != nil {
					break
				}
				if err = jsonCallCheck(n); err != nil { // toolscript patch 44
					break
				}
				if err = templateCallCheck(n); err != nil { // toolscript patch 117
					break
				}

				n.gen = callBin
				typ := c0.typ.rtype
				if typ.NumOut() > 0 {
					if funcType := c0.typ.val; funcType != nil {
						// Use the original unwrapped function type, to allow future field and
						// methods resolutions, otherwise impossible on the opaque bin type.
						n.typ = funcType.ret[0]
						n.findex = sc.add(n.typ)
						for i := 1; i < len(funcType.ret); i++ {
							sc.add(funcType.ret[i])
						}
					} else {
						n.typ = valueTOf(typ.Out(0))
						if n.anc.kind == returnStmt {
							n.findex = childPos(n)
						} else {
							n.findex = sc.add(n.typ)
							for i := 1; i < typ.NumOut(); i++ {
								sc.add(valueTOf(typ.Out(i)))
							}
						}
					}
				}

			default:
				// The call may be on a generic function. In that case, replace the
				// generic function AST by an instantiated one before going further.
				if isGeneric(c0.typ) {
					fun := c0.typ.node.anc
					var g *node
					var types []*itype
					var found bool

					// Infer type parameter from function call arguments.
					// toolscript patch 73: by type parameter name, after
					// the explicit ones of a partial instantiation.
					if types, err = inferTypeArgs(sc, n, fun, explicitTypeArgs(c0), n.child[1:], n.action == aCallSlice); err != nil {
						break
					}
					// Generate an instantiated AST from the generic function one.
					if g, found, err = genAST(sc, fun, types); err != nil {
						err = atUse(n, err) // toolscript patch 96
						break
					}
					if !found {
						// Compile the generated function AST, so it becomes part of the scope.
						if _, err = interp.cfg(g, fun.scope, importPath, pkgName); err != nil {
							break
						}
						// AST compilation part 2: Generate closures for function body.
						// toolscript patch 73: from the declaration (see above).
						if err = genRun(g); err != nil {
							break
						}
					}
					if err = pendingInstanceType(interp, sc, g); err != nil { // toolscript patch 129
						break
					}
					n.child[0] = genericRef(g, n)
					c0 = n.child[0]
				}
				// toolscript patch 100: a generic function passed for a
				// parameter of a function type is instantiated for it.
				for i, a := range n.child[1:] {
					if err = interp.instantiateFor(sc, a, paramType(c0.typ, i), importPath, pkgName); err != nil {
						break
					}
					if err = uninstantiated(sc, n.child[1+i]); err != nil { // toolscript patch 119: h(id) with h(x any)
						break
					}
				}
				if err != nil {
					break
				}

				err = check.arguments(n, n.child[1:], c0, n.action == aCallSlice)
				if err != nil {
					break
				}

				if c0.action == aGetFunc {
					// Allocate a frame entry to store the anonymous function definition.
					sc.add(c0.typ)
				}
				if typ := c0.typ; len(typ.ret) > 0 {
					n.typ = typ.ret[0]
					if n.anc.kind == returnStmt && n.typ.id() == sc.def.typ.ret[0].id() {
						// Store the result directly to the return value area of frame.
						// It can be done only if no type conversion at return is involved.
						n.findex = childPos(n)
					} else {
						n.findex = sc.add(n.typ)
						for _, t := range typ.ret[1:] {
							sc.add(t)
						}
					}
				} else {
					n.findex = notInFrame
				}
			}

		case caseBody:
			wireChild(n)
			switch {
			case typeSwichAssign(n) && len(n.child) > 1:
				n.start = n.child[1].start
			case len(n.child) == 0:
				// Empty case body: jump to switch node (exit node).
				n.start = n.anc.anc.anc
			default:
				n.start = n.child[0].start
			}

		case caseClause:
			sc = sc.pop()

		case commClauseDefault:
			wireChild(n)
			sc = sc.pop()
			if len(n.child) == 0 {
				return
			}
			n.start = n.child[0].start
			setCommClauseExit(n) // toolscript patch 150

		case commClause:
			wireChild(n)
			sc = sc.pop()
			if len(n.child) == 0 {
				return
			}
			if len(n.child) > 1 {
				n.start = n.child[1].start // Skip chan operation, performed by select
			}
			setCommClauseExit(n) // toolscript patch 150

		case compositeLitExpr:
			wireChild(n)

			child := n.child
			if n.nleft > 0 {
				child = child[1:]
			}

			switch n.typ.cat {
			case arrayT, sliceT:
				err = check.arrayLitExpr(child, n.typ)
			case mapT:
				err = check.mapLitExpr(child, n.typ.key, n.typ.val)
			case structT:
				err = check.structLitExpr(child, n.typ)
			case valueT:
				rtype := n.typ.rtype
				switch rtype.Kind() {
				case reflect.Struct:
					err = check.structBinLitExpr(child, rtype)
				case reflect.Map:
					ktyp := valueTOf(rtype.Key())
					vtyp := valueTOf(rtype.Elem())
					err = check.mapLitExpr(child, ktyp, vtyp)
					if err == nil {
						err = templateFuncMapCheck(n, child) // toolscript patch 117
					}
				}
			}
			if err != nil {
				break
			}

			n.findex = sc.add(n.typ)
			// TODO: Check that composite literal expr matches corresponding type
			n.gen = compositeGenerator(n, n.typ, nil)

		case fallthroughtStmt:
			if n.anc.kind != caseBody {
				err = n.cfgErrorf("fallthrough statement out of place")
			}

		case fileStmt:
			wireChild(n, varDecl)
			sc = sc.pop()
			n.findex = notInFrame

		case forStmt0: // for {}
			body := n.child[0]
			n.start = body.start
			body.tnext = n.start
			sc = sc.pop()

		case forStmt1: // for init; ; {}
			init, body := n.child[0], n.child[1]
			n.start = init.start
			if forVarNodes(n) > 0 {
				body.start = body.child[0] // loopvar (toolscript patch 151)
			}
			init.tnext = body.start
			// toolscript patch 151: the body goes on to itself, not to
			// the init statement (for i := 0; ; { i++ } set i to 0 again
			// at each iteration).
			body.tnext = body.start
			sc = sc.pop()

		case forStmt2: // for cond {}
			cond, body := n.child[0], n.child[1]
			if !isBool(cond.typ) {
				err = cond.cfgErrorf("non-bool used as for condition")
			}
			if cond.rval.IsValid() {
				// Condition is known at compile time, bypass test.
				if cond.rval.Bool() {
					n.start = body.start
					body.tnext = body.start
				}
			} else {
				n.start = cond.start
				cond.tnext = body.start
				body.tnext = cond.start
			}
			setFNext(cond, n)
			sc = sc.pop()

		case forStmt3: // for init; cond; {}
			init, cond, body := n.child[0], n.child[1], n.child[2]
			if !isBool(cond.typ) {
				err = cond.cfgErrorf("non-bool used as for condition")
			}
			n.start = init.start
			if forVarNodes(n) > 0 {
				body.start = body.child[0] // loopvar (toolscript patch 151)
			}
			if cond.rval.IsValid() {
				// Condition is known at compile time, bypass test.
				if cond.rval.Bool() {
					init.tnext = body.start
					body.tnext = body.start
				} else {
					init.tnext = n
				}
			} else {
				init.tnext = cond.start
				body.tnext = cond.start
			}
			cond.tnext = body.start
			setFNext(cond, n)
			sc = sc.pop()

		case forStmt4: // for ; ; post {}
			post, body := n.child[0], n.child[1]
			n.start = body.start
			post.tnext = body.start
			body.tnext = post.start
			sc = sc.pop()

		case forStmt5: // for ; cond; post {}
			cond, post, body := n.child[0], n.child[1], n.child[2]
			if !isBool(cond.typ) {
				err = cond.cfgErrorf("non-bool used as for condition")
			}
			if cond.rval.IsValid() {
				// Condition is known at compile time, bypass test.
				if cond.rval.Bool() {
					n.start = body.start
					post.tnext = body.start
				}
			} else {
				n.start = cond.start
				post.tnext = cond.start
			}
			cond.tnext = body.start
			setFNext(cond, n)
			body.tnext = post.start
			sc = sc.pop()

		case forStmt6: // for init; ; post {}
			init, post, body := n.child[0], n.child[1], n.child[2]
			n.start = init.start
			if forVarNodes(n) > 0 {
				body.start = body.child[0] // loopvar (toolscript patch 151)
			}
			init.tnext = body.start
			body.tnext = post.start
			post.tnext = body.start
			sc = sc.pop()

		case forStmt7: // for init; cond; post {}
			init, cond, post, body := n.child[0], n.child[1], n.child[2], n.child[3]
			if !isBool(cond.typ) {
				err = cond.cfgErrorf("non-bool used as for condition")
			}
			n.start = init.start
			body.start = body.child[0] // loopvar
			if cond.rval.IsValid() {
				// Condition is known at compile time, bypass test.
				if cond.rval.Bool() {
					init.tnext = body.start
					post.tnext = body.start
				} else {
					init.tnext = n
				}
			} else {
				init.tnext = cond.start
				post.tnext = cond.start
			}
			cond.tnext = body.start
			setFNext(cond, n)
			body.tnext = post.start
			sc = sc.pop()

		case forRangeStmt:
			n.start = n.child[0].start
			setFNext(n.child[0], n)
			sc = sc.pop()

		case funcDecl:
			n.start = n.child[3].start
			n.types, n.scope = sc.types, sc
			sc = sc.pop()
			funcName := n.child[1].ident
			if sym := sc.sym[funcName]; !isMethod(n) && sym != nil && !isGeneric(sym.typ) {
				sym.index = -1 // to force value to n.val
				sym.typ = n.typ
				sym.kind = funcSym
				sym.node = n
			}

		case funcLit:
			n.types, n.scope = sc.types, sc
			sc = sc.pop()
			err = genRun(n)

		case deferStmt, goStmt:
			wireChild(n)

		case identExpr:
			if isKey(n) || isNewDefine(n, sc) {
				break
			}
			if isLabelIdent(n) { // toolscript patch 77: a label is not a value
				break
			}
			if n.anc.kind == funcDecl && n.anc.child[1] == n {
				// Dont process a function name identExpr.
				break
			}

			sym, level, found := sc.lookup(n.ident)
			if !found {
				if n.typ != nil {
					// Node is a generic instance with an already populated type.
					break
				}
				// retry with the filename, in case ident is a package name.
				sym, level, found = sc.lookup(path.Join(n.ident, baseName))
				if !found {
					err = n.cfgErrorf("undefined: %s", n.ident).withSymbol(KindUndefined, "", "", n.ident) // toolscript patch 21
					break
				}
			}
			// Found symbol, populate node info
			n.sym, n.typ, n.findex, n.level = sym, sym.typ, sym.index, level
			if n.findex < 0 {
				n.val = sym.node
			} else {
				switch {
				case sym.kind == constSym && sym.rval.IsValid():
					n.rval = sym.rval
					n.kind = basicLit
				case n.ident == "iota":
					n.rval = reflect.ValueOf(constant.MakeInt64(int64(sc.iota)))
					n.kind = basicLit
				case n.ident == nilIdent:
					n.kind = basicLit
				case sym.kind == binSym:
					n.typ = sym.typ
					n.rval = sym.rval
				case sym.kind == bltnSym:
					if n.anc.kind != callExpr {
						err = n.cfgErrorf("use of builtin %s not in function call", n.ident)
					}
				}
			}
			if n.sym != nil {
				n.recv = n.sym.recv
			}

		case ifStmt0: // if cond {}
			cond, tbody := n.child[0], n.child[1]
			if !isBool(cond.typ) {
				err = cond.cfgErrorf("non-bool used as if condition")
			}
			if cond.rval.IsValid() {
				// Condition is known at compile time, bypass test.
				if cond.rval.Bool() {
					n.start = tbody.start
				}
			} else {
				n.start = cond.start
				cond.tnext = tbody.start
			}
			setFNext(cond, n)
			tbody.tnext = n
			sc = sc.pop()

		case ifStmt1: // if cond {} else {}
			cond, tbody, fbody := n.child[0], n.child[1], n.child[2]
			if !isBool(cond.typ) {
				err = cond.cfgErrorf("non-bool used as if condition")
			}
			if cond.rval.IsValid() {
				// Condition is known at compile time, bypass test and the useless branch.
				if cond.rval.Bool() {
					n.start = tbody.start
				} else {
					n.start = fbody.start
				}
			} else {
				n.start = cond.start
				cond.tnext = tbody.start
				setFNext(cond, fbody.start)
			}
			tbody.tnext = n
			fbody.tnext = n
			sc = sc.pop()

		case ifStmt2: // if init; cond {}
			init, cond, tbody := n.child[0], n.child[1], n.child[2]
			if !isBool(cond.typ) {
				err = cond.cfgErrorf("non-bool used as if condition")
			}
			n.start = init.start
			if cond.rval.IsValid() {
				// Condition is known at compile time, bypass test.
				if cond.rval.Bool() {
					init.tnext = tbody.start
				} else {
					init.tnext = n
				}
			} else {
				init.tnext = cond.start
				cond.tnext = tbody.start
			}
			tbody.tnext = n
			setFNext(cond, n)
			sc = sc.pop()

		case ifStmt3: // if init; cond {} else {}
			init, cond, tbody, fbody := n.child[0], n.child[1], n.child[2], n.child[3]
			if !isBool(cond.typ) {
				err = cond.cfgErrorf("non-bool used as if condition")
			}
			n.start = init.start
			if cond.rval.IsValid() {
				// Condition is known at compile time, bypass test.
				if cond.rval.Bool() {
					init.tnext = tbody.start
				} else {
					init.tnext = fbody.start
				}
			} else {
				init.tnext = cond.start
				cond.tnext = tbody.start
				setFNext(cond, fbody.start)
			}
			tbody.tnext = n
			fbody.tnext = n
			sc = sc.pop()

		case keyValueExpr:
			if isBlank(n.child[1]) {
				err = n.cfgErrorf("cannot use _ as value")
				break
			}
			wireChild(n)

		case landExpr:
			if isBlank(n.child[0]) || isBlank(n.child[1]) {
				err = n.cfgErrorf("cannot use _ as value")
				break
			}
			n.start = n.child[0].start
			n.child[0].tnext = n.child[1].start
			setFNext(n.child[0], n)
			n.child[1].tnext = n
			n.typ = n.child[0].typ
			n.findex = sc.add(n.typ)
			if n.start.action == aNop {
				n.start.gen = branch
			}
			// toolscript patch 123: of two boolean constants, a boolean
			// constant (a constant declaration, which never runs, held false).
			if c0, c1 := n.child[0].rval, n.child[1].rval; c0.IsValid() && c1.IsValid() && c0.Kind() == reflect.Bool && c1.Kind() == reflect.Bool {
				n.rval = reflect.ValueOf(c0.Bool() && c1.Bool())
				n.gen = nop
				n.findex = notInFrame
				if n.child[0].typ.untyped && n.child[1].typ.untyped {
					n.typ = untypedBool(n)
				}
			}

		case lorExpr:
			if isBlank(n.child[0]) || isBlank(n.child[1]) {
				err = n.cfgErrorf("cannot use _ as value")
				break
			}
			n.start = n.child[0].start
			n.child[0].tnext = n
			setFNext(n.child[0], n.child[1].start)
			n.child[1].tnext = n
			n.typ = n.child[0].typ
			n.findex = sc.add(n.typ)
			if n.start.action == aNop {
				n.start.gen = branch
			}
			// toolscript patch 123: of two boolean constants, a boolean
			// constant (a constant declaration, which never runs, held false).
			if c0, c1 := n.child[0].rval, n.child[1].rval; c0.IsValid() && c1.IsValid() && c0.Kind() == reflect.Bool && c1.Kind() == reflect.Bool {
				n.rval = reflect.ValueOf(c0.Bool() || c1.Bool())
				n.gen = nop
				n.findex = notInFrame
				if n.child[0].typ.untyped && n.child[1].typ.untyped {
					n.typ = untypedBool(n)
				}
			}

		case parenExpr:
			wireChild(n)
			c := n.lastChild()
			n.findex = c.findex
			n.level = c.level
			n.typ = c.typ
			n.rval = c.rval

		case rangeStmt:
			if sc.rangeChanType(n) != nil {
				// toolscript patch 180: the channel is evaluated once, by
				// the key's node (rangeChan), before the first receive.
				n.start = n.child[1].start          // Get chan
				n.child[1].tnext = n.child[0].start // then go to range init
				n.child[0].tnext = n                // then go to range function
				n.tnext = n.child[2].start          // then go to range body
				n.child[2].tnext = n                // then body go to range function (loop)
				n.child[0].gen = empty
				n.child[2].start = n.child[2].child[0] // toolscript patch 193: loopvar
				n.tnext = n.child[2].start             // toolscript patch 193
			} else if info, ok := n.val.(*rangeFuncInfo); ok { // toolscript patch 65
				err = wireRangeFunc(n, info)
			} else {
				var k, o, body *node
				if len(n.child) == 4 {
					k, o, body = n.child[0], n.child[2], n.child[3]
				} else {
					k, o, body = n.child[0], n.child[1], n.child[2]
				}
				n.start = o.start          // Get array or map object
				o.tnext = k.start          // then go to iterator init
				k.tnext = n                // then go to range function
				body.start = body.child[0] // loopvar
				n.tnext = body.start       // then go to range body
				body.tnext = n             // then body go to range function (loop)
				k.gen = empty              // init filled later by generator
			}

		case returnStmt:
			if len(n.child) > sc.def.typ.numOut() {
				err = n.cfgErrorf("too many arguments to return")
				break
			}
			for _, c := range n.child {
				if isBlank(c) {
					err = n.cfgErrorf("cannot use _ as value")
					return
				}
			}
			returnSig := sc.def.child[2]
			if mustReturnValue(returnSig) {
				nret := len(n.child)
				if nret == 1 && isCall(n.child[0]) {
					nret = n.child[0].child[0].typ.numOut()
				}
				if nret < sc.def.typ.numOut() {
					err = n.cfgErrorf("not enough arguments to return")
					break
				}
			}
			// toolscript patch 100: a generic function returned for a
			// result of a function type is instantiated for it.
			for i, c := range n.child {
				if i < len(sc.def.typ.ret) {
					if err = interp.instantiateFor(sc, c, sc.def.typ.ret[i], importPath, pkgName); err != nil {
						return
					}
					if err = uninstantiated(sc, n.child[i]); err != nil { // toolscript patch 119: return id for a result of type any
						return
					}
				}
			}
			wireChild(n)
			n.tnext = nil
			n.val = sc.def
			for i, c := range n.child {
				var typ *itype
				typ, err = nodeType(interp, sc.upperLevel(), returnSig.child[2].fieldType(i))
				if err != nil {
					return
				}
				// TODO(mpl): move any of that code to typecheck?
				c.typ.node = c
				if !c.typ.assignableTo(typ) {
					err = c.cfgErrorf("cannot use %v (type %v) as type %v in return argument", c.ident, c.typ.cat, typ.cat)
					return
				}
				if isInterface(typ) {
					interp.noteHeld(c.typ) // toolscript patch 112
				}
				if c.typ.cat == nilT {
					// nil: Set node value to zero of return type
					c.rval = reflect.New(typ.TypeOf()).Elem()
				}
			}

		case selectorExpr:
			wireChild(n)
			n.typ = n.child[0].typ
			n.recv = n.child[0].recv
			if n.typ == nil {
				err = n.cfgErrorf("undefined type")
				break
			}
			switch {
			case n.typ.cat == binPkgT:
				// Resolve binary package symbol: a type or a value
				name := n.child[1].ident
				pkg := n.child[0].sym.typ.path
				if s, ok := interp.binPkg[pkg][name]; ok && name != TypeNamesSymbol { // toolscript patch 91: not the script's
					if isBinType(s) {
						n.typ = valueTOf(s.Type().Elem())
						n.typ.binName = interp.binTypeName(pkg, name, s) // toolscript patch 114
					} else {
						n.typ = valueTOf(fixPossibleConstType(s.Type()), withUntyped(isValueUntyped(s)))
						n.rval = s
						if pkg == "unsafe" && (name == "AlignOf" || name == "Offsetof" || name == "Sizeof") {
							n.sym = &symbol{kind: bltnSym, node: n, rval: s}
							n.ident = pkg + "." + name
						}
					}
					n.action = aGetSym
					n.gen = nop
					if _, printFunc := fmtPrintArgs[pkg][name]; printFunc && !(n.anc.kind == callExpr && n.anc.child[0] == n) && !toBlank(n) {
						// toolscript patch 113: called through a function
						// value, the print function would print the
						// interpreter's representation of script values.
						err = n.cfgErrorf("%s.%s as a function value is not supported by the interpreter, which prints the script's types as Go does only in a direct call: call %s.%s directly, or in a function literal that passes its arguments on", n.child[0].ident, name, n.child[0].ident, name)
					}
					if err == nil && pkg == "errors" && !(n.anc.kind == callExpr && n.anc.child[0] == n) && !toBlank(n) { // toolscript patch 207
						err = errorsFuncValue(n, name)
					}
				} else if sym, ok := interp.srcPkg[interp.opt.binExt[pkg]][name]; ok && canExport(name) {
					// toolscript patch 70: the symbol of the package's
					// source extension, as a source package's.
					n.findex = sym.index
					if sym.global {
						n.level = globalFrame
					}
					n.val = sym.node
					n.gen = nop
					n.action = aGetSym
					n.typ = sym.typ
					n.sym = sym
					n.recv = sym.recv
					n.rval = sym.rval
				} else {
					err = n.cfgErrorf("package %s \"%s\" has no symbol %s", n.child[0].ident, pkg, name).
						withSymbol(KindNoSymbol, n.child[0].ident, pkg, name) // toolscript patch 21
				}
			case n.typ.cat == srcPkgT:
				pkg, name := n.child[0].sym.typ.path, n.child[1].ident
				// Resolve source package symbol
				if sym, ok := interp.srcPkg[pkg][name]; ok {
					n.findex = sym.index
					if sym.global {
						n.level = globalFrame
					}
					n.val = sym.node
					n.gen = nop
					n.action = aGetSym
					n.typ = sym.typ
					n.sym = sym
					n.recv = sym.recv
					n.rval = sym.rval
				} else {
					err = n.cfgErrorf("undefined selector: %s.%s", pkg, name)
				}
			case isInterfaceSrc(n.typ) && n.child[0].isType(sc):
				// toolscript patch 93: not made (upstream compiled it as
				// a method value without its receiver).
				err = interfaceMethodExpr(n) // toolscript patch 101: made
			case isStruct(n.typ) || isInterfaceSrc(n.typ):
				// Find a matching field.
				if ti := n.typ.lookupField(n.child[1].ident); len(ti) > 0 {
					if isStruct(n.typ) {
						// If a method of the same name exists, use it if it is shallower than the struct field.
						// if method's depth is the same as field's, this is an error.
						d := n.typ.methodDepth(n.child[1].ident)
						if d >= 0 && d < len(ti) {
							goto tryMethods
						}
						if d == len(ti) {
							err = n.cfgErrorf("ambiguous selector: %s", n.child[1].ident)
							break
						}
					}
					n.val = ti
					switch {
					case isInterfaceSrc(n.typ):
						n.typ = n.typ.fieldSeq(ti)
						n.gen = getMethodByName
						n.action = aMethod
					case n.typ.cat == ptrT:
						n.typ = n.typ.fieldSeq(ti)
						n.gen = getPtrIndexSeq
						if n.typ.cat == funcT {
							// Function in a struct field is always wrapped in reflect.Value.
							n.typ = wrapperValueTOf(n.typ.TypeOf(), n.typ)
						}
					default:
						n.gen = getIndexSeq
						n.typ = n.typ.fieldSeq(ti)
						if n.typ.cat == funcT {
							// Function in a struct field is always wrapped in reflect.Value.
							n.typ = wrapperValueTOf(n.typ.TypeOf(), n.typ)
						}
					}
					break
				}
				if s, lind, ok := n.typ.lookupBinField(n.child[1].ident); ok {
					if err = hiddenField(n, s); err != nil { // toolscript patch 41
						break
					}
					// Handle an embedded binary field into a struct field.
					n.gen = getIndexSeqField
					lind = append(lind, s.Index...)
					if isStruct(n.typ) {
						// If a method of the same name exists, use it if it is shallower than the struct field.
						// if method's depth is the same as field's, this is an error.
						d := n.typ.methodDepth(n.child[1].ident)
						if d >= 0 && d < len(lind) {
							goto tryMethods
						}
						if d == len(lind) {
							err = n.cfgErrorf("ambiguous selector: %s", n.child[1].ident)
							break
						}
					}
					n.val = lind
					n.typ = valueTOf(s.Type)
					break
				}
				// No field (embedded or not) matched. Try to match a method.
			tryMethods:
				fallthrough
			default:
				err = matchSelectorMethod(sc, n)
			}
			if err == nil {
				err = templateMethodValueCheck(n) // toolscript patch 117
			}
			if err == nil {
				err = loggerMethodValueCheck(n) // toolscript patch 157
			}
			if err == nil && n.findex != -1 && n.typ.cat != genericT {
				n.findex = sc.add(n.typ)
			}

		case selectStmt:
			sc = sc.pop() // toolscript patch 137
			wireChild(n)
			// Move action to block statement, so select node can be an exit point.
			n.child[0].gen = _select
			// Chain channel init actions in commClauses prior to invoking select.
			var cur *node
			for _, c := range n.child[0].child {
				if c.kind == commClauseDefault {
					// No channel init in this case.
					continue
				}
				var an, pn *node // channel init action nodes
				if len(c.child) > 0 {
					switch c0 := c.child[0]; {
					case c0.kind == exprStmt && len(c0.child) == 1 && c0.child[0].action == aRecv:
						an = c0.child[0].child[0]
						pn = an
					case c0.action == aAssign:
						an = c0.lastChild().child[0]
						pn = an
					case c0.kind == sendStmt:
						an = c0.child[0]
						pn = c0.child[1]
					}
				}
				if an == nil {
					continue
				}
				if cur == nil {
					// First channel init action, the entry point for the select block.
					n.start = an.start
				} else {
					// Chain channel init action to the previous one.
					cur.tnext = an.start
				}
				if pn != nil {
					// Chain channect init action to send data init action.
					// (already done by wireChild, but let's be explicit).
					// toolscript patch 80: to the start of the value
					// sent, so its operands are evaluated (a composite
					// literal of field selectors sent a zero value).
					if pn != an {
						an.tnext = pn.start
					} else {
						an.tnext = pn
					}
					cur = pn
				}
			}
			if cur == nil {
				// There is no channel init action, call select directly.
				n.start = n.child[0]
			} else {
				// Select is called after the last channel init action.
				cur.tnext = n.child[0]
			}

		case starExpr:
			if isBlank(n.child[0]) {
				err = n.cfgErrorf("cannot use _ as value")
				break
			}
			switch {
			case n.anc.kind == defineStmt && len(n.anc.child) == 3 && n.anc.child[1] == n:
				// pointer type expression in a var definition
				n.gen = nop
			case n.anc.kind == valueSpec && n.anc.lastChild() == n:
				// pointer type expression in a value spec
				n.gen = nop
			case n.anc.kind == fieldExpr:
				// pointer type expression in a field expression (arg or struct field)
				n.gen = nop
			case n.child[0].isType(sc):
				// pointer type expression
				n.gen = nop
				n.typ = ptrOf(n.child[0].typ)
			default:
				// dereference expression
				wireChild(n)

				err = check.starExpr(n.child[0])
				if err != nil {
					break
				}

				if c0 := n.child[0]; c0.typ.cat == valueT {
					n.typ = valueTOf(c0.typ.rtype.Elem())
				} else {
					n.typ = c0.typ.val
				}
				if err = readOnlyWrite(n); err != nil { // toolscript patch 40
					break
				}
				n.findex = sc.add(n.typ)
			}

		case typeSwitch:
			// Check that cases expressions are all different
			usedCase := map[string]bool{}
			for _, c := range n.lastChild().child {
				for _, t := range c.child[:len(c.child)-1] {
					tid := t.typ.id()
					if usedCase[tid] {
						err = c.cfgErrorf("duplicate case %s in type switch", t.ident)
						return
					}
					usedCase[tid] = true
				}
			}
			fallthrough

		case switchStmt:
			sc = sc.pop()
			sbn := n.lastChild() // switch block node
			clauses := sbn.child
			l := len(clauses)
			if l == 0 {
				// Switch is empty
				break
			}
			// Chain case clauses.
			dflt := getDefault(n) // toolscript patch 143
			for i := l - 1; i >= 0; i-- {
				c := clauses[i]
				if len(c.child) == 0 {
					c.tnext = n // Clause body is empty, exit.
				} else {
					body := c.lastChild()
					c.tnext = body.start
					c.child[0].tnext = c
					c.start = c.child[0].start
					if n.kind == switchStmt {
						wireCaseList(c) // toolscript patch 139
					}

					if i < l-1 && len(body.child) > 0 && body.lastChild().kind == fallthroughtStmt {
						if n.kind == typeSwitch {
							err = body.lastChild().cfgErrorf("cannot fallthrough in type switch")
						}
						if len(clauses[i+1].child) == 0 {
							body.tnext = n // Fallthrough to next with empty body, just exit.
						} else {
							body.tnext = clauses[i+1].lastChild().start
						}
					} else {
						body.tnext = n // Exit switch at end of clause body.
					}
				}

				// toolscript patch 143: a failed test goes to the next
				// clause's, the default clause's after the last.
				j := nextCaseTest(i, l, dflt)
				switch {
				case j < 0 || j == i:
					setFNext(clauses[i], n)
				case len(clauses[j].child) > 1:
					setFNext(c, clauses[j].start)
				default:
					setFNext(c, clauses[j])
				}
			}
			sbn.start = clauses[nextCaseTest(-1, l, dflt)].start // toolscript patch 143
			n.start = n.child[0].start
			if n.kind == typeSwitch {
				// Handle the typeSwitch init (the type assert expression).
				init := n.child[1].lastChild().child[0]
				init.tnext = sbn.start
				n.child[0].tnext = init.start
			} else if len(n.child) == 3 {
				// toolscript patch 139: the init statement, then the tag
				// (it was never evaluated: switch x := 1; x + 1 went to
				// default).
				n.child[0].tnext = n.child[1].start
				n.child[1].tnext = sbn.start
			} else {
				n.child[0].tnext = sbn.start
			}

		case switchIfStmt: // like an if-else chain
			sc = sc.pop()
			sbn := n.lastChild() // switch block node
			clauses := sbn.child
			l := len(clauses)
			if l == 0 {
				// Switch is empty
				break
			}
			// Wire case clauses in reverse order so the next start node is already resolved when used.
			// toolscript patch 143: and the default clause, wherever it
			// is, is the one after the last (nextCaseTest).
			dflt := getDefault(n)
			if dflt >= 0 {
				wireSwitchIfClause(n, clauses, dflt, dflt)
			}
			for i := l - 1; i >= 0; i-- {
				if i != dflt { // wired first, the next of the others
					wireSwitchIfClause(n, clauses, i, dflt)
				}
			}
			sbn.start = clauses[nextCaseTest(-1, l, dflt)].start
			n.start = n.child[0].start
			n.child[0].tnext = sbn.start

		case typeAssertExpr:
			if len(n.child) == 1 {
				// The "o.(type)" is handled by typeSwitch.
				n.gen = nop
				break
			}

			wireChild(n)
			c0, c1 := n.child[0], n.child[1]
			if isBlank(c0) || isBlank(c1) {
				err = n.cfgErrorf("cannot use _ as value")
				break
			}
			if c1.typ == nil {
				if c1.typ, err = nodeType(interp, sc, c1); err != nil {
					return
				}
			}

			err = check.typeAssertionExpr(c0, c1.typ)
			if err != nil {
				break
			}

			if n.anc.action != aAssignX {
				if c0.typ.cat == valueT && isFunc(c1.typ) {
					// Avoid special wrapping of interfaces and func types.
					n.typ = valueTOf(c1.typ.TypeOf())
				} else {
					n.typ = c1.typ
				}
				n.findex = sc.add(n.typ)
			}

		case sliceExpr:
			wireChild(n)

			err = check.sliceExpr(n)
			if err != nil {
				break
			}

			if n.typ, err = nodeType(interp, sc, n); err != nil {
				return
			}
			n.findex = sc.add(n.typ)

		case unaryExpr:
			wireChild(n)

			err = check.unaryExpr(n)
			if err != nil {
				break
			}

			n.typ = n.child[0].typ
			if n.action == aRecv {
				// Channel receive operation: set type to the channel data type
				if n.typ.cat == valueT {
					n.typ = valueTOf(n.typ.rtype.Elem())
				} else {
					n.typ = n.typ.val
				}
			}
			if n.typ == nil {
				if n.typ, err = nodeType(interp, sc, n); err != nil {
					return
				}
			}

			// TODO: Optimisation: avoid allocation if boolean branch op (i.e. '!' in an 'if' expr)
			if n.child[0].rval.IsValid() && !isInterface(n.typ) && constOp[n.action] != nil {
				n.typ.TypeOf() // init reflect type
				constOp[n.action](n)
				if err = checkConstOverflow(n); err != nil { // toolscript patch 109
					return
				}
			}
			switch {
			case n.rval.IsValid():
				n.gen = nop
				n.findex = notInFrame
			case n.action == aRecv && recvIntoInterface(n, sc):
				// toolscript patch 83: received into a temporary, which the
				// assignment or return wraps in the interface.
				n.findex = sc.add(n.typ)
			case n.anc.kind == assignStmt && n.anc.action == aAssign && n.anc.nright == 1 && !opIntoInterface(n): // toolscript patch 184
				dest := n.anc.child[childPos(n)-n.anc.nright]
				n.typ = dest.typ
				n.findex = dest.findex
				n.level = dest.level
			case n.anc.kind == returnStmt:
				pos := childPos(n)
				if opReturnedAsInterface(sc, n) { // toolscript patch 184
					n.findex = sc.add(n.typ)
					break
				}
				n.typ = sc.def.typ.ret[pos]
				n.findex = pos
			default:
				n.findex = sc.add(n.typ)
			}

		case valueSpec:
			n.gen = reset
			l := len(n.child) - 1
			if n.typ = n.child[l].typ; n.typ == nil {
				if n.typ, err = nodeType(interp, sc, n.child[l]); err != nil {
					return
				}
			}

			for _, c := range n.child[:l] {
				var index int
				if sc.global {
					// Global object allocation is already performed in GTA.
					index = sc.sym[c.ident].index
					c.level = globalFrame
				} else {
					index = sc.add(n.typ)
					sc.sym[c.ident] = &symbol{index: index, kind: varSym, typ: n.typ}
				}
				c.typ = n.typ
				c.findex = index
			}
		}
	})

	if sc != interp.universe {
		sc.pop()
	}
	return initNodes, err
}

// fixUntyped propagates implicit type conversions for untyped binary expressions.
func fixUntyped(nod *node, sc *scope) {
	nod.Walk(func(n *node) bool {
		if n.kind == funcDecl {
			return false // toolscript patch 168: the instance a call holds (its body may be compiling: 1 + Odd(n) in Even)
		}
		if n == nod || (n.kind != binaryExpr && n.kind != parenExpr) || !n.typ.untyped {
			return true
		}
		n.typ = nod.typ
		if n.findex >= 0 {
			sc.types[n.findex] = nod.typ.frameType()
		}
		return true
	}, nil)
}

func compDefineX(sc *scope, n *node) error {
	l := len(n.child) - 1
	types := []*itype{}

	switch src := n.child[l]; src.kind {
	case callExpr:
		funtype, err := nodeType(n.interp, sc, src.child[0])
		if err != nil {
			return err
		}
		if alt := mapForm(sc, src); alt.IsValid() { // toolscript patch 50
			funtype = valueTOf(alt.Type())
		}
		if isGeneric(funtype) { // toolscript patch 99: the instance's results
			it, _, err := globalInstanceType(n.interp, sc, src)
			if err != nil {
				return err
			}
			if it == nil {
				return src.cfgErrorf("undefined type")
			}
			funtype = it
		}
		for funtype.cat == valueT && funtype.val != nil {
			// Retrieve original interpreter type from a wrapped function.
			// Struct fields of function types are always wrapped in valueT to ensure
			// their possible use in runtime. In that case, the val field retains the
			// original interpreter type, which is used now.
			funtype = funtype.val
		}
		if funtype.cat == valueT {
			// Handle functions imported from runtime.
			for i := 0; i < funtype.rtype.NumOut(); i++ {
				types = append(types, valueTOf(funtype.rtype.Out(i)))
			}
		} else {
			types = funtype.ret
		}
		if n.anc.kind == varDecl && n.child[l-1].isType(sc) {
			l--
		}
		if len(types) != l {
			return n.cfgErrorf("assignment mismatch: %d variables but %s returns %d values", l, src.child[0].name(), len(types))
		}
		if isBinCall(src, sc) {
			n.gen = nop
		} else {
			// TODO (marc): skip if no conversion or wrapping is needed.
			n.gen = assignFromCall
		}

	case indexExpr:
		types = append(types, src.typ, sc.getType("bool"))
		n.child[l].gen = getIndexMap2
		n.gen = nop

	case typeAssertExpr:
		if n.child[0].ident == "_" {
			n.child[l].gen = typeAssertStatus
		} else {
			n.child[l].gen = typeAssertLong
		}
		types = append(types, n.child[l].child[1].typ, sc.getType("bool"))
		n.gen = nop

	case unaryExpr:
		if n.child[l].action == aRecv {
			types = append(types, src.typ, sc.getType("bool"))
			n.child[l].gen = recv2
			n.gen = nop
		}

	default:
		return n.cfgErrorf("unsupported assign expression")
	}

	// Handle redeclarations: find out new symbols vs existing ones.
	symIsNew := map[string]bool{}
	hasNewSymbol := false
	for i := range types {
		id := n.child[i].ident
		if id == "_" || id == "" {
			continue
		}
		if _, found := symIsNew[id]; found {
			return n.cfgErrorf("%s repeated on left side of :=", id)
		}
		// A new symbol doesn't exist in current scope. Upper scopes are not
		// taken into accout here, as a new symbol can shadow an existing one.
		if _, found := sc.sym[id]; found {
			symIsNew[id] = false
		} else {
			symIsNew[id] = true
			hasNewSymbol = true
		}
	}

	for i, t := range types {
		var index int
		id := n.child[i].ident
		// A variable can be redeclared if at least one other not blank variable is created.
		// The redeclared variable must be of same type (it is reassigned, not created).
		// Careful to not reuse a variable which has been shadowed (it must not be a newSym).
		sym, level, ok := sc.lookup(id)
		canRedeclare := hasNewSymbol && len(symIsNew) > 1 && !symIsNew[id] && ok
		if canRedeclare && level == n.child[i].level && sym.kind == varSym && sym.typ.id() == t.id() {
			index = sym.index
			n.child[i].redeclared = true
		} else {
			index = sc.add(t)
			sc.sym[id] = &symbol{index: index, kind: varSym, typ: t}
		}
		n.child[i].typ = t
		n.child[i].findex = index
	}
	return nil
}

// TODO used for allocation optimization, temporarily disabled
// func isAncBranch(n *node) bool {
//	switch n.anc.kind {
//	case If0, If1, If2, If3:
//		return true
//	}
//	return false
// }

func childPos(n *node) int {
	for i, c := range n.anc.child {
		if n == c {
			return i
		}
	}
	return -1
}

func (n *node) cfgErrorf(format string, a ...interface{}) *cfgError {
	// toolscript patch 21: the position and the message are fields.
	err := fmt.Errorf(format, a...)
	return &cfgError{Pos: n.interp.fset.Position(n.pos), Msg: err.Error(), node: n, err: err}
}

func genRun(nod *node) error {
	var err error
	seen := map[*node]bool{}

	nod.Walk(func(n *node) bool {
		if err != nil || seen[n] {
			return false
		}
		seen[n] = true
		switch n.kind {
		case funcType:
			if len(n.anc.child) == 4 {
				// function body entry point
				setExec(n.anc.child[3].start)
			}
			// continue in function body as there may be inner function definitions
		case constDecl, varDecl:
			setExec(n.start)
			return false
		}
		return true
	}, nil)

	return err
}

func genGlobalVars(roots []*node, sc *scope) (*node, error) {
	var vars []*node
	for _, n := range roots {
		vars = append(vars, getVars(n)...)
	}

	if len(vars) == 0 {
		return nil, nil
	}

	varNode, err := genGlobalVarDecl(vars, sc)
	if err != nil {
		return nil, err
	}
	setExec(varNode.start)
	return varNode, nil
}

func getVars(n *node) (vars []*node) {
	for _, child := range n.child {
		if child.kind == varDecl {
			vars = append(vars, child.child...)
		}
	}
	return vars
}

func genGlobalVarDecl(nodes []*node, sc *scope) (*node, error) {
	varNode := &node{kind: varDecl, action: aNop, gen: nop}

	deps := map[*node][]*node{}
	for _, n := range nodes {
		deps[n] = getVarDependencies(n, sc)
	}

	inited := map[*node]bool{}
	revisit := []*node{}
	for {
		for _, n := range nodes {
			canInit := true
			for _, d := range deps[n] {
				if !inited[d] {
					canInit = false
				}
			}
			if !canInit {
				revisit = append(revisit, n)
				continue
			}

			varNode.child = append(varNode.child, n)
			inited[n] = true
		}

		if len(revisit) == 0 || equalNodes(nodes, revisit) {
			break
		}

		nodes = revisit
		revisit = []*node{}
	}

	if len(revisit) > 0 {
		return nil, revisit[0].cfgErrorf("variable definition loop")
	}
	wireChild(varNode)
	return varNode, nil
}

func getVarDependencies(nod *node, sc *scope) (deps []*node) {
	nod.Walk(func(n *node) bool {
		if n.kind != identExpr {
			return true
		}
		// Process ident nodes, and avoid false dependencies.
		if n.anc.kind == selectorExpr && childPos(n) == 1 {
			return false
		}
		sym, _, ok := sc.lookup(n.ident)
		if !ok {
			return false
		}
		if sym.kind != varSym || !sym.global || sym.node == nod {
			return false
		}
		deps = append(deps, sym.node)
		return false
	}, nil)
	return deps
}

// setFnext sets the cond fnext field to next, propagates it for parenthesis blocks
// and sets the action to branch.
func setFNext(cond, next *node) {
	if cond.action == aNop {
		cond.action = aBranch
		cond.gen = branch
		cond.fnext = next
	}
	if cond.kind == parenExpr {
		setFNext(cond.lastChild(), next)
		return
	}
	cond.fnext = next
}

// wireCaseList wires the expressions of the case clause c of a tagged
// switch one after the other, each but the last followed by its test (a
// match goes to c's body): the clause's exec compares the last one.
// toolscript patch 139.
func wireCaseList(c *node) {
	exprs := c.child[:len(c.child)-1]
	if len(exprs) < 2 {
		return
	}
	for i := 0; i < len(exprs)-1; i++ {
		t := &node{anc: c, interp: c.interp, pos: exprs[i].pos, scope: c.scope, kind: c.kind, gen: caseTest(c, i)}
		exprs[i].tnext = t
		t.tnext = c.tnext
		t.fnext = exprs[i+1].start
	}
	exprs[len(exprs)-1].tnext = c
}

// nextCaseTest returns the index of the clause of a switch of l clauses
// whose test follows the failed test of clause i (-1: the first test), dflt
// the index of its default clause or -1 (toolscript patch 143): the next
// clause but the default one, which comes after the last; -1 for none.
func nextCaseTest(i, l, dflt int) int {
	for j := i + 1; j < l; j++ {
		if j != dflt {
			return j
		}
	}
	if dflt != i {
		return dflt
	}
	return -1
}

// wireSwitchIfClause wires the clause i of the tagless switch n, whose
// clauses are clauses and whose default one is dflt or -1, once the clauses
// after it in the order of the tests are wired (toolscript patch 143: the
// default clause, wherever it is, is tested after the last).
func wireSwitchIfClause(n *node, clauses []*node, i, dflt int) {
	l := len(clauses)
	c := clauses[i]
	c.gen = nop
	if len(c.child) == 0 {
		c.tnext = n
		c.fnext = n
		return
	}
	body := c.lastChild()
	if len(c.child) > 1 {
		// toolscript patch 48: every expression of a case
		// list is tested in order (only the first was).
		next := n
		if j := nextCaseTest(i, l, dflt); j >= 0 {
			next = clauses[j].start
		}
		conds := c.child[:len(c.child)-1]
		for j := len(conds) - 1; j >= 0; j-- {
			cond := conds[j]
			cond.tnext = body.start
			setFNext(cond, next)
			next = cond.start
		}
		c.start = conds[0].start
	} else {
		c.start = body.start
	}
	// If last case body statement is a fallthrough, then jump to next case body
	switch {
	case i == l-1 || len(body.child) == 0 || body.lastChild().kind != fallthroughtStmt:
		body.tnext = n
	case len(clauses[i+1].child) == 0:
		body.tnext = n // an empty default clause
	default:
		body.tnext = clauses[i+1].lastChild().start
	}
}

// GetDefault return the index of default case clause in a switch statement, or -1.
func getDefault(n *node) int {
	for i, c := range n.lastChild().child {
		switch len(c.child) {
		case 0:
			return i
		case 1:
			if c.child[0].kind == caseBody {
				return i
			}
		}
	}
	return -1
}

func isBinType(v reflect.Value) bool { return v.IsValid() && v.Kind() == reflect.Ptr && v.IsNil() }

// isType returns true if node refers to a type definition, false otherwise.
func (n *node) isType(sc *scope) bool {
	switch n.kind {
	case arrayType, chanType, chanTypeRecv, chanTypeSend, funcType, interfaceType, mapType, structType:
		return true
	case parenExpr, starExpr:
		if len(n.child) == 1 {
			return n.child[0].isType(sc)
		}
	case selectorExpr:
		pkg, name := n.child[0].ident, n.child[1].ident
		baseName := path.Base(n.interp.fset.Position(n.pos).Filename)
		suffixedPkg := path.Join(pkg, baseName)
		sym, _, ok := sc.lookup(suffixedPkg)
		if !ok {
			sym, _, ok = sc.lookup(pkg)
			if !ok {
				return false
			}
		}
		if sym.kind != pkgSym {
			return false
		}
		path := sym.typ.path
		if p, ok := n.interp.binPkg[path]; ok && isBinType(p[name]) {
			return true // Imported binary type
		}
		if p, ok := n.interp.srcPkg[path]; ok && p[name] != nil && p[name].kind == typeSym {
			return true // Imported source type
		}
	case identExpr:
		if sc.getType(n.ident) != nil {
			return true
		}
		// toolscript patch 74: a type parameter of an instantiated
		// generic is replaced by a node naming its type argument
		// (main.Config, *main.Config), which no scope holds.
		_, _, found := sc.lookup(n.ident)
		return !found && n.typ != nil && n.ident == n.typ.id()
	case indexExpr:
		// toolscript patch 65: a generic type of an imported package
		// (iter.Seq[int]).
		if n.child[0].kind == selectorExpr {
			return n.child[0].isType(sc)
		}
		// Maybe a generic type.
		sym, _, ok := sc.lookup(n.child[0].ident)
		return ok && sym.kind == typeSym
	case indexListExpr:
		// toolscript patch 94: a generic type with several type
		// arguments (iter.Seq2[string, int], Pair[K, V]).
		if n.child[0].kind == selectorExpr {
			return n.child[0].isType(sc)
		}
		sym, _, ok := sc.lookup(n.child[0].ident)
		return ok && sym.kind == typeSym
	}
	return false
}

// shadowsLoopVar reports whether dest, defined by the statement n, is a
// new variable of the name of a loop variable of the loop whose body holds
// n (toolscript patch 141): the body's scope holds the loop variables of
// an iteration (the placeholder nodes first in the body), so the define
// finds its name already declared there, but in Go the body is a block of
// its own.
func shadowsLoopVar(n, dest *node) bool {
	body := n.anc
	if body == nil || body.kind != blockStmt || body.anc == nil || dest.ident == "" || dest.ident == "_" {
		return false
	}
	vars := forVarNodes(body.anc) // toolscript patch 151
	if body.anc.kind == rangeStmt {
		vars = 2
	}
	for i := 0; i < vars && i < len(body.child); i++ {
		if lv := body.child[i]; lv != n && lv.kind == identExpr && lv.ident == dest.ident {
			return true
		}
	}
	return false
}

// wireChild wires AST nodes for CFG in subtree.
func wireChild(n *node, exclude ...nkind) {
	child := excludeNodeKind(n.child, exclude)

	// Set start node, in subtree (propagated to ancestors by post-order processing)
	for _, c := range child {
		switch c.kind {
		case arrayType, chanType, chanTypeRecv, chanTypeSend, funcDecl, importDecl, mapType, basicLit, identExpr, typeDecl:
			continue
		default:
			n.start = c.start
		}
		break
	}

	// Chain sequential operations inside a block (next is right sibling)
	for i := 1; i < len(child); i++ {
		switch child[i].kind {
		case funcDecl:
			child[i-1].tnext = child[i]
		default:
			switch child[i-1].kind {
			case breakStmt, continueStmt, gotoStmt, returnStmt:
				// tnext is already computed, no change
			default:
				child[i-1].tnext = child[i].start
			}
		}
	}

	// Chain subtree next to self
	for i := len(child) - 1; i >= 0; i-- {
		switch child[i].kind {
		case arrayType, chanType, chanTypeRecv, chanTypeSend, importDecl, mapType, funcDecl, basicLit, identExpr, typeDecl:
			continue
		case breakStmt, continueStmt, gotoStmt, returnStmt:
			// tnext is already computed, no change
		default:
			child[i].tnext = n
		}
		break
	}
}

// setCommClauseExit chains the last statement of the select case n to
// the select's end, unless it is a branch statement.
//
// toolscript patch 150: a continue (or goto) that is a case's last
// statement keeps its target (it was chained to the select's end, so a
// continue went on after the select instead of to the loop's next
// iteration).
func setCommClauseExit(n *node) {
	switch last := n.lastChild(); last.kind {
	case breakStmt, continueStmt, gotoStmt, returnStmt:
		// tnext is already computed, no change
	default:
		last.tnext = n.anc.anc // exit node is selectStmt
	}
}

func excludeNodeKind(child []*node, kinds []nkind) []*node {
	if len(kinds) == 0 {
		return child
	}
	var res []*node
	for _, c := range child {
		exclude := false
		for _, k := range kinds {
			if c.kind == k {
				exclude = true
			}
		}
		if !exclude {
			res = append(res, c)
		}
	}
	return res
}

func (n *node) name() (s string) {
	switch {
	case n.ident != "":
		s = n.ident
	case n.action == aGetSym:
		s = n.child[0].ident + "." + n.child[1].ident
	}
	return s
}

// isNatural returns true if node type is natural, false otherwise.
func (n *node) isNatural() bool {
	if isUint(n.typ.TypeOf()) {
		return true
	}
	if n.rval.IsValid() {
		t := n.rval.Type()
		if isUint(t) {
			return true
		}
		if isInt(t) && n.rval.Int() >= 0 {
			// positive untyped integer constant is ok
			return true
		}
		if isFloat(t) {
			// positive untyped float constant with null decimal part is ok
			f := n.rval.Float()
			if f == math.Trunc(f) && f >= 0 {
				n.rval = reflect.ValueOf(uint(f))
				n.typ.rtype = n.rval.Type()
				return true
			}
		}
		if isConstantValue(t) {
			c := n.rval.Interface().(constant.Value)
			switch c.Kind() {
			case constant.Int:
				i, _ := constant.Int64Val(c)
				if i >= 0 {
					return true
				}
			case constant.Float:
				f, _ := constant.Float64Val(c)
				if f == math.Trunc(f) {
					n.rval = reflect.ValueOf(constant.ToInt(c))
					n.typ.rtype = n.rval.Type()
					return true
				}
			}
		}
	}
	return false
}

// isNil returns true if node is a literal nil value, false otherwise.
func (n *node) isNil() bool { return n.kind == basicLit && !n.rval.IsValid() }

// fieldType returns the nth parameter field node (type) of a fieldList node.
func (n *node) fieldType(m int) *node {
	k := 0
	l := len(n.child)
	for i := 0; i < l; i++ {
		cl := len(n.child[i].child)
		if cl < 2 {
			if k == m {
				return n.child[i].lastChild()
			}
			k++
			continue
		}
		for j := 0; j < cl-1; j++ {
			if k == m {
				return n.child[i].lastChild()
			}
			k++
		}
	}
	return nil
}

// lastChild returns the last child of a node.
func (n *node) lastChild() *node { return n.child[len(n.child)-1] }

func (n *node) hasAnc(nod *node) bool {
	for a := n.anc; a != nil; a = a.anc {
		if a == nod {
			return true
		}
	}
	return false
}

func isKey(n *node) bool {
	return n.anc.kind == fileStmt ||
		(n.anc.kind == selectorExpr && n.anc.child[0] != n) ||
		(n.anc.kind == funcDecl && isMethod(n.anc)) ||
		(n.anc.kind == keyValueExpr && isStruct(n.anc.typ) && n.anc.child[0] == n) ||
		(n.anc.kind == fieldExpr && len(n.anc.child) > 1 && n.anc.child[0] == n)
}

func isField(n *node) bool {
	return n.kind == selectorExpr && len(n.child) > 0 && n.child[0].typ != nil && isStruct(n.child[0].typ)
}

func isInInterfaceType(n *node) bool {
	anc := n.anc
	for anc != nil {
		if anc.kind == interfaceType {
			return true
		}
		// toolscript patch 74: a constraint written in a type parameter
		// list (F[T ~int | ~float64], F[M ~map[K]V]) is a type set too.
		if anc.kind == fieldList && anc.anc != nil && isTypeParamList(anc) {
			return true
		}
		anc = anc.anc
	}
	return false
}

// isTypeParamList reports whether the field list n declares the type
// parameters of a generic function or type. toolscript patch 74
func isTypeParamList(n *node) bool {
	switch p := n.anc; {
	case p.kind == funcType:
		return childPos(n) == 0
	case p.kind == typeSpec || p.kind == typeSpecAssign:
		return len(p.child) > 2 && childPos(n) == 1
	}
	return false
}

func isInConstOrTypeDecl(n *node) bool {
	anc := n.anc
	for anc != nil {
		switch anc.kind {
		case constDecl, typeDecl, arrayType, chanType:
			return true
		case varDecl, funcDecl:
			return false
		}
		anc = anc.anc
	}
	return false
}

// isNewDefine returns true if node refers to a new definition.
func isNewDefine(n *node, sc *scope) bool {
	if n.ident == "_" {
		return true
	}
	if (n.anc.kind == defineXStmt || n.anc.kind == defineStmt || n.anc.kind == valueSpec) && childPos(n) < n.anc.nleft {
		return true
	}
	if n.anc.kind == rangeStmt {
		if n.anc.child[0] == n {
			return true // array or map key, or chan element
		}
		if sc.rangeChanType(n.anc) == nil && n.anc.child[1] == n && len(n.anc.child) == 4 {
			return true // array or map value
		}
		return false // array, map or channel are always pre-defined in range expression
	}
	return false
}

func isMethod(n *node) bool {
	return len(n.child[0].child) > 0 // receiver defined
}

func isFuncField(n *node) bool {
	return isField(n) && isFunc(n.typ)
}

func isMapEntry(n *node) bool {
	return n.action == aGetIndex && isMap(n.child[0].typ)
}

func isCall(n *node) bool {
	return n.action == aCall || n.action == aCallSlice
}

// mapForm returns the function Options.MapForm gives for the call n, or
// the zero Value: n must call a symbol of a native package with one
// argument, of type map[string]any or nil (toolscript patch 50). Before
// the call is compiled (the global declarations' types), the package and
// the argument's type are looked up in sc.
func mapForm(sc *scope, n *node) reflect.Value {
	hook := n.interp.opt.mapForm
	if hook == nil || len(n.child) != 2 || n.action == aCallSlice {
		return reflect.Value{}
	}
	c0, arg := n.child[0], n.child[1]
	if c0.kind != selectorExpr || len(c0.child) != 2 {
		return reflect.Value{}
	}
	pkg := c0.child[0].sym
	if id := c0.child[0]; pkg == nil && id.kind == identExpr {
		// An import is declared per file, under its name and the file's.
		var ok bool
		if pkg, _, ok = sc.lookup(id.ident); !ok || pkg.typ == nil || pkg.typ.cat != binPkgT {
			pkg, _, _ = sc.lookup(path.Join(id.ident, path.Base(n.interp.fset.Position(n.pos).Filename)))
		}
	}
	if pkg == nil || pkg.typ == nil || pkg.typ.cat != binPkgT {
		return reflect.Value{}
	}
	at := arg.typ
	if at == nil && !arg.isNil() {
		at, _ = nodeType(n.interp, sc, arg)
	}
	if !arg.isNil() && (at == nil || at.cat != nilT && (at.incomplete || at.TypeOf() != kwargsMapType)) {
		return reflect.Value{}
	}
	alt := hook(pkg.typ.path, c0.child[1].ident)
	if !alt.IsValid() || alt.Type() != kwargsFuncType {
		return reflect.Value{}
	}
	return alt
}

// kwargsMapType is the argument type of toolscript's tool functions
// (toolscript patch 50).
var kwargsMapType = reflect.TypeOf(map[string]any(nil))

func isBinCall(n *node, sc *scope) bool {
	if !isCall(n) || len(n.child) == 0 {
		return false
	}
	c0 := n.child[0]
	if c0.typ == nil {
		// If called early in parsing, child type may not be known yet.
		c0.typ, _ = nodeType(n.interp, sc, c0)
		if c0.typ == nil {
			return false
		}
	}
	return c0.typ.cat == valueT && c0.typ.rtype.Kind() == reflect.Func
}

func mustReturnValue(n *node) bool {
	if len(n.child) < 3 {
		return false
	}
	for _, f := range n.child[2].child {
		if len(f.child) > 1 {
			return false
		}
	}
	return true
}

func isRegularCall(n *node) bool {
	return isCall(n) && n.child[0].typ.cat == funcT
}

func variadicPos(n *node) int {
	if len(n.child[0].typ.arg) == 0 {
		return -1
	}
	last := len(n.child[0].typ.arg) - 1
	if n.child[0].typ.arg[last].cat == variadicT {
		return last
	}
	return -1
}

func canExport(name string) bool {
	if r := []rune(name); len(r) > 0 && unicode.IsUpper(r[0]) {
		return true
	}
	return false
}

func getExec(n *node) bltn {
	if n == nil {
		return nil
	}
	if n.exec == nil {
		setExec(n)
	}
	return n.exec
}

// setExec recursively sets the node exec builtin function by walking the CFG
// from the entry point (first node to exec).
func setExec(n *node) {
	if n.exec != nil {
		return
	}
	seen := map[*node]bool{}
	var set func(n *node)

	set = func(n *node) {
		if n == nil || n.exec != nil {
			return
		}
		seen[n] = true
		if n.tnext != nil && n.tnext.exec == nil {
			if seen[n.tnext] {
				m := n.tnext
				n.tnext.exec = func(f *frame) bltn { return m.exec(f) }
			} else {
				set(n.tnext)
			}
		}
		if n.fnext != nil && n.fnext.exec == nil {
			if seen[n.fnext] {
				m := n.fnext
				n.fnext.exec = func(f *frame) bltn { return m.exec(f) }
			} else {
				set(n.fnext)
			}
		}
		n.gen(n)
	}

	set(n)
}

func typeSwichAssign(n *node) bool {
	ts := n.anc.anc.anc
	return ts.kind == typeSwitch && ts.child[1].action == aAssign
}

func compositeGenerator(n *node, typ *itype, rtyp reflect.Type) (gen bltnGenerator) {
	switch typ.cat {
	case linkedT, ptrT:
		gen = compositeGenerator(n, typ.val, rtyp)
	case arrayT, sliceT:
		gen = arrayLit
	case mapT:
		gen = mapLit
	case structT:
		switch {
		case len(n.child) == 0:
			gen = compositeLitNotype
		case n.lastChild().kind == keyValueExpr:
			if n.nleft == 1 {
				gen = compositeLitKeyed
			} else {
				gen = compositeLitKeyedNotype
			}
		default:
			if n.nleft == 1 {
				gen = compositeLit
			} else {
				gen = compositeLitNotype
			}
		}
	case valueT:
		if rtyp == nil {
			rtyp = n.typ.TypeOf()
		}
		switch k := rtyp.Kind(); k {
		case reflect.Struct:
			if n.nleft == 1 {
				gen = compositeBinStruct
			} else {
				gen = compositeBinStructNotype
			}
		case reflect.Map:
			// TODO(mpl): maybe needs a NoType version too
			gen = compositeBinMap
		case reflect.Ptr:
			gen = compositeGenerator(n, typ, n.typ.val.rtype)
		case reflect.Slice, reflect.Array:
			gen = compositeBinSlice
		default:
			panic(n.cfgErrorf("compositeGenerator not implemented for type kind: %s", k)) // toolscript patch 4
		}
	}
	return gen
}

// matchSelectorMethod, given that n represents a selector for a method, tries
// to find the corresponding method, and populates n accordingly.
func matchSelectorMethod(sc *scope, n *node) (err error) {
	name := n.child[1].ident
	if ok, err := binMethodExpr(sc, n); ok { // toolscript patch 93
		return err
	}
	if n.typ.cat == valueT || n.typ.cat == errorT {
		switch method, ok := n.typ.rtype.MethodByName(name); {
		case ok:
			hasRecvType := n.typ.TypeOf().Kind() != reflect.Interface
			n.val = method.Index
			n.gen = getIndexBinMethod
			n.action = aGetMethod
			n.recv = &receiver{node: n.child[0]}
			n.typ = valueTOf(method.Type, isBinMethod())
			if hasRecvType {
				n.typ.recv = n.typ
			}
		case n.typ.TypeOf().Kind() == reflect.Ptr:
			if field, ok := n.typ.rtype.Elem().FieldByName(name); ok {
				if err = hiddenField(n, field); err != nil { // toolscript patch 41
					break
				}
				n.typ = valueTOf(field.Type)
				n.val = field.Index
				n.gen = getPtrIndexSeq
				break
			}
			err = n.cfgErrorf("undefined method: %s", name)
		case n.typ.TypeOf().Kind() == reflect.Struct:
			if field, ok := n.typ.rtype.FieldByName(name); ok {
				if err = hiddenField(n, field); err != nil { // toolscript patch 41
					break
				}
				n.typ = valueTOf(field.Type)
				n.val = field.Index
				n.gen = getIndexSeq
				break
			}
			fallthrough
		default:
			// method lookup failed on type, now lookup on pointer to type
			pt := reflect.PtrTo(n.typ.rtype)
			if m2, ok2 := pt.MethodByName(name); ok2 {
				n.val = m2.Index
				n.gen = getIndexBinPtrMethod
				n.typ = valueTOf(m2.Type, isBinMethod(), withRecv(valueTOf(pt)))
				n.recv = &receiver{node: n.child[0]}
				n.action = aGetMethod
				break
			}
			err = n.cfgErrorf("undefined method: %s", name)
		}
		return err
	}

	if n.typ.cat == ptrT && (n.typ.val.cat == valueT || n.typ.val.cat == errorT) {
		// Handle pointer on object defined in runtime
		if method, ok := n.typ.val.rtype.MethodByName(name); ok {
			n.val = method.Index
			n.typ = valueTOf(method.Type, isBinMethod(), withRecv(n.typ))
			n.recv = &receiver{node: n.child[0]}
			n.gen = getIndexBinElemMethod
			n.action = aGetMethod
		} else if method, ok := reflect.PtrTo(n.typ.val.rtype).MethodByName(name); ok {
			n.val = method.Index
			n.gen = getIndexBinMethod
			n.typ = valueTOf(method.Type, withRecv(valueTOf(reflect.PtrTo(n.typ.val.rtype), isBinMethod())))
			n.recv = &receiver{node: n.child[0]}
			n.action = aGetMethod
		} else if field, ok := n.typ.val.rtype.FieldByName(name); ok {
			if err = hiddenField(n, field); err != nil { // toolscript patch 41
				return err
			}
			n.typ = valueTOf(field.Type)
			n.val = field.Index
			n.gen = getPtrIndexSeq
		} else {
			err = n.cfgErrorf("undefined selector: %s", name)
		}
		return err
	}

	if m, lind := n.typ.lookupMethod(name); m != nil {
		n.action = aGetMethod
		if n.child[0].isType(sc) {
			// Handle method as a function with receiver in 1st argument.
			n.val = m
			n.findex = notInFrame
			n.gen = nop
			n.typ = &itype{}
			*n.typ = *m.typ
			n.typ.arg = append([]*itype{n.child[0].typ}, m.typ.arg...)
			// toolscript patch 93: the type of a function with the
			// receiver first (the copy kept the method's reflect type),
			// and T.M of a pointer-receiver method is Go's error.
			n.typ.recv, n.typ.rtype, n.typ.str = nil, nil, funcOf(n.typ.arg, n.typ.ret).str
			if t := n.child[0].typ; m.typ.recv != nil && m.typ.recv.cat == ptrT && t.cat != ptrT && !embeddedViaPointer(t, lind) {
				tn := n.child[0].ident
				if tn == "" {
					tn = t.str
				}
				return n.cfgErrorf("invalid method expression %s.%s (needs pointer receiver (*%s).%s)", tn, name, tn, name)
			}
		} else {
			// Handle method with receiver.
			n.gen = getMethod
			n.val = m
			n.typ = m.typ
			n.recv = &receiver{node: n.child[0], index: lind}
		}
		return nil
	}

	if m, lind, isPtr, ok := n.typ.lookupBinMethod(name); ok {
		n.action = aGetMethod
		switch {
		case isPtr && n.typ.fieldSeq(lind).cat != ptrT:
			n.gen = getIndexSeqPtrMethod
		case isInterfaceSrc(n.typ):
			n.gen = getMethodByName
		default:
			n.gen = getIndexSeqMethod
		}
		n.recv = &receiver{node: n.child[0], index: lind}
		n.val = append([]int{m.Index}, lind...)
		n.typ = valueTOf(m.Type, isBinMethod(), withRecv(n.child[0].typ))
		return nil
	}

	if typ := n.typ.interfaceMethod(name); typ != nil {
		n.typ = typ
		n.action = aGetMethod
		n.gen = getMethodByName
		return nil
	}

	return n.cfgErrorf("undefined selector: %s", name)
}

// arrayTypeLen returns the node's array length. If the expression is an
// array variable it is determined from the value's type, otherwise it is
// computed from the source definition.
func arrayTypeLen(n *node, sc *scope) (int, error) {
	if n.typ != nil && n.typ.cat == arrayT {
		return n.typ.length, nil
	}
	max := -1
	for _, c := range n.child[1:] {
		var r int

		if c.kind != keyValueExpr {
			r = max + 1
			max = r
			continue
		}

		c0 := c.child[0]
		v := c0.rval
		if v.IsValid() {
			r = int(v.Int())
		} else {
			// Resolve array key value as a constant.
			if c0.kind == identExpr {
				// Key is defined by a symbol which must be a constant integer.
				sym, _, ok := sc.lookup(c0.ident)
				if !ok {
					return 0, c0.cfgErrorf("undefined: %s", c0.ident)
				}
				if sym.kind != constSym {
					return 0, c0.cfgErrorf("non-constant array bound %q", c0.ident)
				}
				r = int(vInt(sym.rval))
			} else {
				// Key is defined by a numeric constant expression.
				if _, err := c0.interp.cfg(c0, sc, sc.pkgID, sc.pkgName); err != nil {
					return 0, err
				}
				cv, ok := c0.rval.Interface().(constant.Value)
				if !ok {
					return 0, c0.cfgErrorf("non-constant expression")
				}
				r = constToInt(cv)
			}
		}

		if r > max {
			max = r
		}
	}
	return max + 1, nil
}

// isValueUntyped returns true if value is untyped.
func isValueUntyped(v reflect.Value) bool {
	// Consider only constant values.
	if v.CanSet() {
		return false
	}
	return v.Type().Implements(constVal)
}

// isArithmeticAction returns true if the node action is an arithmetic operator.
func isArithmeticAction(n *node) bool {
	switch n.action {
	case aAdd, aAnd, aAndNot, aBitNot, aMul, aNeg, aOr, aPos, aQuo, aRem, aShl, aShr, aSub, aXor:
		return true
	}
	return false
}

func isBoolAction(n *node) bool {
	switch n.action {
	case aEqual, aGreater, aGreaterEqual, aLand, aLor, aLower, aLowerEqual, aNot, aNotEqual:
		return true
	}
	return false
}

func isBlank(n *node) bool {
	if n.kind == parenExpr && len(n.child) > 0 {
		return isBlank(n.child[0])
	}
	return n.ident == "_"
}

func alignof(n *node) {
	n.gen = nop
	n.typ = n.scope.getType("uintptr")
	n.rval = reflect.ValueOf(uintptr(n.child[1].typ.TypeOf().Align()))
}

func offsetof(n *node) {
	n.gen = nop
	n.typ = n.scope.getType("uintptr")
	c1 := n.child[1]
	if field, ok := c1.child[0].typ.rtype.FieldByName(c1.child[1].ident); ok {
		n.rval = reflect.ValueOf(field.Offset)
	}
}

func sizeof(n *node) {
	n.gen = nop
	n.typ = n.scope.getType("uintptr")
	n.rval = reflect.ValueOf(n.child[1].typ.TypeOf().Size())
}

// toolscript patch 28: constants are bounded as Go bounds them, before
// they are computed: go/constant computes exactly, so 1 << 1000000000 is
// a number of 125 MB, and a product of a few of them exhausts memory at
// compile time (and a comparison gave a wrong answer).
const (
	maxConstShift = 1023 - 1 + 52 // go/types' bound of a constant shift count
	maxConstBits  = 512           // go/types' bound of an untyped integer constant
)

// toolscript patch 28: checkConstShift refuses a constant shift whose
// count is over maxConstShift.
func checkConstShift(n *node) error {
	if n.action != aShl || !isConstantValue(n.child[0].rval.Type()) {
		return nil
	}
	v1 := n.child[1].rval
	var count constant.Value
	if isConstantValue(v1.Type()) {
		count = constant.ToInt(vConstantValue(v1))
	} else if isInt(v1.Type()) || isUint(v1.Type()) {
		count = constant.MakeUint64(vUint(v1))
	} else {
		return nil
	}
	if c, ok := constant.Uint64Val(count); !ok || c > maxConstShift {
		return n.cfgErrorf("invalid shift count %s (a constant shift is at most %d)", count, maxConstShift)
	}
	return nil
}

// toolscript patch 28: checkConstSize refuses an integer constant of more
// than maxConstBits bits, as Go does ("constant overflow").
func checkConstSize(n *node) error {
	if !n.rval.IsValid() || !isConstantValue(n.rval.Type()) {
		return nil
	}
	if v := vConstantValue(n.rval); v.Kind() == constant.Int && constant.BitLen(v) > maxConstBits {
		return n.cfgErrorf("constant overflow: the value has %d bits, more than %d", constant.BitLen(v), maxConstBits)
	}
	return nil
}

// checkConstOverflow fails a constant operation whose exact value its
// type cannot represent, as Go's compiler does ("constant 200 overflows
// int8"): the operation computed in the type's arithmetic wrapped
// (int8(100) + 100 was -56, uint16(1) << 17 was 0), and an untyped
// constant expression given a type by its context was truncated (var d
// uint8 = 1 << 8 was 0). toolscript patch 109.
func checkConstOverflow(n *node) error {
	if !n.rval.IsValid() || n.typ == nil || n.typ.untyped {
		return nil
	}
	t := n.typ.TypeOf()
	if t == nil || !isInt(t) {
		return nil
	}
	var exact constant.Value
	if isConstantValue(n.rval.Type()) {
		if a := n.anc; a != nil && (a.kind == binaryExpr || a.kind == unaryExpr || a.kind == parenExpr) {
			return nil // an untyped operand: only the whole expression's value must fit
		}
		exact = vConstantValue(n.rval)
	} else {
		x, ok := exactConstOf(n.child[0].rval)
		if !ok {
			return nil
		}
		var y constant.Value
		if len(n.child) > 1 {
			if y, ok = exactConstOf(n.child[1].rval); !ok {
				return nil
			}
		}
		switch n.action {
		case aAdd:
			exact = constant.BinaryOp(x, token.ADD, y)
		case aSub:
			exact = constant.BinaryOp(x, token.SUB, y)
		case aMul:
			exact = constant.BinaryOp(x, token.MUL, y)
		case aNeg:
			exact = constant.UnaryOp(token.SUB, x, 0)
		case aShl:
			s, ok := constant.Uint64Val(constant.ToInt(y))
			if !ok || s > maxConstBits {
				return nil // checkConstShift's
			}
			exact = constant.Shift(x, token.SHL, uint(s))
		default:
			return nil // no other integer operation overflows but MinInt / -1, a run-time wrap in Go too
		}
	}
	if exact.Kind() == constant.Int && !representableConst(exact, t) {
		return n.cfgErrorf("constant %s overflows %s", exact.ExactString(), n.typ.id())
	}
	return nil
}

// isUntypedConst reports whether n is an untyped constant whose value the
// interpreter holds exactly. toolscript patch 123.
func isUntypedConst(n *node) bool {
	return n.typ != nil && n.typ.untyped && n.rval.IsValid() && isConstantValue(n.rval.Type())
}

// untypedConstResult is the type of the binary operation n of untyped
// constant operands, an untyped constant whatever the context gives the
// whole expression: the operands' kind of highest rank (int < rune <
// float < complex), the left operand's for a shift by a constant count;
// nil if n is not such an operation or is a comparison. toolscript
// patch 123.
func untypedConstResult(n *node) *itype {
	c0, c1 := n.child[0], n.child[1]
	if isBoolAction(n) || isComparisonAction(n.action) || !isUntypedConst(c0) {
		return nil
	}
	if isShiftAction(n.action) {
		if !c1.rval.IsValid() {
			return nil // 1 << id takes the type of its use
		}
		if k := c0.typ.TypeOf().Kind(); k == reflect.Float64 || k == reflect.Complex128 {
			return untypedInt(n) // a constant shift of 1.0 is an integer constant
		}
		return untypedOf(c0.typ, n)
	}
	if !isUntypedConst(c1) {
		return nil
	}
	if constRank(c1.typ) > constRank(c0.typ) {
		return untypedOf(c1.typ, n)
	}
	return untypedOf(c0.typ, n)
}

// typeUntypedCompared gives an untyped operand of the comparison n that
// is not a constant (a shift of an untyped constant by a variable, or an
// operation on one) its default type, and the other operand, if untyped,
// that type too: in Go, 1<<s == 8 shifts an int. toolscript patch 136.
func typeUntypedCompared(check typecheck, sc *scope, n *node) error {
	if !isComparisonAction(n.action) {
		return nil
	}
	for i, c := range n.child[:2] {
		if c.typ == nil || !c.typ.untyped || c.rval.IsValid() || (c.kind != binaryExpr && c.kind != parenExpr) {
			continue
		}
		t := c.typ.defaultType(c.rval, sc)
		if t.untyped {
			continue
		}
		if err := check.convertUntyped(c, t); err != nil {
			return err
		}
		if o := n.child[1-i]; o.typ != nil && o.typ.untyped {
			if err := check.convertUntyped(o, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// constCompare is the result of the comparison n of two constants, if
// both are constants of numbers, strings or booleans. toolscript patch 123.
func constCompare(n *node) (result, ok bool) {
	if !isComparisonAction(n.action) {
		return false, false
	}
	x, ok0 := comparableConst(n.child[0])
	y, ok1 := comparableConst(n.child[1])
	if !ok0 || !ok1 {
		return false, false
	}
	if x.Kind() == constant.Bool || y.Kind() == constant.Bool {
		if x.Kind() != y.Kind() || (n.action != aEqual && n.action != aNotEqual) {
			return false, false
		}
	}
	if (x.Kind() == constant.String) != (y.Kind() == constant.String) {
		return false, false
	}
	op := map[action]token.Token{aEqual: token.EQL, aNotEqual: token.NEQ, aGreater: token.GTR, aGreaterEqual: token.GEQ, aLower: token.LSS, aLowerEqual: token.LEQ}[n.action]
	return constant.Compare(x, op, y), true
}

// comparableConst is the exact value of the constant operand n of a
// comparison: its go/constant value or the number, string or boolean a
// typed constant holds. toolscript patch 123.
func comparableConst(n *node) (constant.Value, bool) {
	v := n.rval
	if !v.IsValid() || n.typ == nil || n.typ.cat == nilT || isInterface(n.typ) {
		return nil, false
	}
	if c := vConstantValue(v); c != nil {
		return c, c.Kind() != constant.Unknown
	}
	switch t := v.Type(); {
	case t.Kind() == reflect.Bool:
		return constant.MakeBool(v.Bool()), true
	case t.Kind() == reflect.String:
		return constant.MakeString(v.String()), true
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		return constant.MakeInt64(v.Int()), true
	case t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uintptr:
		return constant.MakeUint64(v.Uint()), true
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		return constant.MakeFloat64(v.Float()), true
	case t.Kind() == reflect.Complex64 || t.Kind() == reflect.Complex128:
		c := v.Complex()
		return constant.BinaryOp(constant.MakeFloat64(real(c)), token.ADD, constant.MakeImag(constant.MakeFloat64(imag(c)))), true
	}
	return nil, false
}

// constRank orders the kinds of untyped constants, int < rune < float <
// complex, by their representation (a native package's constant, math.Pi,
// has a type of category valueT). toolscript patch 123.
func constRank(t *itype) int {
	switch k := t.TypeOf().Kind(); {
	case k == reflect.Int32 || t.str == "untyped rune":
		return 2
	case isInt(t.TypeOf()) || isUint(t.TypeOf()):
		return 1
	case k == reflect.Float32 || k == reflect.Float64:
		return 3
	case k == reflect.Complex64 || k == reflect.Complex128:
		return 4
	}
	return 0
}

// untypedOf is a copy of the untyped type t for the node n (a node's type
// is written through, c.typ.node = c). toolscript patch 123.
func untypedOf(t *itype, n *node) *itype {
	u := *t
	u.node = n
	return &u
}

// exactConstOf is the exact value of a constant operand: its
// constant.Value, or the integer a typed constant holds. toolscript
// patch 109.
func exactConstOf(v reflect.Value) (constant.Value, bool) {
	switch {
	case !v.IsValid():
		return nil, false
	case isConstantValue(v.Type()):
		return constant.ToInt(vConstantValue(v)), true
	case isUint(v.Type()):
		return constant.MakeUint64(v.Uint()), true
	case isInt(v.Type()):
		return constant.MakeInt64(v.Int()), true
	}
	return nil, false
}

// newOfValue reports whether the operand of new is an expression (Go 1.26's
// new(expr), a pointer to a new variable holding its value) rather than a
// type. toolscript patch 49.
func newOfValue(n *node, sc *scope) bool {
	switch n.kind {
	case basicLit, compositeLitExpr, callExpr, binaryExpr, unaryExpr, sliceExpr, funcLit, typeAssertExpr:
		return true
	case parenExpr:
		return len(n.child) == 1 && newOfValue(n.child[0], sc)
	case identExpr:
		sym, _, ok := sc.lookup(n.ident)
		return ok && (sym.kind == varSym || sym.kind == constSym || sym.kind == funcSym)
	case selectorExpr, indexExpr, starExpr:
		return !n.isType(sc)
	}
	return false
}

// defaultTypeOf is the type of a variable initialised with a value of type t:
// t itself, or the default type of an untyped constant. toolscript patch 49.
func defaultTypeOf(t *itype, sc *scope) *itype {
	if !t.untyped {
		return t
	}
	if t.cat == valueT {
		return sc.fixType(t)
	}
	if d := sc.getType(t.name); d != nil {
		return d
	}
	return t
}

// labelKey is the key of a label in a scope's symbols, apart from the
// names of variables, types and functions (toolscript patch 77: a label
// named as a variable of its block replaced the variable).
func labelKey(name string) string { return "label·" + name }

// isLabelIdent reports whether n names a label: that of a labeled
// statement, or of a break, continue or goto (toolscript patch 77).
func isLabelIdent(n *node) bool {
	switch n.anc.kind {
	case labeledStmt, breakStmt, continueStmt, gotoStmt:
		return n.anc.child[0] == n
	}
	return false
}

// loopVarNodes is the number of loop variable nodes the parser puts first
// in the body n of a loop: 2 for a range loop, 1 for a three-clause loop
// (toolscript patch 77).
func loopVarNodes(n *node) int {
	if n.anc == nil {
		return 0
	}
	if n.anc.kind == rangeStmt {
		return 2
	}
	return forVarNodes(n.anc) // toolscript patch 151
}

// forVarNodes is the number of loop variable nodes the parser puts first in
// the body of the loop n (toolscript patch 151): for a loop with an init
// statement, one per variable that statement defines, and for init; cond;
// post at least one.
func forVarNodes(n *node) int {
	if n == nil {
		return 0
	}
	k := 0
	switch n.kind {
	case forStmt1, forStmt3, forStmt6, forStmt7:
		if init := n.child[0]; init.kind == defineStmt || init.kind == defineXStmt {
			k = init.nleft
		}
	default:
		return 0
	}
	if k == 0 && n.kind == forStmt7 {
		k = 1
	}
	return k
}

// recvIntoInterface reports whether the receive n is assigned to a variable
// of interface type or returned as one, from a channel of a concrete type
// (toolscript patch 83).
func recvIntoInterface(n *node, sc *scope) bool {
	if isInterfaceSrc(n.typ) {
		return false
	}
	switch a := n.anc; {
	case a.kind == assignStmt && a.action == aAssign && a.nright == 1:
		return isInterfaceSrc(a.child[childPos(n)-a.nright].typ)
	case a.kind == returnStmt && sc.def != nil && sc.def.typ != nil && childPos(n) < len(sc.def.typ.ret):
		return isInterfaceSrc(sc.def.typ.ret[childPos(n)])
	}
	return false
}
