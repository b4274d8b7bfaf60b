package interp // toolscript patch 132

// toolscript patch 132: encoding/json's UnmarshalTypeError names the
// struct type whose field it could not fill ("Go struct field
// Doc.Base.id"), from the struct's reflect type, which a script type's
// representation does not have: the message read "Go struct field
// .Base.id". After json.Unmarshal and (*json.Decoder).Decode, an
// UnmarshalTypeError without a struct name gets the script type's
// name, found by following the error's field path from the target's
// static type as encoding/json walks it.

import (
	"encoding/json"
	"reflect"
	"strings"
)

var jsonDecoderType = reflect.TypeOf((*json.Decoder)(nil))

// jsonErrorFix returns what completes the error of n's results when n
// is a call of json.Unmarshal or (*json.Decoder).Decode whose target is
// of a script type, or nil.
func jsonErrorFix(n *node) func(out []reflect.Value) {
	if len(n.child) == 0 {
		return nil
	}
	c0 := n.child[0]
	if c0.kind != selectorExpr || len(c0.child) != 2 {
		return nil
	}
	arg := -1
	if pkg := c0.child[0]; pkg.sym != nil && pkg.sym.typ != nil && pkg.sym.typ.cat == binPkgT {
		if pkg.sym.typ.path == "encoding/json" && c0.child[1].ident == "Unmarshal" {
			arg = 1
		}
	} else if rt := c0.child[0].typ; rt != nil && rt.cat == valueT && rt.rtype == jsonDecoderType && c0.child[1].ident == "Decode" {
		arg = 0
	}
	if arg < 0 || arg+1 >= len(n.child) {
		return nil
	}
	t := n.child[arg+1].typ
	if t == nil || isBin(t) || isInterface(t) {
		return nil
	}
	return func(out []reflect.Value) {
		if len(out) == 0 || !out[len(out)-1].IsValid() || !out[len(out)-1].CanInterface() {
			return
		}
		e, ok := out[len(out)-1].Interface().(*json.UnmarshalTypeError)
		if !ok || e == nil || e.Struct != "" || e.Field == "" {
			return
		}
		e.Struct = jsonStructAt(t, strings.Split(e.Field, "."))
	}
}

// jsonDeref is the type json decodes into for a value of t: through
// pointers, slices, arrays and maps' values, as objects nest there.
func jsonDeref(t *itype) *itype {
	for i := 0; t != nil && i < 64; i++ {
		switch t.cat {
		case ptrT, sliceT, arrayT, variadicT:
			t = t.val
		case mapT:
			t = t.val
		case linkedT:
			if t.name != "" {
				return t
			}
			t = t.val
		default:
			return t
		}
	}
	return t
}

// jsonStructAt returns the name of the struct type whose JSON object
// holds the last field of path, from t, the target's type: an embedded
// struct's fields are of the object of the struct that embeds it.
func jsonStructAt(t *itype, path []string) string {
	cur := jsonDeref(t)
	level := cur
	for i, seg := range path {
		st := cur
		for st != nil && st.cat == linkedT {
			st = st.val
		}
		if st == nil || st.cat != structT {
			return ""
		}
		if i == len(path)-1 {
			break
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
			return ""
		}
		if next.embed {
			cur = next.typ
			for cur != nil && cur.cat == ptrT {
				cur = cur.val
			}
			continue
		}
		cur = jsonDeref(next.typ)
		level = cur
	}
	if level == nil || level.name == "" {
		return ""
	}
	return level.name
}

// jsonFieldName is the name of f in JSON: its tag's, or its own.
func jsonFieldName(f *structField) string {
	tag := reflect.StructTag(f.tag).Get("json")
	if name, _, _ := strings.Cut(tag, ","); name != "" && name != "-" {
		return name
	}
	return f.name
}
