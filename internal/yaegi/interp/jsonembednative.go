package interp // toolscript patch 190

// toolscript patch 190: a script struct type that embeds a host type
// with a MarshalJSON or MarshalText method (time.Time, *time.Time,
// netip.Addr, *big.Int) has that method in its method set, promoted, as
// in Go. valueInterface.MarshalJSON (patch 44) looked only for the
// script's own methods (lookupMethod); finding none, it marshalled the
// value's mirror (patch 122), whose value of that type is again a
// valueInterface: json.Marshal called its MarshalJSON without end and
// overflowed the host's stack. It now calls the promoted host method
// itself, on the embedded field, as Go's promoted method does.

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// jsonPromotedBinMethod returns the host method name promoted to the
// script type t from an embedded field of a host type, bound to that
// field of v (a value of t's representation); ok is false when t has no
// such method, or v's field cannot be reached.
func jsonPromotedBinMethod(t *itype, v reflect.Value, name string) (reflect.Value, bool) {
	if m, _ := t.lookupMethod(name); m != nil {
		return reflect.Value{}, false // the script's own method (it shadows a promoted one)
	}
	_, index, _, ok := t.lookupBinMethod(name)
	if !ok || len(index) == 0 || !scriptHasMethod(t, name, jsonMarshalMethods[name]) {
		return reflect.Value{}, false
	}
	fv := v
	for _, i := range index {
		for fv.Kind() == reflect.Ptr || fv.Kind() == reflect.Interface {
			if fv.IsNil() {
				// Go's promoted method dereferences the nil embedded
				// pointer, and panics.
				panic(runtimeNilDeref{})
			}
			fv = fv.Elem()
		}
		if fv.Kind() != reflect.Struct || i >= fv.NumField() {
			return reflect.Value{}, false
		}
		fv = fv.Field(i)
	}
	if !fv.CanInterface() {
		return reflect.Value{}, false
	}
	meth := fv.MethodByName(name)
	if !meth.IsValid() && fv.CanAddr() {
		meth = fv.Addr().MethodByName(name)
	}
	return meth, meth.IsValid()
}

// runtimeNilDeref is the runtime error of a nil pointer dereference.
type runtimeNilDeref struct{}

func (runtimeNilDeref) RuntimeError() {}
func (runtimeNilDeref) Error() string {
	return "runtime error: invalid memory address or nil pointer dereference"
}

// jsonCallPromoted calls the marshalling method meth (jsonPromotedBinMethod)
// of a value of the script type named tname, as encoding/json calls it.
func jsonCallPromoted(meth reflect.Value, name, tname string) ([]byte, error) {
	out := meth.Call(nil)
	if err, _ := out[1].Interface().(error); err != nil {
		return nil, fmt.Errorf("json: error calling %s for type %s: %w", name, tname, err)
	}
	return out[0].Bytes(), nil
}

// jsonPointerPrefers tells whether encoding/json, given an addressable
// value of the script type t, calls a method of *t that t's own method
// set lacks (toolscript patch 191): Go tries (*t).MarshalJSON first, and
// MarshalText only after both MarshalJSON. The mirror (patch 122) gave
// such a value by value as soon as t had either method of its own, so a
// (*T).MarshalJSON lost to a T.MarshalText (one promoted from an embedded
// time.Time too), silently.
func jsonPointerPrefers(t *itype) bool {
	has := func(t *itype, name string) bool { return scriptHasMethod(t, name, jsonMarshalMethods[name]) }
	if has(t, "MarshalJSON") {
		return false
	}
	return has(ptrOf(t), "MarshalJSON") || !has(t, "MarshalText") && has(ptrOf(t), "MarshalText")
}

// jsonPromotedUnmarshal returns the path of embedded fields to the host
// value whose UnmarshalJSON method the pointer type t (the value that
// json.Unmarshal or (*json.Decoder).Decode decodes into) has, promoted,
// and no method of the script's shadows; nil for none (toolscript patch
// 190). Go's json calls that method on the whole input; so does the
// host value's own.
func jsonPromotedUnmarshal(t *itype) []int {
	if t == nil || t.cat != ptrT || t.val == nil || isBin(t.val) || isInterface(t.val) {
		return nil
	}
	if m, _ := t.lookupMethod("UnmarshalJSON"); m != nil {
		return nil
	}
	if m, _ := t.lookupMethod("UnmarshalText"); m != nil {
		return nil
	}
	_, index, _, ok := t.lookupBinMethod("UnmarshalJSON")
	if !ok || len(index) == 0 || !scriptHasMethod(t, "UnmarshalJSON", jsonUnmarshalMethods["UnmarshalJSON"]) {
		return nil
	}
	return index
}

// jsonUnmarshalArg returns the index among a call's arguments of the
// pointer that the encoding/json decoding call n decodes into, when its
// type has a promoted host UnmarshalJSON (jsonPromotedUnmarshal), and
// the conversion of that pointer to one to the host value the method
// is called on (-1: none).
func jsonUnmarshalArg(n *node) (int, func(reflect.Value) reflect.Value) {
	c0 := n.child[0]
	if c0.kind != selectorExpr || len(c0.child) != 2 {
		return -1, nil
	}
	arg := -1
	name := c0.child[1].ident
	if pkg := c0.child[0]; pkg.sym != nil && pkg.sym.typ != nil && pkg.sym.typ.cat == binPkgT {
		if pkg.sym.typ.path == "encoding/json" && name == "Unmarshal" {
			arg = 1
		}
	} else if rt := c0.child[0].typ; rt != nil && rt.cat == valueT && rt.rtype == reflect.TypeOf((*json.Decoder)(nil)) && name == "Decode" {
		arg = 0
	}
	if arg < 0 || arg+1 >= len(n.child) {
		return -1, nil
	}
	index := jsonPromotedUnmarshal(n.child[arg+1].typ)
	if index == nil {
		return -1, nil
	}
	return arg, func(v reflect.Value) reflect.Value {
		if v.Kind() != reflect.Ptr || v.IsNil() {
			return v // json's own error for a nil pointer
		}
		fv := v
		for _, i := range index {
			for fv.Kind() == reflect.Ptr {
				if fv.IsNil() {
					panic(runtimeNilDeref{}) // Go's promoted method dereferences it
				}
				fv = fv.Elem()
			}
			fv = fv.Field(i)
		}
		if fv.Kind() == reflect.Ptr {
			if fv.IsNil() {
				panic(runtimeNilDeref{})
			}
			return fv
		}
		return fv.Addr()
	}
}
