package interp // toolscript patch 152

// toolscript patch 152: a script value in a variable of a native
// interface type (fmt.Stringer, io.Writer, sort.Interface, error) is the
// interpreter's interface wrapper, a struct of the held value (IValue)
// and one function per method. Native code calling the methods is
// served, but fmt and encoding/json saw the wrapper itself: %T printed
// stdlib._fmt_Stringer, %v of a wrapper whose type fmt calls no method
// of (an io.Writer holding a script struct) printed the wrapper's
// fields, %#v failed, json.Marshal failed with "unsupported type: func()
// string", and == of two wrappers panicked. A wrapper records the
// script type of the value it holds: the fork's error wrappers in their
// node field, the generated ones (internal/policy/gen) in an unexported
// field node of type interface{} that holds a wrappedScript. fmt prints,
// %T and %#v name, == compares and json marshals (the generated
// wrappers' MarshalJSON, MarshalWrapped) the held value by that type, as
// Go does the interface's dynamic value.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unsafe"
)

// wrappedScript is what a generated interface wrapper's node field
// holds: the node of the script type of the wrapper's value, as an
// unsafe.Pointer, which the host's walks of values (the engine's checks
// of printed and template data for cycles, Plain) do not follow into the
// interpreter's syntax tree.
type wrappedScript struct{ n unsafe.Pointer }

var wrappedScriptType = reflect.TypeOf(wrappedScript{})

// MarshalWrapped is the JSON of v, the value of w's type a generated
// wrapper holds, as the interpreter marshals a value of that type held
// in an interface (the type's MarshalJSON or MarshalText method, the
// methods of its fields).
func (w wrappedScript) MarshalWrapped(v interface{}) ([]byte, error) {
	return marshalHeld((*node)(w.n), reflect.ValueOf(v))
}

// marshalHeld is the JSON of v, a value of the script type of nod held in
// an interface wrapper.
func marshalHeld(nod *node, v reflect.Value) ([]byte, error) {
	if v.IsValid() && v.CanInterface() {
		if vi, ok := v.Interface().(valueInterface); ok {
			v = vi.value
		}
	}
	if nod == nil || nod.typ == nil {
		if !v.IsValid() || !v.CanInterface() {
			return []byte("null"), nil
		}
		return json.Marshal(v.Interface())
	}
	if t := recordType(nod.typ); t != nil && t != nod.typ {
		nod = &node{typ: t, interp: nod.interp}
	}
	return valueInterface{node: nod, value: v}.MarshalJSON()
}

// MarshalJSON of an error wrapper (errwrap.go) marshals the script value
// it holds, as MarshalWrapped does a generated wrapper's.
func (w _scriptError) MarshalJSON() ([]byte, error) {
	return marshalHeld(w.node, reflect.ValueOf(w.IValue))
}
func (w _scriptErrorAs) MarshalJSON() ([]byte, error) {
	return marshalHeld(w.node, reflect.ValueOf(w.IValue))
}
func (w _scriptErrorIs) MarshalJSON() ([]byte, error) {
	return marshalHeld(w.node, reflect.ValueOf(w.IValue))
}
func (w _scriptErrorIsAs) MarshalJSON() ([]byte, error) {
	return marshalHeld(w.node, reflect.ValueOf(w.IValue))
}
func (w _scriptErrorU) MarshalJSON() ([]byte, error) {
	return marshalHeld(w.node, reflect.ValueOf(w.IValue))
}
func (w _scriptErrorUAs) MarshalJSON() ([]byte, error) {
	return marshalHeld(w.node, reflect.ValueOf(w.IValue))
}
func (w _scriptErrorUIs) MarshalJSON() ([]byte, error) {
	return marshalHeld(w.node, reflect.ValueOf(w.IValue))
}
func (w _scriptErrorUIsAs) MarshalJSON() ([]byte, error) {
	return marshalHeld(w.node, reflect.ValueOf(w.IValue))
}
func (w _scriptErrorUs) MarshalJSON() ([]byte, error) {
	return marshalHeld(w.node, reflect.ValueOf(w.IValue))
}
func (w _scriptErrorUsAs) MarshalJSON() ([]byte, error) {
	return marshalHeld(w.node, reflect.ValueOf(w.IValue))
}
func (w _scriptErrorUsIs) MarshalJSON() ([]byte, error) {
	return marshalHeld(w.node, reflect.ValueOf(w.IValue))
}
func (w _scriptErrorUsIsAs) MarshalJSON() ([]byte, error) {
	return marshalHeld(w.node, reflect.ValueOf(w.IValue))
}

