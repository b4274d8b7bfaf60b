// Package maps is toolscript's interpreted copy of the standard maps
// package (Go 1.26's API): Keys, Values and All return iterators, in no
// particular order, and Insert and Collect take one, as in the standard
// library; slices.Sorted(maps.Keys(m)) gives the sorted keys and
// slices.Collect(maps.Values(m)) a slice of the values.
//
// The iterators' types are spelled as the function types under iter.Seq
// and iter.Seq2 (func(yield func(K) bool)): a value of either is
// assignable to the other, and ranges the same.
package maps

// All returns an iterator over key-value pairs from m. The iteration
// order is not specified and is not guaranteed to be the same from one
// call to the next.
func All[Map ~map[K]V, K comparable, V any](m Map) func(yield func(K, V) bool) {
	return func(yield func(K, V) bool) {
		for k, v := range m {
			if !yield(k, v) {
				return
			}
		}
	}
}

// Keys returns an iterator over keys in m. The iteration order is not
// specified and is not guaranteed to be the same from one call to the
// next.
func Keys[Map ~map[K]V, K comparable, V any](m Map) func(yield func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// Values returns an iterator over values in m. The iteration order is not
// specified and is not guaranteed to be the same from one call to the
// next.
func Values[Map ~map[K]V, K comparable, V any](m Map) func(yield func(V) bool) {
	return func(yield func(V) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}

// Insert adds the key-value pairs from seq to m. If a key in seq already
// exists in m, its value will be overwritten.
func Insert[Map ~map[K]V, K comparable, V any](m Map, seq func(yield func(K, V) bool)) {
	for k, v := range seq {
		m[k] = v
	}
}

// Collect collects key-value pairs from seq into a new map and returns it.
func Collect[K comparable, V any](seq func(yield func(K, V) bool)) map[K]V {
	m := make(map[K]V)
	for k, v := range seq {
		m[k] = v
	}
	return m
}

// Clone returns a shallow copy of m.
func Clone[M ~map[K]V, K comparable, V any](m M) M {
	if m == nil {
		return nil
	}
	out := make(M, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Copy copies every entry of src into dst.
func Copy[M1 ~map[K]V, M2 ~map[K]V, K comparable, V any](dst M1, src M2) {
	for k, v := range src {
		dst[k] = v
	}
}

// Equal reports whether two maps hold the same entries.
func Equal[M1, M2 ~map[K]V, K, V comparable](m1 M1, m2 M2) bool {
	if len(m1) != len(m2) {
		return false
	}
	for k, v1 := range m1 {
		if v2, ok := m2[k]; !ok || v1 != v2 {
			return false
		}
	}
	return true
}

// DeleteFunc deletes the entries for which del returns true.
func DeleteFunc[M ~map[K]V, K comparable, V any](m M, del func(K, V) bool) {
	for k, v := range m {
		if del(k, v) {
			delete(m, k)
		}
	}
}

// EqualFunc is like Equal, but compares values using eq. Keys are still
// compared with ==.
func EqualFunc[M1 ~map[K]V1, M2 ~map[K]V2, K comparable, V1, V2 any](m1 M1, m2 M2, eq func(V1, V2) bool) bool {
	if len(m1) != len(m2) {
		return false
	}
	for k, v1 := range m1 {
		if v2, ok := m2[k]; !ok || !eq(v1, v2) {
			return false
		}
	}
	return true
}
