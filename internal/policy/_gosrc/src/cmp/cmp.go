// Package cmp is toolscript's interpreted subset of the standard cmp package.
package cmp

// Ordered is a constraint for types with the < operator.
type Ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

// Compare returns -1, 0 or +1 as x is less than, equal to or greater than
// y. A NaN is less than any non-NaN, a NaN equals a NaN, and -0.0 equals
// 0.0.
func Compare[T Ordered](x, y T) int {
	xNaN := isNaN(x)
	yNaN := isNaN(y)
	if xNaN {
		if yNaN {
			return 0
		}
		return -1
	}
	if yNaN {
		return +1
	}
	if x < y {
		return -1
	}
	if x > y {
		return +1
	}
	return 0
}

// Less reports whether x is less than y. A NaN is less than any non-NaN,
// and -0.0 is not less than 0.0.
func Less[T Ordered](x, y T) bool {
	return (isNaN(x) && !isNaN(y)) || x < y
}

// isNaN reports whether x is a NaN.
func isNaN[T Ordered](x T) bool {
	return x != x
}

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
