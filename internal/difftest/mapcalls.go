package difftest

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"sync"

	"github.com/toolscript/toolscript/internal/typecheck"
)

// mapCaller rewrites the calls of typed tools that pass a map of
// arguments: in the interpreter such a call runs the tool's map form
// (func(map[string]any) (any, error)) whatever the function's declared
// type, which Go cannot express, so natively the call names the map form
// of the shim instead (Get becomes Get_map). Which calls pass a map needs
// the types of the arguments: the program is type-checked against
// Describe's declarations of the tool packages and the standard library
// from source, its type errors (the very calls it rewrites) ignored.
type mapCaller struct {
	surf *surface
	mu   sync.Mutex
	fset *token.FileSet
	std  types.Importer
	pkgs map[string]*types.Package
}

func newMapCaller(surf *surface) *mapCaller {
	fset := token.NewFileSet()
	return &mapCaller{surf: surf, fset: fset, std: importer.ForCompiler(fset, "source", nil), pkgs: map[string]*types.Package{}}
}

// Import implements types.Importer: a tool package from its
// declarations, any other from the standard library's source.
func (m *mapCaller) Import(path string) (*types.Package, error) {
	if p, ok := m.pkgs[path]; ok {
		return p, nil
	}
	decls, ok := m.surf.decls[path]
	if !ok {
		return m.std.Import(path)
	}
	f, err := parser.ParseFile(m.fset, path+".go", decls, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	conf := types.Config{Importer: m, Error: func(error) {}}
	p, _ := conf.Check(path, m.fset, []*ast.File{f}, nil)
	m.pkgs[path] = p
	return p, nil
}

// rewrite returns src with every call of a typed tool function whose
// only argument is a map[string]any (or nil) calling its map form.
func (m *mapCaller) rewrite(src string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	f, err := parser.ParseFile(m.fset, "main.go", src, parser.SkipObjectResolution)
	if err != nil {
		return src // the build reports it
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: m, Error: func(error) {}}
	_, _ = conf.Check("main", m.fset, []*ast.File{f}, info)
	var offs []int
	typed := func(path, name string) bool { return m.surf.typed[path][name] }
	for _, sel := range typecheck.MapFormCalls(f, info, typed) {
		offs = append(offs, m.fset.File(sel.Sel.End()).Offset(sel.Sel.End()))
	}
	sort.Sort(sort.Reverse(sort.IntSlice(offs)))
	for _, off := range offs {
		src = src[:off] + mapSuffix + src[off:]
	}
	return src
}
