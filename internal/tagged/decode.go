package tagged

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

type decoder struct {
	data []byte
	pos  int
	// heap is the decoder the kinds' readers get, made at the first tagged
	// array (see tagged); itself once on the heap.
	heap *decoder
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

// tagged decodes a tagged array: its tag names the kind that reads the
// rest.
func (d *decoder) tagged(depth int) (any, error) {
	d.pos++ // '['
	d.space()
	var k *kind
	var name []byte
	if raw, ok := d.plainString(); ok {
		k, name = byTag[string(raw)], raw
	} else {
		tag, err := d.str()
		if err != nil {
			return nil, err
		}
		k, name = byTag[tag], []byte(tag)
	}
	if k == nil || k.dec == nil {
		return nil, d.errorf("unknown tag %q", name)
	}
	// A kind's reader is a function value, to which the compiler must give
	// a decoder on the heap: it gets one copy of d, made at the first
	// tagged array, so that d stays on Unmarshal's stack for untagged
	// values, most of the traffic.
	if d.heap == nil {
		d.heap = &decoder{data: d.data}
		d.heap.heap = d.heap
	}
	hd := d.heap
	hd.pos = d.pos
	v, err := k.dec(hd, depth)
	d.pos = hd.pos
	return v, err
}

// plainString reads a JSON string without escapes, returning its bytes
// (unquoted, not copied); it reads nothing and returns false for any
// other token.
func (d *decoder) plainString() ([]byte, bool) {
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return nil, false
	}
	rest := d.data[d.pos+1:]
	end := bytes.IndexByte(rest, '"')
	if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 {
		return nil, false
	}
	d.pos += end + 2
	return rest[:end], true
}
