package interp

import "reflect"

// Method expressions (toolscript patch 93): T.M and (*T).M of a script
// type are functions whose first argument is the receiver. Called
// directly, held in a variable or passed to a function, the argument is
// turned into the receiver the method declares: the embedded field that
// promotes the method, dereferenced ((*T).M of a value-receiver method)
// or addressed ((*T).M of a method promoted from an embedded T's pointer
// receiver). Upstream set the argument itself in the receiver's slot (a
// reflect panic for any of those) and made the function of a method
// expression held in a variable with the method's type, receiver left
// out.

// methodExpr returns the method that the method expression n selects
// and the path of embedded fields from the expression's type to the
// method's receiver; m is nil when n is no method expression of a
// script type's method.
func methodExpr(n *node) (m *node, index []int) {
	if n == nil || n.kind != selectorExpr || n.action != aGetMethod || n.recv != nil || n.findex != notInFrame || len(n.child) != 2 {
		return nil, nil
	}
	if d, ok := n.val.(*node); !ok || d.kind != funcDecl || n.child[0].typ == nil {
		return nil, nil
	}
	return n.child[0].typ.lookupMethod(n.child[1].ident)
}

// methodExprRecv returns the receiver of type want for the first
// argument v of a method expression: the embedded field at index,
// dereferenced or addressed as want needs. A nil pointer on the way
// panics as Go's runtime does.
func methodExprRecv(v reflect.Value, index []int, want reflect.Type) reflect.Value {
	for _, i := range index {
		if v.Kind() == reflect.Ptr {
			v = derefMethodExprRecv(v)
		}
		v = v.Field(i)
		if v.Type() == valueInterfaceType {
			if vi, ok := v.Interface().(valueInterface); ok {
				v = vi.value
			}
		}
	}
	switch t := v.Type(); {
	case t == want:
	case t.Kind() == reflect.Ptr && t.Elem() == want:
		v = derefMethodExprRecv(v)
	case v.CanAddr() && reflect.PointerTo(t) == want:
		v = v.Addr()
	}
	return v
}

func derefMethodExprRecv(v reflect.Value) reflect.Value {
	if v.IsNil() {
		panic(&RuntimeError{Kind: KindNilDereference})
	}
	return v.Elem()
}

// binMethodExpr compiles n when it is a method expression of a native
// type (time.Duration.String, (*strings.Builder).WriteString): the
// method's function, receiver first, as reflect gives it. ok is false
// when n is no such expression. One of an interface type is
// binInterfaceMethodExpr's.
func binMethodExpr(sc *scope, n *node) (ok bool, err error) {
	t := n.typ
	if t.cat == ptrT && t.val != nil && (t.val.cat == valueT || t.val.cat == errorT) {
		t = ptrOf(t.val)
	} else if t.cat != valueT && t.cat != errorT {
		return false, nil
	}
	if !n.child[0].isType(sc) {
		return false, nil
	}
	rt, name := t.TypeOf(), n.child[1].ident
	if rt.Kind() == reflect.Interface {
		return true, binInterfaceMethodExpr(n, rt, name) // toolscript patch 101: made
	}
	m, found := rt.MethodByName(name)
	if !found {
		if _, ptr := reflect.PointerTo(rt).MethodByName(name); ptr {
			return true, n.cfgErrorf("invalid method expression %s.%s (needs pointer receiver (*%s).%s)", rt, name, rt, name)
		}
		return true, n.cfgErrorf("%s.%s undefined (type %s has no method %s)", rt, name, rt, name)
	}
	n.typ = valueTOf(m.Type)
	n.rval = m.Func
	n.gen = nop
	n.action = aGetSym
	n.findex = notInFrame
	return true, nil
}
