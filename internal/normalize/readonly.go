package normalize

import (
	"go/ast"
	"go/token"
)

// checkReadOnly refuses assignments to the variables of standard
// packages (time.Local = ..., time.Local++, &time.Local), as
// Config.ReadOnly names them: scripts see read-only copies, and a clear
// compile error at the assignment beats the interpreter's run-time
// panic.
//
// Pinned by scripts/testdata/adversarial/write_package_var_time.gos,
// write_package_var_errors.gos and write_package_var_pointer.gos.
func (p *Program) checkReadOnly(fset *token.FileSet, file ast.Node) error {
	if p.cfg.ReadOnly == nil {
		return nil
	}
	var err error
	check := func(e ast.Expr) {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok || err != nil {
			return
		}
		if id, ok := sel.X.(*ast.Ident); ok && p.cfg.ReadOnly(id.Name, sel.Sel.Name) {
			err = p.errorAt(Invalid, fset.Position(sel.Pos()), "cannot assign to %s.%s: package variables are read-only in scripts", id.Name, sel.Sel.Name)
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			for _, l := range s.Lhs {
				check(l)
			}
		case *ast.IncDecStmt:
			check(s.X)
		case *ast.UnaryExpr:
			if s.Op == token.AND {
				check(s.X)
			}
		}
		return err == nil
	})
	return err
}
