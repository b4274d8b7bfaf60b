package normalize

import (
	"go/ast"
	"go/token"
)

// checkNesting bounds the nesting of the script's syntax tree by
// Config.MaxNesting before the interpreter compiles it: the
// interpreter's compiler takes time quadratic in the nesting, and
// recursion as deep. The Error, of kind TooDeep, is at the first
// construct that crosses the bound.
//
// Pinned by scripts/testdata/adversarial/compile_nested_parens.gos,
// compile_nested_composites.gos and compile_nested_func_literals.gos.
func (p *Program) checkNesting(fset *token.FileSet, file *ast.File) error {
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
		if depth++; depth > p.cfg.MaxNesting {
			deep = n
			return false
		}
		return true
	})
	if deep == nil {
		return nil
	}
	return p.errorAt(TooDeep, fset.Position(deep.Pos()), "the script is nested too deeply: more than %d levels of expressions, blocks or literals", p.cfg.MaxNesting)
}
