package normalize

import (
	"fmt"
	"go/ast"
	"go/token"
)

// rewriteSwitches works around the interpreter's tagged switches, which
// fail on an interface value with constant cases ("reflect.Value.Convert:
// value of type interface {} cannot be converted to type string"), on an
// error compared with io.EOF (cannot be converted to type
// *errors.errorString), never match a case list's later expressions that
// are not constants (case y, y + 1) and never match nil for a nil pointer,
// map, slice, func or channel: a tagged switch,
//
//	switch v { case "a", "b": ... }
//
// becomes the equivalent tagless switch
//
//	switch __ts_sw1 := v; { case __ts_sw1 == "a" || __ts_sw1 == "b": ... }
//
// which evaluates v once, compares in the order Go does (x == e, Go's
// definition of a case), and stops at the first match, as before. One
// with an init statement goes in a block of its own that holds the init
// (switch x := f(); x { ... } becomes { x := f(); switch __ts_sw1 := x;
// { ... } }), unless a label names it (break L would name the block).
// Columns after the rewritten tokens on the same line shift; lines do
// not.
//
// Pinned by scripts/testdata/top_customers_by_revenue.gos,
// scripts/testdata/switch_init_interface_tag.gos and
// scripts/testdata/switch_error_sentinels.gos.
func rewriteSwitches(fset *token.FileSet, file ast.Node) []edit {
	var edits []edit
	n := 0
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	labelled := map[ast.Stmt]bool{}
	ast.Inspect(file, func(node ast.Node) bool {
		if l, ok := node.(*ast.LabeledStmt); ok {
			labelled[l.Stmt] = true
		}
		sw, ok := node.(*ast.SwitchStmt)
		if !ok || sw.Tag == nil || sw.Init != nil && labelled[sw] {
			return true
		}
		n++
		v := fmt.Sprintf("%s_sw%d", RuntimeAlias, n)
		if sw.Init != nil {
			// switch x := f(); x { ... } becomes
			// { x := f(); switch v := x; { ... } }: the init's
			// variables have the switch's scope, as before.
			edits = append(edits, edit{off: off(sw.Pos()), end: off(sw.Pos()) + len("switch"), text: "{     "},
				edit{off: off(sw.Tag.Pos()), text: "switch " + v + " := "}, edit{off: off(sw.Tag.End()), text: ";"},
				edit{off: off(sw.End()), text: "}"})
		} else {
			edits = append(edits, edit{off: off(sw.Tag.Pos()), text: v + " := "}, edit{off: off(sw.Tag.End()), text: ";"})
		}
		for _, c := range sw.Body.List {
			list := c.(*ast.CaseClause).List
			for i, e := range list {
				if i > 0 {
					// Replace the comma between the previous case and this one.
					edits = append(edits, edit{off: off(list[i-1].End()), end: off(e.Pos()), text: " || "})
				}
				edits = append(edits, edit{off: off(e.Pos()), text: v + " == "})
			}
		}
		return true
	})
	return edits
}
