package interp // toolscript patch 174

// toolscript patch 174: the errors of json.Unmarshal and
// (*json.Decoder).Decode name the target's types from their reflect
// types, which for a script type are its representation: `json:
// Unmarshal(non-pointer struct { A int })` where Go prints `non-pointer
// main.S`, `Go struct field R.X of type int` where Go prints `of type
// main.ID`, and, for a target held in an interface (patch 172), `Go
// struct field .A` (patch 132 named the struct from the target's static
// type only). After such a call, an InvalidUnmarshalError's type and an
// UnmarshalTypeError's type get Go's name of the script type (the
// error's reflect.Type is the representation's, named as Go names the
// script type), and an UnmarshalTypeError's struct the name of the held
// target's struct type.

import (
	"encoding/json"
	"reflect"
	"strings"
)

// renamedType is a reflect type that prints as a script type Go names
// name.
type renamedType struct {
	reflect.Type
	name string
}

func (r renamedType) String() string { return r.name }

// jsonDecodeErrorCall returns callFn for the call n of json.Unmarshal or
// (*json.Decoder).Decode, naming the script types in its error as Go
// does; nil for any other call.
func jsonDecodeErrorCall(n *node, callFn func(reflect.Value, []reflect.Value) []reflect.Value) func(reflect.Value, []reflect.Value) []reflect.Value {
	arg, _, kind := plainArgsOf(n)
	fnValue := arg < 0 && plainDynamic(n) // toolscript patch 172's function values
	if (arg < 0 || kind != plainJSON || arg+1 >= len(n.child)) && !fnValue {
		return nil
	}
	return func(v reflect.Value, in []reflect.Value) []reflect.Value {
		arg, _, kind := plainArgsAt(n, v, fnValue)
		if arg < 0 || kind != plainJSON || arg+1 >= len(n.child) {
			return callFn(v, in)
		}
		static := n.child[arg+1].typ
		if static == nil || isBin(static) && !isInterface(static) {
			return callFn(v, in)
		}
		dynamic := isInterface(static)
		t := static
		if dynamic {
			t = nil
			if arg < len(in) {
				t, _, _ = heldScriptValue(in[arg])
			}
		}
		out := callFn(v, in)
		if t == nil || len(out) == 0 || !out[len(out)-1].IsValid() || !out[len(out)-1].CanInterface() {
			return out
		}
		switch e := out[len(out)-1].Interface().(type) {
		case *json.InvalidUnmarshalError:
			if e != nil && e.Type != nil {
				e.Type = jsonRenamed(e.Type, t)
			}
		case *json.UnmarshalTypeError:
			if e == nil {
				break
			}
			var path []string
			if e.Field != "" {
				path = strings.Split(e.Field, ".")
				if dynamic && e.Struct == "" {
					e.Struct = jsonStructAt(t, path)
				}
			}
			if e.Type != nil {
				if ft := jsonFieldTypeAt(t, path); ft != nil {
					e.Type = jsonRenamed(e.Type, ft)
				}
			}
		}
		return out
	}
}

// jsonRenamed is rt, the reflect type of a value of t or of a type t
// reaches through pointers, slices, arrays and maps' values, named as Go
// names that type.
func jsonRenamed(rt reflect.Type, t *itype) reflect.Type {
	if _, ok := rt.(renamedType); ok {
		return rt
	}
	for i := 0; t != nil && i < 64; i++ {
		if tr := t.TypeOf(); tr == rt && !isBin(t) {
			if name := goTypeName(t); name != "" && name != rt.String() {
				return renamedType{Type: rt, name: name}
			}
			return rt
		}
		switch t.cat {
		case ptrT, sliceT, arrayT, variadicT, mapT, linkedT:
			t = t.val
		default:
			return rt
		}
	}
	return rt
}

// jsonFieldTypeAt is the type of the field of the struct json decodes
// into at path from t, as jsonStructAt walks it; t itself for an empty
// path; nil when the path leaves script types.
func jsonFieldTypeAt(t *itype, path []string) *itype {
	if len(path) == 0 {
		return t
	}
	cur := jsonDeref(t)
	for i, seg := range path {
		st := cur
		for st != nil && st.cat == linkedT {
			st = st.val
		}
		if st == nil || st.cat != structT {
			return nil
		}
		var next *structField
		for k := range st.field {
			f := &st.field[k]
			if jsonFieldName(f) == seg || f.embed && f.name == seg {
				next = f
				break
			}
		}
		if next == nil {
			return nil
		}
		if i == len(path)-1 {
			return next.typ
		}
		if next.embed {
			cur = next.typ
			for cur != nil && cur.cat == ptrT {
				cur = cur.val
			}
			continue
		}
		cur = jsonDeref(next.typ)
	}
	return nil
}
