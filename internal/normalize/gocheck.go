package normalize

import (
	"go/ast"
	"go/token"
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
//   - break or continue outside a loop, switch or select of its function
//     (mistake_break_outside_loop);
//   - an assignment to a part of an indexed value, m[k].X = 1 or
//     m[k][0] = 1 (mistake_map_struct_field_assign);
//   - an expression switch whose cases may repeat a constant: the same
//     case text twice, or two names of the file's constants
//     (mistake_switch_duplicate_case);
//   - a sized numeric type (int8 ... uint64, uintptr, float32,
//     complex64): a constant it cannot hold, converted to it or compared
//     with a value of it (uint32(int8(-1)), x == 300 for an int8 x:
//     mistake_constant_overflow);
//   - a function with two results or more, whose call the interpreter
//     took for its first value in an expression (f() + 1:
//     mistake_multi_value_in_expression);
//   - a function with results that may reach the end of its body without
//     a return (it returned zero values: mistake_missing_return);
//   - a comparison with a literal that is not an integer (n == 1.5 for
//     an int n, which Go refuses and the interpreter called false);
//   - an expression statement that is not a call or a receive before the
//     script's last statement (x == 2 alone: Go's "is not used");
//   - fallthrough, &m[k], and a call assigned to (f(1) = 2).
//
// A program without them (most short scripts: tool calls, loops, maps,
// formatting) runs without the pass, which costs about as much as the
// compilation. The list grows with each such construct found.
func needsCheck(file *ast.File) bool {
	consts := map[string]bool{}
	for _, d := range file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			addConstNames(g, consts)
		}
	}
	found := false
	// loops counts the enclosing loops, switches and selects of the
	// current function body.
	var walk func(n ast.Node, loops int) bool
	walk = func(n ast.Node, loops int) bool {
		ast.Inspect(n, func(n ast.Node) bool {
			if found || n == nil {
				return false
			}
			switch x := n.(type) {
			case *ast.TypeSpec:
				found = true
			case *ast.Ident:
				found = sizedNumeric[x.Name]
			case *ast.FuncDecl:
				if x.Recv != nil || x.Type.TypeParams != nil || resultsNeedCheck(x.Type, x.Body) {
					found = true
				} else if x.Body != nil {
					walk(x.Body, 0)
				}
				return false
			case *ast.FuncLit:
				if resultsNeedCheck(x.Type, x.Body) {
					found = true
				} else {
					walk(x.Body, 0)
				}
				return false
			case *ast.BinaryExpr:
				switch x.Op {
				case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
					found = isFloatLit(x.X) || isFloatLit(x.Y)
				}
			case *ast.BlockStmt:
				for _, st := range x.List[:max(len(x.List)-1, 0)] {
					if e, ok := st.(*ast.ExprStmt); ok && !isCallOrReceive(e.X) {
						found = true
					}
				}
			case *ast.UnaryExpr:
				if _, ok := ast.Unparen(x.X).(*ast.IndexExpr); ok && x.Op == token.AND {
					found = true
				}
			case *ast.ForStmt, *ast.RangeStmt, *ast.SelectStmt, *ast.TypeSwitchStmt:
				for _, c := range children(x) {
					walk(c, loops+1)
				}
				return false
			case *ast.SwitchStmt:
				if x.Tag != nil && mayRepeatCase(x, consts) {
					found = true
					return false
				}
				for _, c := range children(x) {
					walk(c, loops+1)
				}
				return false
			case *ast.BranchStmt:
				if x.Tok == token.GOTO || x.Tok == token.FALLTHROUGH || x.Label != nil || (x.Tok == token.BREAK || x.Tok == token.CONTINUE) && loops == 0 {
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
	return walk(file, 0)
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

// sizedNumeric are the numeric types narrower or other than the ones a
// constant defaults to (int, float64, complex128) and byte and rune.
var sizedNumeric = map[string]bool{
	"int8": true, "int16": true, "int32": true, "uint": true, "uint8": true,
	"uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "complex64": true,
}

// resultsNeedCheck reports whether a function of type t and body body
// has two results or more, or has results and a body that may end
// without a return.
func resultsNeedCheck(t *ast.FuncType, body *ast.BlockStmt) bool {
	if t.Results == nil || body == nil {
		return false
	}
	n := 0
	for _, f := range t.Results.List {
		n += max(len(f.Names), 1)
	}
	return n > 1 || !terminates(body)
}

// terminates reports whether s is a terminating statement as the Go
// specification defines it, leaning to false where telling would need
// more than the syntax (a for without a condition counts whatever its
// breaks).
func terminates(s ast.Stmt) bool {
	switch x := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return x.Tok == token.GOTO
	case *ast.ExprStmt:
		c, ok := x.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := c.Fun.(*ast.Ident)
		return ok && id.Name == "panic"
	case *ast.BlockStmt:
		return len(x.List) > 0 && terminates(x.List[len(x.List)-1])
	case *ast.IfStmt:
		return x.Else != nil && terminates(x.Body) && terminates(x.Else)
	case *ast.ForStmt:
		return x.Cond == nil
	case *ast.LabeledStmt:
		return terminates(x.Stmt)
	case *ast.SwitchStmt:
		return clausesTerminate(x.Body)
	case *ast.TypeSwitchStmt:
		return clausesTerminate(x.Body)
	case *ast.SelectStmt:
		for _, c := range x.Body.List {
			cc := c.(*ast.CommClause)
			if len(cc.Body) == 0 || !terminates(cc.Body[len(cc.Body)-1]) {
				return false
			}
		}
		return true
	}
	return false
}

// clausesTerminate reports whether a switch's body has a default and
// every clause ends in a terminating statement or a fallthrough.
func clausesTerminate(body *ast.BlockStmt) bool {
	def := false
	for _, c := range body.List {
		cc := c.(*ast.CaseClause)
		def = def || cc.List == nil
		if len(cc.Body) == 0 {
			return false
		}
		last := cc.Body[len(cc.Body)-1]
		if b, ok := last.(*ast.BranchStmt); ok && b.Tok == token.FALLTHROUGH {
			continue
		}
		if !terminates(last) {
			return false
		}
	}
	return def
}

// isFloatLit reports whether e is a floating-point or imaginary literal.
func isFloatLit(e ast.Expr) bool {
	b, ok := ast.Unparen(e).(*ast.BasicLit)
	return ok && (b.Kind == token.FLOAT || b.Kind == token.IMAG)
}

// isCallOrReceive reports whether e may stand as a statement.
func isCallOrReceive(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		return true
	case *ast.UnaryExpr:
		return x.Op == token.ARROW
	}
	return false
}
