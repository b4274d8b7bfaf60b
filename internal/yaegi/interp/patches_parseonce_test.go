package interp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parseOnceSrc is a program whose compile error and panic name
// positions: line 7 holds the undefined name, line 11 the panic.
const parseOnceSrc = "package main\n\nimport \"fmt\"\n\n// a comment\nfunc f(n int) int {\n\treturn n * %s\n}\n\nfunc main() {\n\tfmt.Println(f(2)); var m map[string]int; m[\"a\"] = 1\n}\n"

// TestParseFile_CompileFile: a program ParseFile parsed into the file set
// an interpreter is made with (Options.FileSet) compiles with
// CompileFileWithContext as its text does with CompileWithContext: the
// same output, the same compile error at the same position, the same
// panic position (toolscript patch 106).
func TestParseFile_CompileFile(t *testing.T) {
	run := func(src string, parsed bool) (string, error) {
		var out bytes.Buffer
		opts := Options{Stdout: &out}
		var p *Program
		var err error
		if parsed {
			fset := token.NewFileSet()
			f, perr := ParseFile(fset, src)
			require.NoError(t, perr)
			opts.FileSet = fset
			it := New(opts)
			require.NoError(t, it.Use(stdlib.Symbols))
			require.Same(t, fset, it.FileSet())
			p, err = it.CompileFileWithContext(context.Background(), f)
			if err == nil {
				_, err = it.Execute(p)
			}
			return out.String(), err
		}
		it := New(opts)
		require.NoError(t, it.Use(stdlib.Symbols))
		p, err = it.CompileWithContext(context.Background(), src)
		if err == nil {
			_, err = it.Execute(p)
		}
		return out.String(), err
	}
	for _, expr := range []string{"3", "undefinedName"} {
		src := fmt.Sprintf(parseOnceSrc, expr)
		wantOut, wantErr := run(src, false)
		gotOut, gotErr := run(src, true)
		assert.Equal(t, wantOut, gotOut, expr)
		require.Error(t, wantErr, expr)
		require.Error(t, gotErr, expr)
		assert.Equal(t, wantErr.Error(), gotErr.Error(), expr)
		var wp, gp Panic
		if errors.As(wantErr, &wp) {
			require.ErrorAs(t, gotErr, &gp, expr)
			assert.Equal(t, wp.Frames, gp.Frames, expr)
		}
	}
	out, err := run(fmt.Sprintf(parseOnceSrc, "3"), true)
	assert.Equal(t, "6\n", out)
	var p Panic
	require.ErrorAs(t, err, &p)
	require.NotEmpty(t, p.Frames)
	assert.Equal(t, 11, p.Frames[0].Pos.Line)
	_, err = run(fmt.Sprintf(parseOnceSrc, "undefinedName"), true)
	assert.Contains(t, err.Error(), "7:")
}

// TestParseFile_Refuses: ParseFile refuses a source Compile reads build
// constraints or yaegi tags of (those need the text), and gives the
// parser's error of a source that is not a program, as Compile does
// (toolscript patch 106).
func TestParseFile_Refuses(t *testing.T) {
	for _, src := range []string{
		"//go:build ignore\n\npackage main\n\nfunc main() {}\n",
		"// +build ignore\n\npackage main\n\nfunc main() {}\n",
		"// yaegi:tags foo\npackage main\n\nfunc main() {}\n",
	} {
		_, err := ParseFile(token.NewFileSet(), src)
		assert.ErrorIs(t, err, errParseText, src)
	}
	_, err := ParseFile(token.NewFileSet(), "package main\nfunc f() {}\nfunc f() {}\n")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "f redeclared", "the interpreter's mode: declaration errors")
	_, err = ParseFile(token.NewFileSet(), "x := 1")
	require.Error(t, err)
}

// TestParse_CommentsOnlyForTags: Compile parses a source's comments only
// when it has yaegi tags, the one thing read of them; the tags still
// apply (toolscript patch 107), and the debugging options of the
// environment are read once per process.
func TestParse_CommentsOnlyForTags(t *testing.T) {
	it := New(Options{Stdout: &bytes.Buffer{}})
	f, err := it.parse("package main\n// a comment\nfunc main() {}\n", "", true)
	require.NoError(t, err)
	assert.Empty(t, f.(*ast.File).Comments, "comments parsed")
	_, err = it.Compile("// yaegi:tags footag\npackage main\n\nfunc main() {}\n")
	require.NoError(t, err)
	assert.Contains(t, it.context.BuildTags, "footag")
	assert.Equal(t, debugEnv(), debugEnv())
}
