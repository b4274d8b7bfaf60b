package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
)

// sessionRuntimes are the runtimes a session test runs on.
func sessionRuntimes(t *testing.T) map[string]engine.CodeRuntime {
	return map[string]engine.CodeRuntime{
		"inprocess": engine.New(engine.Config{}),
		"isolated":  newIsolated(t, engine.IsolatedConfig{Workers: 1}),
	}
}

// newSession starts a session on rt with mathNS, closed at the end.
func newSession(t *testing.T, rt engine.CodeRuntime, opts ...engine.SessionOption) *engine.Session {
	t.Helper()
	s, err := engine.NewSession(rt, mathNS(t), opts...)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, s.Close()) })
	return s
}

// step is one input of a session and what it must give.
type step struct {
	code   string
	stdout string
	value  any
	code_  int    // ReturnCode
	errHas string // in Error
}

func runSteps(t *testing.T, s *engine.Session, steps []step, opts ...engine.Option) {
	t.Helper()
	for i, st := range steps {
		res, err := s.Execute(context.Background(), st.code, opts...)
		require.NoError(t, err, "input %d", i)
		assert.Equal(t, st.code_, res.ReturnCode, "input %d: %q: %s", i, st.code, res.Error)
		if st.errHas != "" {
			assert.Contains(t, res.Error, st.errHas, "input %d", i)
		}
		assert.Equal(t, st.stdout, res.Stdout, "input %d: %q", i, st.code)
		if st.value != nil {
			assert.Equal(t, st.value, res.Value, "input %d", i)
		}
	}
}

func TestSession_StateKept(t *testing.T) {
	for name, rt := range sessionRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			s := newSession(t, rt)
			runSteps(t, s, []step{
				{code: "x := 20"},
				{code: "func double(n int) int { return 2 * n }"},
				{code: "type point struct{ X, Y int }\nfunc (p point) sum() int { return p.X + p.Y }"},
				{code: `import "strings"`},
				{code: "p := point{X: x, Y: double(x)}\nfmt.Println(strings.ToUpper(\"ok\"), p.sum())", stdout: "OK 60\n"},
				{code: "x++\nx", value: 21},
				{code: "r, _ := math_ops.Add(map[string]any{\"a\": x, \"b\": 1})\nr", value: 22},
				{code: "m := map[string][]int{}\nm[\"a\"] = append(m[\"a\"], 1)"},
				{code: "m[\"a\"] = append(m[\"a\"], 2)\nn := len(m[\"a\"])\nn", value: 2},
				{code: "counter := func() func() int { n := 0; return func() int { n++; return n } }()\nresult(counter())", value: 1},
				{code: "result(counter())", value: 2},
				{code: "result(strings.Repeat(\"a\", 3))", value: "aaa"},
			})
		})
	}
}

func TestSession_FailureKeepsState(t *testing.T) {
	for name, rt := range sessionRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			s := newSession(t, rt)
			runSteps(t, s, []step{
				{code: "x := 1\nm := map[string]int{\"a\": 1}\nitems := []int{1, 2}\nfunc f() int { return 1 }\ntype T struct{ A int }"},
				// A timeout after changes: all of them are undone.
				{code: "x = 2\nm[\"a\"] = 2\nm[\"b\"] = 3\nitems[0] = 9\ny := 5\nfunc f() int { return 2 }\nfunc g() int { return 3 }\ntype T struct{ B string }\nfor {}",
					code_: engine.CodeTimeout, errHas: "timeout"},
				{code: "fmt.Println(x, m, items, f(), T{A: 1})", stdout: "1 map[a:1] [1 2] 1 {1}\n"},
				{code: "y", code_: engine.CodeError, errHas: "undefined: y"},
				{code: "g()", code_: engine.CodeError, errHas: "undefined: g"},
				// A panic, os.Exit and a compile error undo too.
				{code: "x = 3\npanic(\"boom\")", code_: engine.CodeError, errHas: "boom"},
				{code: "x = 4\nos.Exit(3)", code_: 3},
				{code: "x = 5\nundefinedThing()", code_: engine.CodeError, errHas: "undefined"},
				{code: "x = 6\nvar s []int\n_ = s[5]", code_: engine.CodeError, errHas: "index out of range"},
				{code: "x", value: 1},
			}, engine.WithTimeout(300*time.Millisecond))
		})
	}
}
