package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/toolscript/toolscript/internal/tagged"
)

// The codec of typed tools: encodeArgs turns a typed call's argument
// struct into the map of arguments the tool receives (by json tags, with
// encoding/json's omitempty rule), decodeValue fills a Go value from a
// tool's untyped result (JSON-like values: maps, slices, numbers, strings)
// for typed results and tools.Decode.

// codecField is one json-visible field of a struct.
type codecField struct {
	index     int
	name      string
	omitempty bool
}

// codecFields returns the json-visible fields of struct type t (exported,
// named by their json tag or Go name, "-" skipped), cached.
func codecFields(t reflect.Type) []codecField {
	if f, ok := codecCache.Load(t); ok {
		return f.([]codecField)
	}
	var fs []codecField
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, omit := f.Name, false
		if tag, ok := f.Tag.Lookup("json"); ok {
			n, opts, _ := strings.Cut(tag, ",")
			if n == "-" && opts == "" {
				continue
			}
			if n != "" {
				name = n
			}
			for o := range strings.SplitSeq(opts, ",") {
				if o == "omitempty" {
					omit = true
				}
			}
		}
		fs = append(fs, codecField{index: i, name: name, omitempty: omit})
	}
	f, _ := codecCache.LoadOrStore(t, fs)
	return f.([]codecField)
}

var codecCache sync.Map // reflect.Type -> []codecField

// encodeArgs returns the arguments map of a typed call's argument struct
// v; owned says that nothing in it is shared with the script (it holds no
// value of an any field), so that the tool may take it as its own.
func encodeArgs(v reflect.Value) (map[string]any, bool, error) {
	owned := true
	m, err := encodeStruct(v, &owned, 0)
	return m, owned, err
}

