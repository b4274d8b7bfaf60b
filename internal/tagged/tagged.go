// Package tagged is the value encoding of toolscript's isolated runtime: a
// JSON dialect that keeps the Go types a script sees in-process (int stays
// int, float64 stays float64) when values cross a process boundary.
//
// # Encoding
//
// Every encoded value is valid JSON, so it fits in the JSON bodies of
// package wire:
//
//   - nil, bool and string are JSON null, true/false and strings.
//   - int is a JSON integer; float64 is a JSON number that always has a
//     fraction or an exponent ("2.0", "1e+21"), so the two never mix.
//     NaN and infinities are ["float64","NaN"] and the like.
//   - map[string]any is a JSON object whose members are encoded values.
//   - Every JSON array is tagged: its first element names the Go type, the
//     rest are the elements or the payload: ["[]any", ...] for []any,
//     ["[]map", {...}, ...] for []map[string]any, ["[]string", ...],
//     ["[]int", ...], ["[]float64", ...], ["[]bool", ...],
//     ["map[string]string", {...}], ["map[string]int", {...}],
//     ["map[string]float64", {...}], ["int8", 5] and the other sized
//     integers, ["float32", 1.5], ["[]byte", "base64"], ["duration", ns],
//     ["time", "RFC 3339"], ["error", "message"].
//   - A nil map[string]any, []any, []map[string]any, []string or []int is
//     ["nil", "map"] (or the slice's tag), so it stays a typed nil.
//
// # What does not survive
//
// A named type whose underlying type is one of the above arrives as that
// type (type Celsius float64 arrives as float64; its methods are lost).
// Other slices and arrays arrive as []any, other maps with string keys as
// map[string]any, pointers as what they point to, errors as errors.New of
// their message, and time.Time with a fixed zone of the same offset.
// Structs and everything else arrive as their JSON form decoded into plain
// JSON values (["json", raw]: objects are map[string]any, numbers float64,
// arrays []any). Functions, channels and values nested deeper than MaxDepth
// cannot be encoded.
package tagged

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
	"unicode/utf8"
)

// MaxDepth bounds the nesting of encoded values (and of decoded ones). It
// is well above the engine's MaxValueDepth (1000 levels of containers, of
// which each pointer and interface on the way may count one more here), so
// that every value the engine lets cross can.
const MaxDepth = 4096

// Errors of the package.
var (
	// ErrUnsupported reports a value that cannot be encoded.
	ErrUnsupported = errors.New("tagged: value cannot be encoded")
	// ErrSyntax reports input that is not a tagged value.
	ErrSyntax = errors.New("tagged: syntax error")
)

// Marshal returns the encoding of v.
func Marshal(v any) ([]byte, error) { return Append(nil, v) }

// Append appends the encoding of v to b.
func Append(b []byte, v any) ([]byte, error) { return appendValue(b, v, 0) }

