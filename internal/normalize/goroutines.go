package engine

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// rewriteGuards inserts the host checks that keep a script's accidents
// from taking the host down (see guards.go for the host side):
// go f(a, b) evaluates its arguments in place, then runs the call in a
// goroutine that counts against MaxGoroutines and turns a panic into the
// execution's error instead of a crash of the host.
//
// The interpreter itself bounds the depth of calls (MaxCallDepth, see
// callDepth), and make is checked by the interpreter's make hook
// (guards_alloc.go).
//
// Insertions keep lines in place; a replaced statement is followed by a
// line directive back to the model's position.
func rewriteGuards(src string, fset *token.FileSet, file *ast.File) []edit {
	var edits []edit
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	text := func(n ast.Node) string { return src[off(n.Pos()):off(n.End())] }
	guard := "defer func() { " + rtAlias + ".GoEnd(recover()) }(); "
	g := 0
	if !mentions(src, "go") {
		return nil
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			call := n.Call
			if fl, ok := call.Fun.(*ast.FuncLit); ok {
				edits = append(edits,
					edit{off: off(n.Pos()), text: rtAlias + ".GoStart(); "},
					edit{off: off(fl.Body.Lbrace) + 1, text: guard})
				return true
			}
			// go f(a, b): evaluate a and b now, as Go does.
			g++
			var names, values, args []string
			for i, a := range call.Args {
				if isLiteral(a) {
					args = append(args, text(a))
					continue
				}
				name := fmt.Sprintf("%s_g%d_%d", rtAlias, g, i)
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
			fmt.Fprintf(&b, "%s.GoStart(); go func() { %s%s(%s%s) }() }", rtAlias, guard, text(call.Fun), strings.Join(args, ", "), ellipsis)
			end := fset.Position(n.End())
			b.WriteString(lineDirective(end.Line, end.Column))
			edits = append(edits, edit{off: off(n.Pos()), end: off(n.End()), text: b.String()})
			return false
		}
		return true
	})
	return edits
}

// checkNesting bounds the nesting of the script's syntax tree by
// MaxNesting before the interpreter compiles it, at the first construct
// that crosses the bound.
func (p *program) checkNesting(fset *token.FileSet, file *ast.File) error {
	depth := 0
	var deep ast.Node
	ast.Inspect(file, func(n ast.Node) bool {
		switch {
		case deep != nil:
			return false
		case n == nil:
			depth--
			return true
		}
		if depth++; depth > MaxNesting {
			deep = n
			return false
		}
		return true
	})
	if deep == nil {
		return nil
	}
	pos := fset.Position(deep.Pos())
	return &ScriptError{Line: pos.Line, Column: pos.Column, Source: p.line(pos.Line),
		Msg: fmt.Sprintf("the script is nested too deeply: more than %d levels of expressions, blocks or literals (engine.MaxNesting)", MaxNesting)}
}
