// Package slices is toolscript's interpreted copy of the standard slices
// package (Go 1.26's API). All, Values, Backward and Chunk return
// iterators, and Collect, AppendSeq, Sorted, SortedFunc and
// SortedStableFunc take one, as in the standard library.
//
// The iterators' types are spelled as the function types under iter.Seq
// and iter.Seq2 (func(yield func(E) bool)): a value of either is
// assignable to the other, and ranges the same.
package slices

import (
	"sort"
	"toolscript/native"
)

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

// Sort sorts s in increasing order: natively (SortOrdered sorts every
// slice of an integer, float or string kind), else by sort.Slice.
func Sort[S ~[]E, E ordered](s S) {
	if native.SortOrdered(s) {
		return
	}
	sort.Slice(s, func(i, j int) bool { return cmpLess(s[i], s[j]) })
}

// cmpLess is cmp.Less: a NaN is less than any other value.
func cmpLess[E ordered](x, y E) bool {
	return (x != x && y == y) || x < y
}

// SortFunc sorts s by cmp, which returns a negative number when a < b.
// Up to 12 elements it sorts by insertion here, as Go's pdqsort does
// below that length, calling cmp in the same order; longer slices go to
// sort.Slice, the same pdqsort as Go's slices.SortFunc, whose less calls
// back into the interpreter.
func SortFunc[S ~[]E, E any](s S, cmp func(a, b E) int) {
	if len(s) <= 12 {
		insertionSort(s, cmp)
		return
	}
	sort.Slice(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
}

// SortStableFunc sorts s by cmp, keeping the order of equal elements:
// by insertion here up to 20 elements, as Go's stable sort does for each
// block of 20, else by sort.SliceStable (the same algorithm as Go's).
func SortStableFunc[S ~[]E, E any](s S, cmp func(a, b E) int) {
	if len(s) <= 20 {
		insertionSort(s, cmp)
		return
	}
	sort.SliceStable(s, func(i, j int) bool { return cmp(s[i], s[j]) < 0 })
}

// insertionSort sorts s by cmp, moving each element left past the
// greater ones before it.
func insertionSort[E any](s []E, cmp func(a, b E) int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && cmp(s[j], s[j-1]) < 0; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// IsSorted reports whether s is sorted in increasing order.
func IsSorted[S ~[]E, E ordered](s S) bool {
	for i := len(s) - 1; i > 0; i-- {
		if cmpLess(s[i], s[i-1]) {
			return false
		}
	}
	return true
}

// Clone returns a shallow copy of s.
func Clone[S ~[]E, E any](s S) S {
	if s == nil {
		return nil
	}
	return append(S([]E{}), s...)
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
	for i := 1; i < len(s); i++ {
		m = maxOf(m, s[i])
	}
	return m
}

// Min returns the smallest element of s; it panics on an empty slice.
func Min[S ~[]E, E ordered](s S) E {
	if len(s) == 0 {
		panic("slices.Min: empty list")
	}
	m := s[0]
	for i := 1; i < len(s); i++ {
		m = minOf(m, s[i])
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

// Compact replaces runs of equal elements with one copy, and zeroes the
// elements between the new length and the old one.
func Compact[S ~[]E, E comparable](s S) S {
	if len(s) < 2 {
		return s
	}
	for k := 1; k < len(s); k++ {
		if s[k] == s[k-1] {
			s2 := s[k:]
			for k2 := 1; k2 < len(s2); k2++ {
				if s2[k2] != s2[k2-1] {
					s[k] = s2[k2]
					k++
				}
			}
			clearTail(s[k:])
			return s[:k]
		}
	}
	return s
}

// BinarySearch finds target in sorted s; it returns the position and
// whether it was found.
func BinarySearch[S ~[]E, E ordered](s S, target E) (int, bool) {
	n := len(s)
	i, j := 0, n
	for i < j {
		h := int(uint(i+j) >> 1)
		if cmpLess(s[h], target) {
			i = h + 1
		} else {
			j = h
		}
	}
	return i, i < n && (s[i] == target || (s[i] != s[i] && target != target))
}

// Insert inserts vs at index i, in s's array when its capacity allows
// (the elements from i on move up), in a new one otherwise. It panics if
// i is out of range.
func Insert[S ~[]E, E any](s S, i int, vs ...E) S {
	_ = s[i:]
	m := len(vs)
	if m == 0 {
		return s
	}
	n := len(s)
	if i == n {
		return append(s, vs...)
	}
	if n+m > cap(s) {
		// append, as Go's Insert, so that the new array's capacity
		// is the next size class.
		s2 := append(s[:i], make(S, n+m-i)...)
		copy(s2[i:], vs)
		copy(s2[i+m:], s[i:])
		return s2
	}
	vs = append([]E(nil), vs...) // vs may share s's array
	s = s[:n+m]
	copy(s[i+m:], s[i:n])
	copy(s[i:], vs)
	return s
}

// Delete removes the elements s[i:j] from s, returning the modified
// slice, and zeroes the elements between the new length and the old one.
// It panics if j > len(s) or s[i:j] is not a valid slice of s.
func Delete[S ~[]E, E any](s S, i, j int) S {
	_ = s[i:j:len(s)]
	if i == j {
		return s
	}
	oldlen := len(s)
	s = append(s[:i], s[j:]...)
	var zero E
	for k := len(s); k < oldlen; k++ {
		s[:oldlen][k] = zero
	}
	return s
}

// DeleteFunc removes any elements from s for which del returns true,
// returning the modified slice, and zeroes the elements between the new
// length and the old one.
func DeleteFunc[S ~[]E, E any](s S, del func(E) bool) S {
	i := IndexFunc(s, del)
	if i == -1 {
		return s
	}
	for j := i + 1; j < len(s); j++ {
		if v := s[j]; !del(v) {
			s[i] = v
			i++
		}
	}
	var zero E
	for k := i; k < len(s); k++ {
		s[k] = zero
	}
	return s[:i]
}

// Replace replaces the elements s[i:j] by the given v, and returns the
// modified slice.
func Replace[S ~[]E, E any](s S, i, j int, v ...E) S {
	_ = s[i:j]
	if i == j {
		return Insert(s, i, v...)
	}
	if j == len(s) {
		s2 := append(s[:i], v...)
		if len(s2) < len(s) {
			clearTail(s[len(s2):])
		}
		return s2
	}
	if tot := i + len(v) + len(s) - j; tot > cap(s) {
		// A new array, grown by append as Go's Replace: s stays as it
		// was.
		s2 := append(s[:i], make(S, tot-i)...)
		copy(s2[i:], v)
		copy(s2[i+len(v):], s[j:])
		return s2
	}
	v = append([]E(nil), v...) // v may share s's array
	tail := Clone(s[j:])
	out := append(s[:i], v...)
	out = append(out, tail...)
	var zero E
	for k := len(out); k < len(s); k++ {
		s[k] = zero
	}
	return out
}

// Concat returns a new slice concatenating the passed in slices.
func Concat[S ~[]E, E any](slices ...S) S {
	size := 0
	for _, s := range slices {
		size += len(s)
		if size < 0 {
			panic("len out of range")
		}
	}
	// Grow, as Go's Concat, to round up to the size class.
	newslice := Grow[S](nil, size)
	for _, s := range slices {
		newslice = append(newslice, s...)
	}
	return newslice
}

// Repeat returns a new slice that repeats the provided slice the given
// number of times. It panics if count is negative.
func Repeat[S ~[]E, E any](x S, count int) S {
	if count < 0 {
		panic("cannot be negative")
	}
	const maxInt = int(^uint(0) >> 1)
	if count > 0 && len(x) > maxInt/count {
		panic("the result of (len(x) * count) overflows")
	}
	newslice := make(S, len(x)*count)
	n := copy(newslice, x)
	for n < len(newslice) {
		n += copy(newslice[n:], newslice[:n])
	}
	return newslice
}

// Grow increases the slice's capacity, if necessary, to guarantee space
// for another n elements. It panics if n is negative.
func Grow[S ~[]E, E any](s S, n int) S {
	if n < 0 {
		panic("cannot be negative")
	}
	if n -= cap(s) - len(s); n > 0 {
		s = append(s[:cap(s)], make([]E, n)...)[:len(s)]
	}
	return s
}

// Clip removes unused capacity from the slice, returning s[:len(s):len(s)].
func Clip[S ~[]E, E any](s S) S { return s[:len(s):len(s)] }

// CompactFunc is like Compact but uses an equality function to compare
// elements. For runs of elements that compare equal, CompactFunc keeps
// the first one.
func CompactFunc[S ~[]E, E any](s S, eq func(E, E) bool) S {
	if len(s) < 2 {
		return s
	}
	for k := 1; k < len(s); k++ {
		if eq(s[k], s[k-1]) {
			s2 := s[k:]
			for k2 := 1; k2 < len(s2); k2++ {
				if !eq(s2[k2], s2[k2-1]) {
					s[k] = s2[k2]
					k++
				}
			}
			clearTail(s[k:])
			return s[:k]
		}
	}
	return s
}

// EqualFunc reports whether two slices are equal using an equality
// function on each pair of elements.
func EqualFunc[S1 ~[]E1, S2 ~[]E2, E1, E2 any](s1 S1, s2 S2, eq func(E1, E2) bool) bool {
	if len(s1) != len(s2) {
		return false
	}
	for i, v1 := range s1 {
		if !eq(v1, s2[i]) {
			return false
		}
	}
	return true
}

// Compare compares the elements of s1 and s2 in order, with cmp.Compare's
// order; a shorter slice that is a prefix of the other is less.
func Compare[S ~[]E, E ordered](s1, s2 S) int {
	for i, v1 := range s1 {
		if i >= len(s2) {
			return +1
		}
		if c := compare(v1, s2[i]); c != 0 {
			return c
		}
	}
	if len(s1) < len(s2) {
		return -1
	}
	return 0
}

// CompareFunc is like Compare but uses a custom comparison function on
// each pair of elements.
func CompareFunc[S1 ~[]E1, S2 ~[]E2, E1, E2 any](s1 S1, s2 S2, cmp func(E1, E2) int) int {
	for i, v1 := range s1 {
		if i >= len(s2) {
			return +1
		}
		if c := cmp(v1, s2[i]); c != 0 {
			return c
		}
	}
	if len(s1) < len(s2) {
		return -1
	}
	return 0
}

// compare is cmp.Compare: NaN is less than any other value.
func compare[E ordered](x, y E) int {
	xNaN, yNaN := x != x, y != y
	switch {
	case xNaN && yNaN:
		return 0
	case xNaN || x < y:
		return -1
	case yNaN || x > y:
		return +1
	}
	return 0
}

// IsSortedFunc reports whether x is sorted in ascending order, with cmp as
// the comparison function.
func IsSortedFunc[S ~[]E, E any](x S, cmp func(a, b E) int) bool {
	for i := len(x) - 1; i > 0; i-- {
		if cmp(x[i], x[i-1]) < 0 {
			return false
		}
	}
	return true
}

// BinarySearchFunc works like BinarySearch, but uses a custom comparison
// function.
func BinarySearchFunc[S ~[]E, E, T any](x S, target T, cmp func(E, T) int) (int, bool) {
	i := sort.Search(len(x), func(i int) bool { return cmp(x[i], target) >= 0 })
	return i, i < len(x) && cmp(x[i], target) == 0
}

// All returns an iterator over index-value pairs in the slice in the usual
// order.
func All[Slice ~[]E, E any](s Slice) func(yield func(int, E) bool) {
	return func(yield func(int, E) bool) {
		for i, v := range s {
			if !yield(i, v) {
				return
			}
		}
	}
}

// Backward returns an iterator over index-value pairs in the slice,
// traversing it backward with descending indices.
func Backward[Slice ~[]E, E any](s Slice) func(yield func(int, E) bool) {
	return func(yield func(int, E) bool) {
		for i := len(s) - 1; i >= 0; i-- {
			if !yield(i, s[i]) {
				return
			}
		}
	}
}

// Values returns an iterator that yields the slice elements in order.
func Values[Slice ~[]E, E any](s Slice) func(yield func(E) bool) {
	return func(yield func(E) bool) {
		for _, v := range s {
			if !yield(v) {
				return
			}
		}
	}
}

// AppendSeq appends the values from seq to the slice and returns the
// extended slice.
func AppendSeq[S ~[]E, E any](s S, seq func(yield func(E) bool)) S {
	for v := range seq {
		s = append(s, v)
	}
	return s
}

// Collect collects values from seq into a new slice and returns it. If
// seq is empty, the result is nil.
func Collect[E any](seq func(yield func(E) bool)) []E {
	var s []E
	for v := range seq {
		s = append(s, v)
	}
	return s
}

// Sorted collects values from seq into a new slice, sorts the slice, and
// returns it. If seq is empty, the result is nil.
func Sorted[E ordered](seq func(yield func(E) bool)) []E {
	s := Collect(seq)
	Sort(s)
	return s
}

// SortedFunc collects values from seq into a new slice, sorts the slice
// using the comparison function, and returns it. If seq is empty, the
// result is nil.
func SortedFunc[E any](seq func(yield func(E) bool), cmp func(E, E) int) []E {
	s := Collect(seq)
	SortFunc(s, cmp)
	return s
}

// SortedStableFunc collects values from seq into a new slice, sorts the
// slice using the comparison function, keeping the original order of
// equal elements, and returns it. If seq is empty, the result is nil.
func SortedStableFunc[E any](seq func(yield func(E) bool), cmp func(E, E) int) []E {
	s := Collect(seq)
	SortStableFunc(s, cmp)
	return s
}

// Chunk returns an iterator over consecutive sub-slices of up to n
// elements of s. All but the last sub-slice will have size n. All
// sub-slices are clipped to have no capacity beyond the length. If s is
// empty, the sequence is empty: there is no empty slice in the sequence.
// Chunk panics if n is less than 1.
func Chunk[S ~[]E, E any](s S, n int) func(yield func(S) bool) {
	if n < 1 {
		panic("cannot be less than 1")
	}
	return func(yield func(S) bool) {
		for i := 0; i < len(s); i += n {
			end := i + n
			if end > len(s) {
				end = len(s)
			}
			if !yield(s[i:end:end]) {
				return
			}
		}
	}
}

// clearTail zeroes the elements of s, as the builtin clear.
func clearTail[S ~[]E, E any](s S) {
	var zero E
	for k := range s {
		s[k] = zero
	}
}

// maxOf is the builtin max of two values: a NaN if either is one, and
// 0.0 of -0.0 and 0.0.
func maxOf[E ordered](x, y E) E {
	if x != x {
		return x
	}
	if y != y || y > x || y == x && native.NegZero(x) {
		return y
	}
	return x
}

// minOf is the builtin min of two values: a NaN if either is one, and
// -0.0 of -0.0 and 0.0.
func minOf[E ordered](x, y E) E {
	if x != x {
		return x
	}
	if y != y || y < x || y == x && native.NegZero(y) {
		return y
	}
	return x
}
