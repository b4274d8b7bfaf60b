// Package cmp is toolscript's interpreted subset of the standard cmp package.
package cmp

// Ordered is a constraint for types with the < operator.
type Ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

// Compare returns -1, 0 or +1 as x is less than, equal to or greater than y.
func Compare[T Ordered](x, y T) int {
	if x < y {
		return -1
	}
	if x > y {
		return 1
	}
	return 0
}

// Less reports whether x < y.
func Less[T Ordered](x, y T) bool { return x < y }

// Or returns the first of its arguments that is not the zero value.
func Or[T comparable](vals ...T) T {
	var zero T
	for _, v := range vals {
		if v != zero {
			return v
		}
	}
	return zero
}
