package projection

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/toolscript/toolscript/internal/suggest"
)

// pathError is a conversion failure at a path inside the arguments, such as
// "items[2].qty".
type pathError struct {
	path string
	err  error
}

func (e *pathError) Error() string { return e.path + ": " + e.err.Error() }

func prefixPath(prefix string, err error) error {
	if pe, ok := err.(*pathError); ok {
		if strings.HasPrefix(pe.path, "[") {
			return &pathError{path: prefix + pe.path, err: pe.err}
		}
		return &pathError{path: prefix + "." + pe.path, err: pe.err}
	}
	return &pathError{path: prefix, err: err}
}

type structFields struct {
	byName map[string][]int // json name -> field index path
	order  []string
}

var fieldCache sync.Map // reflect.Type -> *structFields

// fieldsOf returns the json-visible fields of struct type t, following
// encoding/json's naming rules for tags, "-" and embedded structs.
func fieldsOf(t reflect.Type) *structFields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(*structFields)
	}
	fs := &structFields{byName: map[string][]int{}}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("json") == "" {
			continue
		}
		name := f.Name
		if tag, ok := f.Tag.Lookup("json"); ok {
			n, _, _ := strings.Cut(tag, ",")
			if n == "-" {
				continue
			}
			if n != "" {
				name = n
			}
		}
		if _, dup := fs.byName[name]; dup {
			continue // the shallower field wins, as in encoding/json
		}
		fs.byName[name] = f.Index
		fs.order = append(fs.order, name)
	}
	f, _ := fieldCache.LoadOrStore(t, fs)
	return f.(*structFields)
}

