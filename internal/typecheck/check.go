package typecheck

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/toolscript/toolscript/internal/normalize"
	"github.com/toolscript/toolscript/internal/policy"
)

// Tools are the tool packages of a namespace, as the type checker sees
// them.
type Tools struct {
	// Decls are the Go declarations of each tool package, by import path
	// (its package name), as engine.Describe renders them: functions
	// without bodies and the types they use.
	Decls map[string]string
	// Typed names, by package, the typed tool functions: besides their
	// declared argument they accept a map[string]any (or nil), and then
	// return their result untyped (any).
	Typed map[string][]string
}

// Checker type-checks scripts against one namespace shape. It is safe for
// concurrent use; the tool packages are built on the first Check.
type Checker struct {
	imp *toolImporter
}

// New returns the Checker of scripts that see the tool packages tools.
func New(tools Tools) *Checker {
	mf := map[string]map[string]bool{}
	for pkg, fns := range tools.Typed {
		mf[pkg] = map[string]bool{}
		for _, f := range fns {
			mf[pkg][f] = true
		}
	}
	return &Checker{imp: &toolImporter{decls: tools.Decls, mapForms: mf}}
}

// Error is a type error at the model's position.
type Error struct {
	Line, Column int    // 1-based, in the script the model wrote
	Msg          string // go/types' message, with a suggestion where one fits
}

// Error renders "line L:C: msg".
func (e Error) Error() string { return fmt.Sprintf("line %d:%d: %s", e.Line, e.Column, e.Msg) }

// maxErrors bounds the errors Check returns, as the Go compiler stops
// after ten.
const maxErrors = 10

// maxRounds bounds the re-checks of map-form calls (see Check).
const maxRounds = 4

// Check type-checks src, a program internal/normalize made in native
// mode (positions mapped to the model's script by line directives), and
// returns its type errors in source order, at most ten. Variables,
// imports and labels declared and not used are not errors here
// (tolerated): the interpreter runs such scripts. An error whose position is not in the
// model's script (generated code) is left out.
//
// A typed tool called with a map[string]any (or nil) runs its map form
// in the interpreter: such a call is checked against the map form, so
// both call styles check. Which calls pass a map needs the arguments'
// types, so a program with such calls is checked again, its calls
// renamed to the map form (at most a few rounds, for results of map
// calls that feed other map calls).
func (c *Checker) Check(src string) []Error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil // the normaliser reports syntax errors
	}
	var errs []types.Error
	var info *types.Info
	var pkg *types.Package
	renamed := map[*ast.Ident]string{}
	for round := 0; round < maxRounds; round++ {
		errs = errs[:0]
		info = &types.Info{
			Types:  map[ast.Expr]types.TypeAndValue{},
			Uses:   map[*ast.Ident]types.Object{},
			Defs:   map[*ast.Ident]types.Object{},
			Scopes: map[ast.Node]*types.Scope{},
		}
		conf := types.Config{GoVersion: goVersion, Importer: c.imp, Error: func(err error) {
			if e, ok := err.(types.Error); ok && !tolerated(e) {
				errs = append(errs, e)
			}
		}}
		pkg, _ = conf.Check("main", fset, []*ast.File{f}, info)
		if len(errs) == 0 || !c.renameMapCalls(f, info, renamed) {
			break
		}
	}
	var out []Error
	for _, e := range errs {
		pos := fset.PositionFor(e.Pos, true)
		if pos.Filename != normalize.File || pos.Line <= 0 {
			continue
		}
		msg := e.Msg
		for id, name := range renamed {
			msg = strings.ReplaceAll(msg, "."+id.Name, "."+name)
		}
		if strings.HasPrefix(msg, "\t") && len(out) > 0 {
			// A continuation of the error before it (go/types reports
			// "\tprevious case" after "duplicate case"): one error, as
			// the Go compiler prints it.
			last := &out[len(out)-1]
			last.Msg += fmt.Sprintf("\n\tline %d:%d: %s", pos.Line, pos.Column, strings.TrimPrefix(msg, "\t"))
			continue
		}
		msg = c.suggest(msg, e.Pos, f, info, pkg)
		out = append(out, Error{Line: pos.Line, Column: pos.Column, Msg: msg})
		if len(out) == maxErrors {
			break
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Column < out[j].Column
	})
	return out
}

