package engine_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/scripts"
)

// TestMistakes_BothRuntimes: every typical model mistake of the corpus
// (scripts/testdata/mistake_*.gos) gives the same helpful error in both
// runtimes; the isolated worker compiles, and type-checks, in its child.
func TestMistakes_BothRuntimes(t *testing.T) {
	all, err := scripts.All()
	require.NoError(t, err)
	var mistakes []scripts.Script
	for _, s := range all {
		if strings.HasPrefix(s.Name, "mistake_") {
			mistakes = append(mistakes, s)
		}
	}
	require.GreaterOrEqual(t, len(mistakes), 15)
	rts := runtimes(t)
	for _, s := range mistakes {
		t.Run(s.Name, func(t *testing.T) {
			var first string
			for _, name := range []string{"in-process", "isolated"} {
				res := rts[name](s.Code, demo.Namespace())
				assert.Equal(t, s.ReturnCode, res.ReturnCode, "%s: %s", name, res.Error)
				assert.Contains(t, res.Error, s.Error, name)
				if first == "" {
					first = res.Error
				} else {
					assert.Equal(t, first, res.Error, "the runtimes' messages differ")
				}
			}
		})
	}
}

// TestErrors_Messages: what a model sees for its typical mistakes, whole:
// the message at its line and column, the source line and a caret.
func TestErrors_Messages(t *testing.T) {
	rts := runtimes(t)
	for _, tc := range []struct {
		name, code, want string
	}{
		{"type error", "id := \"5\"\nc, _ := customers.Get(customers.GetArgs{ID: id})\nfmt.Println(c)",
			"line 2:45: cannot use id (variable of type string) as int value in struct literal\n    c, _ := customers.Get(customers.GetArgs{ID: id})\n                                                ^"},
		{"several type errors", "x := undefinedOne\ny := undefinedTwo\nfmt.Println(x, y)",
			"line 1:6: undefined: undefinedOne\nline 2:6: undefined: undefinedTwo"},
		{"have and want", "c, _ := customers.Get(customers.GetArgs{ID: 5}, 2)\nfmt.Println(c)",
			"line 1:49: too many arguments in call to customers.Get\n\thave (customers.GetArgs, number)\n\twant (customers.GetArgs)\n    c, _ := customers.Get(customers.GetArgs{ID: 5}, 2)\n                                                    ^"},
		{"run-time panic", "xs := []int{1}\ni := 3\nfmt.Println(xs[i])",
			"line 3:13: panic: runtime error: index out of range [3] with length 1\n    fmt.Println(xs[i])\n                ^"},
		{"panic in a function", "func f(m map[string]int) { m[\"a\"] = 1 }\nvar m map[string]int\nf(m)",
			"line 1:28: panic: assignment to entry in nil map (in f (line 1:28) <- main (line 3:1))\n    func f(m map[string]int) { m[\"a\"] = 1 }\n                               ^"},
		{"panic in a goroutine", "done := make(chan bool)\ngo func() {\n\tvar p *struct{ N int }\n\tfmt.Println(p.N)\n\tdone <- true\n}()\n<-done",
			"line 4:14: panic: runtime error: invalid memory address or nil pointer dereference (in a goroutine of the script)\n        fmt.Println(p.N)\n                    ^"},
		{"misspelled variable", "customer, _ := customers.Get(customers.GetArgs{ID: 5})\nfmt.Println(custmer.Name)",
			"line 2:13: undefined: custmer, did you mean customer?\n    fmt.Println(custmer.Name)\n                ^"},
		{"import typo", "import \"strngs\"\n\nfmt.Println(strngs.ToUpper(\"a\"))",
			"line 1:8: engine: import not allowed: \"strngs\" is not available to scripts (did you mean \"strings\"?); they can import"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, name := range []string{"in-process", "isolated"} {
				res := rts[name](tc.code, demo.Namespace())
				assert.Equal(t, engine.CodeError, res.ReturnCode, name)
				assert.Contains(t, res.Error, tc.want, name)
			}
		})
	}
}
