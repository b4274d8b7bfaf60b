package interp // toolscript patch 112

// toolscript patch 112: the type of a value held in an interface decides
// as in Go, or the operation fails. A value of a script type with methods
// is held as the interpreter's record of it (a valueInterface: its type's
// node and its value); type switch cases and type assertions of a
// concrete type, == and != with a concrete operand, map[any] keys and
// recover() now go by the record's type (they compared representations,
// or the records' reflect.Values). With patch 118 a value of a named
// script type without methods is such a record too; a value of an
// unnamed type made of script types ([]Name, map[string]P) is still held
// as its representation ([]string), so where its type cannot be known
// the operation panics with an AmbiguousTypeError naming the types,
// rather than guess.

import (
	"context"
	"reflect"
	"strings"
)

// heldScriptValue returns the value that v, a value of an interface
// type, holds and its script type (nil for a value of a native type, or
// of an unnamed type made of no script type); ok is false for a nil
// interface.
func heldScriptValue(v reflect.Value) (*itype, reflect.Value, bool) {
	_, t, val, ok := heldRecord(v)
	return t, val, ok
}

// heldRecord is heldScriptValue that also returns the node of the
// interpreter's record of the value (nil for a value without a script
// type).
func heldRecord(v reflect.Value) (*node, *itype, reflect.Value, bool) {
	for {
		if !v.IsValid() {
			return nil, nil, v, false
		}
		if v.Kind() == reflect.Interface {
			if v.IsNil() {
				return nil, nil, reflect.Value{}, false
			}
			v = v.Elem()
			continue
		}
		if !v.CanInterface() {
			return nil, nil, v, true
		}
		if v.Kind() == reflect.Struct {
			// A script error in its error wrapper (toolscript patch
			// 152: a script value in a generated wrapper).
			if nod := wrapperNode(v); nod != nil && recordType(nod.typ) != nil {
				if in := v.Field(0); in.IsValid() {
					t := recordType(nod.typ)
					if in.Kind() == reflect.Interface {
						in = in.Elem()
					}
					if in.IsValid() && in.CanInterface() {
						if vi, ok := in.Interface().(valueInterface); ok {
							in = vi.value
						}
					}
					if in.IsValid() {
						return nod, t, in, true
					}
				}
			}
		}
		if v.Kind() == reflect.Struct && v.NumField() > 0 && v.Type().Field(0).Name == "IValue" {
			// An interface wrapper made for a native interface
			// (fmt.Stringer) holds the script value in its first field.
			v = v.Field(0)
			continue
		}
		vi, ok := v.Interface().(valueInterface)
		if !ok {
			return nil, nil, v, true
		}
		if vi.node == nil || vi.node.typ == nil {
			return nil, nil, reflect.Value{}, false
		}
		if t := recordType(vi.node.typ); t != nil {
			if !vi.value.IsValid() {
				return nil, nil, reflect.Value{}, false
			}
			return vi.node, t, vi.value, true
		}
		v = vi.value
	}
}

// recordType is the script type of a value that a record of node type t
// holds: t, or for a conversion to an interface (whose node type is a
// copy of the interface with the concrete type as val), that type; nil
// for an interface or a native type.
func recordType(t *itype) *itype {
	if t == nil {
		return nil
	}
	if isInterface(t) {
		if t.val != nil && !isInterface(t.val) && !isBin(t.val) {
			return t.val
		}
		return nil
	}
	if isBin(t) {
		return nil
	}
	return t
}

// holdsType tells whether v, a value of an interface type, holds a value
// of typ, a type that is not an interface (nilT: a nil interface), and
// returns that value. A value held with its script type (the
// interpreter's record of it) is of typ if that type is typ; one held
// without is of typ if its reflect type is typ's, and a type switch case
// or an assertion of an unnamed type made of script types whose
// representation another type may have ([]Name) on such a value panics
// with an AmbiguousTypeError.
func holdsType(interp *Interpreter, v reflect.Value, typ *itype) (reflect.Value, bool) {
	t, val, ok := heldScriptValue(v)
	return heldIs(interp, t, val, ok, typ)
}

// heldIs is holdsType of a value heldScriptValue returned.
func heldIs(interp *Interpreter, t *itype, val reflect.Value, ok bool, typ *itype) (reflect.Value, bool) {
	return heldIsCached(interp, t, val, ok, typ, nil) // toolscript patch 217
}

// heldIsCached is heldIs with what the assertion keeps of typ, c (nil
// for nothing) (toolscript patch 217).
func heldIsCached(interp *Interpreter, t *itype, val reflect.Value, ok bool, typ *itype, c *assertCache) (reflect.Value, bool) {
	if !ok {
		return reflect.Value{}, typ.cat == nilT
	}
	if typ.cat == nilT {
		return reflect.Value{}, false
	}
	if t != nil {
		return val, sameScriptType(t, typ)
	}
	rt := typ.TypeOf()
	if rt == nil || val.Type() != rt {
		return val, false
	}
	// A value of a type with methods that the script converted is held
	// with its type, so one held as its representation is a value of the
	// representation (a string for type Status string), or of a struct
	// type's that native code gave back (errors.As's target): that is
	// typ's if the representation is typ's own.
	if c.keptType(interp, typ) { // a run-time check: keepsMethods, once per type (toolscript patch 217: kept by c)
		return val, unwrappedIs(interp, typ, rt, interp.nativeAs(rt), "")
	}
	if madeOfScriptTypes(typ, 0) {
		if !interp.ownRepresentation(typ, rt) {
			// The value may be of typ or of another type of the same
			// representation: fail rather than guess.
			panic(&AmbiguousTypeError{Type: typ.id(), Representation: rt.String()})
		}
		return val, true
	}
	names, stripped := interp.heldAndNativeAs(rt) // toolscript patch 217: one lock
	if names != "" {
		// The value may be one of a script type the script puts in
		// interfaces, held as its representation, typ.
		panic(&AmbiguousTypeError{Type: typ.id(), Representation: rt.String(), HeldTypes: names})
	}
	if len(stripped) > 0 {
		// The value may be one of a script type with methods that a
		// native function gave back as its representation.
		panic(&AmbiguousTypeError{Type: typ.id(), Representation: rt.String(), HeldTypes: typeNames(stripped), Native: true})
	}
	return val, true
}