// tolerated reports whether e is an error Go reports that the interpreter
// lets pass: a variable, an import or a label declared and not used (soft
// errors of go/types). Go's other soft errors are errors here: a goto
// that jumps over a variable declaration or into a block.
func tolerated(e types.Error) bool {
	return e.Soft && (strings.Contains(e.Msg, "declared and not used") || strings.Contains(e.Msg, "imported and not used"))
}

// renameMapCalls renames to its map form every call pkg.F(x) of a typed
// tool function whose one argument x is a map[string]any or nil; it
// reports whether it renamed any.
func (c *Checker) renameMapCalls(f *ast.File, info *types.Info, renamed map[*ast.Ident]string) bool {
	sels := MapFormCalls(f, info, func(path, name string) bool { return c.imp.mapForms[path][name] })
	for _, sel := range sels {
		renamed[sel.Sel] = sel.Sel.Name
		sel.Sel.Name += mapSuffix
	}
	return len(sels) > 0
}

// MapFormCalls returns the selectors of the calls pkg.F(x) in f, checked
// into info, of a typed tool function (typed reports which, by package
// path and name) whose one argument x is a map[string]any or nil: the
// calls that run the tool's map form, in the order of f.
func MapFormCalls(f *ast.File, info *types.Info, typed func(path, name string) bool) []*ast.SelectorExpr {
	mapAny := types.NewMap(types.Typ[types.String], types.Universe.Lookup("any").Type())
	var out []*ast.SelectorExpr
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		pn, ok := info.Uses[id].(*types.PkgName)
		if !ok || !typed(pn.Imported().Path(), sel.Sel.Name) {
			return true
		}
		tv, ok := info.Types[call.Args[0]]
		if !ok || !(tv.IsNil() || types.Identical(tv.Type, mapAny)) {
			return true
		}
		out = append(out, sel)
		return true
	})
	return out
}

// Packages returns the package names a script can import (the standard
// ones by their last element, and the tool packages), for suggestions.
func (c *Checker) packageNames() []string {
	var out []string
	for _, p := range policy.Paths() {
		out = append(out, p[strings.LastIndex(p, "/")+1:])
	}
	for p := range c.imp.decls {
		out = append(out, p)
	}
	return out
}

// ConstMinMax type-checks src as Check does and returns the calls of the
// builtins min and max whose value is a numeric constant, by the model's
// position of the call's function name, each with the index of the first
// argument that has the call's value: what the normaliser needs to fold
// them (internal/normalize's Config.ConstMinMax), since the interpreter's
// min and max are functions and their calls are not constants. A program
// with type errors gives the calls go/types could still evaluate.
func (c *Checker) ConstMinMax(src string) map[normalize.MinMaxPos]int {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{GoVersion: goVersion, Importer: c.imp, Error: func(error) {}}
	conf.Check("main", fset, []*ast.File{f}, info)
	out := map[normalize.MinMaxPos]int{}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		id, ok := call.Fun.(*ast.Ident)
		if !ok {
			return true
		}
		if b, ok := info.Uses[id].(*types.Builtin); !ok || b.Name() != "min" && b.Name() != "max" {
			return true
		}
		v := info.Types[call].Value
		if v == nil || v.Kind() != constant.Int && v.Kind() != constant.Float {
			return true
		}
		pos := fset.PositionFor(id.Pos(), true)
		if pos.Filename != normalize.File {
			return true
		}
		for i, a := range call.Args {
			if av := info.Types[a].Value; av != nil && av.Kind() != constant.Unknown && constant.Compare(av, token.EQL, v) {
				out[normalize.MinMaxPos{Line: pos.Line, Column: pos.Column}] = i
				break
			}
		}
		return true
	})
	return out
}
