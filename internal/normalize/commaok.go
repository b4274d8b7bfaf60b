package normalize

import (
	"fmt"
	"go/ast"
	"go/token"
)

// rewriteCommaOk works around an interpreter bug that model-written code
// hits: v, ok := x.(T) inside a loop keeps the previous iteration's v
// when the assertion fails, where Go gives v the zero value of T. So an
// "if !ok { v = *new(T) }" follows the statement (ok is named when it was
// blank), on the same line: every line stays where it was.
//
// Only statements of a statement list are rewritten: an if or switch
// init cannot take a second statement, and its scope ends with the
// statement.
//
// Pinned by scripts/testdata/norm_comma_ok_in_loop.gos.
func rewriteCommaOk(src string, fset *token.FileSet, file ast.Node) []edit {
	var edits []edit
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	n := 0
	fix := func(st *ast.AssignStmt) {
		if st.Tok != token.DEFINE || len(st.Lhs) != 2 || len(st.Rhs) != 1 {
			return
		}
		ta, ok := st.Rhs[0].(*ast.TypeAssertExpr)
		if !ok || ta.Type == nil {
			return
		}
		v, _ := st.Lhs[0].(*ast.Ident)
		okID, _ := st.Lhs[1].(*ast.Ident)
		if v == nil || okID == nil || v.Name == "_" {
			return
		}
		okName := okID.Name
		if okName == "_" {
			n++
			okName = fmt.Sprintf("%s_ok%d", RuntimeAlias, n)
			edits = append(edits, edit{off: off(okID.Pos()), end: off(okID.End()), text: okName})
		}
		typ := src[off(ta.Type.Pos()):off(ta.Type.End())]
		edits = append(edits, edit{off: off(st.End()), text: fmt.Sprintf("; if !%s { %s = *new(%s) }", okName, v.Name, typ)})
	}
	ast.Inspect(file, func(node ast.Node) bool {
		var list []ast.Stmt
		switch st := node.(type) {
		case *ast.BlockStmt:
			list = st.List
		case *ast.CaseClause:
			list = st.Body
		case *ast.CommClause:
			list = st.Body
		}
		for _, s := range list {
			if as, ok := s.(*ast.AssignStmt); ok {
				fix(as)
			}
		}
		return true
	})
	return edits
}
