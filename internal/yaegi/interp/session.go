package interp

// toolscript patch 47: an interpreter of Options.Session runs a sequence
// of programs that share their package's state (a session): function
// values outlive the run that made them, a package may be imported again,
// the source's name and the call depth bound may be set between programs.

import "reflect"

// callID is the run id of a call of a function value made under frame f
// (toolscript patch 47): f's, or, in an interpreter of Options.Session
// while a program runs, the running program's, so that a function value
// one program stored can be called by the next while the goroutines a
// stopped program left still stop.
func (interp *Interpreter) callID(f *frame) uint64 {
	id := f.runid()
	if interp == nil || !interp.opt.session {
		return id
	}
	cur := interp.runid()
	if id == cur {
		return id
	}
	interp.mutex.RLock()
	done := interp.done
	interp.mutex.RUnlock()
	select {
	case <-done:
		return id // no program runs: a stopped goroutine stays stopped
	default:
		return cur
	}
}

// SetMaxCallDepth changes Options.MaxCallDepth (toolscript patch 47), for
// the next program of a session. The interpreter must not be running.
func (interp *Interpreter) SetMaxCallDepth(n int) {
	interp.opt.maxCallDepth = int64(n)
}

// SetSourceName names the source of the programs compiled from strings
// (toolscript patch 47): the file name of the positions before any line
// directive, which the interpreter scopes imports by. A session's
// statements, which the interpreter wraps in a function of its own, then
// see the imports of its declarations.
func (interp *Interpreter) SetSourceName(name string) {
	interp.name = name
}

// Live returns the number of goroutines of the interpreter's go
// statements still running in interpreted code (toolscript patch 47): a
// session waits for those of an input to end before it keeps or restores
// the state.
func (interp *Interpreter) Live() int64 { return interp.live.Load() }

// markTypes records, in a session, the package's type symbols before a
// compilation of pkg (toolscript patch 47): a type declaration of the
// compilation that finds one of them redeclares it (redeclareType).
func (interp *Interpreter) markTypes(pkg string) {
	if !interp.opt.session {
		return
	}
	interp.mutex.RLock()
	sc := interp.scopes[pkg]
	interp.mutex.RUnlock()
	interp.earlier = map[string]*symbol{}
	if sc == nil {
		return
	}
	for name, sym := range sc.sym {
		if sym.kind == typeSym {
			interp.earlier[name] = sym
		}
	}
}

// redeclareType makes a type declaration of a later program of a session
// declare a new type (toolscript patch 47): the symbol of the earlier
// declaration leaves the scope (values of the earlier type keep it).
// Upstream, the declaration found the earlier type and kept it.
func (interp *Interpreter) redeclareType(sc *scope, name string) {
	if sym, ok := interp.earlier[name]; ok && sc.sym[name] == sym {
		delete(sc.sym, name)
	}
}

// commaOkTypes works out, at package level, the types of the comma-ok
// forms of a definition (v, ok := m[k], x.(T), <-ch), which the global
// analysis needs before the expression's type is known (toolscript patch
// 47): a session's statements run at package level. A form whose type
// cannot be known there is a compile error rather than a crash.
func (interp *Interpreter) commaOkTypes(sc *scope, n *node) error {
	if !interp.opt.session || len(n.child) == 0 {
		return nil
	}
	src := n.child[len(n.child)-1]
	operand := func(c *node) *itype {
		t, err := nodeType(interp, sc, c)
		if err != nil || t == nil {
			return nil
		}
		for t.cat == linkedT && t.val != nil {
			t = t.val
		}
		return t
	}
	switch src.kind {
	case indexExpr:
		if src.typ != nil {
			return nil
		}
		t := operand(src.child[0])
		switch {
		case t == nil:
		case t.cat == mapT:
			src.typ = t.val
		case t.cat == valueT && t.rtype != nil && t.rtype.Kind() == reflect.Map:
			src.typ = valueTOf(t.rtype.Elem())
		}
	case typeAssertExpr:
		if len(src.child) < 2 || src.child[1].typ != nil {
			return nil
		}
		if t := operand(src.child[1]); t != nil {
			src.child[1].typ = t
		}
		if src.child[1].typ == nil {
			return src.cfgErrorf("the type of this assertion is not known at package level; declare the variables first")
		}
		return nil
	case unaryExpr:
		if src.action != aRecv || src.typ != nil {
			return nil
		}
		t := operand(src.child[0])
		switch {
		case t == nil:
		case t.cat == chanT || t.cat == chanRecvT:
			src.typ = t.val
		case t.cat == valueT && t.rtype != nil && t.rtype.Kind() == reflect.Chan:
			src.typ = valueTOf(t.rtype.Elem())
		}
	default:
		return nil
	}
	if src.typ == nil {
		return src.cfgErrorf("the type of this comma-ok form is not known at package level; declare the variables first")
	}
	return nil
}

// commaOkGen gives a comma-ok definition at package level (in a session)
// the two-result forms of its expression again (toolscript patch 47): the
// global analysis chose them, and the expression's own compilation, which
// comes after it there, replaced them with the one-result forms (m[k]
// read as if absent, <-ch as if closed).
func (interp *Interpreter) commaOkGen(n *node) {
	if !interp.opt.session || len(n.child) == 0 {
		return
	}
	src := n.child[len(n.child)-1]
	switch src.kind {
	case indexExpr:
		src.gen, n.gen = getIndexMap2, nop
	case typeAssertExpr:
		if n.child[0].ident == "_" {
			src.gen = typeAssertStatus
		} else {
			src.gen = typeAssertLong
		}
		n.gen = nop
	case unaryExpr:
		if src.action == aRecv {
			src.gen, n.gen = recv2, nop
		}
	}
}
