package interp

// toolscript patch 65: range over functions (Go 1.23), as the spec defines
// it. The range expression is a function of type func(yield func() bool),
// func(yield func(V) bool) or func(yield func(K, V) bool); it is called once
// with a yield function whose every call runs the loop body, in the frame of
// the function holding the loop, and returns whether the loop goes on. The
// body is not a closure: a defer in it is the enclosing function's, a return
// in it returns from the enclosing function, and break, continue, a labeled
// branch to an outer loop or return end the nested run of the body at a
// sentinel node that records where the loop goes once the range function
// has returned.

import (
	"reflect"
)

// rangeFuncInfo is what the compiler keeps of a range-over-func statement:
// the sentinel nodes that end a run of its body, one per place control
// leaves the body to (the statement itself for continue).
type rangeFuncInfo struct {
	exits []*node // sentinels; an exit's tnext is where the branch goes
	cont  int     // index of the exit of continue (the body's end)
}

// RangeFuncError is the run-time panic of a range function that breaks
// the contract of yield (toolscript patch 65), with Go's message: it calls
// yield again after yield returned false, or after the loop ended, or it
// recovers a panic of the loop body and goes on.
type RangeFuncError struct {
	Msg string
}

// RuntimeError marks a RangeFuncError as Go's run-time errors are marked.
func (*RangeFuncError) RuntimeError() {}

// Error returns Go's message.
func (e *RangeFuncError) Error() string { return "runtime error: " + e.Msg }

// rangeFuncYield reports whether t is the type of a range function and
// returns the type of its yield parameter.
func rangeFuncYield(t *itype) (*itype, bool) {
	for t != nil && t.cat == linkedT {
		t = t.val
	}
	if t == nil {
		return nil, false
	}
	switch t.cat {
	case funcT:
		if len(t.arg) != 1 || len(t.ret) != 0 {
			return nil, false
		}
		y := t.arg[0]
		for y != nil && y.cat == linkedT {
			y = y.val
		}
		if y == nil {
			return nil, false
		}
		switch y.cat {
		case funcT:
			if len(y.arg) <= 2 && len(y.ret) == 1 && y.ret[0].TypeOf() != nil && y.ret[0].TypeOf().Kind() == reflect.Bool {
				return y, true
			}
		case valueT:
			if isYieldType(y.rtype) {
				return y, true
			}
		}
	case valueT:
		rt := t.rtype
		if rt != nil && rt.Kind() == reflect.Func && rt.NumIn() == 1 && rt.NumOut() == 0 && isYieldType(rt.In(0)) {
			return valueTOf(rt.In(0)), true
		}
	}
	return nil, false
}

func isYieldType(rt reflect.Type) bool {
	return rt != nil && rt.Kind() == reflect.Func && rt.NumIn() <= 2 && !rt.IsVariadic() &&
		rt.NumOut() == 1 && rt.Out(0).Kind() == reflect.Bool
}

// yieldArgs returns the types of the parameters of yield type y.
func yieldArgs(y *itype) []*itype {
	if y.cat == funcT {
		return y.arg
	}
	args := make([]*itype, y.rtype.NumIn())
	for i := range args {
		args[i] = valueTOf(y.rtype.In(i))
	}
	return args
}

// wireRangeFunc wires the range-over-func statement n (post-order): the
// range expression, then the statement, which calls the function; the
// body's start is where each call of yield begins. Every edge from inside
// the body to a node outside it (the body's end, continue, break, labeled
// branches, the exits of inner range-over-func loops that leave this body
// too) goes to a sentinel instead; a goto out of the body is a compile
// error.
func wireRangeFunc(n *node, info *rangeFuncInfo) error {
	k, o, body := n.child[0], n.child[1], n.child[2]
	if len(n.child) == 4 {
		o, body = n.child[2], n.child[3]
	}
	n.start = o.start
	o.tnext = n
	k.gen = empty
	body.start = body.child[0]
	n.tnext = body.start
	body.tnext = n

	inside := func(t *node) bool { return t == body || t.hasAnc(body) }
	byTarget := map[*node]*node{}
	exit := func(t *node) *node {
		if s, ok := byTarget[t]; ok {
			return s
		}
		s := &node{anc: n, interp: n.interp, pos: n.pos, scope: n.scope, gen: rangeFuncExit(k.findex-1, int64(len(info.exits))), tnext: t}
		if t == n {
			info.cont = len(info.exits)
		}
		byTarget[t] = s
		info.exits = append(info.exits, s)
		return s
	}
	exit(n) // continue is exit 0 even when nothing else refers to it
	var err error
	body.Walk(func(c *node) bool {
		if err != nil {
			return false
		}
		if c.kind == gotoStmt && (c.tnext == nil || !inside(c.tnext)) {
			err = c.cfgErrorf("goto %s jumps out of the body of a range-over-func loop: not supported", c.child[0].ident)
			return false
		}
		if c.tnext != nil && !inside(c.tnext) {
			c.tnext = exit(c.tnext)
		}
		if c.fnext != nil && !inside(c.fnext) {
			c.fnext = exit(c.fnext)
		}
		if inner, ok := c.val.(*rangeFuncInfo); ok && c.kind == rangeStmt {
			for _, s := range inner.exits {
				if !inside(s.tnext) {
					s.tnext = exit(s.tnext)
				}
			}
		}
		return c.kind != funcLit
	}, nil)
	return err
}

