package normalize

import (
	"go/ast"
	"go/constant"
	"go/token"
	"slices"
	"strings"
)

// MinMaxPos is the position of a call of min or max in the model's
// script: the line and column of its function name.
type MinMaxPos struct{ Line, Column int }

// foldMinMax returns the edits that replace calls of min or max whose
// value is a constant by a constant expression of the same value and
// type, as Go's builtins give: the generic functions builtinFuncs
// declares are not constants, so max(1, 3)/2.0 divided integers. It
// folds each call whose arguments are all numeric literals by itself: the
// value keeps the largest kind among the arguments ((1+0*2.5) for min(1,
// 2.5)). It folds a call Config.ConstMinMax names with the argument that
// has its value plus zero times each other argument ((3+0*c) for max(c,
// 3)), which has the type Go gives the call. Other calls whose arguments
// may all be constants set Program.MinMaxConst. A replacement shorter
// than the call is padded with spaces, a longer one is followed by a line
// directive, so no position after it moves. A file
// that uses the name otherwise than in a call (its own min) is left as it
// is. Pinned by scripts/testdata/builtins_min_max_const.gos.
func (p *Program) foldMinMax(src string, fset *token.FileSet, file *ast.File) []edit {
	var calls []*ast.CallExpr
	own := false
	consts := map[string]bool{}
	for c := range p.cfg.Consts {
		consts[c] = true
	}
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
		case *ast.GenDecl:
			if x.Tok == token.CONST {
				for _, spec := range x.Specs {
					for _, name := range spec.(*ast.ValueSpec).Names {
						consts[name.Name] = true
					}
				}
			}
		}
		return true
	}
	ast.Inspect(file, visit)
	if own {
		return nil
	}
	// The calls are in the tree's order, an outer call before those in
	// its arguments: fold from the last, so that an outer call's text is
	// made of its arguments' folded ones (edits keep lengths).
	var edits []edit
	for i := len(calls) - 1; i >= 0; i-- {
		c := calls[i]
		if e, ok := foldCall(src, fset, c); ok {
			edits = append(edits, e)
			continue
		}
		if len(c.Args) == 0 || c.Ellipsis.IsValid() || !allMayBeConst(c.Args, consts) {
			continue
		}
		pos := fset.PositionFor(c.Fun.Pos(), true)
		if arg, ok := p.cfg.ConstMinMax[MinMaxPos{pos.Line, pos.Column}]; ok && arg >= 0 && arg < len(c.Args) {
			edits = append(edits, foldConstCall(src, fset, c, arg, edits))
			continue
		}
		p.MinMaxConst = true
	}
	// An outer call's edit comes first at its offset (applyEdits keeps
	// the first of overlapping edits, and the outer one holds the inner).
	slices.Reverse(edits)
	return edits
}

// allMayBeConst reports whether every expression of args may be a
// constant, by its syntax alone: literals, names of constants the file
// declares (consts) and iota, selectors of a package's name, operators,
// parentheses, and calls of a name (conversions, len) with such
// arguments.
// A variable (max(n, 1)) makes it false, so that the common call needs no
// type checker.
func allMayBeConst(args []ast.Expr, consts map[string]bool) bool {
	for _, a := range args {
		if !mayBeConst(a, consts) {
			return false
		}
	}
	return true
}

func mayBeConst(e ast.Expr, consts map[string]bool) bool {
	switch x := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return consts[x.Name] || x.Name == "iota"
	case *ast.SelectorExpr:
		_, ok := x.X.(*ast.Ident)
		return ok
	case *ast.ParenExpr:
		return mayBeConst(x.X, consts)
	case *ast.UnaryExpr:
		return mayBeConst(x.X, consts)
	case *ast.BinaryExpr:
		return mayBeConst(x.X, consts) && mayBeConst(x.Y, consts)
	case *ast.CallExpr:
		switch x.Fun.(type) {
		case *ast.Ident, *ast.SelectorExpr:
			return len(x.Args) > 0 && !x.Ellipsis.IsValid() && allMayBeConst(x.Args, consts)
		}
	}
	return false
}

// foldConstCall is foldMinMax's edit of the call c of a constant value,
// that of its argument arg: (arg+0*a+0*b) over the other arguments, a
// constant expression whose type is the one Go gives the call (the
// untyped kind of the largest argument, or the type of a typed one).
//
// folded are the edits of the calls in c's arguments.
func foldConstCall(src string, fset *token.FileSet, c *ast.CallExpr, arg int, folded []edit) edit {
	text := func(e ast.Expr) string {
		start, end := fset.Position(e.Pos()).Offset, fset.Position(e.End()).Offset
		var in []edit
		for _, f := range folded {
			if f.off >= start && f.end <= end {
				in = append(in, edit{off: f.off - start, end: f.end - start, text: f.text})
			}
		}
		return applyEdits(src[start:end], in)
	}
	var b strings.Builder
	b.WriteString("(" + text(c.Args[arg]))
	for i, a := range c.Args {
		if i == arg {
			continue
		}
		if _, binary := a.(*ast.BinaryExpr); binary {
			b.WriteString("+0*(" + text(a) + ")")
		} else {
			b.WriteString("+0*" + text(a))
		}
	}
	b.WriteString(")")
	return padEdit(src, fset, c, b.String())
}

// padEdit is the edit replacing the call c in src by text, padded with
// spaces to the call's length; a longer text, or a call that spans
// lines, is followed by a line directive that restores the position of
// what follows the call.
func padEdit(src string, fset *token.FileSet, c *ast.CallExpr, text string) edit {
	start, end := fset.Position(c.Pos()).Offset, fset.Position(c.End()).Offset
	if len(text) > end-start || strings.Contains(src[start:end], "\n") {
		after := fset.PositionFor(c.End(), true)
		return edit{off: start, end: end, text: text + lineDirective(after.Line, after.Column)}
	}
	for len(text) < end-start {
		text += " "
	}
	return edit{off: start, end: end, text: text}
}

// foldCall is foldMinMax's edit of the call c, if its arguments are all
// numeric literals.
func foldCall(src string, fset *token.FileSet, c *ast.CallExpr) (edit, bool) {
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
	return padEdit(src, fset, c, text), true
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
