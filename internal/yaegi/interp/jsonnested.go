package interp // toolscript patch 122

// toolscript patch 122: encoding/json's marshalling functions
// (json.Marshal, json.MarshalIndent, (*json.Encoder).Encode) call the
// MarshalJSON and MarshalText methods of script types wherever Go would:
// in struct fields, slice, array and map elements and through pointers,
// not only on the value given to them. The value is converted, at the
// call, into a mirror: a value of a host type with the same JSON form
// whose positions of a type with such a method hold the interpreter's
// record of the value (valueInterface, whose MarshalJSON calls the
// script's method, patch 44). A pointer-receiver method is called, as Go
// calls it, only where the value is addressable (through a pointer, a
// slice element). omitempty on such a field tests the value as Go does
// (by its kind). What the mirror cannot express stays patch 44's compile
// error: a map key or an embedded field of a type with such a method, a
// recursive type, omitzero or ",string" on such a field, and every
// unmarshalling function.

import (
	"encoding/json"
	"reflect"
	"strings"
)

var (
	jsonEncoderType = reflect.TypeOf((*json.Encoder)(nil))
	anyRType        = reflect.TypeOf((*any)(nil)).Elem()
)

// jsonMirror is how a value of a script type becomes its mirror: nil
// when the type holds no method to call (the value is given as it is).
type jsonMirror struct {
	rt   reflect.Type                        // the mirror's type
	conv func(v reflect.Value) reflect.Value // v, of the script type's representation, as a value of rt
}

// jsonMarshalArg returns the index among a call's arguments of the value
// that the encoding/json marshalling call n encodes (-1: n is no such
// call) and its conversion to a mirror (nil: the value is marshalled as
// it is); ok is false when the value has a method to call that the
// mirror cannot reach (jsonCallCheck then reports it).
func (interp *Interpreter) jsonMarshalArg(n *node) (arg int, conv func(reflect.Value) reflect.Value, ok bool) {
	c0 := n.child[0]
	if c0.kind != selectorExpr || len(c0.child) != 2 {
		return -1, nil, true
	}
	name := c0.child[1].ident
	arg, top := -1, false
	if pkg := c0.child[0]; pkg.sym != nil && pkg.sym.typ != nil && pkg.sym.typ.cat == binPkgT {
		if pkg.sym.typ.path != "encoding/json" {
			return -1, nil, true
		}
		switch name {
		case "Marshal":
			arg, top = 0, true
		case "MarshalIndent":
			arg = 0
		}
	} else if rt := c0.child[0].typ; rt != nil && rt.cat == valueT && rt.rtype == jsonEncoderType && name == "Encode" {
		arg = 0
	}
	if arg < 0 || arg+1 >= len(n.child) || n.child[arg+1].typ == nil {
		return -1, nil, true
	}
	t := n.child[arg+1].typ
	top = top && jsonWrapsTop(t) // toolscript patch 166
	// toolscript patch 192: or a field to embed again
	if m, _ := jsonMethodIn(t, true, top, map[*itype]bool{}); m == "" && jsonHiddenEmbedIn(t, true, map[*itype]bool{}) == "" {
		return arg, nil, true // nothing below the value itself to call
	}
	mir, ok := interp.mirrorOf(t, false, map[*itype]bool{})
	if !ok {
		return arg, nil, false
	}
	if mir == nil { // a pointer method where Go does not call it: the representation, without the wrapper's methods
		return arg, func(v reflect.Value) reflect.Value { return v }, true
	}
	return arg, mir.conv, true
}

// jsonMarshalerType is json.Marshaler (toolscript patch 166).
var jsonMarshalerType = reflect.TypeFor[json.Marshaler]()

// jsonWrapsTop tells whether json.Marshal's value of type t, a script
// type with a value method MarshalJSON, reaches it through the
// interface wrapper the call gives its argument (toolscript patch 166):
// only json.Marshaler has one (encoding.TextMarshaler's package is not
// in the tables), so a value with only a MarshalText goes through the
// mirror, as in json.MarshalIndent (it crashed the interpreter).
func jsonWrapsTop(t *itype) bool {
	return scriptHasMethod(t, "MarshalJSON", jsonMarshalMethods["MarshalJSON"])
}