// ownRepresentation tells whether rt, the representation of typ, a
// script type without methods, is typ's alone: typ is, or is made of, a
// script struct type (the interpreter builds a struct type for it, which
// a native value never has) and no other script type has rt. A value of
// a type made of basic types only (type Name string, []Name) may be a
// value of the basic type as well.
func (interp *Interpreter) ownRepresentation(typ *itype, rt reflect.Type) bool {
	if interp == nil || !madeOfScriptStructs(typ, 0) {
		return false
	}
	interp.indexNamed()
	interp.named.RLock()
	defer interp.named.RUnlock()
	if interp.named.unnamedReps[rt] {
		return false
	}
	name := typ.str
	if s, ok := interp.named.inst[typ]; ok {
		name = s
	}
	for _, r := range interp.named.byType[rt] {
		if r.name != name {
			return false
		}
	}
	return true
}

// madeOfScriptStructs tells whether t is a named script struct type or a
// pointer, slice, array or map type made of one.
func madeOfScriptStructs(t *itype, depth int) bool {
	if t == nil || depth > 32 || isBin(t) {
		return false
	}
	switch t.cat {
	case structT:
		return t.name != "" && t.path != ""
	case linkedT:
		return (t.name == "" || t.path != "") && madeOfScriptStructs(t.val, depth+1)
	case ptrT, sliceT, arrayT, variadicT:
		return madeOfScriptStructs(t.val, depth+1)
	case mapT:
		return madeOfScriptStructs(t.key, depth+1) || madeOfScriptStructs(t.val, depth+1)
	}
	return false
}

// AmbiguousTypeError is the run-time error of a type switch case or a
// type assertion of an unnamed type made of script types ([]Name, []P)
// on an interface holding a value of its representation ([]string,
// []struct { X int }): the interpreter holds a value of such a type in
// an interface as its representation, so it cannot tell which of the two
// the value is (toolscript patch 112; with patch 118 a named type keeps
// its type).
type AmbiguousTypeError struct {
	Type           string // the type of the case or assertion, as Go names it
	Representation string // the type of the value held
	// HeldTypes, for a case or an assertion of a type that is not the
	// script's ([]string), names the unnamed types made of script types
	// whose values the script puts in interfaces as that type.
	HeldTypes string
	// Op, for == and != ("comparison") and a map[any] key ("map key"),
	// is the operation that needed the type.
	Op string
	// Native tells that HeldTypes are script types whose values the
	// script gives to native functions (sync.Map's Store, a list's
	// PushBack), which get them as their representations.
	Native bool
}

// Error implements error.
func (e *AmbiguousTypeError) Error() string {
	const why = " (a value of an unnamed type made of script types is held as its representation); " // toolscript patch 118
	if e.Native {
		what := "type switch case or type assertion " + e.Type
		if e.Op != "" {
			what = e.Op + " of an interface"
		}
		return what + ": the interpreter cannot tell a value of type " + e.Representation + " held in an interface from one of " + e.HeldTypes +
			" that a native function gave back (a native function gets a value of a script type as its representation); keep such values in the script's own maps, slices or struct fields"
	}
	if e.Op != "" {
		return e.Op + " of an interface holding a value of type " + e.Representation + ": the interpreter cannot tell it from a value of " +
			e.HeldTypes + why + methodHint(e.HeldTypes)
	}
	if e.HeldTypes != "" {
		return "type switch case or type assertion " + e.Type + ": the interpreter cannot tell a value of type " + e.Type +
			" held in an interface from one of " + e.HeldTypes + why + methodHint(e.HeldTypes)
	}
	return "type switch case or type assertion " + e.Type + ": the interpreter cannot tell a value of " + e.Type +
		" held in an interface from a value of type " + e.Representation + why + methodHint(e.Type)
}

// methodHint tells how to make names, unnamed types made of script
// types, keep their type in an interface: a named type of the script
// keeps it (toolscript patch 118; the hint was to give a type without
// methods a method).
func methodHint(names string) string {
	if strings.Contains(names, " or ") {
		return "declare a named type for each of " + names + ", whose values keep their type in an interface"
	}
	return "declare a named type for " + names + " (type T " + strings.ReplaceAll(names, "main.", "") + "), whose values keep their type in an interface"
}

