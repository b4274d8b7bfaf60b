package policy

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

// funcsOf returns the plain functions a source file declares and the
// identifiers each names.
func funcsOf(t *testing.T, text []byte) map[string][]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", text, 0)
	require.NoError(t, err)
	out := map[string][]string{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
			out[fd.Name.Name] = identsOf(fd)
		}
	}
	return out
}

// TestSourceFSFor_Closed checks the pruning of every source file for a
// program naming each function alone: the pruned file parses, keeps
// the function, keeps every function a kept one names (nothing it can
// reach is missing), drops what nothing names, and keeps every line
// where it was.
func TestSourceFSFor_Closed(t *testing.T) {
	files := prunable()
	require.Contains(t, files, "src/slices/slices.go")
	for path, sf := range files {
		all := funcsOf(t, sf.text)
		for name := range all {
			t.Run(path+"/"+name, func(t *testing.T) {
				got, err := fs.ReadFile(SourceFSFor(`import "slices"; x := pkg.`+name+"(y)"), path)
				require.NoError(t, err)
				assert.Equal(t, bytes.Count(sf.text, []byte("\n")), bytes.Count(got, []byte("\n")), "lines moved")
				kept := funcsOf(t, got)
				require.Contains(t, kept, name)
				for k, refs := range kept {
					for _, r := range refs {
						if _, isFunc := all[r]; isFunc {
							assert.Contains(t, kept, r, "%s names %s, which was dropped", k, r)
						}
					}
				}
			})
		}
	}
	slices := files["src/slices/slices.go"]
	got, err := fs.ReadFile(SourceFSFor(`import "slices"; slices.Index(s, "x")`), "src/slices/slices.go")
	require.NoError(t, err)
	assert.Equal(t, []string{"Index"}, keys(funcsOf(t, got)), "only Index is reachable")
	assert.Less(t, len(bytes.TrimSpace(got)), len(slices.text)/4)
	whole, err := fs.ReadFile(SourceFSFor(""), "src/slices/slices.go")
	require.NoError(t, err)
	assert.Equal(t, slices.text, whole, "a session gets whole files")
	assert.Same(t, sourceFS, SourceFSFor(`fmt.Println(strings.ToUpper("hi"))`), "a program importing no source package reads none")
	assert.NotSame(t, sourceFS, SourceFSFor(`import sl "slices"`))
	assert.NotSame(t, sourceFS, SourceFSFor(`errors.AsType[*E](err)`), "an extension is read from the source file system")
}

// TestSourceFSFor_Copies checks that what a reader of a pruned file
// system gets is its own: writing into a file read whole, pruned or not,
// changes nothing another execution reads.
func TestSourceFSFor_Copies(t *testing.T) {
	const path = "src/slices/slices.go"
	for _, prog := range []string{`import "slices"; slices.Index(s, 1)`, `import "slices"; ` + strings.Join(keys(funcsOf(t, prunable()[path].text)), " ")} {
		want, err := fs.ReadFile(SourceFSFor(prog), path)
		require.NoError(t, err)
		got, err := fs.ReadFile(SourceFSFor(prog), path)
		require.NoError(t, err)
		for i := range got {
			got[i] = 'x'
		}
		again, err := fs.ReadFile(SourceFSFor(prog), path)
		require.NoError(t, err)
		assert.Equal(t, want, again)
		f, err := SourceFSFor(prog).Open(path)
		require.NoError(t, err)
		fi, err := f.Stat()
		require.NoError(t, err)
		assert.Equal(t, int64(len(want)), fi.Size())
		require.NoError(t, f.Close())
	}
	assert.Equal(t, prunable()[path].text, mustRead(t, SourceFS(), path), "the embedded source is untouched")
}

func mustRead(t *testing.T, fsys fs.FS, path string) []byte {
	t.Helper()
	b, err := fs.ReadFile(fsys, path)
	require.NoError(t, err)
	return b
}

func keys(m map[string][]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestSourceFSFor_Compiles compiles and runs, with a pruned source file
// system, a program calling each of a few functions of each source
// package (the corpus and the differential test run the rest): the
// result is Go's.
func TestSourceFSFor_Compiles(t *testing.T) {
	for _, tc := range []struct{ imports, body, want string }{
		{`"slices"`, `s := []int{3, 1, 2}; slices.Sort(s); i, ok := slices.BinarySearch(s, 2); result = (fmt.Sprint(s, i, ok, slices.Max(s)))`, "[1 2 3] 1 true 3"},
		{`"slices"; "maps"`, `m := map[string]int{"b": 2, "a": 1}; result = (fmt.Sprint(slices.Sorted(maps.Keys(m))))`, "[a b]"},
		{`"cmp"`, `result = (fmt.Sprint(cmp.Compare(1, 2), cmp.Or("", "x")))`, "-1x"},
		{`"iter"`, `next, stop := iter.Pull(func(yield func(int) bool) { yield(7) }); defer stop(); v, ok := next(); result = (fmt.Sprint(v, ok))`, "7 true"},
	} {
		t.Run(tc.imports, func(t *testing.T) {
			src := fmt.Sprintf("package main\nimport (\"fmt\"; %s)\nvar result string\nfunc main() { %s }\n", tc.imports, tc.body)
			it := interp.New(interp.Options{SourcecodeFilesystem: SourceFSFor(src), GoPath: ".",
				ReadOnlyTypes: ReadOnlyTypes(), HiddenFieldType: HiddenFieldType})
			imports := []string{"fmt", "slices", "maps", "cmp", "iter"}
			require.NoError(t, UseShared(imports, it.UseShared))
			require.NoError(t, it.Use(Exports(imports, src, nopHooks{})))
			_, err := it.Eval(src)
			require.NoError(t, err)
			v, err := it.Eval("result")
			require.NoError(t, err)
			assert.Equal(t, tc.want, v.String())
		})
	}
}