// jsonCanMirror tells whether the value the marshalling call n encodes
// is marshalled as Go does (jsonMarshalArg), so that patch 44's check
// need not fail.
func jsonCanMirror(n *node) bool {
	if n.interp == nil {
		return false
	}
	_, _, ok := n.interp.jsonMarshalArg(n)
	return ok
}

// jsonHasMarshaler tells whether a value of t, addressable or not, has a
// MarshalJSON or MarshalText method of the script's to call.
func jsonHasMarshaler(t *itype, addressable bool) bool {
	for m, sig := range jsonMarshalMethods {
		if scriptHasMethod(t, m, sig) || addressable && t.cat != ptrT && scriptHasMethod(ptrOf(t), m, sig) {
			return true
		}
	}
	return false
}

// mirrorOf returns the mirror of values of t (nil: t needs none); ok is
// false when t has a method to call that the mirror cannot reach.
// addressable tells that values of t are addressable (reached through a
// pointer or a slice).
func (interp *Interpreter) mirrorOf(t *itype, addressable bool, path map[*itype]bool) (mir *jsonMirror, ok bool) {
	if t == nil || isBin(t) || isInterface(t) {
		return nil, true
	}
	if path[t] {
		return nil, !jsonTypeHasMethods(t)
	}
	path[t] = true
	defer delete(path, t)
	defer func() {
		if recover() != nil { // a type reflect cannot mirror
			mir, ok = nil, false
		}
	}()
	if t.cat != ptrT && jsonHasMarshaler(t, addressable) || t.cat == ptrT && jsonHasMarshaler(t, false) {
		byValue := &node{typ: t, interp: interp}
		if t.cat == ptrT || !addressable || !jsonPointerPrefers(t) { // toolscript patch 191: was jsonHasMarshaler(t, false)
			return &jsonMirror{rt: anyRType, conv: func(v reflect.Value) reflect.Value {
				out := reflect.New(anyRType).Elem()
				if v.Kind() != reflect.Ptr || !v.IsNil() { // a nil pointer is null, as Go writes it
					out.Set(reflect.ValueOf(valueInterface{node: byValue, value: v}))
				}
				return out
			}}, true
		}
		byPointer := &node{typ: ptrOf(t), interp: interp} // addressable: Go calls the pointer method
		return &jsonMirror{rt: anyRType, conv: func(v reflect.Value) reflect.Value {
			out := reflect.New(anyRType).Elem()
			if !v.CanAddr() { // toolscript patch 191: as Go, the value's own method set
				out.Set(reflect.ValueOf(valueInterface{node: byValue, value: v}))
				return out
			}
			out.Set(reflect.ValueOf(valueInterface{node: byPointer, value: v.Addr()}))
			return out
		}}, true
	}
	switch t.cat {
	case linkedT:
		return interp.mirrorOf(t.val, addressable, path)
	case ptrT:
		e, ok := interp.mirrorOf(t.val, true, path)
		if !ok || e == nil {
			return nil, ok
		}
		rt := reflect.PointerTo(e.rt)
		return &jsonMirror{rt: rt, conv: func(v reflect.Value) reflect.Value {
			if v.IsNil() {
				return reflect.Zero(rt)
			}
			p := reflect.New(e.rt)
			p.Elem().Set(e.conv(v.Elem()))
			return p
		}}, true
	case sliceT, variadicT:
		e, ok := interp.mirrorOf(t.val, true, path)
		if !ok || e == nil {
			return nil, ok
		}
		rt := reflect.SliceOf(e.rt)
		return &jsonMirror{rt: rt, conv: func(v reflect.Value) reflect.Value {
			if v.IsNil() {
				return reflect.Zero(rt)
			}
			out := reflect.MakeSlice(rt, v.Len(), v.Len())
			for i := 0; i < v.Len(); i++ {
				out.Index(i).Set(e.conv(v.Index(i)))
			}
			return out
		}}, true
	case arrayT:
		e, ok := interp.mirrorOf(t.val, addressable, path)
		if !ok || e == nil {
			return nil, ok
		}
		rt := reflect.ArrayOf(t.length, e.rt)
		return &jsonMirror{rt: rt, conv: func(v reflect.Value) reflect.Value {
			out := reflect.New(rt).Elem()
			for i := 0; i < v.Len(); i++ {
				out.Index(i).Set(e.conv(v.Index(i)))
			}
			return out
		}}, true
	case mapT:
		if k, _ := jsonMethodIn(t.key, true, false, map[*itype]bool{}); k != "" {
			return nil, false
		}
		e, ok := interp.mirrorOf(t.val, false, path)
		if !ok || e == nil {
			return nil, ok
		}
		kt := t.key.TypeOf()
		rt := reflect.MapOf(kt, e.rt)
		return &jsonMirror{rt: rt, conv: func(v reflect.Value) reflect.Value {
			if v.IsNil() {
				return reflect.Zero(rt)
			}
			out := reflect.MakeMapWithSize(rt, v.Len())
			for it := v.MapRange(); it.Next(); {
				out.SetMapIndex(it.Key(), e.conv(it.Value()))
			}
			return out
		}}, true
	case structT:
		return interp.structMirror(t, addressable, path)
	}
	return nil, !jsonTypeHasMethods(t)
}

