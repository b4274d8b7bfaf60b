package interp

// toolscript patch 44: encoding/json never runs a script type's
// MarshalJSON, UnmarshalJSON, MarshalText, UnmarshalText or IsZero method
// where Go would (a script type's reflect type has no methods; only the
// value passed to json.Marshal itself is converted to a json.Marshaler),
// so a call of encoding/json whose value's type has such a method
// anywhere else is a compile error naming the method, the type and the
// line, instead of JSON that differs from Go's. A script value held in an
// interface (a map[string]any value) is marshalled as its value (it was
// the interpreter's record, {}), and one whose type has such a method
// fails the call with an error that names it.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

var (
	jsonMarshalMethods = map[string]string{
		"MarshalJSON": "func() ([]uint8, error)",
		"MarshalText": "func() ([]uint8, error)",
	}
	jsonUnmarshalMethods = map[string]string{
		"UnmarshalJSON": "func([]uint8) error",
		"UnmarshalText": "func([]uint8) error",
	}
)

// MarshalJSON marshals the script value v holds (toolscript patch 44).
func (v valueInterface) MarshalJSON() ([]byte, error) {
	if v.node == nil || v.node.typ == nil || !v.value.IsValid() {
		return []byte("null"), nil
	}
	if v.value.Kind() == reflect.Ptr && v.value.IsNil() {
		return []byte("null"), nil // toolscript patch 166: as Go writes a nil pointer, without calling its method
	}
	t := v.node.typ
	for _, name := range [...]string{"MarshalJSON", "MarshalText"} {
		m, index := t.lookupMethod(name)
		if meth, ok := jsonPromotedBinMethod(t, v.value, name); ok { // toolscript patch 190: promoted from an embedded host type
			b, err := jsonCallPromoted(meth, name, t.str)
			if err != nil || name == "MarshalJSON" {
				return b, err
			}
			return json.Marshal(string(b))
		}
		if m == nil || !scriptHasMethod(t, name, jsonMarshalMethods[name]) || v.node.interp == nil || !v.value.CanInterface() {
			continue
		}
		nod := *m
		nod.val = &nod
		nod.recv = &receiver{val: v.value, index: index}
		out := genFuncValue(&nod)(v.node.interp.frame).Call(nil)
		if err, _ := out[1].Interface().(error); err != nil {
			return nil, fmt.Errorf("json: error calling %s for type %s: %w", name, t.str, err)
		}
		b := out[0].Bytes()
		if name == "MarshalText" {
			return json.Marshal(string(b))
		}
		return b, nil
	}
	if m, at := jsonMethodIn(t, true, false, map[*itype]bool{}); m != "" || jsonHiddenEmbedIn(t, true, map[*itype]bool{}) != "" { // toolscript patch 192: or a field to embed again
		if v.node.interp != nil {
			// toolscript patch 166: and ok with a nil mirror, a value
			// whose only JSON methods are pointer methods Go does not call
			// on it (an interface's value is not addressable): it is
			// marshalled as it is, as jsonMarshalArg gives such a value
			// (any(t) of a T with a pointer-receiver MarshalJSON failed).
			if mir, ok := v.node.interp.mirrorOf(t, false, map[*itype]bool{}); ok && (mir != nil || v.value.CanInterface()) { // toolscript patch 122
				m := v.value
				if mir != nil {
					m = mir.conv(v.value)
				}
				if names := jsonHeldIn(m, v.node.interp.jsonHeldReps()); names != "" {
					return nil, fmt.Errorf("json: a value held in an interface in %s may be of type %s, whose JSON methods "+
						"the interpreter cannot call there", t.str, names)
				}
				return json.Marshal(m.Interface())
			}
		}
		if m == "" { // toolscript patch 192
			return nil, fmt.Errorf("json: the interpreter cannot give encoding/json the promoted fields of %s (in an interface value)",
				jsonHiddenEmbedIn(t, true, map[*itype]bool{}))
		}
		return nil, fmt.Errorf("json: the interpreter does not call the %s method of %s%s", m, at, " (in an interface value)")
	}
	if !v.value.CanInterface() {
		return []byte("null"), nil
	}
	return json.Marshal(v.value.Interface())
}