func encodeStruct(v reflect.Value, owned *bool, depth int) (map[string]any, error) {
	fs := codecFields(v.Type())
	m := make(map[string]any, len(fs))
	for _, f := range fs {
		fv := v.Field(f.index)
		if f.omitempty && isEmpty(fv) {
			continue
		}
		e, err := encodeValue(fv, owned, depth+1)
		if err != nil {
			return nil, fmt.Errorf("argument %s: %w", f.name, err)
		}
		m[f.name] = e
	}
	return m, nil
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
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

func encodeValue(v reflect.Value, owned *bool, depth int) (any, error) {
	if depth > MaxValueDepth {
		return nil, errors.New("nested too deep")
	}
	switch v.Kind() {
	case reflect.String:
		return v.String(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return int(v.Int()), nil
	case reflect.Float32, reflect.Float64:
		return v.Float(), nil
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.Pointer:
		if v.IsNil() {
			return nil, nil
		}
		return encodeValue(v.Elem(), owned, depth+1)
	case reflect.Struct:
		return encodeStruct(v, owned, depth)
	case reflect.Slice:
		if v.IsNil() {
			return nil, nil
		}
		if isEnumType(v.Type().Elem()) {
			return plainEnums(v, plainEnumType(v.Type())).Interface(), nil
		}
		switch v.Type().Elem().Kind() {
		case reflect.String, reflect.Int, reflect.Float64, reflect.Bool:
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			return c.Interface(), nil
		}
		out := make([]any, v.Len())
		for i := range out {
			e, err := encodeValue(v.Index(i), owned, depth+1)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = e
		}
		return out, nil
	case reflect.Map:
		if v.IsNil() {
			return nil, nil
		}
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			e, err := encodeValue(it.Value(), owned, depth+1)
			if err != nil {
				return nil, fmt.Errorf("[%q]: %w", it.Key().String(), err)
			}
			out[it.Key().String()] = e
		}
		return out, nil
	case reflect.Interface:
		if v.IsNil() {
			return nil, nil
		}
		*owned = false
		return v.Elem().Interface(), nil
	}
	return nil, fmt.Errorf("a %s cannot be an argument", v.Type())
}

// decodeValue fills dst (settable) from src, the JSON-like value of a
// tool's result: objects (maps with string keys, or structs, by their JSON
// form) fill structs by json name (an exact match first, else one that
// differs in case only) and maps, lists fill slices, whole numbers fill
// integers, numbers floats; nil leaves dst as it is. Keys without a field
// are ignored. A value of another kind is an error naming its path.
func decodeValue(dst reflect.Value, src any, path string) error {
	return decodeDepth(dst, src, path, 0)
}

func decodeDepth(dst reflect.Value, src any, path string, depth int) error {
	if src == nil {
		return nil
	}
	if depth > MaxValueDepth {
		return fmt.Errorf("%s: nested too deep", pathName(path))
	}
	sv := reflect.ValueOf(src)
	st := sv.Type()
	dt := dst.Type()
	if st == dt && dt.Kind() != reflect.Struct {
		dst.Set(sv)
		return nil
	}
	switch dt.Kind() {
	case reflect.Interface:
		if !st.Implements(dt) {
			return mismatchAt(path, src, dt)
		}
		dst.Set(sv)
		return nil
	case reflect.String:
		if st.Kind() != reflect.String {
			return mismatchAt(path, src, dt)
		}
		dst.SetString(sv.String())
		return nil
	case reflect.Bool:
		if st.Kind() != reflect.Bool {
			return mismatchAt(path, src, dt)
		}
		dst.SetBool(sv.Bool())
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, ok := wholeNumber(sv)
		if !ok || dst.OverflowInt(i) {
			return mismatchAt(path, src, dt)
		}
		dst.SetInt(i)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		i, ok := wholeNumber(sv)
		if !ok || i < 0 || dst.OverflowUint(uint64(i)) {
			return mismatchAt(path, src, dt)
		}
		dst.SetUint(uint64(i))
		return nil
	case reflect.Float32, reflect.Float64:
		switch st.Kind() {
		case reflect.Float32, reflect.Float64:
			dst.SetFloat(sv.Float())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			dst.SetFloat(float64(sv.Int()))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			dst.SetFloat(float64(sv.Uint()))
		default:
			return mismatchAt(path, src, dt)
		}
		return nil
	case reflect.Pointer:
		e := reflect.New(dt.Elem())
		if !dst.IsNil() {
			e = dst
		}
		if err := decodeDepth(e.Elem(), src, path, depth+1); err != nil {
			return err
		}
		dst.Set(e)
		return nil
	case reflect.Slice, reflect.Array:
		if st.Kind() != reflect.Slice && st.Kind() != reflect.Array {
			return mismatchAt(path, src, dt)
		}
		n := sv.Len()
		out := dst
		if dt.Kind() == reflect.Slice {
			out = reflect.MakeSlice(dt, n, n)
		} else if n != dt.Len() {
			return fmt.Errorf("%s: a list of %d cannot fill an array of %d", pathName(path), n, dt.Len())
		}
		for i := range n {
			if err := decodeDepth(out.Index(i), sv.Index(i).Interface(), fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return err
			}
		}
		if dt.Kind() == reflect.Slice {
			dst.Set(out)
		}
		return nil
	case reflect.Map:
		if dt.Key().Kind() != reflect.String {
			return fmt.Errorf("%s: cannot fill a map with %s keys", pathName(path), dt.Key())
		}
		obj, ok := asObject(sv)
		if !ok {
			return mismatchAt(path, src, dt)
		}
		out := reflect.MakeMapWithSize(dt, len(obj))
		for k, v := range obj {
			e := reflect.New(dt.Elem()).Elem()
			if err := decodeDepth(e, v, path+"."+k, depth+1); err != nil {
				return err
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(dt.Key()), e)
		}
		dst.Set(out)
		return nil
	case reflect.Struct:
		obj, ok := asObject(sv)
		if !ok {
			return mismatchAt(path, src, dt)
		}
		fs := codecFields(dt)
		for k, v := range obj {
			f, ok := fieldNamed(fs, k)
			if !ok {
				continue
			}
			if err := decodeDepth(dst.Field(f.index), v, path+"."+k, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("%s: cannot fill a %s", pathName(path), dt)
}

// fieldNamed finds the field of an object key: its exact json name, else
// one that differs in case only (as encoding/json does).
func fieldNamed(fs []codecField, k string) (codecField, bool) {
	for _, f := range fs {
		if f.name == k {
			return f, true
		}
	}
	for _, f := range fs {
		if strings.EqualFold(f.name, k) {
			return f, true
		}
	}
	return codecField{}, false
}

// asObject returns an object's members: a map[string]any as is, another
// map with string keys or a struct by its JSON form.
func asObject(sv reflect.Value) (map[string]any, bool) {
	switch v := sv.Interface().(type) {
	case map[string]any:
		return v, true
	}
	switch sv.Kind() {
	case reflect.Map:
		if sv.Type().Key().Kind() != reflect.String {
			return nil, false
		}
		m := make(map[string]any, sv.Len())
		for it := sv.MapRange(); it.Next(); {
			m[it.Key().String()] = it.Value().Interface()
		}
		return m, true
	case reflect.Struct, reflect.Pointer:
		b, err := json.Marshal(sv.Interface())
		if err != nil {
			return nil, false
		}
		var m map[string]any
		if json.Unmarshal(b, &m) != nil || m == nil {
			return nil, false
		}
		return m, true
	}
	return nil, false
}

// wholeNumber returns the integer value of a whole number.
func wholeNumber(v reflect.Value) (int64, bool) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := v.Uint()
		return int64(u), u <= math.MaxInt64
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
			return 0, false
		}
		return int64(f), true
	}
	return 0, false
}

func pathName(path string) string {
	if path == "" {
		return "the value"
	}
	return strings.TrimPrefix(path, ".")
}

// mismatchAt is the error of a value that cannot fill a Go type.
func mismatchAt(path string, src any, t reflect.Type) error {
	return fmt.Errorf("%s: cannot use %s as %s", pathName(path), describeValue(src), kindName(t))
}

// kindName names a type briefly: generated structs have no name of their
// own at run time.
func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct:
		if t.Name() != "" {
			return t.Name()
		}
		return "a struct"
	case reflect.Slice:
		return "[]" + kindName(t.Elem())
	case reflect.Pointer:
		return "*" + kindName(t.Elem())
	case reflect.Map:
		return "map[string]" + kindName(t.Elem())
	}
	return t.String()
}

