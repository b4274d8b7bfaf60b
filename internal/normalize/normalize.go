package engine

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// scriptFile is the file name positions in the normalised source refer to.
const scriptFile = "script.go"

// Names the normaliser gives to generated code. They are reserved: a script
// that declares them gets a compile error naming them.
const (
	rtImportPath = "toolscript/rt"
	rtAlias      = "__ts"
)

// program is a script after normalisation, ready for the interpreter.
type program struct {
	src     string   // the Go source to compile
	lines   []string // the model's original lines, for error excerpts
	imports []string // import paths the program uses, allowlisted or tools
	bare    bool     // the script was bare statements
	usesGo  bool     // the script has go statements
	globals bool     // dot-import the extra globals
	usesRT  bool     // the generated code calls the runtime package
}

// importable says whether an import path may be imported, and the import
// path a bare identifier selects when it is used without an import.
type importable interface {
	allowed(path string) bool
	autoImport(ident string) (path string, ok bool)
	isPackageVar(pkg, name string) bool
}

// normalize turns a script (a full program or bare statements, imports
// optional) into a package main program whose positions, through line
// directives, are those of the model's source.
func normalize(code string, imp importable, globals bool) (*program, error) {
	p := &program{lines: strings.Split(code, "\n"), globals: globals}
	if !startsWithPackage(code) {
		return normalizeBare(code, imp, p)
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, scriptFile, code, parser.SkipObjectResolution)
	if err != nil {
		return nil, p.syntaxError(err)
	}
	if err := p.checkNesting(fset, file); err != nil {
		return nil, err
	}
	return normalizeFile(code, fset, file, imp, p)
}

// startsWithPackage reports whether the first token of code is "package":
// it skips white space and comments, as the scanner would.
func startsWithPackage(code string) bool {
	s := strings.TrimPrefix(code, "\uFEFF") // the scanner skips a leading BOM
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		switch {
		case strings.HasPrefix(s, "//"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return false
			}
			s = s[i+1:]
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s[2:], "*/")
			if i < 0 {
				return false
			}
			s = s[2+i+2:]
		default:
			if !strings.HasPrefix(s, "package") {
				return false
			}
			r, _ := utf8.DecodeRuneInString(s[len("package"):])
			return r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r)
		}
	}
}

// edit replaces the bytes [off, end) of the original source with text;
// end 0 means a pure insertion at off.
type edit struct {
	off  int
	text string
	end  int
}

func applyEdits(code string, edits []edit) string {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].off < edits[j].off })
	var b strings.Builder
	b.Grow(len(code) + 512)
	last := 0
	for _, e := range edits {
		if e.off < last {
			continue // overlapping edit: keep the first
		}
		b.WriteString(code[last:e.off])
		b.WriteString(e.text)
		last = e.off
		if e.end > e.off {
			last = e.end
		}
	}
	b.WriteString(code[last:])
	return b.String()
}

// lineDirective restores the position (line, col) of the model's source
// for the text that follows it.
func lineDirective(line, col int) string {
	return "/*line " + scriptFile + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col) + "*/"
}

func normalizeFile(code string, fset *token.FileSet, file *ast.File, imp importable, p *program) (*program, error) {
	var mainFn *ast.FuncDecl
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
			mainFn = fd
		}
	}
	if mainFn == nil {
		return nil, &ScriptError{Line: 1, Column: 1, Msg: "a script with a package clause needs func main; or drop the package clause and write statements", Source: p.line(1)}
	}
	if err := p.checkReserved(code); err != nil {
		return nil, err
	}
	imports, err := p.collectImports(fset, file.Imports, imp)
	if err != nil {
		return nil, err
	}
	auto := autoImports(file, imports, imp)
	p.imports = append(p.imports, auto...)
	if err := p.checkPackageVarWrites(fset, file, imp); err != nil {
		return nil, err
	}
	var edits []edit
	// Package clause: force "main", then the generated imports, then give
	// the rest of the line back its own columns.
	nameEnd := fset.Position(file.Name.End())
	pkgStart := fset.Position(file.Package)
	header := lineDirective(pkgStart.Line, pkgStart.Column) + "package main;" + p.importDecl(auto) + lineDirective(nameEnd.Line, nameEnd.Column)
	edits = append(edits, edit{off: pkgStart.Offset, text: header + "/*"}, edit{off: nameEnd.Offset, text: "*/"})
	p.usesGo = mentions(code, "go") && hasGoStmt(file)
	edits = append(edits, p.rewrites(code, fset, file)...)
	src := applyEdits(code, edits)
	p.src = p.finishImports(src + p.trailer(file, code))
	return p, nil
}

