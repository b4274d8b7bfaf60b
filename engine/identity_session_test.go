package engine_test

import (
	"testing"
)

// TestSession_RedeclaredScriptType checks the interpreter's patch 112 in a
// session: a type that a later input declares again with other fields is
// another type, as Go's types of one name in two scopes are. A value of
// the first held in an interface is not one of the second (the
// assertion matched by name, and using the value panicked in
// reflect.Set), and a map[any] keys their values apart.
func TestSession_RedeclaredScriptType(t *testing.T) {
	for name, rt := range sessionRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			s := newSession(t, rt)
			runSteps(t, s, []step{
				{code: "type Square struct{ S int }\nfunc (s Square) Area() int { return s.S }\nm := map[any]int{Square{1}: 1}\nvar keep any = Square{2}\nfmt.Println(len(m))", stdout: "1\n"},
				{code: "type Square struct{ S int; T string }\nfunc (s Square) Area() int { return s.S }\nm[Square{1, \"x\"}] = 2\n" +
					"sq, ok := keep.(Square)\nswitch keep.(type) {\ncase Square:\n\tfmt.Println(\"the new Square\")\n}\n" +
					"fmt.Println(ok, sq.T == \"\", keep == Square{2, \"\"}, len(m))\nfor k := range m {\n\tif s, ok := k.(Square); ok {\n\t\tfmt.Println(s.T)\n\t}\n}",
					stdout: "false true false 2\nx\n"},
			})
		})
	}
}