// convertStruct fills a new value of st (a struct or pointer to struct) from
// a kwargs map. Unknown keys are errors when strict.
func convertStruct(args map[string]any, st reflect.Type, strict bool) (reflect.Value, error) {
	ptr := st.Kind() == reflect.Pointer
	et := st
	if ptr {
		et = st.Elem()
	}
	out := reflect.New(et).Elem()
	fs := fieldsOf(et)
	for k, v := range args {
		idx, ok := fs.byName[k]
		if !ok {
			if !strict {
				continue
			}
			return reflect.Value{}, &pathError{path: k, err: fmt.Errorf("unknown argument%s; arguments are %s", suggest.Hint(k, fs.order), strings.Join(fs.order, ", "))}
		}
		f, err := out.FieldByIndexErr(idx)
		if err != nil {
			return reflect.Value{}, &pathError{path: k, err: err}
		}
		rv, err := convert(v, f.Type())
		if err != nil {
			return reflect.Value{}, prefixPath(k, err)
		}
		f.Set(rv)
	}
	if ptr {
		return out.Addr(), nil
	}
	return out, nil
}

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// convert returns v as a value of type t, applying JSON-like conversions.
func convert(v any, t reflect.Type) (reflect.Value, error) {
	if v == nil {
		return reflect.Zero(t), nil
	}
	src := reflect.ValueOf(v)
	if src.Type() == t {
		return src, nil
	}
	if t.Kind() == reflect.Interface {
		if src.Type().Implements(t) {
			out := reflect.New(t).Elem()
			out.Set(src)
			return out, nil
		}
		return reflect.Value{}, mismatch(v, t)
	}
	// Types with their own JSON decoding (time.Time, custom types) decode
	// from the JSON form of the value.
	if reflect.PointerTo(t).Implements(jsonUnmarshalerType) {
		data, err := json.Marshal(v)
		if err != nil {
			return reflect.Value{}, err
		}
		out := reflect.New(t)
		if err := json.Unmarshal(data, out.Interface()); err != nil {
			return reflect.Value{}, fmt.Errorf("cannot use %s as %v: %v", describe(v), t, err)
		}
		return out.Elem(), nil
	}
	if s, ok := v.(string); ok && t.Kind() != reflect.String && reflect.PointerTo(t).Implements(textUnmarshalerType) {
		out := reflect.New(t)
		if err := out.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
			return reflect.Value{}, fmt.Errorf("cannot use %s as %v: %v", describe(v), t, err)
		}
		return out.Elem(), nil
	}
	switch t.Kind() {
	case reflect.Bool:
		if src.Kind() == reflect.Bool {
			return src.Convert(t), nil
		}
	case reflect.String:
		if src.Kind() == reflect.String {
			return src.Convert(t), nil
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if i, ok := asInt(src); ok {
			out := reflect.New(t).Elem()
			if out.OverflowInt(i) {
				return reflect.Value{}, fmt.Errorf("%s overflows %v", describe(v), t)
			}
			out.SetInt(i)
			return out, nil
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if i, ok := asInt(src); ok {
			out := reflect.New(t).Elem()
			if i < 0 || out.OverflowUint(uint64(i)) {
				return reflect.Value{}, fmt.Errorf("%s overflows %v", describe(v), t)
			}
			out.SetUint(uint64(i))
			return out, nil
		}
		if src.CanUint() {
			out := reflect.New(t).Elem()
			if out.OverflowUint(src.Uint()) {
				return reflect.Value{}, fmt.Errorf("%s overflows %v", describe(v), t)
			}
			out.SetUint(src.Uint())
			return out, nil
		}
	case reflect.Float32, reflect.Float64:
		switch {
		case src.CanFloat():
			return src.Convert(t), nil
		case src.CanInt(), src.CanUint():
			return src.Convert(t), nil
		}
		if n, ok := v.(json.Number); ok {
			if f, err := n.Float64(); err == nil {
				return reflect.ValueOf(f).Convert(t), nil
			}
		}
	case reflect.Slice, reflect.Array:
		if src.Kind() != reflect.Slice && src.Kind() != reflect.Array {
			break
		}
		n := src.Len()
		var out reflect.Value
		if t.Kind() == reflect.Array {
			if n != t.Len() {
				return reflect.Value{}, fmt.Errorf("cannot use %d elements as %v", n, t)
			}
			out = reflect.New(t).Elem()
		} else {
			out = reflect.MakeSlice(t, n, n)
		}
		for i := range n {
			ev, err := convert(src.Index(i).Interface(), t.Elem())
			if err != nil {
				return reflect.Value{}, prefixPath("["+strconv.Itoa(i)+"]", err)
			}
			out.Index(i).Set(ev)
		}
		return out, nil
	case reflect.Map:
		if src.Kind() != reflect.Map || src.Type().Key().Kind() != reflect.String || t.Key().Kind() != reflect.String {
			break
		}
		out := reflect.MakeMapWithSize(t, src.Len())
		it := src.MapRange()
		for it.Next() {
			k := it.Key().String()
			ev, err := convert(it.Value().Interface(), t.Elem())
			if err != nil {
				return reflect.Value{}, prefixPath(k, err)
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), ev)
		}
		return out, nil
	case reflect.Struct:
		if m, ok := v.(map[string]any); ok {
			return convertStruct(m, t, true)
		}
	case reflect.Pointer:
		ev, err := convert(v, t.Elem())
		if err != nil {
			return reflect.Value{}, err
		}
		out := reflect.New(t.Elem())
		out.Elem().Set(ev)
		return out, nil
	}
	if src.Type().ConvertibleTo(t) && src.Kind() == t.Kind() {
		return src.Convert(t), nil
	}
	return reflect.Value{}, mismatch(v, t)
}

// asInt reads an integer from any integer value, a whole float or a
// json.Number.
func asInt(v reflect.Value) (int64, bool) {
	switch {
	case v.CanInt():
		return v.Int(), true
	case v.CanUint():
		if v.Uint() > math.MaxInt64 {
			return 0, false
		}
		return int64(v.Uint()), true
	case v.CanFloat():
		f := v.Float()
		if f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
			return 0, false
		}
		return int64(f), true
	}
	if n, ok := v.Interface().(json.Number); ok {
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}

func mismatch(v any, t reflect.Type) error {
	return fmt.Errorf("cannot use %s as %v", describe(v), t)
}

// describe renders a value for an error message: its type and a short form.
func describe(v any) string {
	s := fmt.Sprintf("%#v", v)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	if _, ok := v.(string); ok {
		return "string " + s
	}
	return fmt.Sprintf("%T %s", v, s)
}
