// Package slices is toolscript's interpreted subset of the standard slices
// package. Functions that return iterators in the standard library (Values,
// All, Collect's input) work on slices here.
package slices

import "sort"

type ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

// Contains reports whether v is in s.
func Contains[E comparable](s []E, v E) bool { return Index(s, v) >= 0 }

// ContainsFunc reports whether some element satisfies f.
func ContainsFunc[E any](s []E, f func(E) bool) bool { return IndexFunc(s, f) >= 0 }

// Index returns the index of the first v in s, or -1.
func Index[E comparable](s []E, v E) int {
	for i := range s {
		if s[i] == v {
			return i
		}
	}
	return -1
}

// IndexFunc returns the index of the first element satisfying f, or -1.
func IndexFunc[E any](s []E, f func(E) bool) int {
	for i := range s {
		if f(s[i]) {
			return i
		}
	}
	return -1
}

// Equal reports whether two slices hold the same elements in order.
func Equal[E comparable](s1, s2 []E) bool {
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
func Sort[E ordered](s []E) {
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
}

// SortFunc sorts s by cmp, which returns a negative number when a < b.
func SortFunc[E any](s []E, cmp func(a, b E) int) {
	sort.Slice(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
}

// SortStableFunc sorts s by cmp, keeping the order of equal elements.
func SortStableFunc[E any](s []E, cmp func(a, b E) int) {
	sort.SliceStable(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
}

// IsSorted reports whether s is sorted in increasing order.
func IsSorted[E ordered](s []E) bool {
	for i := 1; i < len(s); i++ {
		if s[i] < s[i-1] {
			return false
		}
	}
	return true
}

// Sorted returns a sorted copy of s (in the standard library it takes an
// iterator; here a slice, such as the result of maps.Keys).
func Sorted[E ordered](s []E) []E {
	c := Clone(s)
	Sort(c)
	return c
}

// Collect returns a copy of s (in the standard library it drains an
// iterator; here a slice, such as the result of maps.Keys).
func Collect[E any](s []E) []E { return Clone(s) }

// Values returns s itself, for code written against iterators.
func Values[E any](s []E) []E { return s }

// Clone returns a shallow copy of s.
func Clone[E any](s []E) []E {
	if s == nil {
		return nil
	}
	return append([]E{}, s...)
}

// Reverse reverses s in place.
func Reverse[E any](s []E) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// Max returns the largest element of s; it panics on an empty slice.
func Max[E ordered](s []E) E {
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
func Min[E ordered](s []E) E {
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
func MaxFunc[E any](s []E, cmp func(a, b E) int) E {
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
func MinFunc[E any](s []E, cmp func(a, b E) int) E {
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
func Compact[E comparable](s []E) []E {
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
func BinarySearch[E ordered](s []E, target E) (int, bool) {
	i := sort.Search(len(s), func(i int) bool { return s[i] >= target })
	return i, i < len(s) && s[i] == target
}

// Insert inserts vs at index i.
func Insert[E any](s []E, i int, vs ...E) []E {
	out := make([]E, 0, len(s)+len(vs))
	out = append(out, s[:i]...)
	out = append(out, vs...)
	return append(out, s[i:]...)
}

// Delete removes s[i:j].
func Delete[E any](s []E, i, j int) []E {
	return append(s[:i], s[j:]...)
}
