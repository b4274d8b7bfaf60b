package normalize

import (
	"go/ast"
	"go/token"
)

// Helpers of the syntax tree that several rewrites share.

// calledIdents returns the plain identifiers the file calls as functions.
func calledIdents(file ast.Node) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok {
				out[id.Name] = true
			}
		}
		return true
	})
	return out
}

// declares reports whether the file declares name at package level.
func declares(file *ast.File, name string) bool {
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == name {
				return true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name == name {
							return true
						}
					}
				case *ast.TypeSpec:
					if s.Name.Name == name {
						return true
					}
				}
			}
		}
	}
	return false
}

// isLiteral reports whether e is a basic literal, possibly signed.
func isLiteral(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.UnaryExpr:
		_, ok := e.X.(*ast.BasicLit)
		return ok && (e.Op == token.SUB || e.Op == token.ADD)
	case *ast.ParenExpr:
		return isLiteral(e.X)
	}
	return false
}

// wrapSoleArg wraps the argument of every call name(x) of file (one
// argument, no ellipsis) in open(position of the call) + x + ")".
func wrapSoleArg(fset *token.FileSet, file ast.Node, name string, open func(token.Position) string) []edit {
	var edits []edit
	ast.Inspect(file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
			return true
		}
		if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != name {
			return true
		}
		edits = append(edits,
			edit{off: fset.Position(call.Args[0].Pos()).Offset, text: open(fset.Position(call.Pos()))},
			edit{off: fset.Position(call.Args[0].End()).Offset, text: ")"})
		return true
	})
	return edits
}