func appendValue(b []byte, v any, depth int) ([]byte, error) {
	if depth > MaxDepth {
		return b, fmt.Errorf("%w: nested deeper than %d", ErrUnsupported, MaxDepth)
	}
	var err error
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case string:
		return AppendString(b, x), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case float64:
		return appendFloat(b, x), nil
	case map[string]any:
		if x == nil {
			return append(b, `["nil","map"]`...), nil
		}
		b = append(b, '{')
		first := true
		for k, e := range x {
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
	case []any:
		if x == nil {
			return append(b, `["nil","[]any"]`...), nil
		}
		b = append(b, `["[]any"`...)
		for _, e := range x {
			b = append(b, ',')
			if b, err = appendValue(b, e, depth+1); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case []map[string]any:
		if x == nil {
			return append(b, `["nil","[]map"]`...), nil
		}
		b = append(b, `["[]map"`...)
		for _, e := range x {
			b = append(b, ',')
			if e == nil {
				b = append(b, "null"...)
				continue
			}
			if b, err = appendValue(b, e, depth+1); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case []string:
		if x == nil {
			return append(b, `["nil","[]string"]`...), nil
		}
		b = append(b, `["[]string"`...)
		for _, e := range x {
			b = append(b, ',')
			b = AppendString(b, e)
		}
		return append(b, ']'), nil
	case []int:
		if x == nil {
			return append(b, `["nil","[]int"]`...), nil
		}
		b = append(b, `["[]int"`...)
		for _, e := range x {
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(e), 10)
		}
		return append(b, ']'), nil
	case []float64:
		b = append(b, `["[]float64"`...)
		for _, e := range x {
			b = append(b, ',')
			b = appendFloat(b, e)
		}
		return append(b, ']'), nil
	case []bool:
		b = append(b, `["[]bool"`...)
		for _, e := range x {
			b = append(b, ',')
			b = strconv.AppendBool(b, e)
		}
		return append(b, ']'), nil
	case []byte:
		b = append(b, `["[]byte","`...)
		b = base64.StdEncoding.AppendEncode(b, x)
		return append(b, `"]`...), nil
	case map[string]string:
		b = append(b, `["map[string]string",{`...)
		first := true
		for k, e := range x {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = AppendString(b, k)
			b = append(b, ':')
			b = AppendString(b, e)
		}
		return append(b, "}]"...), nil
	case map[string]int:
		b = append(b, `["map[string]int",{`...)
		first := true
		for k, e := range x {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = AppendString(b, k)
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(e), 10)
		}
		return append(b, "}]"...), nil
	case map[string]float64:
		b = append(b, `["map[string]float64",{`...)
		first := true
		for k, e := range x {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = AppendString(b, k)
			b = append(b, ':')
			b = appendFloat(b, e)
		}
		return append(b, "}]"...), nil
	case int8:
		return appendTaggedInt(b, "int8", int64(x)), nil
	case int16:
		return appendTaggedInt(b, "int16", int64(x)), nil
	case int32:
		return appendTaggedInt(b, "int32", int64(x)), nil
	case int64:
		return appendTaggedInt(b, "int64", x), nil
	case uint:
		return appendTaggedUint(b, "uint", uint64(x)), nil
	case uint8:
		return appendTaggedUint(b, "uint8", uint64(x)), nil
	case uint16:
		return appendTaggedUint(b, "uint16", uint64(x)), nil
	case uint32:
		return appendTaggedUint(b, "uint32", uint64(x)), nil
	case uint64:
		return appendTaggedUint(b, "uint64", x), nil
	case float32:
		b = append(b, `["float32",`...)
		b = appendFloat(b, float64(x))
		return append(b, ']'), nil
	case time.Duration:
		return appendTaggedInt(b, "duration", int64(x)), nil
	case time.Time:
		b = append(b, `["time","`...)
		b = x.AppendFormat(b, time.RFC3339Nano)
		return append(b, `"]`...), nil
	case error:
		b = append(b, `["error",`...)
		b = AppendString(b, x.Error())
		return append(b, ']'), nil
	}
	return appendReflect(b, reflect.ValueOf(v), depth)
}