// rewrites returns the edits of every rewrite of the parsed source src.
// A rewrite whose construct src cannot contain (no panic, no switch) does
// not walk the tree.
func (p *program) rewrites(src string, fset *token.FileSet, file *ast.File) []edit {
	var edits []edit
	if mentions(src, "panic") {
		edits = append(edits, p.rewritePanics(fset, file)...)
	}
	if mentions(src, "switch") {
		edits = append(edits, rewriteSwitches(fset, file)...)
	}
	if strings.Contains(src, ".(") {
		edits = append(edits, rewriteQuirks(src, fset, file)...)
	}
	if mentions(src, "result") {
		edits = append(edits, rewriteResults(fset, file)...)
	}
	return append(edits, rewriteGuards(src, fset, file)...)
}

// mentions reports whether word occurs in src as a whole word (not inside
// an identifier). It can be true of a comment or a string; it is never
// false of source that uses word as a keyword or identifier, so a walk of
// the tree for that construct can be skipped when it is false.
func mentions(src, word string) bool {
	for i := 0; i <= len(src)-len(word); {
		j := strings.Index(src[i:], word)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(word)
		if (j == 0 || !isIdentByte(src[j-1])) && (end == len(src) || !isIdentByte(src[end])) {
			return true
		}
		i = j + 1
	}
	return false
}

// isIdentByte reports whether c can be part of an identifier; every byte
// of a multi-byte character counts, to be safe.
func isIdentByte(c byte) bool {
	return c == '_' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// trailer is the generated code after the model's: the guarded main and
// the result helper.
func (p *program) trailer(file *ast.File, src string) string {
	var b strings.Builder
	b.WriteString("\n")
	b.WriteString(lineDirective(len(p.lines)+1, 1))
	if !mentions(src, "result") && !mentions(src, "min") && !mentions(src, "max") && !mentions(src, "clear") {
		return b.String()
	}
	calls := calledIdents(file)
	if calls["result"] && !declares(file, "result") {
		b.WriteString("func result(v any) { " + rtAlias + ".SetResult(v) }\n")
	}
	// Builtins yaegi lacks, defined only when the script calls them.
	if calls["min"] && !declares(file, "min") {
		b.WriteString("func min[T " + rtAlias + "_ordered](x T, ys ...T) T { for _, y := range ys { if y < x { x = y } }; return x }\n")
	}
	if calls["max"] && !declares(file, "max") {
		b.WriteString("func max[T " + rtAlias + "_ordered](x T, ys ...T) T { for _, y := range ys { if y > x { x = y } }; return x }\n")
	}
	if (calls["min"] || calls["max"]) && !declares(file, rtAlias+"_ordered") {
		b.WriteString("type " + rtAlias + "_ordered interface { ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string }\n")
	}
	if calls["clear"] && !declares(file, "clear") {
		b.WriteString("func clear(v any) { " + rtAlias + ".Clear(v) }\n")
	}
	return b.String()
}

// rtPlaceholder stands for the import of the runtime package until the
// whole program is known: it is imported only when generated code uses it.
const rtPlaceholder = "\x00rt\x00"

func (p *program) importDecl(paths []string) string {
	var b strings.Builder
	b.WriteString("import (" + rtPlaceholder)
	if p.globals {
		b.WriteString(". " + strconv.Quote(globalsPath) + "; ")
	}
	for _, path := range paths {
		b.WriteString(strconv.Quote(path))
		b.WriteString("; ")
	}
	b.WriteString(");")
	return b.String()
}

// finishImports puts the runtime package's import in place of its
// placeholder when the program uses it.
func (p *program) finishImports(src string) string {
	spec := ""
	if strings.Contains(src, rtAlias+".") {
		spec = rtAlias + " " + strconv.Quote(rtImportPath) + "; "
		p.usesRT = true
	}
	return strings.Replace(src, rtPlaceholder, spec, 1)
}

func (p *program) line(n int) string {
	if n < 1 || n > len(p.lines) {
		return ""
	}
	return strings.TrimRight(p.lines[n-1], "\r")
}

func (p *program) syntaxError(err error) error {
	if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
		e := list[0]
		return &ScriptError{Line: e.Pos.Line, Column: e.Pos.Column, Msg: "syntax error: " + e.Msg, Source: p.line(e.Pos.Line)}
	}
	return &ScriptError{Msg: err.Error()}
}

