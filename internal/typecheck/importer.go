package typecheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"sync"

	"github.com/toolscript/toolscript/internal/policy"
)

// goVersion is the language version scripts are checked against: that of
// the toolchain that builds the project, whose go/types this is.
const goVersion = "go1.26"

// std is the importer of the standard packages scripts can import,
// shared by the process: the symbol-table packages (reflect.go) and the
// source packages, each built on first import.
var std = &stdImporter{src: map[string]*srcEntry{}}

type stdImporter struct {
	mu  sync.Mutex
	src map[string]*srcEntry
}

type srcEntry struct {
	once sync.Once
	pkg  *types.Package
	err  error
}

// Import returns the standard package path.
func (s *stdImporter) Import(path string) (*types.Package, error) {
	if files := policy.Source(path); files != nil {
		s.mu.Lock()
		e := s.src[path]
		if e == nil {
			e = &srcEntry{}
			s.src[path] = e
		}
		s.mu.Unlock()
		e.once.Do(func() { e.pkg, e.err = checkSource(path, files, std) })
		return e.pkg, e.err
	}
	theHost.mu.Lock()
	defer theHost.mu.Unlock()
	if p, ok := theHost.pkgs[path]; ok && p.Complete() {
		return p, nil
	}
	syms := policy.Declared(path)
	if syms == nil {
		return nil, fmt.Errorf("package %s is not importable", path)
	}
	name := path[strings.LastIndex(path, "/")+1:]
	p := theHost.declare(path, syms, func(s string) bool { return policy.IsVar(name, s) })
	return p, extend(p)
}

// extend adds to the native package p the functions of its source
// extension, if it has one (errors.AsType: policy.Extension). The
// extension imports p alone, which it is given as it is; the caller
// holds theHost.mu.
func extend(p *types.Package) error {
	extPath, files := policy.Extension(p.Path())
	if files == nil {
		return nil
	}
	ext, err := checkSource(extPath, files, importerFunc(func(path string) (*types.Package, error) {
		if path == p.Path() {
			return p, nil
		}
		return nil, fmt.Errorf("typecheck: extension %s imports %s", extPath, path)
	}))
	if err != nil {
		return err
	}
	for _, name := range ext.Scope().Names() {
		if obj := ext.Scope().Lookup(name); obj.Exported() && p.Scope().Lookup(name) == nil {
			p.Scope().Insert(obj)
		}
	}
	return nil
}

// importerFunc is a types.Importer of a function.
type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// checkSource type-checks the source package path (its files by name),
// its imports given by imp.
func checkSource(path string, files map[string][]byte, imp types.Importer) (*types.Package, error) {
	fset := token.NewFileSet()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var asts []*ast.File
	for _, n := range names {
		f, err := parser.ParseFile(fset, n, files[n], parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		asts = append(asts, f)
	}
	var first error
	conf := types.Config{GoVersion: goVersion, Importer: imp, Error: func(err error) {
		if e, ok := err.(types.Error); ok && e.Soft {
			return
		}
		if first == nil {
			first = err
		}
	}}
	p, _ := conf.Check(path, fset, asts, nil)
	if first != nil {
		return nil, fmt.Errorf("typecheck: source package %s: %w", path, first)
	}
	return p, nil
}

// toolImporter imports the tool packages of one namespace shape from
// their declarations, and every other path from std.
type toolImporter struct {
	decls    map[string]string          // package -> declarations
	mapForms map[string]map[string]bool // package -> typed functions
	once     sync.Once
	pkgs     map[string]*types.Package
	errs     map[string]error
}

func (t *toolImporter) Import(path string) (*types.Package, error) {
	if _, ok := t.decls[path]; !ok {
		return std.Import(path)
	}
	t.once.Do(t.build)
	return t.pkgs[path], t.errs[path]
}

// build type-checks every tool package: its declarations, each typed
// function F given a map form F_map (func(map[string]any) (any, error)),
// which a call passing a map is checked against (Checker.Check). A
// function without a body is what Go calls an external declaration: the
// checker accepts it.
func (t *toolImporter) build() {
	t.pkgs, t.errs = map[string]*types.Package{}, map[string]error{}
	for path, src := range t.decls {
		var extra strings.Builder
		fns := make([]string, 0, len(t.mapForms[path]))
		for f := range t.mapForms[path] {
			fns = append(fns, f)
		}
		sort.Strings(fns)
		for _, f := range fns {
			fmt.Fprintf(&extra, "\nfunc %s%s(args map[string]any) (any, error)\n", f, mapSuffix)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path+".go", src+extra.String(), parser.SkipObjectResolution)
		if err != nil {
			t.errs[path] = fmt.Errorf("typecheck: tool package %s: %w", path, err)
			continue
		}
		var first error
		conf := types.Config{GoVersion: goVersion, Importer: std, IgnoreFuncBodies: true, Error: func(err error) {
			if e, ok := err.(types.Error); ok && (e.Soft || strings.Contains(e.Msg, "missing function body")) {
				return
			}
			if first == nil {
				first = err
			}
		}}
		p, _ := conf.Check(path, fset, []*ast.File{f}, nil)
		if first != nil {
			t.errs[path] = fmt.Errorf("typecheck: tool package %s: %w", path, first)
			continue
		}
		t.pkgs[path] = p
	}
}

// mapSuffix ends the name of a typed tool function's map form: the tool
// packages' function names have no underscore.
const mapSuffix = "_map"
