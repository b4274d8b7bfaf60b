package interp

import (
	"strings"
	"testing"
)

// TestUntypedConstantArgsInferLast checks patch 133: an untyped constant
// argument gives a type parameter its default type only when the typed
// arguments and the constraints leave it unknown, as Go infers
// (slices.Index(fs, 2) with fs a []float64 compiled with E int and
// failed); a constant that does not fit the type inferred is Go's error.
func TestUntypedConstantArgsInferLast(t *testing.T) {
	decls := `func Index[S ~[]E, E comparable](s S, v E) int {
	for i := range s {
		if v == s[i] {
			return i
		}
	}
	return -1
}
func Max[T int | float64](a, b T) T {
	if a > b {
		return a
	}
	return b
}
func Scale[S ~[]E, E int | float64](s S, k E) S {
	out := make(S, len(s))
	for i, v := range s {
		out[i] = v * k
	}
	return out
}`
	for _, tc := range []struct{ body, want string }{
		{`fmt.Println(Index([]float64{1, 2}, 2), Index([]int64{5, 7}, 7))`, "1 1"},
		{`fmt.Println(Max(1, 2.5), Max(3, 2)); fmt.Printf("%T %T\n", Max(1, 2), Max(1, 2.0))`, "2.5 3\nint float64"},
		{`fmt.Println(Scale([]float64{1.5}, 2), Scale([]int{3}, 2))`, "[3] [6]"},
	} {
		if got := runOutput(t, goMain(decls, tc.body)); got != tc.want+"\n" {
			t.Errorf("%s: got %q, want %q", tc.body, got, tc.want)
		}
	}
	_, err := evalSrc(t, goMain(decls, `fmt.Println(Index([]int{1}, 2.5))`))
	if err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("a constant that does not fit: got %v, want a compile error", err)
	}
}