// appendReflect encodes the types the fast path does not know.
func appendReflect(b []byte, rv reflect.Value, depth int) ([]byte, error) {
	var err error
	switch rv.Kind() {
	case reflect.Bool:
		return appendValue(b, rv.Bool(), depth)
	case reflect.Int:
		return appendValue(b, int(rv.Int()), depth)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return appendValue(b, rv.Convert(basicType(rv.Kind())).Interface(), depth)
	case reflect.Float32:
		return appendValue(b, float32(rv.Float()), depth)
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
		b = append(b, `["[]any"`...)
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

func basicType(k reflect.Kind) reflect.Type {
	switch k {
	case reflect.Int8:
		return reflect.TypeOf(int8(0))
	case reflect.Int16:
		return reflect.TypeOf(int16(0))
	case reflect.Int32:
		return reflect.TypeOf(int32(0))
	case reflect.Int64:
		return reflect.TypeOf(int64(0))
	case reflect.Uint:
		return reflect.TypeOf(uint(0))
	case reflect.Uint8:
		return reflect.TypeOf(uint8(0))
	case reflect.Uint16:
		return reflect.TypeOf(uint16(0))
	case reflect.Uint32:
		return reflect.TypeOf(uint32(0))
	}
	return reflect.TypeOf(uint64(0))
}

// appendJSON encodes a value as its JSON form.
func appendJSON(b []byte, rv reflect.Value) ([]byte, error) {
	raw, err := json.Marshal(rv.Interface())
	if err != nil {
		return b, fmt.Errorf("%w: %s: %v", ErrUnsupported, rv.Type(), err)
	}
	b = append(b, `["json",`...)
	b = append(b, raw...)
	return append(b, ']'), nil
}

func appendTaggedInt(b []byte, tag string, v int64) []byte {
	b = append(b, `["`...)
	b = append(b, tag...)
	b = append(b, `",`...)
	b = strconv.AppendInt(b, v, 10)
	return append(b, ']')
}

func appendTaggedUint(b []byte, tag string, v uint64) []byte {
	b = append(b, `["`...)
	b = append(b, tag...)
	b = append(b, `",`...)
	b = strconv.AppendUint(b, v, 10)
	return append(b, ']')
}

func appendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `["float64","NaN"]`...)
	case math.IsInf(f, 1):
		return append(b, `["float64","+Inf"]`...)
	case math.IsInf(f, -1):
		return append(b, `["float64","-Inf"]`...)
	}
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

// Unmarshal decodes one tagged value that makes up all of data.
func Unmarshal(data []byte) (any, error) {
	d := decoder{data: data}
	v, err := d.value(0, false)
	if err != nil {
		return nil, err
	}
	d.space()
	if d.pos != len(d.data) {
		return nil, d.errorf("trailing data")
	}
	return v, nil
}

// UnmarshalMap decodes a tagged JSON object into a map; null gives nil.
func UnmarshalMap(data []byte) (map[string]any, error) {
	v, err := Unmarshal(data)
	if err != nil || v == nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: want an object, got %T", ErrSyntax, v)
	}
	return m, nil
}

type decoder struct {
	data []byte
	pos  int
}

func (d *decoder) errorf(format string, a ...any) error {
	return fmt.Errorf("%w at offset %d: %s", ErrSyntax, d.pos, fmt.Sprintf(format, a...))
}

func (d *decoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) consume(c byte) bool {
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == c {
		d.pos++
		return true
	}
	return false
}

// value decodes one value; plain means untagged JSON (inside ["json", ...]).
func (d *decoder) value(depth int, plain bool) (any, error) {
	if depth > MaxDepth {
		return nil, d.errorf("nested deeper than %d", MaxDepth)
	}
	d.space()
	if d.pos >= len(d.data) {
		return nil, d.errorf("unexpected end")
	}
	switch c := d.data[d.pos]; {
	case c == 'n':
		return nil, d.literal("null")
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == '"':
		return d.str()
	case c == '{':
		return d.object(depth, plain)
	case c == '[':
		if plain {
			return d.plainArray(depth)
		}
		return d.tagged(depth)
	case c == '-' || c >= '0' && c <= '9':
		return d.number(plain)
	default:
		return nil, d.errorf("unexpected %q", c)
	}
}

func (d *decoder) literal(s string) error {
	if len(d.data)-d.pos < len(s) || string(d.data[d.pos:d.pos+len(s)]) != s {
		return d.errorf("bad literal")
	}
	d.pos += len(s)
	return nil
}

func (d *decoder) numberToken() []byte {
	start := d.pos
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			d.pos++
			continue
		}
		break
	}
	return d.data[start:d.pos]
}

func isFloat(tok []byte) bool {
	for _, c := range tok {
		if c == '.' || c == 'e' || c == 'E' {
			return true
		}
	}
	return false
}

func (d *decoder) number(plain bool) (any, error) {
	tok := d.numberToken()
	if plain || isFloat(tok) {
		f, err := strconv.ParseFloat(string(tok), 64)
		if err != nil {
			return nil, d.errorf("bad number %q", tok)
		}
		return f, nil
	}
	n, err := strconv.ParseInt(string(tok), 10, strconv.IntSize)
	if err != nil {
		return nil, d.errorf("bad integer %q", tok)
	}
	return int(n), nil
}

