package normalize

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// Session normalises one input of a session: bare statements and
// declarations, as a bare script (a package clause is refused). The
// interpreter compiles the input in two parts into an interpreter that
// keeps the session's state: Program.Src is the package-level part alone
// (the imports, the func, type and const declarations, the generated
// helpers; no func main), and Program.Body the statements, rewritten as
// for a bare script, which the interpreter runs at package level, so the
// variables they declare at their top level are package variables that
// later inputs see. A return at the top level (outside any function
// literal) ends the input as main's return ends a script, through the
// runtime package's Exit(0); a defer there, which only a function body
// can hold, is refused, and so is a declaration of main.
//
// Its rewrites are a bare script's, pinned by the corpus (e.g.
// scripts/testdata/imports_then_comment.gos); the split and the session's
// own rules are pinned by engine/session_test.go.
func Session(code string, cfg Config) (*Program, error) {
	if cfg.MaxNesting <= 0 {
		panic("normalize: Config.MaxNesting must be positive")
	}
	p := &Program{Lines: strings.Split(code, "\n"), cfg: cfg}
	if startsWithPackage(code) {
		return nil, &Error{Line: 1, Column: 1, Source: p.Line(1),
			Msg: "a session input is statements and declarations: drop the package clause and func main"}
	}
	skeleton, bodyStart, bodyEnd, err := wrapBareBody(code)
	if err != nil {
		return nil, p.syntaxError(err)
	}
	fset, file, err := p.parseSkeleton(skeleton)
	if err != nil {
		return nil, err
	}
	returns, err := p.checkSessionBody(fset, file, bodyStart)
	if err != nil {
		return nil, err
	}
	auto, err := p.check(code, fset, file)
	if err != nil {
		return nil, err
	}
	edits := append(wrapCompound(fset, file, bodyStart), returns...)
	edits = append(edits, rewriteLastExpr(fset, file)...)
	edits = append(edits, p.rewrites(skeleton, fset, file)...)
	// Each edit is of one part: the header (imports), the body (an
	// insertion at its very end, after a final expression, included), or
	// the declarations after it.
	var head, body, tail []edit
	for _, e := range edits {
		switch {
		case e.off < bodyStart:
			head = append(head, e)
		case e.off <= bodyEnd:
			body = append(body, shift(e, bodyStart))
		default:
			tail = append(tail, shift(e, bodyEnd))
		}
	}
	headSrc := strings.TrimSuffix(applyEdits(skeleton[:bodyStart], head), "func main() {")
	bodySrc := applyEdits(skeleton[bodyStart:bodyEnd], body)
	tailSrc := strings.TrimPrefix(applyEdits(skeleton[bodyEnd:], tail), "\n}")
	src := lineDirective(1, 1) + "package main;" + p.importDecl(auto) + strings.TrimPrefix(headSrc, "package main;") + tailSrc
	// The runtime package is imported by the declarations for both parts.
	src += p.trailer(file, skeleton)
	spec := ""
	if strings.Contains(src, RuntimeAlias+".") || strings.Contains(bodySrc, RuntimeAlias+".") {
		spec = RuntimeAlias + " " + strconv.Quote(RuntimePath) + "; "
		p.UsesRuntime = true
	}
	p.Src = strings.Replace(src, runtimePlaceholder, spec, 1)
	// The leading empty statement makes the interpreter read the body as
	// statements whatever its first token (var, a comment).
	p.Body = ";" + bodySrc + "\n"
	return p, nil
}

// shift moves an edit of a source to the same place in the part of it
// that starts at off.
func shift(e edit, off int) edit {
	e.off -= off
	if e.end > 0 {
		e.end -= off
	}
	return e
}

// checkSessionBody refuses what a session input's statements cannot
// hold at package level (defer outside any function literal, a return
// with values) and a declaration of main, and returns the edits that make
// each return outside any function literal end the input as main's
// return ends a script: RuntimeAlias.Exit(0) (the generated main's body
// starts at bodyStart).
func (p *Program) checkSessionBody(fset *token.FileSet, file *ast.File, bodyStart int) ([]edit, error) {
	var err error
	var edits []edit
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Name.Name != "main" || fd.Body == nil {
			continue
		}
		if fset.Position(fd.Body.Lbrace).Offset != bodyStart-1 {
			return nil, p.errorAt(Invalid, fset.Position(fd.Pos()), "a session input cannot declare func main: its statements are the program")
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if err != nil {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(n.Results) > 0 {
					err = p.errorAt(Invalid, fset.Position(n.Pos()), "too many return values: the statements of a session input return nothing")
					break
				}
				edits = append(edits, edit{off: fset.Position(n.Pos()).Offset, end: fset.Position(n.End()).Offset, text: RuntimeAlias + ".Exit(0)"})
			case *ast.DeferStmt:
				err = p.errorAt(Invalid, fset.Position(n.Pos()), "a session input cannot defer at its top level (no function returns); put the statements in a function")
			}
			return true
		})
	}
	return edits, err
}

// wrapCompound makes each compound statement at the top level of a
// session input (if, for, switch, select, a block, a labeled statement)
// the body of a function literal called in place: the interpreter runs
// the input's statements at package level, where it takes the variables
// declared in nested blocks for package variables; inside a function
// they are the block's own, as in Go. The statement keeps its position
// (a line directive follows the inserted text). The generated main's
// body starts at bodyStart.
func wrapCompound(fset *token.FileSet, file *ast.File, bodyStart int) []edit {
	var edits []edit
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Name.Name != "main" || fd.Body == nil || fset.Position(fd.Body.Lbrace).Offset != bodyStart-1 {
			continue
		}
		for _, st := range fd.Body.List {
			switch st.(type) {
			case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
				*ast.SelectStmt, *ast.BlockStmt, *ast.LabeledStmt:
			default:
				continue
			}
			pos := fset.Position(st.Pos())
			edits = append(edits,
				edit{off: pos.Offset, text: "func() {" + lineDirective(pos.Line, pos.Column)},
				edit{off: fset.Position(st.End()).Offset, text: "}();"})
		}
	}
	return edits
}