// structMirror is mirrorOf for a struct type.
func (interp *Interpreter) structMirror(t *itype, addressable bool, path map[*itype]bool) (*jsonMirror, bool) {
	rt := t.TypeOf()
	if rt.Kind() != reflect.Struct || rt.NumField() != len(t.field) {
		return nil, !jsonTypeHasMethods(t)
	}
	type fieldPlan struct {
		from      int
		mir       *jsonMirror
		omitEmpty bool
	}
	var plans []fieldPlan
	var fields []reflect.StructField
	changed := false
	for i, f := range t.field {
		sf := rt.Field(i)
		opts := reflect.StructTag(f.tag).Get("json")
		m, ok := interp.mirrorOf(f.typ, addressable, path)
		if !ok {
			return nil, false
		}
		if m != nil && (f.embed || strings.Contains(opts, ",omitzero") || strings.Contains(opts, ",string")) {
			return nil, false
		}
		if strings.Contains(opts, ",omitzero") && !isBin(f.typ) &&
			(scriptHasMethod(f.typ, "IsZero", "func() bool") || scriptHasMethod(ptrOf(f.typ), "IsZero", "func() bool")) {
			return nil, false // Go asks the method whether to omit the field
		}
		if !sf.IsExported() && !sf.Anonymous {
			changed = true // encoding/json leaves it out
			continue
		}
		if f.embed && isBin(f.typ) && !sf.Anonymous && jsonFlattens(sf) { // toolscript patch 192: embedded again, as a copy
			if m, ok = jsonEmbedMirror(&sf); !ok {
				return nil, false
			}
			changed = true
			sf.Index, sf.Offset = nil, 0
			fields = append(fields, sf)
			plans = append(plans, fieldPlan{from: i, mir: m})
			continue
		}
		if m != nil {
			changed = true
			sf.Type = m.rt
		}
		sf.Index, sf.Offset = nil, 0
		fields = append(fields, sf)
		plans = append(plans, fieldPlan{from: i, mir: m, omitEmpty: strings.Contains(opts, ",omitempty")})
	}
	if !changed {
		return nil, true
	}
	mt := reflect.StructOf(fields)
	return &jsonMirror{rt: mt, conv: func(v reflect.Value) reflect.Value {
		out := reflect.New(mt).Elem()
		for i, p := range plans {
			fv := v.Field(p.from)
			if p.mir == nil {
				out.Field(i).Set(fv)
				continue
			}
			if p.omitEmpty && jsonEmpty(fv) {
				continue // left nil: omitted, as Go omits the empty value
			}
			out.Field(i).Set(p.mir.conv(fv))
		}
		return out
	}}, true
}

// jsonTypeHasMethods tells whether t holds a script type with a JSON
// marshalling method anywhere.
func jsonTypeHasMethods(t *itype) bool {
	m, _ := jsonMethodIn(t, true, false, map[*itype]bool{})
	return m != "" || jsonHiddenEmbedIn(t, true, map[*itype]bool{}) != "" // toolscript patch 192
}