// madeOfScriptTypes tells whether t is a named script type that is not
// an interface, or a pointer, slice, array, map or struct type made of
// one (toolscript patch 112).
func madeOfScriptTypes(t *itype, depth int) bool {
	if t == nil || depth > 32 || isBin(t) {
		return false
	}
	switch t.cat {
	case interfaceT, errorT, valueT, nilT, genericT, constraintT, comparableT, builtinT, binPkgT, srcPkgT:
		return false
	}
	if t.name != "" && t.path != "" && !t.untyped {
		return true
	}
	switch t.cat {
	case ptrT, sliceT, arrayT, variadicT, chanT, chanSendT, chanRecvT:
		return madeOfScriptTypes(t.val, depth+1)
	case mapT:
		return madeOfScriptTypes(t.key, depth+1) || madeOfScriptTypes(t.val, depth+1)
	case structT:
		for _, f := range t.field {
			if madeOfScriptTypes(f.typ, depth+1) {
				return true
			}
		}
	case funcT:
		for _, a := range t.arg {
			if madeOfScriptTypes(a, depth+1) {
				return true
			}
		}
		for _, r := range t.ret {
			if madeOfScriptTypes(r, depth+1) {
				return true
			}
		}
	}
	return false
}

// sameScriptType tells whether a and b are one type.
func sameScriptType(a, b *itype) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	// Two types of one name are one type, copied, unless their
	// representations differ: a type a later session input declares
	// again with other fields is another type. Types declared in
	// function bodies are one type only if they have one declaration
	// (toolscript patch 135): two functions' T of one layout were one.
	return sameNamed(a, b) && sameRep(a, b)
}

// sameNamed tells whether a and b, types of one name, are one declaration
// too: a type declared in a function body is another type than one of
// its name declared elsewhere, also of one layout (toolscript patch 135;
// they were one type: a.id() names main.T for both). A pointer type goes
// by its element's declaration.
func sameNamed(a, b *itype) bool {
	return a.id() == b.id() && localDecl(a) == localDecl(b)
}

// localDecl is the declaration of t, or of the element of t, a pointer,
// when it is a type declared in a function body; nil otherwise
// (toolscript patch 135).
func localDecl(t *itype) *node {
	if t == nil {
		return nil
	}
	if t.cat == ptrT && t.val != nil {
		return t.val.local
	}
	return t.local
}

// sameRep tells whether a and b, two types of one name, have one
// representation (or one of them none yet).
func sameRep(a, b *itype) (same bool) {
	defer func() {
		if recover() != nil {
			same = true // an incomplete type: the name decides
		}
	}()
	ra, rb := a.TypeOf(), b.TypeOf()
	return ra == nil || rb == nil || ra == rb
}

// ifaceCompare compiles n, an == (or, negate, a !=) of an operand of an
// interface type and one of a type that keeps its type in an interface,
// as Go does: the interface holds a value of that type equal to the
// other operand. It returns false, leaving n, for any other comparison.
// Before, the concrete operand was compared as its representation with
// the interpreter's record of the held value, so any(Name("a")) ==
// Name("a") and a Shape holding Square{2} == Square{2} were false.
func ifaceCompare(n *node, negate bool) bool {
	c0, c1 := n.child[0], n.child[1]
	if c0.typ == nil || c1.typ == nil {
		return false
	}
	t0, k0 := operandType(c0)
	t1, k1 := operandType(c1)
	switch {
	case k0 && k1:
		// Two operands of known types: values of two types that an
		// interface tells apart (Shape(Square{2}) == Shape(Circle{2}))
		// are unequal whatever their representations.
		if sameScriptType(t0, t1) || !keepsMethods(t0) && !keepsMethods(t1) {
			return false
		}
		if !isInterface(c0.typ) && !isInterface(c1.typ) && unnamedAssignable(t0, t1) {
			return false // toolscript patch 161: p == struct{ X int }{1}, one type for Go
		}
		setComparison(n, func(*frame) bool { return negate })
		return true
	case !k0 && !k1:
		return ambiguousCompare(n, negate, c0, c1)
	}
	iface, conc, ctyp := c0, c1, t1
	if k0 {
		iface, conc, ctyp = c1, c0, t0
	}
	if ctyp.cat == nilT {
		return false
	}
	if !keepsMethods(ctyp) {
		return ambiguousCompare(n, negate, c0, c1)
	}
	vIface, vConc := genValue(iface), genValue(conc)
	eq := func(f *frame) bool {
		t, held, ok := heldScriptValue(vIface(f))
		if ok && t == nil && held.IsValid() && held.CanInterface() && held.Type() == ctyp.TypeOf() {
			// A value a native function gave back as its
			// representation may be one of ctyp: only an equal
			// representation needs to know.
			if !ifaceEqual(held.Interface(), vConc(f).Interface()) {
				return negate
			}
			return unwrappedIs(n.interp, ctyp, held.Type(), n.interp.nativeAs(held.Type()), "comparison") != negate
		}
		if !ok || t == nil || !sameScriptType(t, ctyp) || !held.CanInterface() {
			return negate
		}
		return ifaceEqual(held.Interface(), vConc(f).Interface()) != negate
	}
	setComparison(n, eq)
	return true
}

// operandType is the type of the value of c, an operand of == or !=,
// and whether it is known at compile time: c's type, or for a
// conversion to an interface (Shape(Square{2}), whose value is the
// converted one), the converted value's type; false for a value of an
// interface type.
func operandType(c *node) (*itype, bool) {
	if !isInterface(c.typ) {
		return c.typ, true
	}
	if c.action == aConvert {
		if t := recordType(c.typ); t != nil {
			return t, true
		}
	}
	return nil, false
}

// scriptKey is the key that a value of a script type is in a map whose
// keys are of an empty interface type (map[any]V): the node of the type's
// first record in the interpreter (one for every value of the type) and
// the value. Go's == of two such keys is that of the values, of one type,
// as Go compares them; the records compared their reflect.Values, so two
// equal values were two keys (and, before the records, Name("a") was the
// key "a"). Reading a key back gives the record (mapKeyValue).
type scriptKey struct {
	node *node
	v    interface{}
}