// collectImports checks the script's own imports against the allowlist.
func (p *program) collectImports(fset *token.FileSet, specs []*ast.ImportSpec, imp importable) (map[string]bool, error) {
	seen := map[string]bool{}
	for _, s := range specs {
		path, err := strconv.Unquote(s.Path.Value)
		if err != nil {
			continue
		}
		if path == rtImportPath || path == globalsPath {
			// The packages of the generated code: importing them would
			// let a script switch its guards off.
			pos := fset.Position(s.Path.Pos())
			return nil, &ScriptError{Line: pos.Line, Column: pos.Column, Source: p.line(pos.Line), Err: ErrImportNotAllowed,
				Msg: fmt.Sprintf("%v: %q is reserved by toolscript", ErrImportNotAllowed, path)}
		}
		if !imp.allowed(path) {
			pos := fset.Position(s.Path.Pos())
			return nil, &ScriptError{Line: pos.Line, Column: pos.Column, Source: p.line(pos.Line), Err: ErrImportNotAllowed,
				Msg: fmt.Sprintf("%v: %q is not available to scripts; they can import %s and their tool packages", ErrImportNotAllowed, path, strings.Join(allowedPackages(), ", "))}
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if s.Name != nil {
			name = s.Name.Name
		}
		seen[name] = true
		p.imports = append(p.imports, path)
	}
	return seen, nil
}

// autoImports returns the import paths of packages the file selects from
// (fmt.Println, math_ops.Multiply) without importing them.
func autoImports(file ast.Node, imported map[string]bool, imp importable) []string {
	var paths []string
	seen := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || imported[id.Name] || seen[id.Name] {
			return true
		}
		seen[id.Name] = true
		if path, ok := imp.autoImport(id.Name); ok {
			paths = append(paths, path)
		}
		return true
	})
	sort.Strings(paths)
	return paths
}

// calledIdents returns the plain identifiers the file calls as functions.
func calledIdents(file ast.Node) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok {
				out[id.Name] = true
			}
		}
		return true
	})
	return out
}

func hasGoStmt(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if _, ok := n.(*ast.GoStmt); ok {
			found = true
		}
		return !found
	})
	return found
}

// declares reports whether the file declares name at package level.
func declares(file *ast.File, name string) bool {
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == name {
				return true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name == name {
							return true
						}
					}
				case *ast.TypeSpec:
					if s.Name.Name == name {
						return true
					}
				}
			}
		}
	}
	return false
}

// checkReserved refuses scripts that use the generated names.
func (p *program) checkReserved(code string) error {
	if !strings.Contains(code, rtAlias) {
		return nil
	}
	fset := token.NewFileSet()
	f := fset.AddFile(scriptFile, -1, len(code))
	var s scanner.Scanner
	s.Init(f, []byte(code), nil, 0)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return nil
		}
		if tok == token.IDENT && (lit == rtAlias || strings.HasPrefix(lit, rtAlias+"_")) {
			at := f.Position(pos)
			return &ScriptError{Line: at.Line, Column: at.Column, Source: p.line(at.Line),
				Msg: fmt.Sprintf("%s is reserved by toolscript", lit)}
		}
	}
}

// checkPackageVarWrites refuses assignments to the variables of standard
// packages (time.Local = ...): scripts see read-only copies, and a clear
// compile error beats the interpreter's run-time panic.
func (p *program) checkPackageVarWrites(fset *token.FileSet, file ast.Node, imp importable) error {
	var err error
	check := func(e ast.Expr) {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok || err != nil {
			return
		}
		if id, ok := sel.X.(*ast.Ident); ok && imp.isPackageVar(id.Name, sel.Sel.Name) {
			pos := fset.Position(sel.Pos())
			err = &ScriptError{Line: pos.Line, Column: pos.Column, Source: p.line(pos.Line),
				Msg: fmt.Sprintf("cannot assign to %s.%s: package variables are read-only in scripts", id.Name, sel.Sel.Name)}
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			for _, l := range s.Lhs {
				check(l)
			}
		case *ast.IncDecStmt:
			check(s.X)
		case *ast.UnaryExpr:
			if s.Op == token.AND {
				check(s.X)
			}
		}
		return err == nil
	})
	return err
}

