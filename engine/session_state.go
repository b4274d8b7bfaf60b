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
		if !needsCopy(t) {
			c.add(int64(t.Size()) + stringBytes(v))
			return v
		}
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
		if !needsCopy(t.Elem()) {
			c.add(int64(t.Size()) + stringBytes(v))
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
		if !needsCopy(t.Elem()) {
			reflect.Copy(dst, full)
			if hasStrings(t.Elem()) {
				for i := 0; i < n; i++ {
					c.add(stringBytes(full.Index(i)))
				}
			}
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
		deep := needsCopy(t.Key()) || needsCopy(t.Elem())
		strs := hasStrings(t.Key()) || hasStrings(t.Elem())
		iter := v.MapRange()
		// Without deep copies, one key and one element are reused.
		k, e := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
		for iter.Next() {
			c.add(entry)
			if c.over {
				return v
			}
			if deep {
				out.SetMapIndex(c.value(iter.Key()), c.value(iter.Value()))
				continue
			}
			k.SetIterKey(iter)
			e.SetIterValue(iter)
			if strs {
				c.add(stringBytes(k) + stringBytes(e))
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

// needsCopy reports whether a value of t can refer to memory that a copy
// must not share: strings cannot change, so copying one copies it.
func needsCopy(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return false
	case reflect.Array:
		return needsCopy(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if needsCopy(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true
}

// hasStrings reports whether a value of t, which needsCopy does not,
// holds strings (whose bytes the state's size counts).
func hasStrings(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String:
		return true
	case reflect.Array:
		return hasStrings(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if hasStrings(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// stringBytes sums the lengths of the strings in v, a value of a type
// that needsCopy does not.
func stringBytes(v reflect.Value) int64 {
	switch v.Kind() {
	case reflect.String:
		return int64(v.Len())
	case reflect.Array:
		if !hasStrings(v.Type().Elem()) {
			return 0
		}
		var n int64
		for i := 0; i < v.Len(); i++ {
			n += stringBytes(v.Index(i))
		}
		return n
	case reflect.Struct:
		var n int64
		for i := 0; i < v.NumField(); i++ {
			n += stringBytes(v.Field(i))
		}
		return n
	}
	return 0
}