// keyNodeID is the key of a type's node in interp.keyNodes.
type keyNodeID struct {
	name  string
	rep   reflect.Type
	local *node // toolscript patch 135: the declaration of a type declared in a function body
}

// keyedByEmptyInterface tells whether t is a map type whose keys are of
// an empty interface type.
func keyedByEmptyInterface(t *itype) bool {
	for t != nil && t.cat == linkedT {
		t = t.val
	}
	return t != nil && t.cat == mapT && t.key != nil && isEmptyInterface(t.key)
}

// genMapKey returns the key, as the map holds it, of key used as a key of
// a map of type mapTyp; nil when the key is its value (a map whose keys
// are not of an empty interface type, a key of a native type).
func genMapKey(mapTyp *itype, key *node) func(*frame) reflect.Value {
	if key.typ == nil {
		return nil
	}
	interp := key.interp
	if !keyedByEmptyInterface(mapTyp) {
		// toolscript patch 144: a key of a struct or array type with
		// interface fields holds one record of each script value, so
		// equal keys are one (a map[Event]V with Event{"s",
		// Status("a")} as a key missed an equal one).
		if mt := mapTyp.TypeOf(); mt != nil && mt.Kind() == reflect.Map && holdsIface(mt.Key()) {
			v := genValue(key)
			kt := mt.Key()
			return func(f *frame) reflect.Value {
				k := v(f)
				if k.IsValid() && k.Type() != kt && k.Type().ConvertibleTo(kt) {
					k = k.Convert(kt)
				}
				return interp.canonicalKey(k)
			}
		}
		return nil
	}
	switch {
	case keepsMethods(key.typ):
		rec := genValueInterface(key)
		return func(f *frame) reflect.Value { return interp.mapKey(rec(f)) }
	case isInterface(key.typ):
		v := genValue(key)
		return func(f *frame) reflect.Value { return interp.mapKey(v(f)) }
	case holdsIface(key.typ.TypeOf()): // toolscript patch 144: a [1]any key
		v := genValue(key)
		return func(f *frame) reflect.Value {
			var k interface{} = interp.canonicalKey(v(f)).Interface()
			return reflect.ValueOf(&k).Elem()
		}
	}
	return nil
}

// mapKey is the key in a map[any] of v, a value of an interface type.
func (interp *Interpreter) mapKey(v reflect.Value) reflect.Value {
	nod, t, held, ok := heldRecord(v)
	if ok && t == nil && held.IsValid() {
		if names := interp.heldAs(held.Type()); names != "" {
			panic(&AmbiguousTypeError{Representation: held.Type().String(), HeldTypes: names, Op: "map key"})
		}
		if stripped := interp.nativeAs(held.Type()); len(stripped) > 0 {
			panic(&AmbiguousTypeError{Representation: held.Type().String(), HeldTypes: typeNames(stripped), Op: "map key", Native: true})
		}
	}
	if !ok || t == nil || nod == nil || !held.CanInterface() {
		if ok && held.IsValid() && holdsIface(held.Type()) { // toolscript patch 144: an [2]any key
			var k interface{} = interp.canonicalKey(held).Interface()
			return reflect.ValueOf(&k).Elem()
		}
		return v
	}
	checkHashable(t, held) // toolscript patch 164: the script's type named (the runtime named the representation's)
	if holdsIface(held.Type()) {
		held = interp.canonicalKey(held) // toolscript patch 144: a struct with interface fields
	}
	// One node for every value of the type; a type a later session
	// input declares again with other fields has its own.
	id := keyNodeID{t.id(), held.Type(), localDecl(t)} // toolscript patch 135: and its declaration
	kn, found := interp.keyNodes.Load(id)
	if !found {
		kn, _ = interp.keyNodes.LoadOrStore(id, nod)
	}
	var k interface{} = scriptKey{node: kn.(*node), v: held.Interface()}
	return reflect.ValueOf(&k).Elem()
}

// mapKeyValue is the value a script sees of k, a key of a map[any]: the
// record of a value of a script type, k itself otherwise.
func mapKeyValue(k reflect.Value) reflect.Value {
	if k.Kind() == reflect.Interface && !k.IsNil() {
		if sk, ok := k.Elem().Interface().(scriptKey); ok {
			return reflect.ValueOf(sk.record())
		}
	}
	return k
}

// rangeMapRecords is rangeMap of a map[any]: each key a script sees is
// mapKeyValue of the map's.
func rangeMapRecords(n *node, index0, index2 int, value func(*frame) reflect.Value, fnext, tnext bltn) {
	withValue := len(n.child) == 4 && n.child[1].ident != "_"
	index1 := -1
	if withValue {
		index1 = n.child[1].findex
	}
	n.exec = func(f *frame) bltn {
		iter := f.data[index2].Interface().(*reflect.MapIter)
		if !iter.Next() {
			return fnext
		}
		f.data[index0].Set(mapKeyValue(iter.Key()))
		if withValue {
			f.data[index1].Set(iter.Value())
		}
		return tnext
	}
	next := n.exec
	n.child[0].exec = func(f *frame) bltn {
		f.data[index2].Set(reflect.ValueOf(value(f).MapRange()))
		return next
	}
}

// record is the interpreter's record of the value k is the key of.
func (k scriptKey) record() valueInterface {
	return valueInterface{k.node, reflect.ValueOf(k.v)}
}

// genMapIndex is the key of c, an index expression of a map entry that
// an assignment operator or ++ writes.
func genMapIndex(c *node) func(*frame) reflect.Value {
	if key := genMapKey(c.child[0].typ, c.child[1]); key != nil {
		return key
	}
	return genValue(c.child[1])
}