func (d *decoder) int64() (int64, error) {
	d.space()
	tok := d.numberToken()
	n, err := strconv.ParseInt(string(tok), 10, 64)
	if err != nil {
		return 0, d.errorf("bad integer %q", tok)
	}
	return n, nil
}

func (d *decoder) uint64() (uint64, error) {
	d.space()
	tok := d.numberToken()
	n, err := strconv.ParseUint(string(tok), 10, 64)
	if err != nil {
		return 0, d.errorf("bad unsigned integer %q", tok)
	}
	return n, nil
}

func (d *decoder) float() (float64, error) {
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == '"' {
		s, err := d.str()
		if err != nil {
			return 0, err
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, d.errorf("bad float %q", s)
		}
		return f, nil
	}
	tok := d.numberToken()
	f, err := strconv.ParseFloat(string(tok), 64)
	if err != nil {
		return 0, d.errorf("bad number %q", tok)
	}
	return f, nil
}

func (d *decoder) str() (string, error) {
	d.space()
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return "", d.errorf("want a string")
	}
	start := d.pos
	d.pos++
	escaped := false
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case '\\':
			escaped = true
			d.pos += 2
			continue
		case '"':
			d.pos++
			if !escaped {
				return string(d.data[start+1 : d.pos-1]), nil
			}
			var s string
			if err := json.Unmarshal(d.data[start:d.pos], &s); err != nil {
				return "", d.errorf("bad string: %v", err)
			}
			return s, nil
		}
		d.pos++
	}
	return "", d.errorf("unterminated string")
}

func (d *decoder) object(depth int, plain bool) (map[string]any, error) {
	d.pos++ // '{'
	m := map[string]any{}
	if d.consume('}') {
		return m, nil
	}
	for {
		k, err := d.str()
		if err != nil {
			return nil, err
		}
		if !d.consume(':') {
			return nil, d.errorf("want ':'")
		}
		v, err := d.value(depth+1, plain)
		if err != nil {
			return nil, err
		}
		m[k] = v
		if d.consume(',') {
			continue
		}
		if d.consume('}') {
			return m, nil
		}
		return nil, d.errorf("want ',' or '}'")
	}
}

func (d *decoder) plainArray(depth int) ([]any, error) {
	d.pos++ // '['
	out := []any{}
	if d.consume(']') {
		return out, nil
	}
	for {
		v, err := d.value(depth+1, true)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if d.consume(',') {
			continue
		}
		if d.consume(']') {
			return out, nil
		}
		return nil, d.errorf("want ',' or ']'")
	}
}

// elems calls f for each remaining element of a tagged array.
func (d *decoder) elems(f func() error) error {
	for {
		if d.consume(']') {
			return nil
		}
		if !d.consume(',') {
			return d.errorf("want ',' or ']'")
		}
		if err := f(); err != nil {
			return err
		}
	}
}

// one reads the single payload of a scalar tag and the closing bracket.
func (d *decoder) one(f func() error) error {
	if !d.consume(',') {
		return d.errorf("want ','")
	}
	if err := f(); err != nil {
		return err
	}
	if !d.consume(']') {
		return d.errorf("want ']'")
	}
	return nil
}

func (d *decoder) tagged(depth int) (any, error) {
	d.pos++ // '['
	tag, err := d.str()
	if err != nil {
		return nil, err
	}
	switch tag {
	case "[]any":
		out := []any{}
		err = d.elems(func() error {
			v, err := d.value(depth+1, false)
			out = append(out, v)
			return err
		})
		return out, err
	case "[]map":
		return typedElems[map[string]any](d, depth, tag, true)
	case "[]string":
		out := []string{}
		err = d.elems(func() error {
			s, err := d.str()
			out = append(out, s)
			return err
		})
		return out, err
	case "[]int":
		out := []int{}
		err = d.elems(func() error {
			n, err := d.int64()
			out = append(out, int(n))
			return err
		})
		return out, err
	case "[]float64":
		return typedElems[float64](d, depth, tag, false)
	case "[]bool":
		return typedElems[bool](d, depth, tag, false)
	case "map[string]string", "map[string]int", "map[string]float64":
		var m map[string]any
		err = d.one(func() error {
			d.space()
			if d.pos >= len(d.data) || d.data[d.pos] != '{' {
				return d.errorf("want an object")
			}
			var err error
			m, err = d.object(depth+1, false)
			return err
		})
		if err != nil {
			return nil, err
		}
		return convertMap(tag, m)
	}
	var out any
	err = d.one(func() error {
		var err error
		out, err = d.scalar(tag, depth)
		return err
	})
	return out, err
}

