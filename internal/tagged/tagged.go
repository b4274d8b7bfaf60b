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
//
// # Layout
//
// Each Go type with a tag of its own is one row of the table in kinds.go,
// which says how it is written and read; encode.go holds the untagged
// forms and the fall-backs, decode.go the reader.
package tagged

import (
	"errors"
	"fmt"
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
