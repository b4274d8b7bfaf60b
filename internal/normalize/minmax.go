package normalize

import (
	"go/ast"
	"go/constant"
	"go/token"
)

// foldMinMax returns the edits that replace each call of min or max
// whose arguments are all numeric literals (max(1, 3), min(2, 0.5, -1))
// by its value, an untyped constant as Go's builtins give: the generic
// functions builtinFuncs declares are not constants, so max(1, 3)/2.0
// divided integers. The value keeps the largest kind among the
// arguments ((1+0*2.5) for min(1, 2.5)), and the replacement is never
// longer than the call, padded with spaces, so no position moves. A file
// that uses the name otherwise than in a call (its own min) is left as
// it is. Pinned by scripts/testdata/builtins_min_max_const.gos.
func foldMinMax(fset *token.FileSet, file *ast.File) []edit {
	var calls []*ast.CallExpr
	own := false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && (id.Name == "min" || id.Name == "max") {
				calls = append(calls, x)
				for _, a := range x.Args {
					ast.Inspect(a, visit)
				}
				return false // not the function's identifier
			}
		case *ast.Ident:
			if x.Name == "min" || x.Name == "max" {
				own = true
			}
		}
		return true
	}
	ast.Inspect(file, visit)
	if own {
		return nil
	}
	var edits []edit
	for _, c := range calls {
		if e, ok := foldCall(fset, c); ok {
			edits = append(edits, e)
		}
	}
	return edits
}

// foldCall is foldMinMax's edit of the call c, if its arguments are all
// numeric literals.
func foldCall(fset *token.FileSet, c *ast.CallExpr) (edit, bool) {
	if len(c.Args) == 0 || c.Ellipsis.IsValid() {
		return edit{}, false
	}
	isMax := c.Fun.(*ast.Ident).Name == "max"
	var best, widest constant.Value
	var bestText, widestText string
	rank := func(v constant.Value) int {
		switch v.Kind() {
		case constant.Int:
			return 0
		case constant.Float:
			return 2
		}
		return 1
	}
	for _, a := range c.Args {
		v, text, ok := literalValue(a)
		if !ok {
			return edit{}, false
		}
		if widest == nil || rank(v) > rank(widest) {
			widest, widestText = v, text
		}
		if best == nil || isMax && constant.Compare(v, token.GTR, best) || !isMax && constant.Compare(v, token.LSS, best) {
			best, bestText = v, text
		}
	}
	text := "(" + bestText + ")"
	if rank(widest) > rank(best) {
		text = "(" + bestText + "+0*" + widestText + ")"
	}
	start, end := fset.Position(c.Pos()).Offset, fset.Position(c.End()).Offset
	if len(text) > end-start {
		return edit{}, false
	}
	for len(text) < end-start {
		text += " "
	}
	return edit{off: start, end: end, text: text}, true
}

// literalValue returns the value and the text of a, a numeric literal or
// a signed one.
func literalValue(a ast.Expr) (constant.Value, string, bool) {
	sign := ""
	if u, ok := a.(*ast.UnaryExpr); ok && (u.Op == token.SUB || u.Op == token.ADD) {
		sign, a = u.Op.String(), u.X
	}
	lit, ok := a.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT && lit.Kind != token.FLOAT && lit.Kind != token.CHAR {
		return nil, "", false
	}
	v := constant.MakeFromLiteral(lit.Value, lit.Kind, 0)
	if v.Kind() == constant.Unknown {
		return nil, "", false
	}
	if sign == "-" {
		v = constant.UnaryOp(token.SUB, v, 0)
	}
	return v, sign + lit.Value, true
}