// jsonEmpty is encoding/json's omitempty test.
func jsonEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return v.IsZero()
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// noteJSONHeld records that the script puts values of type t in
// interfaces, if t is a script type, or a type made of script types,
// that does not keep its type there and has a JSON method to call: such
// a value is held as its representation, which encoding/json would
// marshal without the method.
func (interp *Interpreter) noteJSONHeld(t *itype) {
	if interp == nil || t == nil || t.untyped || !madeOfScriptTypes(t, 0) {
		return
	}
	interp.named.RLock()
	seen := interp.named.jsonHeldSeen[t]
	interp.named.RUnlock()
	if seen {
		return
	}
	has := !keepsMethods(t) && jsonTypeHasMethods(t)
	interp.named.Lock()
	defer interp.named.Unlock()
	if interp.named.jsonHeldSeen == nil {
		interp.named.jsonHeldSeen = map[*itype]bool{}
	}
	if !interp.named.jsonHeldSeen[t] && has {
		interp.named.jsonHeld = append(interp.named.jsonHeld, t)
	}
	interp.named.jsonHeldSeen[t] = true
}

// jsonHeldReps returns the representations of the types noteJSONHeld
// recorded, with the types' names; nil for none.
func (interp *Interpreter) jsonHeldReps() map[reflect.Type]string {
	interp.named.RLock()
	held := interp.named.jsonHeld
	if interp.named.jsonRepsAt == len(held) {
		reps := interp.named.jsonReps
		interp.named.RUnlock()
		return reps
	}
	interp.named.RUnlock()
	var reps map[reflect.Type]string
	for _, t := range held {
		for _, rt := range namedReps(t) {
			if reps == nil {
				reps = map[reflect.Type]string{}
			}
			name := t.id()
			if prev, ok := reps[rt]; !ok {
				reps[rt] = name
			} else if !strings.Contains(" or "+prev+" or ", " or "+name+" or ") {
				reps[rt] = prev + " or " + name
			}
		}
	}
	interp.named.Lock()
	interp.named.jsonReps, interp.named.jsonRepsAt = reps, len(held)
	interp.named.Unlock()
	return reps
}

// jsonHeldIn returns the names of the script types with JSON methods
// that a value held in an interface in v (an interface is below it, or
// it is one) may be, or "": encoding/json would marshal such a value by
// its representation. The walk stops after maxJSONWalk values.
func jsonHeldIn(v reflect.Value, reps map[reflect.Type]string) string {
	budget := maxJSONWalk
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value, direct bool, depth int) string
	walk = func(v reflect.Value, direct bool, depth int) string {
		budget--
		if !v.IsValid() || depth > 256 || budget < 0 {
			return ""
		}
		if direct {
			if names, ok := reps[v.Type()]; ok {
				return names
			}
		}
		switch v.Kind() {
		case reflect.Interface:
			if v.IsNil() {
				return ""
			}
			e := v.Elem()
			if vi, ok := ifaceOf(e).(valueInterface); ok {
				return walk(vi.value, false, depth+1) // a record: its own type is known
			}
			return walk(e, true, depth+1)
		case reflect.Ptr:
			if v.IsNil() || seen[v.Pointer()] {
				return ""
			}
			seen[v.Pointer()] = true
			return walk(v.Elem(), false, depth+1)
		case reflect.Slice, reflect.Array:
			if v.Kind() == reflect.Slice {
				if v.IsNil() || v.Len() > 0 && seen[v.Pointer()] {
					return ""
				}
				if v.Len() > 0 {
					seen[v.Pointer()] = true
				}
			}
			for i := 0; i < v.Len() && budget > 0; i++ {
				if s := walk(v.Index(i), false, depth+1); s != "" {
					return s
				}
			}
		case reflect.Map:
			if v.IsNil() || seen[v.Pointer()] {
				return ""
			}
			seen[v.Pointer()] = true
			for it := v.MapRange(); it.Next() && budget > 0; {
				if s := walk(it.Value(), false, depth+1); s != "" {
					return s
				}
			}
		case reflect.Struct:
			for i := 0; i < v.NumField() && budget > 0; i++ {
				if s := walk(v.Field(i), false, depth+1); s != "" {
					return s
				}
			}
		}
		return ""
	}
	return walk(v, false, 0)
}

// maxJSONWalk bounds jsonHeldIn's walk of one value.
const maxJSONWalk = 1 << 20

// jsonHeldError is the run-time error of the marshalling call n whose
// value holds, in an interface, what may be a value of the script types
// names.
func jsonHeldError(n *node, names string) error {
	return n.cfgErrorf("json: a value held in an interface may be of type %s, whose JSON methods the interpreter "+
		"cannot call there (it holds the value as its representation); marshal a value of the type itself, "+
		"or give the type a method", names)
}
