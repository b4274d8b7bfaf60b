package normalize

import (
	"fmt"
	"go/ast"
	"go/token"
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
// and go f(a, b) becomes
//
//	{ __ts_g1_0, __ts_g1_1 := a, b; __ts.GoStart(); go func() { defer ...; f(__ts_g1_0, __ts_g1_1) }() }
//
// which evaluates f's arguments at the go statement, in the goroutine
// that runs it, as Go does (literal arguments are left in place); a
// variadic call keeps its ellipsis. GoStart refuses a goroutine beyond
// the bound; GoEnd releases it and reports the panic it recovered.
//
// Insertions keep lines in place; a replaced statement is followed by a
// line directive back to the model's position.
//
// Pinned by scripts/testdata/adversarial/goroutine_bomb_named.gos (go
// f(x)), goroutine_bomb.gos (go func literals), and goroutine_panic.gos
// and goroutine_index_out_of_range.gos (without the guard, their panics
// crash the host).
func rewriteGo(src string, fset *token.FileSet, file *ast.File) []edit {
	var edits []edit
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	text := func(n ast.Node) string { return src[off(n.Pos()):off(n.End())] }
	guard := "defer func() { " + RuntimeAlias + ".GoEnd(recover()) }(); "
	g := 0
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
			// go f(a, b): evaluate a and b now, as Go does.
			g++
			var names, values, args []string
			for i, a := range call.Args {
				if isLiteral(a) {
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
			fmt.Fprintf(&b, "%s.GoStart(); go func() { %s%s(%s%s) }() }", RuntimeAlias, guard, text(call.Fun), strings.Join(args, ", "), ellipsis)
			end := fset.Position(n.End())
			b.WriteString(lineDirective(end.Line, end.Column))
			edits = append(edits, edit{off: off(n.Pos()), end: off(n.End()), text: b.String()})
			return false
		}
		return true
	})
	return edits
}
