package normalize

import (
	"go/ast"
	"go/token"
	"slices"
)

// needsCheck reports whether file holds a construct with which the
// interpreter is known to accept a program that Go refuses, so that only
// a type checker can tell (Program.NeedsCheck). Each is pinned by a
// scripts/testdata/mistake_*.gos script:
//   - a declared type: a value of a named type given where another
//     named type or its underlying type is wanted (mistake_named_type_as_string),
//     a struct value as another struct type of the same fields;
//   - a method or a generic function: a pointer method called on a value
//     that is not addressable (mistake_pointer_method_on_map_value), a
//     value whose method set lacks an interface's method assigned to it;
//   - goto, and a labelled break or continue (mistake_goto_over_declaration);
//   - break or continue outside what it may leave in its function
//     (mistake_break_outside_loop);
//   - an assignment to a part of an indexed value, m[k].X = 1 or
//     m[k][0] = 1 (mistake_map_struct_field_assign);
//   - an expression switch whose cases may repeat a constant: the same
//     case text twice, or two names of the file's constants
//     (mistake_switch_duplicate_case);
//   - a numeric type other than int (int8 ... uint64, float64,
//     time.Duration): an expression of another type assigned to it or
//     returned as one (var f float64 = a / b of ints, computed as 3.5),
//     a constant it cannot hold (uint32(int8(-1)), x == 300 for an int8
//     x: mistake_constant_overflow);
//   - a function with results: a call of one with two where one value is
//     wanted (f() + 1: mistake_multi_value_in_expression), a body that
//     may end without a return (mistake_missing_return), a result of
//     another type returned (return sum / n as a float64), a bare return
//     under a shadowed named result;
//   - a comparison with a literal that is not an integer (n == 1.5 for
//     an int n: mistake_int_compared_with_fraction);
//   - an expression statement that is not a call or a receive, or a call
//     of a builtin with a value (append(s, 2) alone), but a bare
//     script's last statement (its value);
//   - a shift of a fraction literal (1.0 << s), a call with a spread
//     argument but append's (f(ss...) of a []string for ...any), a
//     negative literal given to make or in a slice expression;
//   - a channel type with a direction (a send on a receive-only
//     channel where it never runs);
//   - fallthrough, &m[k], and a call assigned to (f(1) = 2).
//
// A program without them (most short scripts: tool calls, loops, maps,
// formatting) runs without the pass, which costs about as much as the
// compilation. The list grows with each such construct found.
func needsCheck(file *ast.File) bool {
	consts := map[string]bool{}
	var mainBody *ast.BlockStmt
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.CONST {
				addConstNames(d, consts)
			}
		case *ast.FuncDecl:
			if d.Name.Name == "main" && d.Recv == nil {
				mainBody = d.Body
			}
		}
	}
	found := false
	// breakable counts the enclosing loops, switches and selects of the
	// current function body, loops its loops.
	var walk func(n ast.Node, breakable, loops int) bool
	walk = func(n ast.Node, breakable, loops int) bool {
		ast.Inspect(n, func(n ast.Node) bool {
			if found || n == nil {
				return false
			}
			switch x := n.(type) {
			case *ast.TypeSpec:
				found = true
			case *ast.Ident:
				found = typedNumeric[x.Name]
			case *ast.FuncDecl:
				if x.Recv != nil || x.Type.TypeParams != nil || x.Type.Results != nil {
					found = true
				} else if x.Body != nil {
					walk(x.Body, 0, 0)
				}
				return false
			case *ast.FuncLit:
				if x.Type.Results != nil {
					found = true
				} else {
					walk(x.Body, 0, 0)
				}
				return false
			case *ast.BinaryExpr:
				switch x.Op {
				case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
					found = isFloatLit(x.X) || isFloatLit(x.Y)
				case token.SHL, token.SHR:
					found = isFloatLit(x.X) // 1.0 << s ended the script silently
				}
			case *ast.CallExpr:
				id, _ := ast.Unparen(x.Fun).(*ast.Ident)
				// f(ss...) of a []string for ...any ran; make([]int, -1)
				// was a run-time panic.
				found = x.Ellipsis.IsValid() && (id == nil || id.Name != "append") ||
					id != nil && id.Name == "make" && slices.ContainsFunc(x.Args, isNegativeLit)
			case *ast.SliceExpr:
				found = isNegativeLit(x.Low) || isNegativeLit(x.High) || isNegativeLit(x.Max)
			case *ast.BlockStmt:
				list := x.List
				if x == mainBody && len(list) > 0 {
					list = list[:len(list)-1] // a bare script's value
				}
				for _, st := range list {
					if e, ok := st.(*ast.ExprStmt); ok && !mayStand(e.X) {
						found = true
					}
				}
			case *ast.ChanType:
				found = x.Dir != ast.SEND|ast.RECV // a send on a receive-only channel
			case *ast.UnaryExpr:
				if _, ok := ast.Unparen(x.X).(*ast.IndexExpr); ok && x.Op == token.AND {
					found = true
				}
			case *ast.ForStmt, *ast.RangeStmt:
				for _, c := range children(x) {
					walk(c, breakable+1, loops+1)
				}
				return false
			case *ast.SelectStmt, *ast.TypeSwitchStmt:
				for _, c := range children(x) {
					walk(c, breakable+1, loops)
				}
				return false
			case *ast.SwitchStmt:
				if x.Tag != nil && mayRepeatCase(x, consts) {
					found = true
					return false
				}
				for _, c := range children(x) {
					walk(c, breakable+1, loops)
				}
				return false
			case *ast.BranchStmt:
				if x.Tok == token.GOTO || x.Tok == token.FALLTHROUGH || x.Label != nil ||
					x.Tok == token.BREAK && breakable == 0 || x.Tok == token.CONTINUE && loops == 0 {
					found = true
				}
			case *ast.DeclStmt:
				if g, ok := x.Decl.(*ast.GenDecl); ok && g.Tok == token.CONST {
					addConstNames(g, consts)
				}
			case *ast.AssignStmt:
				if x.Tok != token.DEFINE {
					for _, l := range x.Lhs {
						_, call := ast.Unparen(l).(*ast.CallExpr)
						found = found || call || partOfIndexed(l)
					}
				}
			case *ast.IncDecStmt:
				found = found || partOfIndexed(x.X)
			}
			return !found
		})
		return found
	}
	return walk(file, 0, 0)
}

