package tagged

import "bytes"

// Encodes reports whether data, an encoding made by Append (or Marshal),
// is an encoding of v: whether decoding data yields what decoding v's
// encoding now yields. The members of a map[string]any may come in any
// order (a map's order of iteration changes from one encoding to the
// next); everything else must encode to the same bytes. It may report
// false for equal values it cannot compare cheaply (other maps, whose
// members also come in any order), never true for different ones. buf is
// scratch space, returned for reuse.
func Encodes(buf []byte, v any, data []byte) (bool, []byte) {
	return encodes(buf, v, data, 0)
}

func encodes(buf []byte, v any, data []byte, depth int) (bool, []byte) {
	if depth > MaxDepth {
		return false, buf
	}
	m, ok := v.(map[string]any)
	if !ok || m == nil {
		var err error
		start := len(buf)
		buf, err = appendValue(buf, v, depth)
		eq := err == nil && bytes.Equal(buf[start:], data)
		return eq, buf[:start]
	}
	// {"k":v,...}: as appendValue writes it, without spaces.
	if len(data) < 2 || data[0] != '{' || data[len(data)-1] != '}' {
		return false, buf
	}
	rest := data[1 : len(data)-1]
	n := 0
	for len(rest) > 0 {
		k := skipValue(rest)
		if k <= 0 || k >= len(rest) || rest[0] != '"' || rest[k] != ':' {
			return false, buf
		}
		key := rest[:k]
		rest = rest[k+1:]
		e := skipValue(rest)
		if e <= 0 {
			return false, buf
		}
		val := rest[:e]
		rest = rest[e:]
		if len(rest) > 0 {
			if rest[0] != ',' || len(rest) == 1 {
				return false, buf
			}
			rest = rest[1:]
		}
		n++
		if n > len(m) {
			return false, buf
		}
		// The member of m whose key encodes to key. Keys seldom need
		// escaping: try the key's bytes first.
		var (
			elem  any
			found bool
		)
		if key[len(key)-1] == '"' && bytes.IndexByte(key[1:len(key)-1], '\\') < 0 {
			elem, found = m[string(key[1:len(key)-1])]
			if found {
				start := len(buf)
				buf = AppendString(buf, string(key[1:len(key)-1]))
				found = bytes.Equal(buf[start:], key)
				buf = buf[:start]
			}
		}
		if !found {
			for mk, me := range m {
				start := len(buf)
				buf = AppendString(buf, mk)
				same := bytes.Equal(buf[start:], key)
				buf = buf[:start]
				if same {
					elem, found = me, true
					break
				}
			}
		}
		if !found {
			return false, buf
		}
		var eq bool
		if eq, buf = encodes(buf, elem, val, depth+1); !eq {
			return false, buf
		}
	}
	// The keys of data are distinct (they encode the keys of a map) and
	// each is a key of m: as many members means the same keys.
	return n == len(m), buf
}

// skipValue returns the length of the JSON value at the start of b (no
// leading space), or 0 when there is none.
func skipValue(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	depth := 0
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			j := i + 1
			for ; j < len(b); j++ {
				if b[j] == '\\' {
					j++
				} else if b[j] == '"' {
					break
				}
			}
			if j >= len(b) {
				return 0
			}
			i = j
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return 0
			}
		case ',', ':':
			if depth == 0 {
				return i
			}
		}
		if depth == 0 && (b[i] == '"' || b[i] == '}' || b[i] == ']') {
			return i + 1
		}
	}
	if depth != 0 {
		return 0
	}
	return len(b) // a number or a literal at the end
}