// mapKeyOf is the key in a map[any] of k, a key mapKeyValue gave.
func mapKeyOf(k reflect.Value) reflect.Value {
	if !k.IsValid() || !k.CanInterface() {
		return k
	}
	if vi, ok := k.Interface().(valueInterface); ok && vi.node != nil && vi.value.IsValid() && vi.value.CanInterface() {
		var key interface{} = scriptKey{node: vi.node, v: vi.value.Interface()}
		return reflect.ValueOf(&key).Elem()
	}
	return k
}

// keyOrder orders a and b, two keys of a map[any], as fmt orders
// them: by type (Go orders two types by their addresses, the interpreter
// by their names), then by value.
func keyOrder(a, b reflect.Value) int {
	ta, va, oka := heldScriptValue(a)
	tb, vb, okb := heldScriptValue(b)
	switch {
	case !oka || !okb:
		return boolCompare(oka, okb)
	}
	na, nb := heldTypeName(ta, va), heldTypeName(tb, vb)
	if na != nb {
		if na < nb {
			return -1
		}
		return 1
	}
	return valueCompare(va, vb, 0)
}

func heldTypeName(t *itype, v reflect.Value) string {
	if t != nil {
		return t.id()
	}
	return v.Type().String()
}

func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// valueCompare orders two values of one type as fmt orders map keys.
func valueCompare(a, b reflect.Value, depth int) int {
	if depth > 64 || a.Kind() != b.Kind() {
		return 0
	}
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmpOrdered(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmpOrdered(a.Uint(), b.Uint())
	case reflect.Float32, reflect.Float64:
		return cmpOrdered(a.Float(), b.Float())
	case reflect.String:
		return cmpOrdered(a.String(), b.String())
	case reflect.Bool:
		return boolCompare(a.Bool(), b.Bool())
	case reflect.Ptr, reflect.Chan, reflect.UnsafePointer:
		return cmpOrdered(a.Pointer(), b.Pointer())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if c := valueCompare(a.Field(i), b.Field(i), depth+1); c != 0 {
				return c
			}
		}
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if c := valueCompare(a.Index(i), b.Index(i), depth+1); c != 0 {
				return c
			}
		}
	case reflect.Interface:
		return keyOrder(a, b)
	}
	return 0
}

