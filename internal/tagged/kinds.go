package tagged

import (
	"encoding/base64"
	"errors"
	"reflect"
	"strconv"
	"time"
)

// kind is a Go type with a tag of its own: how a value of it is written
// and how the rest of its tagged array is read. Every tag is one row of
// kinds.
type kind struct {
	tag string
	// typ is the Go type; nil for tags no value is encoded with directly.
	typ reflect.Type
	// null is what ["nil", tag] decodes to, for the types whose nil
	// survives; nil for the others.
	null any
	// enc appends the whole encoding of v, a value of typ.
	enc func(b []byte, v any, depth int) ([]byte, error)
	// dec reads what follows the tag, up to and including the closing
	// bracket; nil for a kind that is not a tagged array.
	dec func(d *decoder, depth int) (any, error)
}

// The kinds that the encoder names directly, and the table of all. They
// are made in init: their functions call the encoder, which uses them.
var (
	objectKind, anysKind, float64Kind, errorKind, jsonKind, nilKind *kind

	// kinds lists every tag of the encoding once.
	kinds []*kind

	// byType lists the kinds of concrete types by their reflect.Kind: a
	// scan of these few is faster than a map keyed by reflect.Type.
	byType [reflect.UnsafePointer + 1][]*kind
	byTag  map[string]*kind
	byKind map[reflect.Kind]*kind // the kinds of predeclared types, for named types
)

func init() {
	objectKind = &kind{tag: "map", typ: reflect.TypeFor[map[string]any](), null: map[string]any(nil),
		enc: func(b []byte, v any, depth int) ([]byte, error) { return appendObject(b, v.(map[string]any), depth) }}
	anysKind = slice("[]any", true, appendElem[any], readValue)
	float64Kind = scalar("float64", appendFloatPayload, (*decoder).float)
	errorKind = scalar("error", func(b []byte, e error) []byte { return AppendString(b, e.Error()) }, readError)
	jsonKind = &kind{tag: "json", dec: func(d *decoder, depth int) (any, error) {
		return readOne(d, func(d *decoder) (any, error) { return d.value(depth+1, true) })
	}}
	nilKind = &kind{tag: "nil", dec: func(d *decoder, _ int) (any, error) { return readOne(d, readNil) }}
	kinds = []*kind{
		objectKind, anysKind, float64Kind, errorKind, jsonKind, nilKind,
		slice("[]map", true, appendElem[map[string]any], valueOf[map[string]any]("[]map", true)),
		slice("[]string", true, noDepth(AppendString), func(d *decoder, _ int) (string, error) { return d.str() }),
		slice("[]int", true, noDepth(appendInt[int]), func(d *decoder, _ int) (int, error) { return readInt[int](d) }),
		slice("[]float64", false, noDepth(appendFloat64), valueOf[float64]("[]float64", false)),
		slice("[]bool", false, noDepth(strconv.AppendBool), valueOf[bool]("[]bool", false)),
		dict("map[string]string", AppendString),
		dict("map[string]int", appendInt[int]),
		dict("map[string]float64", appendFloat64),
		scalar("int8", appendInt[int8], readInt[int8]),
		scalar("int16", appendInt[int16], readInt[int16]),
		scalar("int32", appendInt[int32], readInt[int32]),
		scalar("int64", appendInt[int64], readInt[int64]),
		scalar("uint", appendUint[uint], readUint[uint]),
		scalar("uint8", appendUint[uint8], readUint[uint8]),
		scalar("uint16", appendUint[uint16], readUint[uint16]),
		scalar("uint32", appendUint[uint32], readUint[uint32]),
		scalar("uint64", appendUint[uint64], readUint[uint64]),
		scalar("float32", func(b []byte, f float32) []byte { return appendFloatPayload(b, float64(f)) },
			func(d *decoder) (float32, error) { f, err := d.float(); return float32(f), err }),
		scalar("duration", appendInt[time.Duration], readInt[time.Duration]),
		scalar("time", appendTime, readTime),
		scalar("[]byte", appendBytes, readBytes),
	}
	byTag = make(map[string]*kind, len(kinds))
	byKind = map[reflect.Kind]*kind{}
	for _, k := range kinds {
		if byTag[k.tag] != nil {
			panic("tagged: two kinds with the tag " + k.tag)
		}
		byTag[k.tag] = k
		if k.typ == nil || k.typ.Kind() == reflect.Interface {
			continue
		}
		byType[k.typ.Kind()] = append(byType[k.typ.Kind()], k)
		if k.typ.PkgPath() == "" && k.typ.Name() != "" {
			byKind[k.typ.Kind()] = k
		}
	}
}

// kindOf returns the kind of v's exact type, nil when it has none.
func kindOf(v any) *kind {
	rt := reflect.TypeOf(v)
	for _, k := range byType[rt.Kind()] {
		if k.typ == rt {
			return k
		}
	}
	return nil
}

// scalar is the kind of a value with one payload: ["tag", payload].
func scalar[T any](tag string, app func([]byte, T) []byte, read func(*decoder) (T, error)) *kind {
	return &kind{
		tag: tag,
		typ: reflect.TypeFor[T](),
		enc: func(b []byte, v any, _ int) ([]byte, error) {
			b = appendTag(b, tag)
			b = append(b, ',')
			b = app(b, v.(T))
			return append(b, ']'), nil
		},
		dec: func(d *decoder, _ int) (any, error) {
			if !d.consume(',') {
				return nil, d.errorf("want ','")
			}
			v, err := read(d)
			if err != nil {
				return nil, err
			}
			return v, d.closeTag()
		},
	}
}

