package interp // toolscript patch 192

// toolscript patch 192: a script struct type that embeds a host struct
// type with methods (sync.Mutex, url.URL, big.Float, *bytes.Buffer) has
// a representation in which that field is a named field, not an
// embedded one (reflect.StructOf cannot promote the methods; patch 43),
// so encoding/json wrote {"Mutex":{},"N":1} where Go writes {"N":1}, and
// {"URL":{"Scheme":...}} where Go promotes the URL's fields. A field of
// a host struct with no field encoding/json sees (sync.Mutex) now has
// the tag json:"-" in the representation (jsonSkipsEmbed). Marshalling a
// value with one that has such fields (url.URL) goes through the mirror
// (patch 122), in which the field is embedded again, as a method-less
// copy of the host struct with its exported fields; decoding into such
// a type (whose promoted fields encoding/json would not set), or
// marshalling a recursive one, is a compile error naming the field.

import (
	"reflect"
	"strings"
)

// jsonHiddenEmbedIn returns the name of an embedded host struct field,
// in the script type t or below it, whose fields encoding/json promotes
// in Go but would not in t's representation (marshal: for encoding,
// else for decoding), or "".
func jsonHiddenEmbedIn(t *itype, marshal bool, seen map[*itype]bool) string {
	if t == nil || seen[t] || isBin(t) {
		return ""
	}
	seen[t] = true
	switch t.cat {
	case linkedT, ptrT, sliceT, arrayT, variadicT, mapT:
		return jsonHiddenEmbedIn(t.val, marshal, seen)
	case structT:
		var rt reflect.Type
		for i, f := range t.field {
			if f.embed && isBin(f.typ) {
				if rt == nil {
					if rt = t.TypeOf(); rt.Kind() != reflect.Struct || rt.NumField() != len(t.field) {
						return ""
					}
				}
				sf := fieldOfStruct(rt, i)
				if !sf.Anonymous && jsonFlattens(sf) && (marshal || jsonHasExported(derefType(sf.Type), 0)) {
					return f.typ.str + " (embedded in " + t.str + ")"
				}
				continue
			}
			if s := jsonHiddenEmbedIn(f.typ, marshal, seen); s != "" {
				return s
			}
		}
	}
	return ""
}

// jsonFlattens tells whether encoding/json promotes the fields of the
// embedded field sf: a struct, or a pointer to one, with no name in its
// tag.
func jsonFlattens(sf reflect.StructField) bool {
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return false
	}
	if name, _, _ := strings.Cut(tag, ","); name != "" {
		return false
	}
	return derefType(sf.Type).Kind() == reflect.Struct
}

func derefType(rt reflect.Type) reflect.Type {
	if rt.Kind() == reflect.Ptr {
		return rt.Elem()
	}
	return rt
}

// jsonHasExported tells whether encoding/json sees a field of the host
// struct type rt.
func jsonHasExported(rt reflect.Type, depth int) bool {
	if rt.Kind() != reflect.Struct || depth > 16 {
		return false
	}
	for i := 0; i < rt.NumField(); i++ {
		sf := rt.Field(i)
		if sf.Anonymous && jsonFlattens(sf) {
			if jsonHasExported(derefType(sf.Type), depth+1) {
				return true
			}
			continue
		}
		if sf.IsExported() {
			return true
		}
	}
	return false
}

// jsonEmbedCopy returns a method-less struct type with the fields
// encoding/json sees in the host struct type rt (an embedded struct
// field is embedded as its own copy), and the conversion of a value of
// rt to it; ok is false for a struct it cannot copy (an unexported
// embedded struct with fields to promote).
func jsonEmbedCopy(rt reflect.Type, depth int) (reflect.Type, func(reflect.Value) reflect.Value, bool) {
	if depth > 16 {
		return nil, nil, false
	}
	type plan struct {
		from int
		ptr  bool
		sub  func(reflect.Value) reflect.Value
		elem reflect.Type
	}
	var fields []reflect.StructField
	var plans []plan
	for i := 0; i < rt.NumField(); i++ {
		sf := rt.Field(i)
		if sf.Anonymous && jsonFlattens(sf) {
			if !jsonHasExported(derefType(sf.Type), 0) {
				continue // nothing of it to write
			}
			if !sf.IsExported() {
				return nil, nil, false
			}
			et, sub, ok := jsonEmbedCopy(derefType(sf.Type), depth+1)
			if !ok {
				return nil, nil, false
			}
			p := plan{from: i, ptr: sf.Type.Kind() == reflect.Ptr, sub: sub, elem: et}
			ft := et
			if p.ptr {
				ft = reflect.PointerTo(et)
			}
			fields = append(fields, reflect.StructField{Name: sf.Name, Type: ft, Tag: sf.Tag, Anonymous: true})
			plans = append(plans, p)
			continue
		}
		if !sf.IsExported() {
			continue // encoding/json leaves it out
		}
		fields = append(fields, reflect.StructField{Name: sf.Name, Type: sf.Type, Tag: sf.Tag})
		plans = append(plans, plan{from: i})
	}
	ct := reflect.StructOf(fields)
	return ct, func(v reflect.Value) reflect.Value {
		out := reflect.New(ct).Elem()
		for k, p := range plans {
			fv := v.Field(p.from)
			switch {
			case p.sub == nil:
				out.Field(k).Set(fv)
			case p.ptr:
				if !fv.IsNil() {
					e := reflect.New(p.elem)
					e.Elem().Set(p.sub(fv.Elem()))
					out.Field(k).Set(e)
				}
			default:
				out.Field(k).Set(p.sub(fv))
			}
		}
		return out
	}, true
}

// jsonEmbedMirror is the mirror of the embedded host struct field sf of
// a script struct's representation (structMirror), embedded again.
func jsonEmbedMirror(sf *reflect.StructField) (*jsonMirror, bool) {
	ct, sub, ok := jsonEmbedCopy(derefType(sf.Type), 0)
	if !ok {
		return nil, false
	}
	if sf.Type.Kind() != reflect.Ptr {
		sf.Type, sf.Anonymous = ct, true
		return &jsonMirror{rt: ct, conv: sub}, true
	}
	pt := reflect.PointerTo(ct)
	sf.Type, sf.Anonymous = pt, true
	return &jsonMirror{rt: pt, conv: func(v reflect.Value) reflect.Value {
		if v.IsNil() {
			return reflect.Zero(pt)
		}
		e := reflect.New(ct)
		e.Elem().Set(sub(v.Elem()))
		return e
	}}, true
}

// jsonSkipsEmbed tells whether the embedded host struct field sf, which
// a script struct's representation holds as a named field, has nothing
// encoding/json sees (sync.Mutex, *bytes.Buffer): the field's tag then
// hides it from the encoders (hiddenFieldTag), as Go's promotion of
// nothing does, in encoding and decoding and in recursive types alike.
func jsonSkipsEmbed(sf reflect.StructField) bool {
	return jsonFlattens(sf) && !jsonHasExported(derefType(sf.Type), 0)
}
