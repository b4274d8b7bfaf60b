package normalize

import (
	"fmt"
	"go/ast"
	"go/token"
)

// rewritePanics records the position of explicit panic calls, so a panic
// the script does not recover is reported at the line that raised it:
// panic(x) becomes panic(__ts.At(line, col, x)), which returns x
// unchanged.
//
// No corpus script pins it: the interpreter's own record of where a
// panic started (PanicSite) gives the same position for each.
func rewritePanics(fset *token.FileSet, file ast.Node) []edit {
	return wrapSoleArg(fset, file, "panic", func(at token.Position) string {
		return fmt.Sprintf("%s.At(%d, %d, ", RuntimeAlias, at.Line, at.Column)
	})
}