// children returns the direct children of a statement, for needsCheck's
// walk to descend into with one more enclosing loop.
func children(n ast.Node) []ast.Node {
	var out []ast.Node
	first := true
	ast.Inspect(n, func(c ast.Node) bool {
		if first {
			first = false
			return true
		}
		if c != nil {
			out = append(out, c)
		}
		return false
	})
	return out
}

func addConstNames(g *ast.GenDecl, consts map[string]bool) {
	for _, s := range g.Specs {
		for _, name := range s.(*ast.ValueSpec).Names {
			consts[name.Name] = true
		}
	}
}

// partOfIndexed reports whether the assigned expression e is a field or
// an element of an indexed value (m[k].X, m[k][0], m[k].a.b), which Go
// refuses for a map's element and the interpreter assigned to a copy.
func partOfIndexed(e ast.Expr) bool {
	var operand ast.Expr
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		operand = x.X
	case *ast.IndexExpr:
		operand = x.X
	default:
		return false
	}
	for {
		switch x := ast.Unparen(operand).(type) {
		case *ast.IndexExpr:
			return true
		case *ast.SelectorExpr:
			operand = x.X
		default:
			return false
		}
	}
}

// mayRepeatCase reports whether the cases of an expression switch may
// hold one constant twice: a case expression's text twice (of a literal
// or a name), or two names of constants the file declares.
func mayRepeatCase(s *ast.SwitchStmt, consts map[string]bool) bool {
	seen := map[string]bool{}
	named := 0
	for _, st := range s.Body.List {
		for _, e := range st.(*ast.CaseClause).List {
			var key string
			switch x := ast.Unparen(e).(type) {
			case *ast.BasicLit:
				key = x.Value
			case *ast.Ident:
				key = x.Name
				if consts[x.Name] {
					named++
				}
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok {
					key = id.Name + "." + x.Sel.Name
				}
			}
			if key == "" {
				continue
			}
			if seen[key] || named > 1 {
				return true
			}
			seen[key] = true
		}
	}
	return false
}

// typedNumeric are the numeric types but int, byte and rune (and
// time.Duration's name): where a value of one meets an expression of
// another numeric type or a constant it cannot hold, Go refuses what the
// interpreter computed in the destination's type (a float64 f = a/b of
// ints gave 3.5).
var typedNumeric = map[string]bool{
	"int8": true, "int16": true, "int32": true, "int64": true, "uint": true,
	"uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"uintptr": true, "float32": true, "float64": true, "complex64": true,
	"complex128": true, "Duration": true,
}

// isFloatLit reports whether e is a floating-point or imaginary literal.
func isFloatLit(e ast.Expr) bool {
	b, ok := ast.Unparen(e).(*ast.BasicLit)
	return ok && (b.Kind == token.FLOAT || b.Kind == token.IMAG)
}

// mayStand reports whether e may stand as a statement: a receive, or a
// call of anything but a builtin with a value (append(s, 2) alone is Go's
// "is not used").
func mayStand(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		id, ok := ast.Unparen(x.Fun).(*ast.Ident)
		return !ok || !valueBuiltins[id.Name]
	case *ast.UnaryExpr:
		return x.Op == token.ARROW
	}
	return false
}

// isNegativeLit reports whether e is a negated numeric literal.
func isNegativeLit(e ast.Expr) bool {
	u, ok := e.(*ast.UnaryExpr)
	if !ok || u.Op != token.SUB {
		return false
	}
	_, lit := ast.Unparen(u.X).(*ast.BasicLit)
	return lit
}
