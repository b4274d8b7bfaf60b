package engine_test

import (
	"testing"
)

// TestMinMax_NamedConstants: min and max of named constants are
// constants in a session's input as in a one-shot script (the type
// checker tells the normaliser which calls to fold), in both runtimes:
// an untyped result keeps its kind, so max(c, 3) / 2.0 is 1.5 (Go's
// output), and a constant may be declared with one, also with the
// constants an earlier input declared.
func TestMinMax_NamedConstants(t *testing.T) {
	for name, rt := range sessionRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			s := newSession(t, rt)
			runSteps(t, s, []step{
				{code: "const c = 1\nconst m = min(c, 2.5) * 3\nfmt.Println(max(c, 3)/2.0, m, max(c+1, c+2, c+3)/2.0)", stdout: "1.5 3 2\n"},
				{code: "x := 7\nfmt.Println(max(x, 3)/2)", stdout: "3\n"},
				// Constants of earlier inputs, also in a constant's declaration.
				{code: "fmt.Println(max(c, 3)/2.0, min(m, 2*c)/4)", stdout: "1.5 0.5\n"},
				{code: "const k = max(c, 2) * 3\nconst (\n\tlo = 1\n\thi = lo + 9\n)"},
				{code: "var arr [k]int\nfmt.Println(len(arr), max(lo, hi)/4.0, max(k, 7.5))", stdout: "6 2.5 7.5\n"},
				// A name declared again is a variable from then on.
				{code: "c := 10\nfmt.Println(max(c, 3)/4)", stdout: "2\n"},
				{code: "fmt.Println(max(c, 3)/4.0)", stdout: "2\n"},
			})
		})
	}
}
