package normalize

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// rewriteGo puts the host's goroutine guard around every go statement,
// so that a script's goroutines count against the host's bound and a
// panic in one becomes the execution's error instead of a crash of the
// host:
//
//	go func() { ... }()
//
// becomes
//
//	__ts.GoStart(); go func() { defer func() { __ts.GoEnd(recover()) }(); ... }()
//
// and go x.f(a, b) becomes
//
//	{ __ts_g1_f, __ts_g1_0, __ts_g1_1 := x.f, a, b; __ts.GoStart(); go func() { defer ...; __ts_g1_f(__ts_g1_0, __ts_g1_1) }() }
//
// which evaluates the function value and the arguments at the go
// statement, in the goroutine that executes it, as Go does: a later
// assignment to f or a does not change the call (x.f as a method value
// binds x there too: scripts/testdata/norm_go_method_value.gos).
// Literal arguments (and nil) are left in place, and so is a function that cannot
// change or cannot be a value: a builtin, a function the file declares
// (perhaps generic), a function of an imported package whose name the
// script does not declare. A variadic call keeps its ellipsis. GoStart
// refuses a goroutine beyond the bound; GoEnd releases it and reports the
// panic it recovered.
//
// Insertions keep lines in place; a replaced statement is followed by a
// line directive back to the model's position.
//
// Pinned by scripts/testdata/adversarial/goroutine_bomb_named.gos (go
// f(x)), goroutine_bomb.gos (go func literals), and goroutine_panic.gos
// and goroutine_index_out_of_range.gos (without the guard, their panics
// crash the host), and scripts/testdata/norm_go_evaluates_call.gos (the
// function value).
func (p *Program) rewriteGo(src string, fset *token.FileSet, file *ast.File) []edit {
	var edits []edit
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	text := func(n ast.Node) string { return src[off(n.Pos()):off(n.End())] }
	guard := "defer func() { " + RuntimeAlias + ".GoEnd(recover()) }(); "
	g := 0
	var funcs map[string]bool // the file's functions, once a go f() needs them
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			call := n.Call
			if fl, ok := call.Fun.(*ast.FuncLit); ok {
				edits = append(edits,
					edit{off: off(n.Pos()), text: RuntimeAlias + ".GoStart(); "},
					edit{off: off(fl.Body.Lbrace) + 1, text: guard})
				return true
			}
			// go f(a, b): evaluate f, a and b now, as Go does.
			g++
			var names, values, args []string
			fun := text(call.Fun)
			if funcs == nil {
				funcs = map[string]bool{}
				for _, d := range file.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
						funcs[fd.Name.Name] = true
					}
				}
			}
			if !p.constantFunc(call.Fun, funcs, file) {
				name := fmt.Sprintf("%s_g%d_f", RuntimeAlias, g)
				names = append(names, name)
				values = append(values, fun)
				fun = name
			}
			for i, a := range call.Args {
				// nil too (x := nil is not Go): go f(nil), go f(nil...).
				if isLiteral(a) || isNilIdent(a) && !declaresAnywhere(file, "nil") {
					args = append(args, text(a))
					continue
				}
				name := fmt.Sprintf("%s_g%d_%d", RuntimeAlias, g, i)
				names = append(names, name)
				values = append(values, text(a))
				args = append(args, name)
			}
			var b strings.Builder
			b.WriteString("{ ")
			if len(names) > 0 {
				fmt.Fprintf(&b, "%s := %s; ", strings.Join(names, ", "), strings.Join(values, ", "))
			}
			ellipsis := ""
			if call.Ellipsis.IsValid() {
				ellipsis = "..."
			}
			fmt.Fprintf(&b, "%s.GoStart(); go func() { %s%s(%s%s) }() }", RuntimeAlias, guard, fun, strings.Join(args, ", "), ellipsis)
			end := fset.Position(n.End())
			b.WriteString(lineDirective(end.Line, end.Column))
			edits = append(edits, edit{off: off(n.Pos()), end: off(n.End()), text: b.String()})
			return false
		}
		return true
	})
	return edits
}

// isNilIdent reports whether e is the identifier nil.
func isNilIdent(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "nil"
}

// builtins are the predeclared functions a go statement may call.
var builtins = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true,
	"new": true, "panic": true, "print": true, "println": true, "real": true, "recover": true,
}

// constantFunc reports whether the function a go statement calls is one
// whose value cannot change, or cannot be taken: a builtin or a function
// of the file (funcs), or a function of an imported package whose name
// the file does not declare as well.
func (p *Program) constantFunc(fun ast.Expr, funcs map[string]bool, file *ast.File) bool {
	switch f := fun.(type) {
	case *ast.Ident:
		return builtins[f.Name] || funcs[f.Name]
	case *ast.SelectorExpr:
		id, ok := f.X.(*ast.Ident)
		return ok && p.isPackage(id.Name, file) && !declaresAnywhere(file, id.Name)
	}
	return false
}

// isPackage reports whether name is the name of a package the file
// imports, or one it uses without importing (Config.AutoImport).
func (p *Program) isPackage(name string, file *ast.File) bool {
	for _, s := range file.Imports {
		path, err := strconv.Unquote(s.Path.Value)
		if err != nil {
			continue
		}
		if s.Name != nil && s.Name.Name == name || s.Name == nil && path[strings.LastIndex(path, "/")+1:] == name {
			return true
		}
	}
	if p.cfg.AutoImport == nil {
		return false
	}
	_, ok := p.cfg.AutoImport(name)
	return ok
}
