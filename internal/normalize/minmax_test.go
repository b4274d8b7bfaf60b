package normalize

import (
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFoldMinMax: a call of min or max of numeric literals becomes its
// constant value, of the widest kind among the arguments and never longer
// than the call; other calls, and a file with its own min, stay.
func TestFoldMinMax(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"package main\nvar a = max(1, 3) / 2.0", "package main\nvar a = (3)       / 2.0"},
		{"package main\nvar a = min(1, 2.5)", "package main\nvar a = (1+0*2.5)  "},
		{"package main\nvar a = max(-2, -7, +1)", "package main\nvar a = (+1)           "},
		{"package main\nvar a = max(x, 3)", "package main\nvar a = max(x, 3)"},
		{"package main\nvar a = max(1.5, 3) + min(max(1, 2), 0)", "package main\nvar a = (3+0*1.5)   + min((2)      , 0)"},
		{"package main\nfunc max(a, b int) int { return a }\nvar a = max(1, 3)", "package main\nfunc max(a, b int) int { return a }\nvar a = max(1, 3)"},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", tc.src, 0)
		require.NoError(t, err)
		assert.Equal(t, tc.want, applyEdits(tc.src, foldMinMax(fset, f)), tc.src)
	}
}