// rewriteResults records the position of the calls of the generated
// result function, so that a value it cannot keep is reported at the
// call: result(x) becomes result(__ts.ResultAt(line, col, false, x)),
// which returns x unchanged. A script that declares a result of its own
// in any scope (result := func...) keeps its calls as they are.
func rewriteResults(fset *token.FileSet, file *ast.File) []edit {
	if declaresAnywhere(file, "result") {
		return nil
	}
	return wrapSoleArg(fset, file, "result", func(at token.Position) string {
		return fmt.Sprintf("%s.ResultAt(%d, %d, false, ", rtAlias, at.Line, at.Column)
	})
}

// rewritePanics records the position of explicit panic calls, so a panic
// the script does not recover is reported at the line that raised it:
// panic(x) becomes panic(__ts.At(line, col, x)), which returns x unchanged.
func (p *program) rewritePanics(fset *token.FileSet, file ast.Node) []edit {
	return wrapSoleArg(fset, file, "panic", func(at token.Position) string {
		return fmt.Sprintf("%s.At(%d, %d, ", rtAlias, at.Line, at.Column)
	})
}

// wrapSoleArg wraps the argument of every call name(x) of file (one
// argument, no ellipsis) in open(position of the call) + x + ")".
func wrapSoleArg(fset *token.FileSet, file ast.Node, name string, open func(token.Position) string) []edit {
	var edits []edit
	ast.Inspect(file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
			return true
		}
		if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != name {
			return true
		}
		edits = append(edits,
			edit{off: fset.Position(call.Args[0].Pos()).Offset, text: open(fset.Position(call.Pos()))},
			edit{off: fset.Position(call.Args[0].End()).Offset, text: ")"})
		return true
	})
	return edits
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

// rewriteSwitches works around yaegi's failure to switch on an interface
// value with constant cases ("reflect.Value.Convert: value of type
// interface {} cannot be converted to type string"): a tagged switch whose
// cases are all literals,
//
//	switch v { case "a", "b": ... }
//
// becomes the equivalent tagless switch
//
//	switch __ts_sw1 := v; { case __ts_sw1 == "a" || __ts_sw1 == "b": ... }
//
// which evaluates v once, as before. Columns after the rewritten tokens
// on the same line shift; lines do not.
func rewriteSwitches(fset *token.FileSet, file ast.Node) []edit {
	var edits []edit
	n := 0
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	ast.Inspect(file, func(node ast.Node) bool {
		sw, ok := node.(*ast.SwitchStmt)
		if !ok || sw.Tag == nil || sw.Init != nil {
			return true
		}
		for _, c := range sw.Body.List {
			for _, e := range c.(*ast.CaseClause).List {
				if !isLiteral(e) {
					return true
				}
			}
		}
		n++
		v := fmt.Sprintf("%s_sw%d", rtAlias, n)
		edits = append(edits, edit{off: off(sw.Tag.Pos()), text: v + " := "}, edit{off: off(sw.Tag.End()), text: ";"})
		for _, c := range sw.Body.List {
			list := c.(*ast.CaseClause).List
			for i, e := range list {
				if i > 0 {
					// Replace the comma between the previous case and this one.
					edits = append(edits, edit{off: off(list[i-1].End()), end: off(e.Pos()), text: " || "})
				}
				edits = append(edits, edit{off: off(e.Pos()), text: v + " == "})
			}
		}
		return true
	})
	return edits
}