// rangeFuncExit makes the generator of the sentinel i of a range-over-func
// loop: it records i in the loop's status slot and ends the run of the
// body.
func rangeFuncExit(status int, i int64) bltnGenerator {
	return func(n *node) {
		n.exec = func(f *frame) bltn {
			f.data[status].SetInt(i)
			return nil
		}
	}
}

// rangeFunc generates the range-over-func statement n.
func rangeFunc(n *node) {
	info := n.val.(*rangeFuncInfo)
	k := n.child[0]
	var v *node
	if len(n.child) == 4 && n.child[1].ident != "_" {
		v = n.child[1]
	}
	o := n.child[len(n.child)-2]
	status := k.findex - 1
	fnext := getExec(n.fnext)
	body := getExec(n.tnext)
	fn := genValueAsFunctionWrapper(o)
	in := n.interp
	bodyNode := n.tnext
	cont := int64(info.cont)

	n.exec = func(f *frame) bltn {
		fv := fn(f)
		if fv.IsNil() {
			panic(&RuntimeError{Kind: KindNilDereference})
		}
		const (
			running = iota
			inBody  // the body runs, or panicked
			stopped // the body returned false
			ended   // the range function returned
		)
		recovered := &RangeFuncError{Msg: "range function recovered a loop body panic and did not resume panicking"}
		state, done := running, false
		yield := reflect.MakeFunc(fv.Type().In(0), func(args []reflect.Value) []reflect.Value {
			switch state {
			case inBody:
				panic(&RangeFuncError{Msg: "range function continued iteration after loop body panic"})
			case stopped:
				panic(&RangeFuncError{Msg: "range function continued iteration after function for loop body returned false"})
			case ended:
				panic(&RangeFuncError{Msg: "range function continued iteration after whole loop exit"})
			}
			if len(args) > 0 {
				f.data[k.findex].Set(args[0])
			}
			if v != nil && len(args) > 1 {
				f.data[v.findex].Set(args[1])
			}
			f.data[status].SetInt(-1)
			state = inBody
			runRangeBody(in, f, body, bodyNode)
			state = running
			if f.data[status].Int() == cont {
				return []reflect.Value{reflect.ValueOf(true)}
			}
			state = stopped
			return []reflect.Value{reflect.ValueOf(false)}
		})
		func() {
			defer func() { done, state = state == stopped, ended }()
			fv.Call([]reflect.Value{yield})
			if state == inBody {
				panic(recovered)
			}
		}()
		if !done {
			return fnext
		}
		st := f.data[status].Int()
		if st < 0 {
			// A return (its results are in the frame) or a stop.
			return nil
		}
		return getExec(info.exits[st].tnext)
	}
}

// runRangeBody runs one iteration of a range-over-func loop's body, until a
// sentinel or a return ends it. A panic is noted where it started, before
// the range function's frames see it.
func runRangeBody(in *Interpreter, f *frame, exec bltn, bodyNode *node) {
	defer func() {
		if r := recover(); r != nil {
			r = runtimePanic(r)
			in.notePanicSite(r, originalExecNode(bodyNode, exec), bodyNode)
			panic(r)
		}
	}()
	for exec != nil && f.runid() == in.runid() {
		exec = exec(f)
	}
}

// rangeFuncVars checks the iteration variables k and v (nil or "_" when
// absent) of the range-over-func statement n against yield type y, as Go
// does, and returns their types (a placeholder for an absent one).
func rangeFuncVars(sc *scope, n *node, y *itype, k, v *node) (ktyp, vtyp *itype, err error) {
	args := yieldArgs(y)
	o := n.child[len(n.child)-2]
	what := o.ident
	if what == "" {
		what = "a function of type " + o.typ.id()
	}
	switch {
	case len(args) == 0 && (k.ident != "_" || v != nil):
		return nil, nil, n.cfgErrorf("range over %s permits no iteration variables", what)
	case len(args) == 1 && v != nil:
		return nil, nil, n.cfgErrorf("range over %s permits only one iteration variable", what)
	}
	ktyp, vtyp = sc.getType("bool"), sc.getType("bool")
	if len(args) > 0 {
		ktyp = args[0]
	}
	if len(args) > 1 {
		vtyp = args[1]
	}
	return ktyp, vtyp, nil
}