// describeValue names a value of a result for an error.
func describeValue(v any) string {
	switch v := v.(type) {
	case string:
		if len(v) > 40 {
			v = v[:40] + "…"
		}
		return fmt.Sprintf("%q (string)", v)
	case map[string]any:
		return "an object"
	case []any, []map[string]any:
		return "a list"
	}
	s := fmt.Sprintf("%v", v)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return fmt.Sprintf("%s (%T)", s, v)
}

// decodeInto is the script's tools.Decode.
func decodeInto(v any, out any) error {
	rv := reflect.ValueOf(out)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("tools.Decode: out must be a non-nil pointer, got %T", out)
	}
	if err := decodeValue(rv.Elem(), v, ""); err != nil {
		return fmt.Errorf("tools.Decode: %w", err)
	}
	return nil
}

// plainResult returns a tool's result as the isolated runtime's scripts
// see it when its type holds structs (a struct, a pointer to one, a slice
// or map of them): its encoding by package internal/tagged, decoded, so
// that a script sees the same values in both runtimes (objects as
// map[string]any of JSON values) and never an opaque host type. Other
// results are returned as they are, without cost; so is a value that
// cannot be encoded.
func plainResult(v any) any {
	switch v.(type) {
	case nil, string, int, float64, bool, map[string]any, []map[string]any, []any, []string, []int, []float64:
		return v
	}
	if !holdsStruct(reflect.TypeOf(v), 0) {
		return v
	}
	b, err := tagged.Marshal(v)
	if err != nil {
		return v
	}
	p, err := tagged.Unmarshal(b)
	if err != nil {
		return v
	}
	return p
}

var timeType = reflect.TypeFor[time.Time]()

// holdsStruct reports whether values of type t hold structs that
// internal/tagged encodes by their JSON form.
func holdsStruct(t reflect.Type, depth int) bool {
	if depth > 8 || t == timeType || t.Implements(errorType) {
		return false
	}
	switch t.Kind() {
	case reflect.Struct:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return holdsStruct(t.Elem(), depth+1)
	}
	return false
}
