package engine

import (
	"reflect"
)

// stateCopier deep-copies the variables of a session (see the package
// documentation, Sessions): the state kept after an input that completed,
// and the state put back after one that did not. One copier copies all
// the variables of one checkpoint, so values they share (two variables
// holding the same map, a pointer and what else points there) are shared
// by the copies too. It also measures the state, about as its bytes in
// memory, for SessionLimits.MaxMemoryBytes.
//
// Maps, slices (to their capacity), arrays, pointers, interfaces and the
// structs of the script's own types are copied; function values and
// channels are the same ones in the copy, and so are values of the named
// types of Go packages (a time.Time is copied as Go assigns it; a
// *big.Int, a *strings.Builder point to the same value).
type stateCopier struct {
	memo   map[memoKey]reflect.Value
	size   int64
	budget int64 // < 0: none
	over   bool  // the size passed the budget: the copy is incomplete
}

type memoKey struct {
	p        uintptr
	t        reflect.Type
	len, cap int
}

func newStateCopier(budget int64) *stateCopier {
	return &stateCopier{memo: map[memoKey]reflect.Value{}, budget: budget}
}

// copy returns a settable deep copy of v.
func (c *stateCopier) copy(v reflect.Value) reflect.Value {
	out := reflect.New(v.Type()).Elem()
	if w := c.value(v); w.IsValid() {
		out.Set(w)
	}
	return out
}

func (c *stateCopier) add(n int64) {
	c.size += n
	if c.budget >= 0 && c.size > c.budget {
		c.over = true
	}
}

// value returns a copy of v (v itself where a copy is the same value).
func (c *stateCopier) value(v reflect.Value) reflect.Value {
	if !v.IsValid() || c.over {
		return v
	}
	t := v.Type()
	switch t.Kind() {
	case reflect.String:
		c.add(int64(v.Len()) + 16)
		return v
	case reflect.Interface:
		c.add(16)
		if v.IsNil() {
			return v
		}
		inner := c.value(v.Elem())
		out := reflect.New(t).Elem()
		out.Set(inner)
		return out
	case reflect.Pointer:
		c.add(8)
		if v.IsNil() || t.Elem().Name() != "" && t.Elem().PkgPath() != "" {
			return v // a value of a Go package's type, kept
		}
		key := memoKey{p: v.Pointer(), t: t}
		if w, ok := c.memo[key]; ok {
			return w
		}
		out := reflect.New(t.Elem())
		c.memo[key] = out
		if e := c.value(v.Elem()); e.IsValid() {
			out.Elem().Set(e)
		}
		return out
	case reflect.Struct:
		if t.Name() != "" {
			c.add(int64(t.Size()))
			return v // a Go package's type (or the interpreter's wrapper), as Go assigns it
		}
		out := reflect.New(t).Elem()
		for i := 0; i < t.NumField(); i++ {
			if !out.Field(i).CanSet() {
				c.add(int64(t.Size()))
				return v
			}
		}
		for i := 0; i < t.NumField(); i++ {
			if f := c.value(v.Field(i)); f.IsValid() {
				out.Field(i).Set(f)
			}
		}
		return out
	case reflect.Array:
		if !mayHoldState(t.Elem()) {
			c.add(int64(t.Size()))
			return v
		}
		out := reflect.New(t).Elem()
		for i := 0; i < v.Len(); i++ {
			if e := c.value(v.Index(i)); e.IsValid() {
				out.Index(i).Set(e)
			}
		}
		return out
	case reflect.Slice:
		c.add(24)
		if v.IsNil() {
			return v
		}
		key := memoKey{p: v.Pointer(), t: t, len: v.Len(), cap: v.Cap()}
		if w, ok := c.memo[key]; ok {
			return w
		}
		n := v.Cap()
		c.add(int64(n) * int64(t.Elem().Size()))
		if c.over {
			return v
		}
		out := reflect.MakeSlice(t, v.Len(), n)
		c.memo[key] = out
		full, dst := v.Slice(0, n), out.Slice(0, n)
		if !mayHoldState(t.Elem()) {
			reflect.Copy(dst, full)
			return out
		}
		for i := 0; i < n; i++ {
			if e := c.value(full.Index(i)); e.IsValid() {
				dst.Index(i).Set(e)
			}
		}
		return out
	case reflect.Map:
		c.add(48)
		if v.IsNil() {
			return v
		}
		key := memoKey{p: v.Pointer(), t: t}
		if w, ok := c.memo[key]; ok {
			return w
		}
		out := reflect.MakeMapWithSize(t, v.Len())
		c.memo[key] = out
		entry := int64(t.Key().Size() + t.Elem().Size())
		deep := mayHoldState(t.Key()) || mayHoldState(t.Elem())
		iter := v.MapRange()
		for iter.Next() {
			c.add(entry)
			if c.over {
				return v
			}
			k, e := iter.Key(), iter.Value()
			if deep {
				k, e = c.value(k), c.value(e)
			}
			out.SetMapIndex(k, e)
		}
		return out
	default:
		// Numbers, booleans, functions, channels, unsafe pointers.
		c.add(int64(t.Size()))
		return v
	}
}

// mayHoldState reports whether a value of t can refer to memory that a
// copy must not share (or hold strings, which the copier measures).
func mayHoldState(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return mayHoldState(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if mayHoldState(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true
}
