package interp

import (
	"reflect"
	"sync"
)

// toolscript patch 120: native code that compares keys (sync.Map's
// methods, context.WithValue and a context's Value) gets a value of a
// script type as its representation, so keys of two script types of one
// representation (type userKey struct{} and type reqKey struct{}, type
// K string and string) were one key: ctx.Value(userKey{}) gave reqKey's
// value, m.Load(A{1}) B{1}'s. The interpreter records, for each
// representation given as such a key, the type of the first key given;
// a key of another type of that representation fails at run time. And a
// key held in an interface is given as its representation, as one of
// its type given directly is.

// KeyTypeError is the run-time error of a key of type Type given to a
// native function that compares keys (Op) when a key of type Other of
// the same representation was given before: native code could not tell
// them apart.
type KeyTypeError struct {
	// Op names the function given the key: "sync.Map" or "context".
	Op string
	// Type and Other are the types of the two keys ("string" for a
	// value of a native type); Representation is what native code gets
	// of both.
	Type, Other, Representation string
}

// Error implements error.
func (e *KeyTypeError) Error() string {
	return "a key of type " + e.Type + " given to " + e.Op + " after one of type " + e.Other +
		": native code gets a value of a script type as its representation (" + e.Representation +
		"), so the interpreter cannot keep keys of both types apart; use keys of one type, or the script's own map"
}

// nativeKeyID is the key of interp.nativeKeys: the function given keys
// ("sync.Map", "context") and their representation.
type nativeKeyID struct {
	op string
	rt reflect.Type
}

var (
	syncMapType    = reflect.TypeOf(sync.Map{})
	syncMapPtrType = reflect.TypeOf(&sync.Map{})
)

// comparedKey returns the index among the arguments of n, a call of a
// native function, of a key that the function compares ("sync.Map" or
// "context" in op), or -1.
func comparedKey(n *node) (arg int, op string) {
	c0 := n.child[0]
	if c0.kind != selectorExpr || len(c0.child) < 2 {
		return -1, ""
	}
	p, name := c0.child[0], c0.child[1].ident
	if p.typ == nil {
		return -1, ""
	}
	switch {
	case p.typ.cat == binPkgT && p.typ.path == "context" && name == "WithValue":
		return 1, "context"
	case p.typ.cat == valueT && p.typ.rtype == contextType && name == "Value":
		return 0, "context"
	case p.typ.cat == valueT && (p.typ.rtype == syncMapType || p.typ.rtype == syncMapPtrType) ||
		p.typ.cat == ptrT && p.typ.val != nil && p.typ.val.cat == valueT && p.typ.val.rtype == syncMapType:
		switch name {
		case "Store", "Load", "LoadOrStore", "LoadAndDelete", "Delete", "Swap", "CompareAndSwap", "CompareAndDelete":
			return 0, "sync.Map"
		}
	}
	return -1, ""
}

// checkedKey returns value, the argument c of a native function that
// compares it as a key (op), checking at each call that no key of
// another type of the same representation was given to such a function
// before.
func (interp *Interpreter) checkedKey(c *node, op string, value func(*frame) reflect.Value) func(*frame) reflect.Value {
	static := ""
	if c.typ != nil && !isInterface(c.typ) && madeOfScriptTypes(c.typ, 0) {
		static = c.typ.id()
	}
	dynamic := c.typ != nil && isInterface(c.typ)
	return func(f *frame) reflect.Value {
		v := value(f)
		_, t, held, ok := heldRecord(v)
		if !ok || !held.IsValid() {
			return v
		}
		rt, name := held.Type(), static
		if dynamic && t != nil {
			name = t.id()
		}
		if name == "" {
			name = rt.String() // a value of a native type, or an unnamed one
		}
		if first, loaded := interp.nativeKeys.LoadOrStore(nativeKeyID{op, rt}, name); loaded && first.(string) != name {
			panic(&KeyTypeError{Op: op, Type: name, Other: first.(string), Representation: rt.String()})
		}
		if dynamic && t != nil {
			// The interpreter's record of a value held in an interface:
			// native code gets its representation, as it gets a value
			// of the type given directly (m.Load(k) with k an any
			// holding Circle{1} found no m.Store(Circle{1}, v)).
			return held
		}
		return v
	}
}
