package engine_test

import (
	"testing"

	"github.com/toolscript/toolscript/engine"
)

// TestSession_TypeCheck: a session's input that Go refuses does not run
// (the type-checking pass, beside the compilation, as for a one-shot
// script), and an earlier input's names are not taken for the
// universe's or a package's: the pass checks an input alone, so one that
// mentions a name an earlier input declared is judged by the
// interpreter only. A refused input changes nothing.
func TestSession_TypeCheck(t *testing.T) {
	for name, rt := range sessionRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			s := newSession(t, rt)
			runSteps(t, s, []step{
				{code: "n := 1"},
				// Go refuses: a named type where its underlying type is wanted.
				{code: "type Status string\nvar st Status = \"paid\"\nvar plain string = st\nfmt.Println(plain)",
					code_: engine.CodeError, errHas: "cannot use st (variable of string type Status) as string value in variable declaration"},
				{code: "n++\nfmt.Println(n)", stdout: "2\n"},
				{code: "var s string = Status(\"x\")", code_: engine.CodeError, errHas: "undefined: Status"},
				// Go refuses: a struct field of a map element assigned.
				{code: "type P struct{ X int }\nps := map[string]P{\"a\": {}}\nps[\"a\"].X = 1",
					code_: engine.CodeError, errHas: "cannot assign to struct field ps[\"a\"].X in map"},
				// Earlier inputs shadow the universe and a package.
				{code: "len := 3\nstrings := []string{\"a\", \"b\"}"},
				{code: "fmt.Println(len+1, strings[1])", stdout: "4 b\n"},
			})
		})
	}
}
