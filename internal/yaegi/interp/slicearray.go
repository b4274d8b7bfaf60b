package interp // toolscript patch 186

import (
	"strings"
)

// sliceToArrayPanic is Go's run-time error for reflect's panic r on a
// conversion of a slice to an array, or to a pointer to an array, longer
// than the slice ([4]int(s), (*[4]int)(s) of a slice of length 3):
// reflect panics with a string, "reflect: cannot convert slice with
// length 3 to array with length 4" ("to pointer to array" for the
// pointer), where Go's runtime panics with a runtime.Error, "runtime
// error: cannot convert slice with length 3 to array or pointer to array
// with length 4", for both. nil when r is not that panic.
func sliceToArrayPanic(r interface{}) *RuntimeError {
	s, ok := r.(string)
	if !ok {
		return nil
	}
	rest, ok := strings.CutPrefix(s, "reflect: cannot convert slice with length ")
	if !ok {
		return nil
	}
	n, m, ok := strings.Cut(rest, " to pointer to array with length ")
	if !ok {
		n, m, ok = strings.Cut(rest, " to array with length ")
	}
	if !ok {
		return nil
	}
	return &RuntimeError{Kind: KindSliceToArray, Detail: "cannot convert slice with length " + n + " to array or pointer to array with length " + m}
}
