package interp

import (
	"reflect"
	"strings"
)

// toolscript patch 101: a method expression of an interface type
// (Shape.Area, fmt.Stringer.String) is a function whose first argument
// is the interface value, whose method it calls (patch 93 refused it).

// binInterfaceMethodExpr compiles n, the method expression of the native
// interface type rt's method name: a function of the method's arguments
// after the interface value, calling the method of the value it holds.
func binInterfaceMethodExpr(n *node, rt reflect.Type, name string) error {
	m, ok := rt.MethodByName(name)
	if !ok {
		return n.cfgErrorf("%s.%s undefined (type %s has no method %s)", rt, name, rt, name)
	}
	in := []reflect.Type{rt}
	for i := 0; i < m.Type.NumIn(); i++ {
		in = append(in, m.Type.In(i))
	}
	var out []reflect.Type
	for i := 0; i < m.Type.NumOut(); i++ {
		out = append(out, m.Type.Out(i))
	}
	variadic := m.Type.IsVariadic()
	ft := reflect.FuncOf(in, out, variadic)
	n.typ = valueTOf(ft)
	n.rval = reflect.MakeFunc(ft, func(args []reflect.Value) []reflect.Value {
		if args[0].IsNil() {
			panic(&RuntimeError{Kind: KindNilDereference})
		}
		f := args[0].Elem().MethodByName(name)
		if variadic {
			return f.CallSlice(args[1:])
		}
		return f.Call(args[1:])
	})
	n.gen = nop
	n.action = aGetSym
	n.findex = notInFrame
	return nil
}

// interfaceMethodExpr compiles n, the method expression of a method of a
// script interface type: a function of the method's arguments after the
// interface value, calling the method of the value it holds, found as a
// call of the method through the interface finds it (getMethodByName).
func interfaceMethodExpr(n *node) error {
	it, name := n.typ, n.child[1].ident
	var mt *itype
	if ti := it.lookupField(name); len(ti) > 0 {
		mt = it.fieldSeq(ti)
	}
	if mt == nil || mt.cat != funcT {
		t := strings.TrimPrefix(it.id(), "main.")
		return n.cfgErrorf("%s.%s undefined (type %s has no method %s)", t, name, t, name)
	}
	ftyp := funcOf(append([]*itype{it}, mt.arg...), mt.ret, withNode(n), withScope(it.scope))
	variadic := len(mt.arg) > 0 && mt.arg[len(mt.arg)-1].cat == variadicT
	interp := n.interp
	n.typ = ftyp
	n.rval = reflect.MakeFunc(ftyp.TypeOf(), func(args []reflect.Value) []reflect.Value {
		val, _ := args[0].Interface().(valueInterface)
		for {
			v, ok := val.value.Interface().(valueInterface)
			if !ok {
				break
			}
			val = v
		}
		if val.node == nil || !val.value.IsValid() {
			panic(&RuntimeError{Kind: KindNilDereference})
		}
		f := val.value.MethodByName(name)
		if !f.IsValid() {
			r, m, li := lookupMethodValue(val, name)
			switch {
			case r.IsValid():
				f = r
			case m != nil:
				nod := *m
				nod.val = &nod
				nod.recv = &receiver{nil, val.value, li}
				f = genFunctionWrapper(&nod)(interp.frame)
			default:
				panic(n.cfgErrorf("method not found: %s", name))
			}
		}
		if variadic {
			return f.CallSlice(args[1:])
		}
		return f.Call(args[1:])
	})
	n.gen = nop
	n.action = aGetSym
	n.findex = notInFrame
	return nil
}
