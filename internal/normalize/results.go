package normalize

import (
	"fmt"
	"go/ast"
	"go/token"
)

// rewriteResults records the position of the calls of the generated
// result function, so that a value it cannot keep is reported at the
// call: result(x) becomes result(__ts.ResultAt(line, col, false, x)),
// which returns x unchanged. A script that declares a result of its own
// in any scope (result := func...) keeps its calls as they are: the
// rewrite would change the argument its function sees.
//
// resultFunc declares the generated result function itself.
//
// Pinned by scripts/testdata/result_helper.gos (the generated function),
// norm_local_result_func.gos (a result of the script's own), and
// scripts/testdata/adversarial/result_value_cyclic.gos,
// result_value_deep.gos and result_value_huge.gos (the position of the
// value the result cannot keep).
func rewriteResults(fset *token.FileSet, file *ast.File) []edit {
	if declaresAnywhere(file, "result") {
		return nil
	}
	return wrapSoleArg(fset, file, "result", func(at token.Position) string {
		return fmt.Sprintf("%s.ResultAt(%d, %d, false, ", RuntimeAlias, at.Line, at.Column)
	})
}

// resultFunc returns the declaration of the generated result(v any),
// which sets the script's value, when the file calls result and declares
// none at package level; calls holds the identifiers the file calls.
func resultFunc(file *ast.File, calls map[string]bool) string {
	if calls["result"] && !declares(file, "result") {
		return "func result(v any) { " + RuntimeAlias + ".SetResult(v) }\n"
	}
	return ""
}

// declaresAnywhere reports whether file declares name in any scope: a
// package-level declaration, a variable or constant, a := or range
// variable, a parameter or result, a type, or a label.
func declaresAnywhere(file *ast.File, name string) bool {
	found := false
	named := func(ids ...*ast.Ident) {
		for _, id := range ids {
			if id != nil && id.Name == name {
				found = true
			}
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch d := n.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				named(d.Name)
			}
		case *ast.ValueSpec:
			named(d.Names...)
		case *ast.TypeSpec:
			named(d.Name)
		case *ast.Field:
			named(d.Names...)
		case *ast.AssignStmt:
			if d.Tok == token.DEFINE {
				for _, l := range d.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						named(id)
					}
				}
			}
		case *ast.RangeStmt:
			if d.Tok == token.DEFINE {
				k, _ := d.Key.(*ast.Ident)
				v, _ := d.Value.(*ast.Ident)
				named(k, v)
			}
		}
		return !found
	})
	return found
}