func cmpOrdered[T int64 | uint64 | float64 | string | uintptr](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// hostPanicValue is the value of a panic that the script did not
// recover, as the host sees it: a value of a script type is its
// representation, as before panic kept its type for recover.
func hostPanicValue(r interface{}) interface{} {
	rv, ok := r.(reflect.Value)
	if !ok || !rv.IsValid() || !rv.CanInterface() {
		return r
	}
	if vi, ok := rv.Interface().(valueInterface); ok && vi.node != nil && recordType(vi.node.typ) != nil && vi.value.IsValid() {
		return vi.value
	}
	return r
}

// lostKey is the compile error of key, a value of an unnamed type made
// of script types ([2]Name; a named type keeps its type, patch 118), as a
// key of a map whose keys are of the interface type ktyp: the map would
// hold its representation, the same key as a value of that type.
func lostKey(key *node, ktyp *itype) error {
	if key.typ == nil || ktyp == nil || !isInterface(ktyp) || keepsMethods(key.typ) || !madeOfScriptTypes(key.typ, 0) {
		return nil
	}
	return key.cfgErrorf("a value of type %s as a key of a map with keys of type %s is not supported by the interpreter: it holds a value of an unnamed type made of script types as its representation, the same key as a value of that type; declare a named type for %s", key.typ.id(), ktyp.id(), key.typ.id()) // toolscript patch 118
}

// wrappedKey is the compile error of key, a value of a script type, as
// a key of a map whose keys are of a native interface type with methods
// (map[fmt.Stringer]V, map[error]V; toolscript patch 167): the
// interpreter holds a script value in such an interface as a wrapper
// with func fields, which cannot be hashed, and gave the map the raw
// value, which reflect refused ("reflect.Value.MapIndex: value of type
// string is not assignable to type fmt.Stringer"). A key whose
// representation implements the interface itself (a struct embedding a
// native type with the method) is the native value, and works.
func wrappedKey(key *node, ktyp *itype) error {
	kt := key.typ
	if kt == nil || ktyp == nil || isBin(kt) || isInterface(kt) || kt.cat == nilT || kt.untyped {
		return nil
	}
	it := ktyp.TypeOf() // a script interface type is an empty one there (its keys are lostKey's and patch 112's)
	if it == nil || it.Kind() != reflect.Interface || it.NumMethod() == 0 {
		return nil
	}
	if rt := kt.TypeOf(); rt == nil || rt.Implements(it) {
		return nil
	}
	return key.cfgErrorf("a value of type %s as a key of a map with keys of type %s is not supported by the interpreter: "+
		"it holds a value of a script type in a native interface as a wrapper, which cannot be a map key; "+
		"use a map with keys of type any or of type %s", kt.id(), ktyp.id(), kt.id())
}

// noteUnnamedStruct records t, an unnamed struct type of the script.
func (interp *Interpreter) noteUnnamedStruct(t *itype) {
	interp.named.Lock()
	interp.named.unnamed = append(interp.named.unnamed, t)
	interp.named.quiet.Store(false) // toolscript patch 217
	interp.named.Unlock()
}

// noteHeld records that the script puts values of type t in interfaces
// (an assignment, a script function's argument, a composite literal's
// element of an interface type), if t is made of script types and does
// not keep its type (an unnamed type: []Name; patch 118).
func (interp *Interpreter) noteHeld(t *itype) {
	interp.noteJSONHeld(t) // toolscript patch 122
	if interp == nil || t == nil || t.untyped || keepsMethods(t) || !madeOfScriptTypes(t, 0) {
		return
	}
	interp.named.Lock()
	if !interp.named.heldSeen[t] {
		if interp.named.heldSeen == nil {
			interp.named.heldSeen = map[*itype]bool{}
		}
		interp.named.heldSeen[t] = true
		interp.named.held = append(interp.named.held, t)
		interp.named.quiet.Store(false) // toolscript patch 217
	}
	interp.named.Unlock()
}

// heldAs returns the names of the script types without methods whose
// values, held in an interface as their representation, may be the
// value of type rt that an interface holds, or "".
func (interp *Interpreter) heldAs(rt reflect.Type) string {
	if interp == nil || rt == nil {
		return ""
	}
	interp.indexNamed()
	interp.named.RLock()
	defer interp.named.RUnlock()
	return interp.named.heldReps[rt]
}

// indexUnnamedLocked computes the representations of the unnamed struct
// types and of the held types recorded since the last call;
// interp.named is locked.
func (interp *Interpreter) indexUnnamedLocked() {
	defer interp.indexHeldLocked()
	for ; interp.named.unnamedIndexed < len(interp.named.unnamed); interp.named.unnamedIndexed++ {
		for _, rt := range namedReps(interp.named.unnamed[interp.named.unnamedIndexed]) {
			if interp.named.unnamedReps == nil {
				interp.named.unnamedReps = map[reflect.Type]bool{}
			}
			interp.named.unnamedReps[rt] = true
		}
	}
}

func (interp *Interpreter) indexHeldLocked() {
	defer interp.indexNativeLocked()
	for ; interp.named.heldIndexed < len(interp.named.held); interp.named.heldIndexed++ {
		t := interp.named.held[interp.named.heldIndexed]
		for _, rt := range namedReps(t) {
			if madeOfScriptStructs(t, 0) && !interp.named.unnamedReps[rt] && len(interp.named.byType[rt]) <= 1 {
				continue // its own representation
			}
			if interp.named.heldReps == nil {
				interp.named.heldReps = map[reflect.Type]string{}
			}
			name := t.str
			if s, ok := interp.named.inst[t]; ok {
				name = s
			}
			if prev := interp.named.heldReps[rt]; prev == "" {
				interp.named.heldReps[rt] = name
			} else if !strings.Contains(" or "+prev+" or ", " or "+name+" or ") {
				interp.named.heldReps[rt] = prev + " or " + name
			}
		}
	}
}

// ambiguousCompare compiles n, an == (or, negate, a !=) with an operand of an
// interface type and one of a type that does not keep its type in an
// interface, or of two interface operands, when the script puts values
// of types without methods in interfaces: an interface holding a value
// of the representation of one of them panics with an
// AmbiguousTypeError, as the interpreter cannot tell whether the value is
// of that type. It returns false, leaving n, when the script puts no
// such value in an interface.
func ambiguousCompare(n *node, negate bool, c0, c1 *node) bool {
	interp := n.interp
	interp.indexNamed()
	interp.named.RLock()
	none := len(interp.named.heldReps) == 0 && len(interp.named.nativeReps) == 0
	interp.named.RUnlock()
	if none {
		return false
	}
	v0, v1 := genValue(c0), genValue(c1)
	i0, i1 := isInterface(c0.typ), isInterface(c1.typ)
	check := func(v reflect.Value) {
		if t, held, ok := heldScriptValue(v); ok && t == nil && held.IsValid() {
			if names := interp.heldAs(held.Type()); names != "" {
				panic(&AmbiguousTypeError{Representation: held.Type().String(), HeldTypes: names, Op: "comparison"})
			}
			if stripped := interp.nativeAs(held.Type()); len(stripped) > 0 {
				panic(&AmbiguousTypeError{Representation: held.Type().String(), HeldTypes: typeNames(stripped), Op: "comparison", Native: true})
			}
		}
	}
	eq := func(f *frame) bool {
		a, b := v0(f), v1(f)
		if !sameRepresentation(a, b) {
			// Values of unequal representations are unequal whatever
			// their types: there is nothing to tell.
			return negate
		}
		if i0 {
			check(a)
		}
		if i1 {
			check(b)
		}
		return ifaceEqual(a.Interface(), b.Interface()) != negate
	}
	setComparison(n, eq)
	return true
}

// IsRecord tells whether t is the type of the interpreter's record of a
// script value held in an interface, which PlainValue unwraps: a host
// walking values by reflection checks the type before it asks a value
// for its interface (which may copy it) (toolscript patch 112).
func IsRecord(t reflect.Type) bool { return t == valueInterfaceType }

// PlainValue returns the value that v holds when v is the interpreter's
// record of a value of a script type in an interface (a value of a type
// with methods in an any, a []any or a map[string]any the script built),
// as native code sees a value of that type: its representation (a
// struct of its fields, a string for type Label string); ok is false for
// any other value. A host that reads such containers (a tool's
// arguments) unwraps records with it (toolscript patch 112).
func PlainValue(v interface{}) (interface{}, bool) {
	vi, ok := v.(valueInterface)
	if !ok || vi.node == nil || !vi.value.IsValid() || !vi.value.CanInterface() {
		return v, false
	}
	if recordType(vi.node.typ) == nil {
		return v, false
	}
	return vi.value.Interface(), true
}

// nativeSinks are the native packages whose functions never give back a
// value passed to them in an interface (they print, encode or compare
// it): a script type's value given to one is not counted as held.
var nativeSinks = map[string]bool{
	"fmt": true, "log": true, "encoding/json": true, "errors": true, "strings": true, "strconv": true,
	"bytes": true, "text/template": true, "html/template": true, "log/slog": true, "reflect": true,
	// The engine's runtime package (the normaliser's calls): ResultAt
	// gives its argument back only to the generated result function,
	// which gives it to SetResult.
	"toolscript/rt": true,
}

// nativeSink tells whether fun, the function of a call, is a function of
// one of nativeSinks, or arg is a key of context.WithValue (which
// compares it, and gives back only the value).
func nativeSink(fun *node, arg int) bool {
	if fun == nil || fun.typ == nil || !isBin(fun.typ) || fun.kind != selectorExpr || len(fun.child) < 2 {
		return false
	}
	p := fun.child[0]
	if p.typ != nil && p.typ.cat == valueT && p.typ.rtype == contextType && fun.child[1].ident == "Value" {
		return true // ctx.Value(key) compares key
	}
	if p.typ == nil || p.typ.cat != binPkgT {
		return false
	}
	return nativeSinks[p.typ.path] || p.typ.path == "context" && fun.child[1].ident == "WithValue" && arg == 1
}

var contextType = reflect.TypeOf((*context.Context)(nil)).Elem()

// namedIndexed tells whether every type recorded is indexed.
func (interp *Interpreter) namedIndexed() bool {
	interp.named.RLock()
	defer interp.named.RUnlock()
	return interp.named.indexed == len(interp.named.types) && interp.named.unnamedIndexed == len(interp.named.unnamed) &&
		interp.named.heldIndexed == len(interp.named.held) && interp.named.nativeIndexed == len(interp.named.native)
}

// emptyBinInterface tells whether t is the native empty interface type,
// the static type of an any a native function gives back (sync.Map's
// Load, a list.Element's Value): a type assertion of a concrete type on
// it goes by the held value's type, as on a script's any.
func emptyBinInterface(t *itype) bool {
	return t != nil && t.cat == valueT && t.rtype != nil && t.rtype.Kind() == reflect.Interface && t.rtype.NumMethod() == 0
}

// noteNative records that the script gives values of type t, a script
// type with methods, to fun, a native function, in an interface: the
// native function gets the value's representation (the interpreter
// removes its record), so a value it gives back (sync.Map's Load,
// atomic.Value's Load, a list.Element's Value) is held as the
// representation, without its type.
func (interp *Interpreter) noteNative(fun *node, t *itype) {
	if fun == nil || fun.typ == nil || !isBin(fun.typ) {
		return
	}
	interp.noteStripped(t)
}

// noteStripped records that the script gives values of type t, if a
// script type with methods, to native code in an interface (a native
// function's argument, a native struct's field of an interface type:
// list.Element's Value), which gets them as their representations.
func (interp *Interpreter) noteStripped(t *itype) {
	if interp == nil || t == nil || t.untyped || !keepsMethods(t) || isInterface(t) {
		return
	}
	interp.named.Lock()
	if !interp.named.nativeSeen[t] {
		if interp.named.nativeSeen == nil {
			interp.named.nativeSeen = map[*itype]bool{}
		}
		interp.named.nativeSeen[t] = true
		interp.named.native = append(interp.named.native, t)
		interp.named.quiet.Store(false) // toolscript patch 217
	}
	interp.named.Unlock()
}

// indexNativeLocked indexes the types noteNative recorded since the last
// call by representation; interp.named is locked.
func (interp *Interpreter) indexNativeLocked() {
	for ; interp.named.nativeIndexed < len(interp.named.native); interp.named.nativeIndexed++ {
		t := interp.named.native[interp.named.nativeIndexed]
		for _, rt := range namedReps(t) {
			if interp.named.nativeReps == nil {
				interp.named.nativeReps = map[reflect.Type][]*itype{}
			}
			interp.named.nativeReps[rt] = append(interp.named.nativeReps[rt], t)
		}
	}
}

// nativeAs returns the script types with methods whose values, given to
// native code and given back as their representations, may be the value
// of type rt that an interface holds.
func (interp *Interpreter) nativeAs(rt reflect.Type) []*itype {
	if interp == nil || rt == nil {
		return nil
	}
	interp.indexNamed()
	interp.named.RLock()
	defer interp.named.RUnlock()
	return interp.named.nativeReps[rt]
}

// typeNames names types as an AmbiguousTypeError does ("main.A or main.B").
func typeNames(types []*itype) string {
	var names []string
	for _, t := range types {
		names = append(names, t.id())
	}
	return strings.Join(names, " or ")
}

// unwrappedIs is heldIs of typ, a script type with methods, on val, a
// value held as its representation rt: a value of typ the script gave to
// a native function, which gives it back so (stripped lists the types
// with methods of that representation the script gives to native
// functions), or a value of another type. It is typ's if the
// representation is typ's own (no other type has it), not typ's if the
// script gives no value of typ to native code, and ambiguous otherwise.
func unwrappedIs(interp *Interpreter, typ *itype, rt reflect.Type, stripped []*itype, op string) bool {
	if interp.ownRepresentation(typ, rt) {
		return true
	}
	for _, s := range stripped {
		if sameScriptType(s, typ) {
			panic(&AmbiguousTypeError{Type: typ.id(), Representation: rt.String(), HeldTypes: typeNames(stripped), Native: true, Op: op})
		}
	}
	return false
}

// sameRepresentation tells whether a and b, two operands of ==, hold
// equal representations (the values an interface holds, records
// unwrapped): when they do not, the operands are unequal whatever the
// types of the values, so == needs no type.
func sameRepresentation(a, b reflect.Value) bool {
	ta, va, oka := heldScriptValue(a) // toolscript patch 212: and the types
	tb, vb, okb := heldScriptValue(b)
	if !oka || !okb || !va.IsValid() || !vb.IsValid() {
		return true // a nil interface: ifaceEqual decides
	}
	if va.Type() != vb.Type() || !va.CanInterface() || !vb.CanInterface() {
		return va.Type() == vb.Type()
	}
	// toolscript patch 212: values of a type == cannot compare, of a
	// script type (a record), panic naming that type, as in Go; values
	// of two types are unequal (the representations were compared: the
	// runtime's error named the representation, struct { Xxs []int
	// "json:\"-\"" } for a W struct{ xs []ID }).
	if !va.Type().Comparable() && (ta != nil || tb != nil) {
		if ta == nil || tb == nil || !sameScriptType(ta, tb) {
			return false
		}
		checkComparable(ta, va)
	}
	return ifaceEqual(va.Interface(), vb.Interface())
}

// nativeNamedLocked tells whether the script gives values of the type
// named name, of representation rt, to native functions, which give them
// back as rt; interp.named is locked.
func (interp *Interpreter) nativeNamedLocked(rt reflect.Type, name string) bool {
	for _, t := range interp.named.nativeReps[rt] {
		n := t.str
		if s, ok := interp.named.inst[t]; ok {
			n = s
		}
		if n == name {
			return true
		}
	}
	return false
}

// fmtUnwrapped is fmtDynamic of v, a value an interface holds as itself:
// a value of a script type with a method fmt calls (String, Error) that a
// native function gave back as its representation prints by its method
// when the representation is the type's own, and fails otherwise.
func (interp *Interpreter) fmtUnwrapped(f *frame, v reflect.Value) reflect.Value {
	stripped := interp.nativeAs(v.Type())
	if len(stripped) == 0 {
		return v
	}
	var printed []*itype
	for _, t := range stripped {
		if printMethod(t) != nil || printsByMethod(t, 0) { // toolscript patch 146: or a field's method
			printed = append(printed, t)
		}
	}
	if len(printed) == 0 {
		return v
	}
	if len(stripped) == 1 && interp.ownRepresentation(stripped[0], v.Type()) {
		if c := interp.fmtConv(stripped[0], false); c != nil {
			return c(f, v)
		}
	}
	panic(&AmbiguousTypeError{Representation: v.Type().String(), HeldTypes: typeNames(printed), Op: "printing", Native: true})
}

// literalOfSink tells whether n, an element of a composite literal
// (context names the literal's kind), is in a literal that, alone or in
// the literals around it, is an argument of a call of a native function
// that never gives back what it gets (nativeSink: fmt.Println,
// json.Marshal, result's ResultAt): the literal's value is reachable by
// that call only, so the element is not one the script holds
// (result(map[string]any{"status": Paid}) counted Status as held).
func literalOfSink(n *node, context string) bool {
	if !strings.HasSuffix(context, " literal") {
		return false
	}
	c := n
	for depth := 0; c.anc != nil && depth < 64; depth++ {
		a := c.anc
		switch {
		case a.kind == keyValueExpr || a.kind == compositeLitExpr:
			c = a
			continue
		case a.kind == addressExpr:
			c = a
			continue
		case a.kind == callExpr && len(a.child) > 0 && a.child[0] != c:
			for i, arg := range a.child[1:] {
				if arg == c {
					return nativeSink(a.child[0], i)
				}
			}
		}
		return false
	}
	return false
}

// fmtNativeAny is fmtDynamic of a native function's any, which holds a
// record (a struct) only where a script put one in a container of its
// own, or what a native function gave back as its representation
// (fmtUnwrapped); a value of another kind is printed as it is, without
// the copy that reading it as an interface{} makes.
func (interp *Interpreter) fmtNativeAny(f *frame, v reflect.Value) reflect.Value {
	return interp.fmtNativeAnyAt(f, v, false) // toolscript patch 152
}

// fmtNativeAnyAt is fmtNativeAny of an argument's value (top) or of a
// value inside another (toolscript patch 152).
func (interp *Interpreter) fmtNativeAnyAt(f *frame, v reflect.Value, top bool) reflect.Value {
	e := v
	for e.IsValid() && e.Kind() == reflect.Interface {
		if e.IsNil() {
			return v
		}
		e = e.Elem()
	}
	if !e.IsValid() {
		return v
	}
	if e.Kind() == reflect.Struct {
		return interp.fmtDynamicAt(f, v, top) // toolscript patch 152
	}
	return interp.fmtUnwrapped(f, e)
}

// setComparison sets the exec of n, an == or != whose result eq gives:
// a branch of a condition when n has one, a value otherwise.
func setComparison(n *node, eq func(*frame) bool) {
	tnext := getExec(n.tnext)
	dest := genValueOutput(n, reflect.TypeOf(true))
	if n.fnext != nil {
		fnext := getExec(n.fnext)
		n.exec = func(f *frame) bltn {
			if eq(f) {
				dest(f).SetBool(true)
				return tnext
			}
			dest(f).SetBool(false)
			return fnext
		}
		return
	}
	typ := n.typ.concrete().TypeOf()
	n.exec = func(f *frame) bltn {
		dest(f).Set(reflect.ValueOf(eq(f)).Convert(typ))
		return tnext
	}
}
