package interp

// toolscript patch 38: a type switch case or a type assertion of an
// interface type (error, fmt.Stringer, io.Reader, a script interface)
// tests the method set of the dynamic value as Go does, whatever held it
// (an any, an element of a []any or a map[string]any, a tool's or a
// function's result): the script's methods of its type, with the methods
// promoted through embedded structs and pointers, and no pointer-receiver
// method for a value; a native value by its own methods. Upstream
// compared type names, so `case error:` on an any holding a script error
// (or a native one) went to default, and an assertion to a script
// interface of a value whose methods were promoted panicked ("method not
// found").

import (
	"reflect"
	"sync"
)

// ifaceAssertion is the assertion of values to the interface type typ.
type ifaceAssertion struct {
	typ   *itype
	rtype reflect.Type // the type of a variable of type typ
	want  methodSet
	src   bool // a script interface: its variables hold a valueInterface
	empty bool

	mu     sync.Mutex
	wraps  map[*itype]func(*frame, reflect.Value) reflect.Value
	native map[reflect.Type]*node
}

// isAssertedIface tells whether t is an interface type that an assertion
// tests by method set.
func isAssertedIface(t *itype) bool {
	return t != nil && t.cat != nilT && isInterface(t)
}

func newIfaceAssertion(t *itype) *ifaceAssertion {
	return &ifaceAssertion{
		typ:   t,
		rtype: t.frameType(),
		want:  t.methods(),
		src:   isInterfaceSrc(t) && !isEmptyInterface(t),
		empty: len(t.methods()) == 0,
	}
}

// dynamicValue returns the dynamic value of v, a value of an interface
// type: the node of its script type (nil for a native value) and its
// value; ok is false for a nil interface.
func dynamicValue(v reflect.Value) (*node, reflect.Value, bool) {
	for {
		if !v.IsValid() {
			return nil, v, false
		}
		if v.Kind() == reflect.Interface {
			if v.IsNil() {
				return nil, reflect.Value{}, false
			}
			v = v.Elem()
			continue
		}
		if !v.CanInterface() {
			return nil, v, true
		}
		if v.Kind() == reflect.Struct {
			// toolscript patch 87: a script error in its error wrapper
			// (a function's error result) is its script value, whose
			// method set an assertion to a script interface checks (it
			// was the wrapper, which has Error alone); toolscript patch
			// 152: so is a script value in a generated wrapper.
			if nod := wrapperNode(v); nod != nil && nod.typ != nil && !isInterfaceSrc(nod.typ) {
				iv := v.Field(0)
				if iv.Kind() == reflect.Interface {
					iv = iv.Elem()
				}
				if iv.IsValid() && iv.CanInterface() {
					if vi, ok := iv.Interface().(valueInterface); ok {
						iv = vi.value
					}
				}
				if iv.IsValid() {
					return nod, iv, true
				}
			}
		}
		vi, ok := v.Interface().(valueInterface)
		if !ok {
			return nil, v, true
		}
		if vi.node == nil || vi.node.typ == nil {
			return nil, reflect.Value{}, false
		}
		if isInterfaceSrc(vi.node.typ) || isBin(vi.node.typ) {
			v = vi.value
			continue
		}
		if !vi.value.IsValid() {
			return nil, reflect.Value{}, false
		}
		return vi.node, vi.value, true
	}
}

// assert returns v, a value of an interface type, as a value of the
// asserted type and whether its dynamic type implements it; missing is
// a method it lacks.
func (a *ifaceAssertion) assert(f *frame, v reflect.Value) (res reflect.Value, ok bool, concrete, missing string) {
	nod, raw, ok := dynamicValue(v)
	if !ok {
		return reflect.Value{}, false, "", ""
	}
	if nod != nil {
		concrete = nod.typ.id()
		if nod.typ.cat == ptrT && nod.typ.val != nil && nod.typ.val.name != "" {
			concrete = "*" + nod.typ.val.id()
		}
	} else {
		concrete = raw.Type().String()
	}
	if a.empty {
		if v.Kind() == reflect.Interface {
			return v, true, concrete, ""
		}
		return raw, true, concrete, ""
	}
	if nod == nil {
		if missing = nativeMissing(raw.Type(), a.want); missing != "" {
			return reflect.Value{}, false, concrete, missing
		}
		if !a.src {
			return raw, true, concrete, ""
		}
		return reflect.ValueOf(valueInterface{a.nativeNode(raw.Type()), raw}), true, concrete, ""
	}
	if missing = scriptMissing(nod.typ, a.want); missing != "" {
		return reflect.Value{}, false, concrete, missing
	}
	if a.src {
		return reflect.ValueOf(valueInterface{nod, raw}), true, concrete, ""
	}
	return a.wrapper(nod)(f, raw), true, concrete, ""
}

// nativeNode is the node a script interface's valueInterface names for
// a native value of type rt.
func (a *ifaceAssertion) nativeNode(rt reflect.Type) *node {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.native == nil {
		a.native = map[reflect.Type]*node{}
	}
	n := a.native[rt]
	if n == nil {
		n = &node{typ: valueTOf(rt)}
		a.native[rt] = n
	}
	return n
}

// wrapper returns the conversion of a value of nod's script type to the
// native interface type asserted.
func (a *ifaceAssertion) wrapper(nod *node) func(*frame, reflect.Value) reflect.Value {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.wraps == nil {
		a.wraps = map[*itype]func(*frame, reflect.Value) reflect.Value{}
	}
	w := a.wraps[nod.typ]
	if w == nil {
		w = interfaceWrapperOf(nod, a.rtype)
		if w == nil {
			w = func(_ *frame, v reflect.Value) reflect.Value { return v }
		}
		a.wraps[nod.typ] = w
	}
	return w
}