// generatedWrapperNode returns the node that v, a generated interface
// wrapper (its first field IValue, its last node), records, nil for
// another value or a wrapper made without one.
func generatedWrapperNode(v reflect.Value) *node {
	if v.Kind() != reflect.Struct {
		return nil
	}
	t := v.Type()
	k := t.NumField() - 1
	if k < 1 || t.Field(0).Name != "IValue" || t.Field(k).Name != "node" || t.Field(k).Type.Kind() != reflect.Interface {
		return nil
	}
	f := v.Field(k)
	if f.IsNil() {
		return nil
	}
	e := f.Elem()
	if e.Type() != wrappedScriptType {
		return nil
	}
	return (*node)(e.Field(0).UnsafePointer())
}

// wrapperScriptNode is the node of the concrete script type of a value
// converted to a native interface, for its wrapper: n, the node of the
// conversion, or for a value of a script interface type the node of the
// value it holds, n2 (%T of it named the interface).
func wrapperScriptNode(n, n2 *node) *node {
	if n2 == nil || n.typ != nil && !isInterface(n.typ) {
		return n
	}
	t := recordType(n2.typ)
	switch {
	case t == nil:
		return n
	case t != n2.typ: // a conversion's record: the interface with the type as val
		return &node{typ: t, interp: n2.interp}
	}
	return n2
}

// wrappedHeld returns the script type of the value an interface wrapper,
// v or the value in the interface v, holds, with that value; ok is false
// when v is no wrapper recording its type.
func wrappedHeld(v reflect.Value) (t *itype, held reflect.Value, ok bool) {
	for v.IsValid() && v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil, reflect.Value{}, false
		}
		v = v.Elem()
	}
	if !v.IsValid() || v.Kind() != reflect.Struct {
		return nil, reflect.Value{}, false
	}
	nod := wrapperNode(v)
	if nod == nil || nod.typ == nil {
		return nil, reflect.Value{}, false
	}
	if t = recordType(nod.typ); t == nil {
		return nil, reflect.Value{}, false
	}
	held = v.Field(0)
	if held.Kind() == reflect.Interface {
		held = held.Elem()
	}
	if held.IsValid() && held.CanInterface() {
		if vi, ok := held.Interface().(valueInterface); ok {
			held = vi.value
		}
	}
	if !held.IsValid() {
		return nil, reflect.Value{}, false
	}
	return t, held, true
}

// nativeIface tells whether t is a native interface type with methods
// (error, fmt.Stringer, io.Writer), whose values may be wrappers.
func nativeIface(t *itype) bool {
	if t == nil {
		return false
	}
	if t.cat == errorT {
		return true
	}
	return t.cat == valueT && t.rtype != nil && t.rtype.Kind() == reflect.Interface && t.rtype.NumMethod() > 0
}

// fmtWrapped converts for printing a value that v, a wrapper or an
// interface holding one, holds, as a value of its script type printed at
// top level (an argument) or inside another value; ok is false when v
// holds no wrapper.
func (interp *Interpreter) fmtWrapped(f *frame, v reflect.Value, top bool) (reflect.Value, bool) {
	t, held, ok := wrappedHeld(v)
	if !ok {
		return v, false
	}
	if recordCycle(held) {
		return held, true
	}
	if c := interp.fmtConv(t, top); c != nil {
		return c(f, held), true
	}
	return held, true
}

// fmtNativeIface is the conversion for printing of a value of a native
// interface type with methods, at top level or not.
func (interp *Interpreter) fmtNativeIface(top bool) fmtConvFunc {
	return func(f *frame, v reflect.Value) reflect.Value {
		if c, ok := interp.fmtWrapped(f, v, top); ok {
			return c
		}
		return v
	}
}

// errorfArg is the value of argument arg of a call of Errorf whose
// static type is an interface: converted for printing (conv of raw),
// unless the format's verb for it may be %w, which needs the error itself
// (prior): a %w, a verb of an explicit argument index, an extra argument.
func errorfArg(format, prior, raw func(*frame) reflect.Value, conv fmtConvFunc, arg int) func(*frame) reflect.Value {
	return func(f *frame) reflect.Value {
		if verb := verbAt(format(f).String(), arg); verb == 0 || verb == 'w' {
			return prior(f)
		}
		return conv(f, raw(f))
	}
}

