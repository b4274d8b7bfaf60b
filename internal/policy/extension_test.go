package policy

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExtensions checks that extensionNames lists exactly the exported
// functions and types of each extension's source, that scripts cannot import an
// extension, and that BinaryExtensions gives a program only the
// extensions it names (all of them to a session).
func TestExtensions(t *testing.T) {
	for path, ext := range extensions {
		extPath, files := Extension(path)
		require.Equal(t, ext, extPath)
		require.NotEmpty(t, files, path)
		var names []string
		for name, src := range files {
			f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
			require.NoError(t, err)
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() {
					names = append(names, fd.Name.Name)
				}
				if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
					for _, sp := range gd.Specs {
						if ts := sp.(*ast.TypeSpec); ts.Name.IsExported() {
							names = append(names, ts.Name.Name)
						}
					}
				}
			}
		}
		sort.Strings(names)
		want := append([]string(nil), extensionNames[path]...)
		sort.Strings(want)
		assert.Equal(t, want, names, "extensionNames[%q]", path)
		assert.False(t, Allowed(ext), "scripts must not import %s", ext)
	}
	ext, files := Extension("strings")
	assert.Empty(t, ext)
	assert.Nil(t, files)

	assert.Nil(t, BinaryExtensions(`err := errors.New("x"); fmt.Println(err)`))
	assert.Equal(t, map[string]string{"errors": "toolscript/errors"}, BinaryExtensions(`e, ok := errors.AsType[*E](err)`))
	assert.Equal(t, map[string]string{"sync": "toolscript/sync"}, BinaryExtensions(`get := sync.OnceValue(load)`))
	assert.Equal(t, map[string]string{"sync": "toolscript/sync"}, BinaryExtensions(`get := sync.OnceValues(load)`))
	assert.Equal(t, map[string]string{"sync/atomic": "toolscript/sync/atomic"}, BinaryExtensions(`var p atomic.Pointer[Config]`))
	assert.Nil(t, BinaryExtensions(`var n atomic.Int64; n.Add(1)`))
	assert.Equal(t, extensions, BinaryExtensions(""))
}