// nativeMissing is a method of want that a native type rt lacks, "" if
// it has them all.
func nativeMissing(rt reflect.Type, want methodSet) string {
	have := methodSet{}
	for name, sig := range want {
		m, ok := rt.MethodByName(name)
		if !ok {
			continue
		}
		got := m.Type.String()
		if rt.Kind() != reflect.Interface {
			if s, err := stripReceiverFromArgs(got); err == nil {
				got = s
			}
		}
		if got == sig {
			have[name] = sig
		}
	}
	if len(have) == len(want) {
		return ""
	}
	return missingMethod(have, want)
}

// scriptMissing is a method of want that is not in the method set of the
// script type t, "" if it has them all.
func scriptMissing(t *itype, want methodSet) string {
	have := methodSet{}
	for name, sig := range want {
		if scriptHasMethod(t, name, sig) {
			have[name] = sig
		}
	}
	if len(have) == len(want) {
		return ""
	}
	return missingMethod(have, want)
}

// scriptHasMethod tells whether the method set of t has the method name
// of signature sig: declared on t, or promoted from an embedded field;
// a pointer-receiver method only for a pointer or through an embedded
// pointer.
func scriptHasMethod(t *itype, name, sig string) bool {
	if m, index := t.lookupMethod(name); m != nil && m.typ != nil {
		if m.typ.recv != nil && m.typ.recv.cat == ptrT && t.cat != ptrT && !embeddedViaPointer(t, index) {
			return false
		}
		return sameSignature(m.typ.TypeOf().String(), sig)
	}
	// toolscript patch 131: promoted from an embedded field of a script
	// interface type.
	if mt := promotedIfaceMethod(t, name); mt != nil && mt.cat == funcT {
		return sameSignature(mt.TypeOf().String(), sig)
	}
	rm, index, isPtr, ok := t.lookupBinMethod(name)
	if !ok || len(index) == 0 {
		return false // a script type's own reflect type has no methods
	}
	if isPtr && t.cat != ptrT && !embeddedViaPointer(t, index) {
		return false
	}
	return sameSignature(rm.Type.String(), sig)
}

func sameSignature(got, want string) bool {
	if got == want {
		return true
	}
	s, err := stripReceiverFromArgs(got)
	return err == nil && s == want
}

// embeddedViaPointer tells whether the path index of embedded fields from
// t goes through a pointer, so that pointer-receiver methods are promoted.
func embeddedViaPointer(t *itype, index []int) bool {
	cur := t
	for _, i := range index {
		for cur.cat == linkedT && cur.val != nil {
			cur = cur.val
		}
		if cur.cat == ptrT {
			cur = cur.val
			for cur.cat == linkedT && cur.val != nil {
				cur = cur.val
			}
		}
		if i >= len(cur.field) {
			return false
		}
		ft := cur.field[i].typ
		if ft.cat == ptrT {
			return true
		}
		cur = ft
	}
	return false
}

// keepsMethods tells whether a value of type t converted to an empty
// interface keeps its script type, for its methods: a script type whose
// method set, with promoted methods, is not empty (toolscript patch 38;
// upstream tested the type's own methods only), or a named type the
// script declares and a pointer to one (toolscript patch 118).
func keepsMethods(t *itype) bool {
	if t == nil || isBin(t) {
		return false
	}
	if declaredNamed(t) || t.cat == ptrT && declaredNamed(t.val) { // toolscript patch 118: a named type of the script, or a pointer to one
		return true
	}
	return hasMethods(t)
}

// hasMethods tells whether the method set of t, a script type, with
// promoted methods, is not empty (toolscript patch 118: what
// keepsMethods tested before).
func hasMethods(t *itype) bool {
	if len(t.method) > 0 {
		return true
	}
	switch t.cat {
	case structT, ptrT, linkedT:
		return len(t.methods()) > 0
	}
	return false
}

// declaredNamed tells whether t is a named type that the script declares
// (type Status string, type Row struct{ ... }) or an instance of a
// generic struct type of the script (Pair[int]), not an interface: a
// value of it, or a pointer to one, converted to an interface keeps its
// type as one of a type with methods does (toolscript patch 118; it was
// held as its representation, so an assertion of string on any string
// could not tell it from a Status). An alias is the type it names; a
// type declared in a function body is named as Go names it (main.Loc).
func declaredNamed(t *itype) bool {
	if t == nil || t.name == "" || t.path == "" || t.untyped || isBin(t) {
		return false
	}
	switch t.cat {
	case interfaceT, errorT, valueT, nilT, genericT, constraintT, comparableT, builtinT, binPkgT, srcPkgT:
		return false
	}
	return !isInterface(t)
}

// keptType is keepsMethods(t), computed once per type and interpreter
// for the run-time checks of patch 112 (keepsMethods builds the method
// set of a struct type on every call). A method a later session input
// declares on t is not seen: a value converted since is the
// interpreter's record of it, which the checks match by its type.
func (interp *Interpreter) keptType(t *itype) bool {
	if interp == nil {
		return keepsMethods(t)
	}
	if k, ok := interp.keptTypes.Load(t); ok {
		return k.(bool)
	}
	k := keepsMethods(t)
	interp.keptTypes.Store(t, k)
	return k
}