// rewriteQuirks works around a yaegi bug that model-written code hits,
// with insertions that keep every line where it was: v, ok := x.(T) inside
// a loop keeps the previous iteration's v when the assertion fails, so an
// "if !ok { v = *new(T) }" follows it (ok is named when it was blank).
func rewriteQuirks(src string, fset *token.FileSet, file ast.Node) []edit {
	var edits []edit
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	n := 0
	fix := func(st *ast.AssignStmt) {
		if st.Tok != token.DEFINE || len(st.Lhs) != 2 || len(st.Rhs) != 1 {
			return
		}
		ta, ok := st.Rhs[0].(*ast.TypeAssertExpr)
		if !ok || ta.Type == nil {
			return
		}
		v, _ := st.Lhs[0].(*ast.Ident)
		okID, _ := st.Lhs[1].(*ast.Ident)
		if v == nil || okID == nil || v.Name == "_" {
			return
		}
		okName := okID.Name
		if okName == "_" {
			n++
			okName = fmt.Sprintf("%s_ok%d", rtAlias, n)
			edits = append(edits, edit{off: off(okID.Pos()), end: off(okID.End()), text: okName})
		}
		typ := src[off(ta.Type.Pos()):off(ta.Type.End())]
		edits = append(edits, edit{off: off(st.End()), text: fmt.Sprintf("; if !%s { %s = *new(%s) }", okName, v.Name, typ)})
	}
	// Only statements of a statement list: an if or switch init cannot
	// take a second statement, and its scope ends with the statement.
	ast.Inspect(file, func(node ast.Node) bool {
		var list []ast.Stmt
		switch st := node.(type) {
		case *ast.BlockStmt:
			list = st.List
		case *ast.CaseClause:
			list = st.Body
		case *ast.CommClause:
			list = st.Body
		}
		for _, s := range list {
			if as, ok := s.(*ast.AssignStmt); ok {
				fix(as)
			}
		}
		return true
	})
	return edits
}

// isLiteral reports whether e is a basic literal, possibly signed.
func isLiteral(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.UnaryExpr:
		_, ok := e.X.(*ast.BasicLit)
		return ok && (e.Op == token.SUB || e.Op == token.ADD)
	case *ast.ParenExpr:
		return isLiteral(e.X)
	}
	return false
}

// normalizeBare wraps bare statements in a main function. Leading imports,
// and top-level func and type declarations, stay at package level.
func normalizeBare(code string, imp importable, p *program) (*program, error) {
	p.bare = true
	segs, err := splitTopLevel(code)
	if err != nil {
		return nil, p.syntaxError(err)
	}
	var decls, body, imports strings.Builder
	for _, s := range segs {
		text := code[s.start:s.end]
		dir := lineDirective(s.line, s.col)
		switch s.kind {
		case segImport:
			imports.WriteString(dir + strings.TrimRight(text, " \t\r\n;") + ";")
		case segDecl:
			decls.WriteString("\n" + dir + text + "\n")
		default:
			body.WriteString(dir + text)
		}
	}
	bodyText := body.String()
	// Parse the assembled file once to check imports, find auto-imports and
	// the final expression.
	skeleton := "package main;" + imports.String() + "func main() {" + bodyText + "\n}" + decls.String()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, scriptFile, skeleton, parser.SkipObjectResolution)
	if err != nil {
		return nil, p.syntaxError(err)
	}
	if err := p.checkNesting(fset, file); err != nil {
		return nil, err
	}
	if err := p.checkReserved(code); err != nil {
		return nil, err
	}
	imported, err := p.collectImports(fset, file.Imports, imp)
	if err != nil {
		return nil, err
	}
	auto := autoImports(file, imported, imp)
	p.imports = append(p.imports, auto...)
	if err := p.checkPackageVarWrites(fset, file, imp); err != nil {
		return nil, err
	}
	p.usesGo = mentions(skeleton, "go") && hasGoStmt(file)
	var edits []edit
	// The value of a final expression statement becomes the result.
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != "main" || fd.Recv != nil || len(fd.Body.List) == 0 {
			continue
		}
		if es, ok := fd.Body.List[len(fd.Body.List)-1].(*ast.ExprStmt); ok {
			if _, isCall := es.X.(*ast.CallExpr); !isCall {
				start := fset.File(es.Pos()).Offset(es.Pos())
				end := fset.File(es.End()).Offset(es.End())
				pos := fset.Position(es.Pos())
				edits = append(edits,
					edit{off: start, text: fmt.Sprintf("%s.SetResult(%s.ResultAt(%d, %d, true, ", rtAlias, rtAlias, pos.Line, pos.Column)},
					edit{off: end, text: "))"})
			}
		}
	}
	edits = append(edits, p.rewrites(skeleton, fset, file)...)
	src := applyEdits(skeleton, edits)
	// Put the generated imports after the package clause.
	// The generated header carries the script's file name too: yaegi
	// scopes imports by the file name of the position that uses them.
	src = lineDirective(1, 1) + "package main;" + p.importDecl(auto) + strings.TrimPrefix(src, "package main;")
	p.src = p.finishImports(src + p.trailer(file, skeleton))
	return p, nil
}

type segKind int

const (
	segStmt segKind = iota
	segImport
	segDecl
)

