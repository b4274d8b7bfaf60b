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
		p := &Program{}
		assert.Equal(t, tc.want, applyEdits(tc.src, p.foldMinMax(tc.src, fset, f)), tc.src)
	}
}

// TestFoldMinMax_Constants: a call whose arguments may all be constants
// but are not all literals sets Program.MinMaxConst, unless
// Config.ConstMinMax names it (by the position of its min or max): then
// it becomes the named argument plus zero times each other one, padded,
// or followed by a line directive where that is longer than the call;
// an outer call is made of its arguments' folded texts. A call with a
// variable neither folds nor sets MinMaxConst.
func TestFoldMinMax_Constants(t *testing.T) {
	at := func(line, col, arg int) map[MinMaxPos]int { return map[MinMaxPos]int{{line, col}: arg} }
	for _, tc := range []struct {
		src   string
		folds map[MinMaxPos]int
		want  string
		more  bool // MinMaxConst
	}{
		{"package main\nconst c = 1\nvar a = max(c, 3) / 2.0", nil, "package main\nconst c = 1\nvar a = max(c, 3) / 2.0", true},
		{"package main\nconst c = 1\nvar a = max(c, 3) / 2.0", at(3, 9, 1), "package main\nconst c = 1\nvar a = (3+0*c)   / 2.0", false},
		{"package main\nconst c = 1\nvar a = max(c, 3) / 2.0", at(3, 10, 1), "package main\nconst c = 1\nvar a = max(c, 3) / 2.0", true},
		{"package main\nconst c = 1\nvar a = min(c, 2*c, c+4)", at(3, 9, 0), "package main\nconst c = 1\nvar a = (c+0*(2*c)+0*(c+4))/*line script.go:3:25*/", false},
		{"package main\nconst c = 1\nvar a = min(max(c, 2), 0)", map[MinMaxPos]int{{3, 9}: 1, {3, 13}: 1}, "package main\nconst c = 1\nvar a = (0+0*(2+0*c)  )  ", false},
		{"package main\nconst c = 1\nvar a = max(math.MaxInt8, c, len(\"ab\"))", nil, "package main\nconst c = 1\nvar a = max(math.MaxInt8, c, len(\"ab\"))", true},
		{"package main\nconst c = 1\nvar n = 2\nvar a = max(n, c)", nil, "package main\nconst c = 1\nvar n = 2\nvar a = max(n, c)", false},
		{"package main\nvar a = max(f(), 1)", nil, "package main\nvar a = max(f(), 1)", false},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, File, tc.src, 0)
		require.NoError(t, err)
		p := &Program{cfg: Config{ConstMinMax: tc.folds}}
		assert.Equal(t, tc.want, applyEdits(tc.src, p.foldMinMax(tc.src, fset, f)), tc.src)
		assert.Equal(t, tc.more, p.MinMaxConst, tc.src)
	}
}
