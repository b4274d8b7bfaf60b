package interp // toolscript patch 144

// toolscript patch 144: == of two structs or arrays with an interface
// field (or element) holding values of a script type compares the held
// values, as Go does, and such a struct or array is one map key for
// equal values. The interpreter holds a value of a script type in an
// interface as its record (a valueInterface: a node and a
// reflect.Value), and Go's == of two records compared their
// reflect.Values, pointers to two copies: Event{"s", Status("paid")} ==
// Event{"s", Status("paid")} was false, and a map[Event]V missed an
// equal key (patch 110 compared records held directly in interfaces
// only).

import (
	"reflect"
	"sync"
	"unsafe"
)

// holdsIfaceTypes caches holdsIface by type.
var holdsIfaceTypes sync.Map // reflect.Type -> bool

// holdsIface tells whether rt is a struct or array type with a field or
// element, at any depth of structs and arrays, of an interface type:
// Go's == of two such values compares the values the interfaces hold.
func holdsIface(rt reflect.Type) bool {
	if rt == nil {
		return false
	}
	switch rt.Kind() {
	case reflect.Struct, reflect.Array:
	default:
		return false
	}
	if v, ok := holdsIfaceTypes.Load(rt); ok {
		return v.(bool)
	}
	found := holdsIfaceDepth(rt, 0)
	holdsIfaceTypes.Store(rt, found)
	return found
}

func holdsIfaceDepth(rt reflect.Type, depth int) bool {
	if depth > 32 {
		return false
	}
	switch rt.Kind() {
	case reflect.Interface:
		return true
	case reflect.Array:
		return rt.Len() > 0 && holdsIfaceDepth(rt.Elem(), depth+1)
	case reflect.Struct:
		if rt == valueInterfaceType {
			return false
		}
		for i := 0; i < rt.NumField(); i++ {
			if holdsIfaceDepth(rt.Field(i).Type, depth+1) {
				return true
			}
		}
	}
	return false
}

// addressable returns a copy of v that can be addressed, so that its
// fields, exported or not, can be read (exposed).
func addressable(v reflect.Value) reflect.Value {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}

// exposed is v, an addressable value, without the read-only flag of an
// unexported field.
func exposed(v reflect.Value) reflect.Value {
	if v.CanInterface() || !v.CanAddr() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// composedEqual is == of a and b, two values of one struct or array type
// that holdsIface: field by field (element by element), an interface
// field by ifaceEqual of the values it holds (a value of an
// incomparable type panics, as in Go).
func composedEqual(a, b reflect.Value) bool {
	return composedEqualAt(addressable(a), addressable(b))
}

func composedEqualAt(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Struct:
		t := a.Type()
		for i := 0; i < a.NumField(); i++ {
			if t.Field(i).Name == "_" {
				continue
			}
			if !composedEqualAt(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if !composedEqualAt(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() && b.IsNil()
		}
		return ifaceEqual(exposed(a).Interface(), exposed(b).Interface())
	}
	return exposed(a).Interface() == exposed(b).Interface()
}

// canonicalKey is v, a key of a map whose key type holdsIface, with each
// record of a script value its interfaces hold replaced by the one record
// of that value (internRecord): equal keys are then one key of the Go map.
func (interp *Interpreter) canonicalKey(v reflect.Value) reflect.Value {
	if !v.IsValid() || !holdsIface(v.Type()) {
		return v
	}
	c := addressable(v)
	interp.canonicalizeAt(c, 0)
	return c
}

// canonicalizeAt replaces in v, an addressable value, each record an
// interface holds by the value's one record.
func (interp *Interpreter) canonicalizeAt(v reflect.Value, depth int) {
	if depth > 32 {
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		if !holdsIface(v.Type()) {
			return
		}
		for i := 0; i < v.NumField(); i++ {
			interp.canonicalizeAt(v.Field(i), depth+1)
		}
	case reflect.Array:
		if !holdsIface(v.Type()) {
			return
		}
		for i := 0; i < v.Len(); i++ {
			interp.canonicalizeAt(v.Index(i), depth+1)
		}
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		w := exposed(v)
		e := w.Elem()
		if !e.CanInterface() {
			return
		}
		if vi, ok := e.Interface().(valueInterface); ok {
			if rec, ok := interp.internRecord(vi, depth); ok {
				w.Set(reflect.ValueOf(rec))
			}
			return
		}
		if holdsIface(e.Type()) {
			c := addressable(e)
			interp.canonicalizeAt(c, depth+1)
			w.Set(c)
		}
	}
}

// internRecord returns the one record of the value vi records: of the
// type's first node (as a map[any] key has, patch 112) and of the first
// copy of an equal value.
func (interp *Interpreter) internRecord(vi valueInterface, depth int) (valueInterface, bool) {
	if vi.node == nil || !vi.value.IsValid() || !vi.value.CanInterface() {
		return vi, false
	}
	t := recordType(vi.node.typ)
	if t == nil {
		return vi, false
	}
	held := vi.value
	if holdsIface(held.Type()) {
		held = addressable(held)
		interp.canonicalizeAt(held, depth+1)
	}
	if !held.Type().Comparable() {
		// A map hashes the key as Go does: the value's type is named as
		// the script's (hashing the record's value named []int for L).
		panic(unhashableKeyError("hash of unhashable type: " + t.id()))
	}
	id := keyNodeID{t.id(), held.Type(), localDecl(t)}
	kn, found := interp.keyNodes.Load(id)
	if !found {
		kn, _ = interp.keyNodes.LoadOrStore(id, vi.node)
	}
	key := scriptKey{node: kn.(*node), v: held.Interface()}
	rec, _ := interp.keyRecords.LoadOrStore(key, key.record())
	return rec.(valueInterface), true
}

// unhashableKeyError is the run-time error of a map key holding a value
// of a script type that cannot be hashed, as the Go runtime's map code
// gives it (patch 134 rewrites it for a store).
type unhashableKeyError string

func (e unhashableKeyError) Error() string { return string(e) }

// RuntimeError implements runtime.Error.
func (e unhashableKeyError) RuntimeError() {}