func (d *decoder) scalar(tag string, depth int) (any, error) {
	switch tag {
	case "int8", "int16", "int32", "int64", "duration":
		n, err := d.int64()
		if err != nil {
			return nil, err
		}
		switch tag {
		case "int8":
			return int8(n), nil
		case "int16":
			return int16(n), nil
		case "int32":
			return int32(n), nil
		case "duration":
			return time.Duration(n), nil
		}
		return n, nil
	case "uint", "uint8", "uint16", "uint32", "uint64":
		n, err := d.uint64()
		if err != nil {
			return nil, err
		}
		switch tag {
		case "uint":
			return uint(n), nil
		case "uint8":
			return uint8(n), nil
		case "uint16":
			return uint16(n), nil
		case "uint32":
			return uint32(n), nil
		}
		return n, nil
	case "float32", "float64":
		f, err := d.float()
		if tag == "float32" {
			return float32(f), err
		}
		return f, err
	case "[]byte":
		s, err := d.str()
		if err != nil {
			return nil, err
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, d.errorf("bad base64: %v", err)
		}
		return b, nil
	case "time":
		s, err := d.str()
		if err != nil {
			return nil, err
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return nil, d.errorf("bad time: %v", err)
		}
		return t, nil
	case "error":
		s, err := d.str()
		if err != nil {
			return nil, err
		}
		return errors.New(s), nil
	case "json":
		return d.value(depth+1, true)
	case "nil":
		s, err := d.str()
		if err != nil {
			return nil, err
		}
		switch s {
		case "map":
			return map[string]any(nil), nil
		case "[]any":
			return []any(nil), nil
		case "[]map":
			return []map[string]any(nil), nil
		case "[]string":
			return []string(nil), nil
		case "[]int":
			return []int(nil), nil
		}
		return nil, d.errorf("unknown nil type %q", s)
	}
	return nil, d.errorf("unknown tag %q", tag)
}

func convertMap(tag string, m map[string]any) (any, error) {
	switch tag {
	case "map[string]string":
		out := make(map[string]string, len(m))
		for k, v := range m {
			s, ok := v.(string)
			if !ok {
				return nil, fmt.Errorf("%w: %s value is %T", ErrSyntax, tag, v)
			}
			out[k] = s
		}
		return out, nil
	case "map[string]int":
		out := make(map[string]int, len(m))
		for k, v := range m {
			n, ok := v.(int)
			if !ok {
				return nil, fmt.Errorf("%w: %s value is %T", ErrSyntax, tag, v)
			}
			out[k] = n
		}
		return out, nil
	}
	out := make(map[string]float64, len(m))
	for k, v := range m {
		f, ok := v.(float64)
		if !ok {
			return nil, fmt.Errorf("%w: %s value is %T", ErrSyntax, tag, v)
		}
		out[k] = f
	}
	return out, nil
}

// typedElems decodes the elements of a typed slice (tag names it in
// errors) whose elements decode as values of type T; nilOK lets an element
// be null (the zero T).
func typedElems[T any](d *decoder, depth int, tag string, nilOK bool) ([]T, error) {
	out := []T{}
	err := d.elems(func() error {
		v, err := d.value(depth+1, false)
		e, ok := v.(T)
		if err == nil && !ok && !(nilOK && v == nil) {
			err = d.errorf("%s element is %T", tag, v)
		}
		out = append(out, e)
		return err
	})
	return out, err
}