// jsonMarshalErrorFix returns, for the call n of json.Marshal,
// json.MarshalIndent or (*json.Encoder).Encode, what removes from its
// error the *json.MarshalerError that encoding/json puts around an error
// of the MarshalJSON method of an interpreter's value (a wrapper, a
// record), which Go's error does not have: "json: error calling
// MarshalJSON for type stdlib._fmt_Stringer: json: unsupported type: chan
// int" is Go's "json: unsupported type: chan int"; nil for another call.
func jsonMarshalErrorFix(n *node) func(out []reflect.Value) {
	if len(n.child) == 0 {
		return nil
	}
	c0 := n.child[0]
	if c0.kind != selectorExpr || len(c0.child) != 2 {
		return nil
	}
	name := c0.child[1].ident
	if pkg := c0.child[0]; pkg.sym != nil && pkg.sym.typ != nil && pkg.sym.typ.cat == binPkgT {
		if pkg.sym.typ.path != "encoding/json" || name != "Marshal" && name != "MarshalIndent" {
			return nil
		}
	} else if rt := c0.child[0].typ; rt == nil || rt.cat != valueT || rt.rtype != jsonEncoderType || name != "Encode" {
		return nil
	}
	return func(out []reflect.Value) {
		if len(out) == 0 || !out[len(out)-1].IsValid() || !out[len(out)-1].CanInterface() {
			return
		}
		err, _ := out[len(out)-1].Interface().(error)
		fixed := err
		for {
			me, ok := fixed.(*json.MarshalerError)
			if !ok || me == nil || !interpMarshaler(me.Type) {
				break
			}
			fixed = me.Err
		}
		if fixed != err {
			e := reflect.New(out[len(out)-1].Type()).Elem()
			if fixed != nil {
				e.Set(reflect.ValueOf(fixed))
			}
			out[len(out)-1] = e
		}
	}
}

// interpMarshaler tells whether rt is the type of an interpreter's value
// whose MarshalJSON marshals a script value: a record, an interface
// wrapper.
func interpMarshaler(rt reflect.Type) bool {
	if rt == nil {
		return false
	}
	if rt == valueInterfaceType || rt.Implements(scriptNoder) {
		return true
	}
	if rt.Kind() != reflect.Struct {
		return false
	}
	k := rt.NumField() - 1
	return k >= 1 && rt.Field(0).Name == "IValue" && rt.Field(k).Name == "node" && rt.Field(k).Type.Kind() == reflect.Interface
}

var scriptNoder = reflect.TypeOf((*interface{ scriptNode() *node })(nil)).Elem()

// wrappedRecord returns the interpreter's record of the value x, an
// interface wrapper recording its type, holds; ok is false for another x.
func wrappedRecord(x interface{}) (valueInterface, bool) {
	v := reflect.ValueOf(x)
	if v.Kind() != reflect.Struct {
		return valueInterface{}, false
	}
	if _, held, ok := wrappedHeld(v); ok {
		return valueInterface{node: wrapperNode(v), value: held}, true
	}
	return valueInterface{}, false
}

// fmtPlainWrapped is the conversion for printing of a value of a native
// interface type under an unexported field, where fmt calls no method:
// the value a wrapper holds, converted as such a field's value of its
// type.
func (interp *Interpreter) fmtPlainWrapped(f *frame, v reflect.Value) reflect.Value {
	t, held, ok := wrappedHeld(v)
	if !ok {
		return v
	}
	interp.fmtConvs.Lock()
	c := interp.fmtPlainLocked(t)
	interp.fmtConvs.Unlock()
	if c != nil {
		return c(f, held)
	}
	return held
}

// wrapperKeyError is the run-time error of the node n where a map key of
// the reflect type named t panicked as unhashable, when t is an
// interface wrapper: Go hashes the script value a native interface holds
// (a map[fmt.Stringer]V keyed by a struct), the interpreter's wrapper
// has func fields and cannot be hashed; nil for another type.
func wrapperKeyError(n *node, t string) error {
	if n == nil || n.interp == nil || !strings.Contains(t, "._") {
		return nil
	}
	iface := ""
	for _, byKind := range scriptErrorWrappers {
		for _, byIs := range byKind {
			for _, w := range byIs {
				if w.String() == t {
					iface = "error"
				}
			}
		}
	}
	if iface == "" {
		for path, syms := range n.interp.binPkg {
			for name, v := range syms {
				if strings.HasPrefix(name, "_") && v.IsValid() && v.Kind() == reflect.Ptr && v.Type().Elem().String() == t {
					iface = path + "." + name[1:]
				}
			}
		}
	}
	if iface == "" {
		return nil
	}
	return n.cfgErrorf("a script value held in an interface of type %s used as a map key is not supported "+
		"(the interpreter holds it in a wrapper, which cannot be hashed)", iface)
}

// nativeNested is native for v, a native value held in an interface
// inside another value, where fmt's %#v prints a pointer as its type and
// address ((*errors.errorString)(0xc000010000)), not &{...}.
func (g goSyntaxer) nativeNested(v reflect.Value) string {
	text := g.native(v)
	if !v.IsValid() || !v.CanInterface() || v.Kind() != reflect.Ptr {
		return text
	}
	out := fmt.Sprintf("%#v", []interface{}{v.Interface()})
	if inner, ok := strings.CutPrefix(out, "[]interface {}{"); ok && strings.HasSuffix(inner, "}") {
		return inner[:len(inner)-1]
	}
	return text
}
