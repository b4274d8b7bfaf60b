package tagged

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// appendValue appends the encoding of v: the untagged forms here, the
// tagged ones through the table of kinds, the rest through reflection.
func appendValue(b []byte, v any, depth int) ([]byte, error) {
	if depth > MaxDepth {
		return b, fmt.Errorf("%w: nested deeper than %d", ErrUnsupported, MaxDepth)
	}
	switch x := v.(type) { // the common types first, without a table lookup
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case string:
		return AppendString(b, x), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case float64:
		return appendFloat64(b, x), nil
	case map[string]any:
		return appendObject(b, x, depth)
	case []any:
		return anysKind.enc(b, v, depth)
	}
	if k := kindOf(v); k != nil {
		return k.enc(b, v, depth)
	}
	if _, ok := v.(error); ok {
		return errorKind.enc(b, v, depth)
	}
	return appendReflect(b, reflect.ValueOf(v), depth)
}

// appendObject appends m as a JSON object of encoded values; a nil m is
// ["nil","map"].
func appendObject(b []byte, m map[string]any, depth int) ([]byte, error) {
	if m == nil {
		return appendNil(b, objectKind.tag), nil
	}
	b = append(b, '{')
	first := true
	var err error
	for k, e := range m {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = AppendString(b, k)
		b = append(b, ':')
		if b, err = appendValue(b, e, depth+1); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// appendReflect encodes the types that have neither a form nor a kind of
// their own: named types as their underlying type, other slices, arrays and
// maps as []any and map[string]any, pointers as what they point to,
// anything else as its JSON.
func appendReflect(b []byte, rv reflect.Value, depth int) ([]byte, error) {
	var err error
	switch rv.Kind() {
	case reflect.Bool:
		return appendValue(b, rv.Bool(), depth)
	case reflect.Int:
		return appendValue(b, int(rv.Int()), depth)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32:
		k := byKind[rv.Kind()]
		return k.enc(b, rv.Convert(k.typ).Interface(), depth)
	case reflect.Float64:
		return appendValue(b, rv.Float(), depth)
	case reflect.String:
		return appendValue(b, rv.String(), depth)
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return append(b, "null"...), nil
		}
		if rv.Kind() == reflect.Pointer && rv.Elem().Kind() == reflect.Struct {
			return appendJSON(b, rv)
		}
		return appendValue(b, rv.Elem().Interface(), depth+1)
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return append(b, "null"...), nil
		}
		b = appendTag(b, anysKind.tag)
		for i := range rv.Len() {
			b = append(b, ',')
			if b, err = appendValue(b, rv.Index(i).Interface(), depth+1); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return appendJSON(b, rv)
		}
		if rv.IsNil() {
			return append(b, "null"...), nil
		}
		b = append(b, '{')
		it := rv.MapRange()
		first := true
		for it.Next() {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = AppendString(b, it.Key().String())
			b = append(b, ':')
			if b, err = appendValue(b, it.Value().Interface(), depth+1); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	case reflect.Func, reflect.Chan, reflect.UnsafePointer, reflect.Complex64, reflect.Complex128:
		return b, fmt.Errorf("%w: %s", ErrUnsupported, rv.Type())
	}
	return appendJSON(b, rv)
}

// appendJSON encodes a value as its JSON form.
func appendJSON(b []byte, rv reflect.Value) ([]byte, error) {
	raw, err := json.Marshal(rv.Interface())
	if err != nil {
		return b, fmt.Errorf("%w: %s: %v", ErrUnsupported, rv.Type(), err)
	}
	b = appendTag(b, jsonKind.tag)
	b = append(b, ',')
	b = append(b, raw...)
	return append(b, ']'), nil
}

// appendTag opens a tagged array: `["tag"`.
func appendTag(b []byte, tag string) []byte {
	b = append(b, `["`...)
	b = append(b, tag...)
	return append(b, '"')
}

// appendNil appends the typed nil of the kind named tag: ["nil","tag"].
func appendNil(b []byte, tag string) []byte {
	b = appendTag(b, nilKind.tag)
	b = append(b, `,"`...)
	b = append(b, tag...)
	return append(b, `"]`...)
}

// appendFloat64 appends f as a float64 value: a number, or
// ["float64","NaN"] and the like.
func appendFloat64(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		b = appendTag(b, float64Kind.tag)
		b = append(b, ',')
		b = appendFloatPayload(b, f)
		return append(b, ']')
	}
	return appendFloat(b, f)
}

// appendFloatPayload appends the payload of a float tag: a number, or
// "NaN", "+Inf", "-Inf" as strings.
func appendFloatPayload(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"+Inf"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Inf"`...)
	}
	return appendFloat(b, f)
}

// appendFloat appends a finite f as a JSON number that always has a
// fraction or an exponent.
func appendFloat(b []byte, f float64) []byte {
	start := len(b)
	b = strconv.AppendFloat(b, f, 'g', -1, 64)
	for _, c := range b[start:] {
		if c == '.' || c == 'e' {
			return b
		}
	}
	return append(b, ".0"...)
}

// AppendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD,
// as with encoding/json.
func AppendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			raw, _ := json.Marshal(s)
			return append(b, raw...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
