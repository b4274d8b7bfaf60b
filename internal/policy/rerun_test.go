package policy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSourcesDeclareNoVariables: Rerunnable lets a program importing a
// source package or an extension be run again after interp.Reset, which
// gives only package main's globals fresh values. That holds while the
// embedded sources declare no package-level variable (a variable's value
// would be the first run's, changed by it).
func TestSourcesDeclareNoVariables(t *testing.T) {
	files := 0
	err := fs.WalkDir(SourceFS(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		src, err := fs.ReadFile(SourceFS(), path)
		require.NoError(t, err)
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
		require.NoError(t, err)
		files++
		for _, decl := range f.Decls {
			if g, ok := decl.(*ast.GenDecl); ok {
				assert.NotEqual(t, token.VAR, g.Tok, "%s declares a package variable", path)
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.GreaterOrEqual(t, files, 7, "the slices, maps, cmp, iter and extension sources")
}

// TestRerunnable: a program may be run again unless it names a package
// variable executions get a deep copy of, or imports hash/crc32, whose
// functions are made over such copies.
func TestRerunnable(t *testing.T) {
	for _, tc := range []struct {
		imports []string
		src     string
		want    bool
	}{
		{[]string{"fmt"}, `fmt.Println(1)`, true},
		{[]string{"fmt", "slices", "maps", "iter", "cmp"}, `slices.Sort(xs)`, true},
		{[]string{"errors", "sync"}, `errors.AsType[E](err); sync.OnceValue(f)`, true},
		{[]string{"os", "log", "time", "context", "io"}, `os.Args; log.Print(); time.Sleep(1)`, true},
		{[]string{"unicode"}, `unicode.IsUpper(r)`, true},
		{[]string{"unicode"}, `unicode.Is(unicode.Latin, r)`, false},
		{[]string{"strings"}, `Latin := 1`, true}, // the name of a copy, not imported
		{[]string{"encoding/base64"}, `base64.StdEncoding.EncodeToString(b)`, false},
		{[]string{"encoding/base64"}, `base64.NewEncoding(alphabet)`, true},
		{[]string{"hash/crc32"}, `crc32.ChecksumIEEE(b)`, false},
	} {
		assert.Equal(t, tc.want, Rerunnable(tc.imports, tc.src), "%v %q", tc.imports, tc.src)
	}
}