// jsonCallCheck returns a compile error for the call n of encoding/json
// whose value has a type with a JSON method the interpreter cannot call.
func jsonCallCheck(n *node) error {
	c0 := n.child[0]
	if c0.kind != selectorExpr || len(c0.child) != 2 {
		return nil
	}
	name := c0.child[1].ident
	arg, marshal, top := -1, false, false
	if pkg := c0.child[0]; pkg.sym != nil && pkg.sym.typ != nil && pkg.sym.typ.cat == binPkgT {
		if pkg.sym.typ.path != "encoding/json" {
			return nil
		}
		switch name {
		case "Marshal":
			arg, marshal, top = 0, true, true
		case "MarshalIndent":
			arg, marshal = 0, true
		case "Unmarshal":
			arg = 1
		}
	} else if rt := c0.child[0].typ; rt != nil && rt.cat == valueT && rt.rtype != nil {
		switch {
		case rt.rtype == reflect.TypeOf((*json.Encoder)(nil)) && name == "Encode":
			arg, marshal = 0, true
		case rt.rtype == reflect.TypeOf((*json.Decoder)(nil)) && name == "Decode":
			arg = 0
		}
	}
	if arg < 0 || arg+1 >= len(n.child) || n.child[arg+1].typ == nil {
		return nil
	}
	t := n.child[arg+1].typ
	top = top && jsonWrapsTop(t) // toolscript patch 166: as jsonMarshalArg
	// toolscript patch 190: decoded by the embedded host value (jsonUnmarshalArg)
	if !marshal && jsonPromotedUnmarshal(t) != nil {
		return nil
	}
	if m, at := jsonMethodIn(t, marshal, top, map[*itype]bool{}); m != "" {
		if marshal && jsonCanMirror(n) { // toolscript patch 122: called through a mirror of the value
			return nil
		}
		return n.cfgErrorf("json.%s: the interpreter does not call the %s method of %s; encode that value yourself", name, m, at)
	}
	if at := jsonHiddenEmbedIn(t, marshal, map[*itype]bool{}); at != "" { // toolscript patch 192
		if marshal && jsonCanMirror(n) {
			return nil
		}
		return n.cfgErrorf("json.%s: the interpreter cannot give encoding/json the promoted fields of the embedded %s; "+
			"name the field, or copy the values yourself", name, at)
	}
	return nil
}

// jsonMethodIn returns a JSON method of a script type in t (marshal or
// unmarshal ones) and where it is; top tells whether t is the value
// json.Marshal converts itself (its own value-receiver methods work).
func jsonMethodIn(t *itype, marshal, top bool, seen map[*itype]bool) (string, string) {
	if t == nil || seen[t] || isBin(t) {
		return "", ""
	}
	seen[t] = true
	methods := jsonUnmarshalMethods
	if marshal {
		methods = jsonMarshalMethods
	}
	if t.cat != ptrT && t.cat != interfaceT {
		for _, m := range jsonMethodOrder(methods) { // toolscript patch 229
			sig := methods[m]
			if scriptHasMethod(t, m, sig) || scriptHasMethod(ptrOf(t), m, sig) {
				if top && scriptHasMethod(t, m, sig) {
					return "", ""
				}
				return m, t.str
			}
		}
	}
	switch t.cat {
	case linkedT, ptrT, sliceT, arrayT, variadicT:
		return jsonMethodIn(t.val, marshal, top && t.cat == linkedT, seen)
	case mapT:
		if m, at := jsonMethodIn(t.key, marshal, false, seen); m != "" {
			return m, at
		}
		return jsonMethodIn(t.val, marshal, false, seen)
	case structT:
		for _, f := range t.field {
			if marshal && strings.Contains(reflect.StructTag(f.tag).Get("json"), "omitzero") && !isBin(f.typ) &&
				(scriptHasMethod(f.typ, "IsZero", "func() bool") || scriptHasMethod(ptrOf(f.typ), "IsZero", "func() bool")) {
				return "IsZero", f.typ.str + " (field " + f.name + ", omitzero)"
			}
			if m, at := jsonMethodIn(f.typ, marshal, false, seen); m != "" {
				return m, at
			}
		}
	}
	return "", ""
}
