// Package slices is toolscript's interpreted subset of the standard slices
// package. Functions that return iterators in the standard library (Values,
// All, Collect's input) work on slices here.
package slices

import "sort"

type ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

// Contains reports whether v is in s.
func Contains[S ~[]E, E comparable](s S, v E) bool { return Index(s, v) >= 0 }

// ContainsFunc reports whether some element satisfies f.
func ContainsFunc[S ~[]E, E any](s S, f func(E) bool) bool { return IndexFunc(s, f) >= 0 }

// Index returns the index of the first v in s, or -1.
func Index[S ~[]E, E comparable](s S, v E) int {
	for i := range s {
		if s[i] == v {
			return i
		}
	}
	return -1
}

// IndexFunc returns the index of the first element satisfying f, or -1.
func IndexFunc[S ~[]E, E any](s S, f func(E) bool) int {
	for i := range s {
		if f(s[i]) {
			return i
		}
	}
	return -1
}

// Equal reports whether two slices hold the same elements in order.
func Equal[S ~[]E, E comparable](s1, s2 S) bool {
	if len(s1) != len(s2) {
		return false
	}
	for i := range s1 {
		if s1[i] != s2[i] {
			return false
		}
	}
	return true
}

// Sort sorts s in increasing order.
func Sort[S ~[]E, E ordered](s S) {
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
}

// SortFunc sorts s by cmp, which returns a negative number when a < b.
func SortFunc[S ~[]E, E any](s S, cmp func(a, b E) int) {
	sort.Slice(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
}

// SortStableFunc sorts s by cmp, keeping the order of equal elements.
func SortStableFunc[S ~[]E, E any](s S, cmp func(a, b E) int) {
	sort.SliceStable(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
}

// IsSorted reports whether s is sorted in increasing order.
func IsSorted[S ~[]E, E ordered](s S) bool {
	for i := 1; i < len(s); i++ {
		if s[i] < s[i-1] {
			return false
		}
	}
	return true
}

// Sorted returns a sorted copy of s (in the standard library it takes an
// iterator; here a slice, such as the result of maps.Keys).
func Sorted[S ~[]E, E ordered](s S) S {
	c := Clone(s)
	Sort(c)
	return c
}

// Collect returns a copy of s (in the standard library it drains an
// iterator; here a slice, such as the result of maps.Keys).
func Collect[S ~[]E, E any](s S) S { return Clone(s) }

// Values returns s itself, for code written against iterators.
func Values[S ~[]E, E any](s S) S { return s }

// Clone returns a shallow copy of s.
func Clone[S ~[]E, E any](s S) S {
	if s == nil {
		return nil
	}
	return append(S{}, s...)
}

// Reverse reverses s in place.
func Reverse[S ~[]E, E any](s S) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// Max returns the largest element of s; it panics on an empty slice.
func Max[S ~[]E, E ordered](s S) E {
	if len(s) == 0 {
		panic("slices.Max: empty list")
	}
	m := s[0]
	for _, v := range s[1:] {
		if v > m {
			m = v
		}
	}
	return m
}

// Min returns the smallest element of s; it panics on an empty slice.
func Min[S ~[]E, E ordered](s S) E {
	if len(s) == 0 {
		panic("slices.Min: empty list")
	}
	m := s[0]
	for _, v := range s[1:] {
		if v < m {
			m = v
		}
	}
	return m
}

// MaxFunc returns the largest element of s by cmp.
func MaxFunc[S ~[]E, E any](s S, cmp func(a, b E) int) E {
	if len(s) == 0 {
		panic("slices.MaxFunc: empty list")
	}
	m := s[0]
	for _, v := range s[1:] {
		if cmp(v, m) > 0 {
			m = v
		}
	}
	return m
}

// MinFunc returns the smallest element of s by cmp.
func MinFunc[S ~[]E, E any](s S, cmp func(a, b E) int) E {
	if len(s) == 0 {
		panic("slices.MinFunc: empty list")
	}
	m := s[0]
	for _, v := range s[1:] {
		if cmp(v, m) < 0 {
			m = v
		}
	}
	return m
}

// Compact replaces runs of equal elements with one copy.
func Compact[S ~[]E, E comparable](s S) S {
	if len(s) < 2 {
		return s
	}
	out := s[:1]
	for _, v := range s[1:] {
		if v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

// BinarySearch finds target in sorted s; it returns the position and
// whether it was found.
func BinarySearch[S ~[]E, E ordered](s S, target E) (int, bool) {
	i := sort.Search(len(s), func(i int) bool { return s[i] >= target })
	return i, i < len(s) && s[i] == target
}

// Insert inserts vs at index i.
func Insert[S ~[]E, E any](s S, i int, vs ...E) S {
	out := make(S, 0, len(s)+len(vs))
	out = append(out, s[:i]...)
	out = append(out, vs...)
	return append(out, s[i:]...)
}

// Delete removes s[i:j].
func Delete[S ~[]E, E any](s S, i, j int) S {
	return append(s[:i], s[j:]...)
}