// slice is the kind of a []T: ["tag", elements...]. With nilable, a nil
// slice is ["nil", tag]; without, it arrives empty.
func slice[T any](tag string, nilable bool, app func([]byte, T, int) ([]byte, error), read func(*decoder, int) (T, error)) *kind {
	k := &kind{tag: tag, typ: reflect.TypeFor[[]T]()}
	if nilable {
		k.null = []T(nil)
	}
	k.enc = func(b []byte, v any, depth int) ([]byte, error) {
		x := v.([]T)
		if x == nil && nilable {
			return appendNil(b, tag), nil
		}
		b = appendTag(b, tag)
		var err error
		for _, e := range x {
			b = append(b, ',')
			if b, err = app(b, e, depth+1); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	}
	k.dec = func(d *decoder, depth int) (any, error) {
		out := []T{}
		for !d.consume(']') {
			if !d.consume(',') {
				return nil, d.errorf("want ',' or ']'")
			}
			e, err := read(d, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		}
		return out, nil
	}
	return k
}

// dict is the kind of a map[string]T: ["tag", {"key": value, ...}].
func dict[T any](tag string, app func([]byte, T) []byte) *kind {
	return &kind{
		tag: tag,
		typ: reflect.TypeFor[map[string]T](),
		enc: func(b []byte, v any, _ int) ([]byte, error) {
			b = appendTag(b, tag)
			b = append(b, ",{"...)
			first := true
			for k, e := range v.(map[string]T) {
				if !first {
					b = append(b, ',')
				}
				first = false
				b = AppendString(b, k)
				b = append(b, ':')
				b = app(b, e)
			}
			return append(b, "}]"...), nil
		},
		dec: func(d *decoder, depth int) (any, error) {
			return readOne(d, func(d *decoder) (any, error) {
				d.space()
				if d.pos >= len(d.data) || d.data[d.pos] != '{' {
					return nil, d.errorf("want an object")
				}
				m, err := d.object(depth+1, false)
				if err != nil {
					return nil, err
				}
				out := make(map[string]T, len(m))
				for k, v := range m {
					e, ok := v.(T)
					if !ok {
						return nil, d.errorf("%s value is %T", tag, v)
					}
					out[k] = e
				}
				return out, nil
			})
		},
	}
}

// readOne reads the single payload of a scalar tag with read, then the
// closing bracket.
func readOne(d *decoder, read func(*decoder) (any, error)) (any, error) {
	if !d.consume(',') {
		return nil, d.errorf("want ','")
	}
	v, err := read(d)
	if err != nil {
		return nil, err
	}
	return v, d.closeTag()
}

// closeTag reads the closing bracket of a scalar tag.
func (d *decoder) closeTag() error {
	if !d.consume(']') {
		return d.errorf("want ']'")
	}
	return nil
}

// appendElem appends an element that is itself an encoded value; a nil
// map element of a []map is null.
func appendElem[T any](b []byte, e T, depth int) ([]byte, error) {
	if m, ok := any(e).(map[string]any); ok && m == nil {
		return append(b, "null"...), nil
	}
	return appendValue(b, e, depth)
}

// noDepth adapts an element writer that cannot fail or nest.
func noDepth[T any](app func([]byte, T) []byte) func([]byte, T, int) ([]byte, error) {
	return func(b []byte, e T, _ int) ([]byte, error) { return app(b, e), nil }
}

func readValue(d *decoder, depth int) (any, error) { return d.value(depth, false) }

// valueOf reads an element that is an encoded value of type T; with
// nilOK, null gives the zero T.
func valueOf[T any](tag string, nilOK bool) func(*decoder, int) (T, error) {
	return func(d *decoder, depth int) (T, error) {
		v, err := d.value(depth, false)
		e, ok := v.(T)
		if err == nil && !ok && !(nilOK && v == nil) {
			err = d.errorf("%s element is %T", tag, v)
		}
		return e, err
	}
}

type signed interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64
}

type unsigned interface {
	~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

func appendInt[T signed](b []byte, v T) []byte { return strconv.AppendInt(b, int64(v), 10) }

func appendUint[T unsigned](b []byte, v T) []byte { return strconv.AppendUint(b, uint64(v), 10) }

func readInt[T signed](d *decoder) (T, error) {
	n, err := d.int64()
	return T(n), err
}

func readUint[T unsigned](d *decoder) (T, error) {
	n, err := d.uint64()
	return T(n), err
}

func appendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

func readTime(d *decoder) (time.Time, error) {
	s, err := d.str()
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, d.errorf("bad time: %v", err)
	}
	return t, nil
}

func appendBytes(b []byte, x []byte) []byte {
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, x)
	return append(b, '"')
}

func readBytes(d *decoder) ([]byte, error) {
	s, err := d.str()
	if err != nil {
		return nil, err
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, d.errorf("bad base64: %v", err)
	}
	return b, nil
}

func readError(d *decoder) (error, error) {
	s, err := d.str()
	if err != nil {
		return nil, err
	}
	return errors.New(s), nil
}

// readNil reads the tag of a typed nil: ["nil", tag].
func readNil(d *decoder) (any, error) {
	s, err := d.str()
	if err != nil {
		return nil, err
	}
	if k := byTag[s]; k != nil && k.null != nil {
		return k.null, nil
	}
	return nil, d.errorf("unknown nil type %q", s)
}