type scanTok struct {
	pos token.Pos
	tok token.Token
	lit string
}

type segment struct {
	kind       segKind
	start, end int // byte offsets in the code
	line, col  int // position of start
}

// splitTopLevel cuts bare code into import declarations, func and type
// declarations at brace depth zero, and statements.
func splitTopLevel(code string) ([]segment, error) {
	fset := token.NewFileSet()
	f := fset.AddFile(scriptFile, -1, len(code))
	var errs scanner.ErrorList
	var s scanner.Scanner
	s.Init(f, []byte(code), func(pos token.Position, msg string) { errs.Add(pos, msg) }, 0)
	var toks []scanTok
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		toks = append(toks, scanTok{pos, t, lit})
	}
	if errs.Len() > 0 {
		return nil, errs
	}
	var segs []segment
	add := func(kind segKind, from, to int) {
		start := f.Offset(toks[from].pos)
		var end int
		if to < len(toks) {
			end = f.Offset(toks[to].pos)
		} else {
			end = len(code)
		}
		pos := f.Position(toks[from].pos)
		if n := len(segs); n > 0 && segs[n-1].kind == kind && kind == segStmt {
			segs[n-1].end = end
			return
		}
		segs = append(segs, segment{kind: kind, start: start, end: end, line: pos.Line, col: pos.Column})
	}
	// skipTo returns the index after the token that closes the bracket
	// opened at or after i (the first of "{" or "(" found).
	closeBlock := func(i int, open, close token.Token) int {
		depth := 0
		for ; i < len(toks); i++ {
			switch toks[i].tok {
			case open:
				depth++
			case close:
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(toks)
	}
	// endOfStatement returns the index of the first top-level semicolon at
	// or after i.
	endOfStatement := func(i int) int {
		depth := 0
		for ; i < len(toks); i++ {
			switch toks[i].tok {
			case token.LPAREN, token.LBRACE, token.LBRACK:
				depth++
			case token.RPAREN, token.RBRACE, token.RBRACK:
				depth--
			case token.SEMICOLON:
				if depth <= 0 {
					return i + 1
				}
			}
		}
		return len(toks)
	}
	leading := true
	for i := 0; i < len(toks); {
		t := toks[i]
		switch {
		case t.tok == token.SEMICOLON:
			i++
			continue
		case t.tok == token.IMPORT && leading:
			end := endOfStatement(i)
			add(segImport, i, end)
			// Stop the import at its semicolon, before any comment
			// that follows it.
			if last := &segs[len(segs)-1]; toks[end-1].tok == token.SEMICOLON && end-2 >= i {
				t := toks[end-2]
				n := len(t.lit)
				if n == 0 {
					n = len(t.tok.String())
				}
				last.end = f.Offset(t.pos) + n
			}
			i = end
			continue
		case t.tok == token.FUNC && i+1 < len(toks) && (toks[i+1].tok == token.IDENT || toks[i+1].tok == token.LPAREN && isMethod(toks, i+1)):
			// A declaration: the signature, then the body block.
			j := i + 1
			if toks[j].tok == token.LPAREN {
				j = closeBlock(j, token.LPAREN, token.RPAREN)
			}
			for j < len(toks) && toks[j].tok != token.LBRACE {
				if toks[j].tok == token.LPAREN {
					j = closeBlock(j, token.LPAREN, token.RPAREN)
					continue
				}
				if toks[j].tok == token.LBRACK {
					j = closeBlock(j, token.LBRACK, token.RBRACK)
					continue
				}
				j++
			}
			end := closeBlock(j, token.LBRACE, token.RBRACE)
			add(segDecl, i, end)
			i = end
		case t.tok == token.TYPE || t.tok == token.CONST:
			// Types and constants move to package level with the
			// functions, which may use them.
			end := endOfStatement(i)
			add(segDecl, i, end)
			i = end
		default:
			end := endOfStatement(i)
			add(segStmt, i, end)
			i = end
		}
		leading = false
	}
	return segs, nil
}

// isMethod reports whether the parenthesis at i opens a method receiver
// (func (r T) Name(...)) rather than a function literal's parameters.
func isMethod(toks []scanTok, i int) bool {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch toks[j].tok {
		case token.LPAREN:
			depth++
		case token.RPAREN:
			depth--
			if depth == 0 {
				return j+1 < len(toks) && toks[j+1].tok == token.IDENT
			}
		}
	}
	return false
}
