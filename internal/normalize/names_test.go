package normalize

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNames: a session input's top-level names (declarations, := of its
// top-level statements, not those of nested blocks), the identifiers it
// mentions, and its const declarations as Go text without line
// directives.
func TestNames(t *testing.T) {
	p, err := Session("const (\n\tlo = 1\n\thi = lo + max(lo, 2)\n)\ntype T int\nfunc f() int { inner := 1; return inner }\nx, y := 1, 2\nif x > 0 {\n\tz := 3\n\t_ = z\n}\nvar v = len(\"ab\")\nfmt.Println(x, y, v, f())", Config{MaxNesting: 100, Allowed: func(string) bool { return true }})
	require.NoError(t, err)
	n := p.Names()
	assert.ElementsMatch(t, []string{"lo", "hi", "T", "f", "x", "y", "v"}, n.Declared)
	assert.Subset(t, n.Mentioned, []string{"lo", "hi", "max", "inner", "z", "len", "fmt", "Println"})
	require.Len(t, n.Consts, 1)
	assert.Equal(t, []string{"lo", "hi"}, n.Consts[0].Names)
	assert.NotContains(t, n.Consts[0].Text, "line")
	assert.Contains(t, n.Consts[0].Text, "hi = lo + max(lo, 2)")
}
