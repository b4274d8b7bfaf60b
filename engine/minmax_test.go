package engine_test

import (
	"testing"
)

// TestMinMax_NamedConstants: min and max of named constants are
// constants in a session's input as in a one-shot script (the type
// checker tells the normaliser which calls to fold), in both runtimes:
// an untyped result keeps its kind, so max(c, 3) / 2.0 is 1.5 (Go's
// output), and a constant may be declared with one.
func TestMinMax_NamedConstants(t *testing.T) {
	for name, rt := range sessionRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			s := newSession(t, rt)
			runSteps(t, s, []step{
				{code: "const c = 1\nconst m = min(c, 2.5) * 3\nfmt.Println(max(c, 3)/2.0, m, max(c+1, c+2, c+3)/2.0)", stdout: "1.5 3 2\n"},
				{code: "x := 7\nfmt.Println(max(x, 3)/2)", stdout: "3\n"},
			})
		})
	}
}
