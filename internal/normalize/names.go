package normalize

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"strings"
)

// Names are the names of an input of Session (Program.Names), for the
// session to keep across inputs.
type Names struct {
	Declared  []string    // declared at the input's top level
	Mentioned []string    // every identifier, declared or used
	Consts    []ConstDecl // the top-level const declarations
}

// ConstDecl is a const declaration: its names and its text as Go
// source (without comments, so without line directives).
type ConstDecl struct {
	Names []string
	Text  string
}

// Names returns the names an input of Session declares at its top level
// (its declarations and the variables of its top-level statements),
// every identifier it mentions, and its top-level const declarations.
// An input that does not parse mentions nothing (its compilation fails
// anyway). What the session decides with them is pinned by engine's
// TestSession_TypeCheck and TestMinMax_NamedConstants, and, run as a
// session's one input by TestSession_Corpus, by
// scripts/testdata/mistake_named_type_as_string.gos (refused there as in
// one script: no earlier input's name shadows anything).
func (p *Program) Names() Names {
	var declared, mentioned []string
	var consts []ConstDecl
	fset := token.NewFileSet()
	addConsts := func(g *ast.GenDecl) {
		if g.Tok != token.CONST {
			return
		}
		var b strings.Builder
		if format.Node(&b, fset, g) == nil {
			consts = append(consts, ConstDecl{Names: specNames(g), Text: b.String()})
		}
	}
	var nodes []ast.Node
	if f, err := parser.ParseFile(fset, "", p.Src, parser.SkipObjectResolution); err == nil {
		for _, d := range f.Decls {
			if fset.PositionFor(d.Pos(), true).Line > len(p.Lines) {
				continue // the generated trailer's (result, min, max)
			}
			nodes = append(nodes, d)
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					declared = append(declared, d.Name.Name)
				}
			case *ast.GenDecl:
				declared = append(declared, specNames(d)...)
				addConsts(d)
			}
		}
	}
	if f, err := parser.ParseFile(fset, "", "package p\nfunc _() {\n"+p.Body+"\n}", parser.SkipObjectResolution); err == nil {
		nodes = append(nodes, f)
		for _, st := range f.Decls[0].(*ast.FuncDecl).Body.List {
			switch st := st.(type) {
			case *ast.AssignStmt:
				if st.Tok == token.DEFINE {
					for _, l := range st.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							declared = append(declared, id.Name)
						}
					}
				}
			case *ast.DeclStmt:
				declared = append(declared, specNames(st.Decl.(*ast.GenDecl))...)
				addConsts(st.Decl.(*ast.GenDecl))
			}
		}
	}
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				mentioned = append(mentioned, id.Name)
			}
			return true
		})
	}
	return Names{Declared: declared, Mentioned: mentioned, Consts: consts}
}

// specNames returns the names a declaration declares.
func specNames(d *ast.GenDecl) []string {
	var out []string
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.ValueSpec:
			for _, n := range s.Names {
				out = append(out, n.Name)
			}
		case *ast.TypeSpec:
			out = append(out, s.Name.Name)
		}
	}
	return out
}
