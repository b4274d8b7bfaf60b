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
//     (mistake_switch_duplicate_case).
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
			case *ast.FuncDecl:
				if x.Recv != nil || x.Type.TypeParams != nil {
					found = true
				} else if x.Body != nil {
					walk(x.Body, 0)
				}
				return false
			case *ast.FuncLit:
				walk(x.Body, 0)
				return false
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
				if x.Tok == token.GOTO || x.Label != nil || (x.Tok == token.BREAK || x.Tok == token.CONTINUE) && loops == 0 {
					found = true
				}
			case *ast.DeclStmt:
				if g, ok := x.Decl.(*ast.GenDecl); ok && g.Tok == token.CONST {
					addConstNames(g, consts)
				}
			case *ast.AssignStmt:
				if x.Tok != token.DEFINE {
					for _, l := range x.Lhs {
						found = found || partOfIndexed(l)
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
