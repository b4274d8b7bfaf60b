package normalize

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// parseOnce is Source when Config.Parse is set: it builds Program.Src
// before parsing anything and parses it once, with Config.Parse, so that
// the interpreter compiles the tree (Program.File) instead of parsing the
// text again. Src is byte for byte the text Source makes without Parse:
// the generated imports are predicted from the script's tokens
// (predictAutoImports) and checked against the tree's; the trailer's
// functions (result, min, max, clear), known only from the tree, are
// parsed on their own and appended to it (trailerFile), the runtime
// package's import they need predicted from the words of the script; a
// bare script's final expression gets rewriteLastExpr's call before the
// parse, predicted from its tokens (predictLastExpr) and checked on the
// tree (wrappedLastExpr). A script another rewrite changes after the
// parse (a switch, a go statement, a call of result) gets its rewritten
// text and no File: the interpreter parses that, as without Parse.
//
// ok is false when the fast way does not apply (a scanner or parse
// error, a prediction wrong twice): Source then goes its usual way,
// which gives the errors as they always were. The checks' errors
// (nesting, imports, read-only variables, reserved names, func main)
// are the same either way, at the same positions: they run on a tree of
// the same text with the same line directives.
//
// Pinned by the engine's TestParseOnce_SameSource, which normalises
// every corpus script both ways and compares, e.g.
// scripts/testdata/methods_interface_cases.gos (a full program whose
// tool package is imported automatically), norm_package_clause.gos
// (comments before the clause), imports_then_comment.gos (the script's
// own imports) and final_expression_value.gos (a rewrite after the
// parse), and by the engine's tests, which compile through it.
func (p *Program) parseOnce(code string) (np *Program, ok bool, err error) {
	var (
		skeleton string     // a bare script's func main around its statements
		clause   *pkgClause // a full program's package clause
		last     []edit     // rewriteLastExpr's edits of the skeleton, predicted
	)
	var auto []string
	full := startsWithPackage(code)
	if full {
		// The package clause and the imports: a parse that stops there.
		fset := token.NewFileSet()
		head, err := parser.ParseFile(fset, File, code, parser.ImportsOnly|parser.SkipObjectResolution)
		if err != nil {
			return nil, false, nil
		}
		clause = &pkgClause{pkgStart: fset.Position(head.Package), nameEnd: fset.Position(head.Name.End())}
		auto = p.predictFromText(code[fset.Position(head.End()).Offset:], importNames(head.Imports))
	} else {
		f, toks, err := scanTokens(code)
		if err != nil {
			return nil, false, nil
		}
		segs := splitTokens(code, f, toks)
		var bodyStart int
		skeleton, bodyStart, _ = wrapSegments(code, segs)
		auto = p.predictAutoImports(toks)
		last = predictLastExpr(code, f, toks, segs, bodyStart)
	}
	rewritten := code // the text the rewrites' checks of words read
	if !full {
		rewritten = skeleton
	}
	// The trailer's functions call the runtime package: when the script
	// may need them, its import is in the text parsed, and they are
	// parsed on their own (trailerFile).
	rtSpec := ""
	if helpersLikely(rewritten) || last != nil {
		rtSpec = runtimeSpec
	}
	// fail gives a check's error; with the final expression's call in
	// the text (last), the checks' positions and nesting are not the
	// model's text alone: Source goes its usual way.
	fail := func(err error) (*Program, bool, error) {
		if last != nil {
			return nil, false, nil
		}
		return nil, true, err
	}
	for range 2 {
		p.Imports = nil
		var src string
		var phOff int // where the runtime package's import goes
		shift := 0    // from an offset in the skeleton to one in src
		if full {
			src, phOff = p.fullSource(code, clause, rtSpec, auto)
		} else {
			src, phOff, shift = p.bareSource(applyEdits(skeleton, slices.Clone(last)), rtSpec, auto)
		}
		fset, file, perr := p.cfg.Parse(src)
		if perr != nil {
			return nil, false, nil
		}
		if last != nil && !wrappedLastExpr(fset, file, last, shift) {
			return nil, false, nil // predicted wrong
		}
		if err := p.checkNesting(fset, file); err != nil {
			return fail(err)
		}
		if full && !hasMain(file) {
			return fail(p.noMain())
		}
		// The generated import declaration comes first; the checks see
		// the script's own imports only.
		ngen := len(auto)
		if p.cfg.Globals {
			ngen++
		}
		if rtSpec != "" {
			ngen++
		}
		if err := p.checkReserved(code); err != nil {
			return fail(err)
		}
		imported, err := p.checkImports(fset, file.Imports[ngen:])
		if err != nil {
			return fail(err)
		}
		got := p.autoImports(file, imported)
		if !slices.Equal(got, auto) {
			auto = got // predicted wrong: once more with the tree's
			continue
		}
		p.Imports = append(p.Imports, auto...)
		if err := p.checkReadOnly(fset, file); err != nil {
			return fail(err)
		}
		var edits []edit
		if !full {
			edits = rewriteLastExpr(fset, file)
		}
		edits = append(edits, p.rewrites(src, fset, file)...)
		helpers := p.helpers(file, rewritten)
		usesRT := helpers != "" || strings.Contains(src, RuntimeAlias+".")
		if len(edits) == 0 && usesRT == (rtSpec != "") {
			if helpers != "" && !p.trailerFile(file, helpers) {
				return nil, false, nil
			}
			p.Src, p.File, p.UsesRuntime = src+helpers, file, usesRT
			return p, true, nil
		}
		// A rewrite after the parse, or the runtime's import predicted
		// wrong: the text, for the interpreter to parse.
		src = applyEdits(src, edits) + helpers
		p.Src = p.finishImports(src[:phOff] + runtimePlaceholder + src[phOff+len(rtSpec):])
		return p, true, nil
	}
	return nil, false, nil
}

// bareSource is Src of a bare script without the rewrites after the
// parse: the generated header, the skeleton, the trailer's line
// directive; phOff is where the runtime package's import goes.
func (p *Program) bareSource(skeleton, rtSpec string, auto []string) (src string, phOff, shift int) {
	head := lineDirective(1, 1) + "package main;" + "import ("
	decl := rtSpec + strings.Replace(p.importDecl(auto), "import ("+runtimePlaceholder, "", 1)
	src = head + decl + strings.TrimPrefix(skeleton, "package main;") + "\n" + lineDirective(len(p.Lines)+1, 1)
	return src, len(head), len(head) + len(decl) - len("package main;")
}

// predictLastExpr is rewriteLastExpr from the tokens of a bare script
// (segs, in the skeleton from bodyStart): its edits of the skeleton when
// the last statement looks like an expression other than a call (no
// assignment, send, label or keyword at its top level, and not ending
// in a parenthesis unless an operator at the top level makes it no
// call), nil otherwise. wrappedLastExpr checks it on the
// tree.
func predictLastExpr(code string, f *token.File, toks []scanTok, segs []segment, bodyStart int) []edit {
	off, textOff, k := bodyStart, -1, -1
	for i, s := range segs {
		if s.kind != segStmt {
			continue
		}
		off += len(lineDirective(s.line, s.col))
		textOff, k = off, i
		off += s.end - s.start
	}
	if k < 0 {
		return nil
	}
	seg := segs[k]
	// The tokens of the segment's last statement, without semicolons.
	var stmt []scanTok
	depth, cut := 0, false
	for _, t := range toks {
		if o := f.Offset(t.pos); o < seg.start || o >= seg.end {
			continue
		}
		if t.tok == token.SEMICOLON {
			cut = cut || depth == 0
			continue
		}
		if cut {
			stmt, cut = stmt[:0], false
		}
		switch t.tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		}
		stmt = append(stmt, t)
	}
	if len(stmt) == 0 {
		return nil
	}
	if first := stmt[0].tok; first.IsKeyword() && first != token.FUNC && first != token.MAP && first != token.STRUCT && first != token.CHAN && first != token.INTERFACE {
		return nil
	}
	depth = 0
	operator := false // an operator at the top level: the statement is no call
	for i, t := range stmt {
		switch {
		case t.tok == token.LPAREN || t.tok == token.LBRACK || t.tok == token.LBRACE:
			depth++
		case t.tok == token.RPAREN || t.tok == token.RBRACK || t.tok == token.RBRACE:
			depth--
		case depth == 0 && (t.tok == token.ASSIGN || t.tok == token.DEFINE || t.tok == token.INC || t.tok == token.DEC ||
			t.tok == token.COLON || t.tok == token.ARROW && i > 0 || t.tok >= token.ADD_ASSIGN && t.tok <= token.AND_NOT_ASSIGN):
			return nil
		case depth == 0 && (t.tok >= token.ADD && t.tok <= token.ARROW || t.tok >= token.EQL && t.tok <= token.GEQ):
			operator = true
		}
	}
	if stmt[len(stmt)-1].tok == token.RPAREN && !operator {
		return nil // a call, most likely
	}
	end := stmt[len(stmt)-1]
	n := len(end.tok.String())
	if end.tok.IsLiteral() {
		n = len(end.lit)
	}
	pos := f.Position(stmt[0].pos)
	start := textOff + f.Offset(stmt[0].pos) - seg.start
	return []edit{
		{off: start, text: lastExprPrefix(pos.Line, pos.Column)},
		{off: textOff + f.Offset(end.pos) + n - seg.start, text: lastExprSuffix},
	}
}

// wrappedLastExpr reports whether the last statement of file's func main
// is the call predictLastExpr wrote around an expression that is no
// call, where it wrote it (shift: from the skeleton's offsets to the
// parsed text's) and at the position it names.
func wrappedLastExpr(fset *token.FileSet, file *ast.File, last []edit, shift int) bool {
	es, ok := lastMainStmt(file).(*ast.ExprStmt)
	if !ok {
		return false
	}
	isRT := func(e ast.Expr, name string, args int) *ast.CallExpr {
		c, ok := e.(*ast.CallExpr)
		if !ok || len(c.Args) != args {
			return nil
		}
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != name {
			return nil
		}
		if id, ok := sel.X.(*ast.Ident); !ok || id.Name != RuntimeAlias {
			return nil
		}
		return c
	}
	outer := isRT(es.X, "SetResult", 1)
	if outer == nil {
		return false
	}
	inner := isRT(outer.Args[0], "ResultAt", 4)
	if inner == nil {
		return false
	}
	x := inner.Args[3]
	if _, isCall := x.(*ast.CallExpr); isCall {
		return false
	}
	at := fset.Position(outer.Pos())
	want := lastExprPrefix(at.Line, at.Column)
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	n := len(last[0].text)
	return want == last[0].text && off(outer.Pos()) == last[0].off+shift && off(x.Pos()) == last[0].off+shift+n &&
		off(x.End()) == last[1].off+shift+n && off(outer.End()) == last[1].off+shift+n+len(last[1].text)
}

// lastMainStmt is the last statement of file's func main, nil if none.
func lastMainStmt(file *ast.File) ast.Stmt {
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "main" && fd.Recv == nil && fd.Body != nil && len(fd.Body.List) > 0 {
			return fd.Body.List[len(fd.Body.List)-1]
		}
	}
	return nil
}

// pkgClause is where a full program's package clause is: the positions
// rewritePackageClause takes from the tree.
type pkgClause struct {
	pkgStart, nameEnd token.Position
}

// fullSource is Src of a full program without the rewrites after the
// parse: rewritePackageClause's edits and the trailer's line directive;
// phOff is where the runtime package's import goes.
func (p *Program) fullSource(code string, c *pkgClause, rtSpec string, auto []string) (src string, phOff int) {
	head := lineDirective(c.pkgStart.Line, c.pkgStart.Column) + "package main;" + "import ("
	decl := rtSpec + strings.Replace(p.importDecl(auto), "import ("+runtimePlaceholder, "", 1)
	header := head + decl + lineDirective(c.nameEnd.Line, c.nameEnd.Column)
	src = applyEdits(code, []edit{{off: c.pkgStart.Offset, text: header + "/*"}, {off: c.nameEnd.Offset, text: "*/"}})
	return src + "\n" + lineDirective(len(p.Lines)+1, 1), c.pkgStart.Offset + len(head)
}

// helpers is the trailer's declarations after its line directive (see
// trailer): src is the text the trailer's check of words reads.
func (p *Program) helpers(file *ast.File, src string) string {
	if !helpersLikely(src) {
		return ""
	}
	calls := calledIdents(file)
	return resultFunc(file, calls) + builtinFuncs(file, calls)
}

// helpersLikely is trailer's check of words: whether src may call a
// function the trailer declares.
func helpersLikely(src string) bool {
	return mentions(src, "result") || mentions(src, "min") || mentions(src, "max") || mentions(src, "clear")
}

// trailerFile parses the trailer's functions, the end of Src after its
// last line directive, on their own, and appends their declarations to
// file: the positions are those of the same text at the end of Src (the
// same line directive before them), and the text before them is not
// parsed again. False if Config.Parse refuses them.
func (p *Program) trailerFile(file *ast.File, helpers string) bool {
	_, hf, err := p.cfg.Parse("package main;" + lineDirective(len(p.Lines)+1, 1) + helpers)
	if err != nil {
		return false
	}
	file.Decls = append(file.Decls, hf.Decls...)
	return true
}

// predictAutoImports is autoImports from the tokens: the names before a
// "." that start a selector (not after another "."), less the names the
// script's imports bind. parseOnce checks it against the tree's.
func (p *Program) predictAutoImports(toks []scanTok) []string {
	if p.cfg.AutoImport == nil {
		return nil
	}
	imported := importedNames(toks)
	var paths []string
	seen := map[string]bool{}
	for i := 0; i+2 < len(toks); i++ {
		t := toks[i]
		if t.tok != token.IDENT || toks[i+1].tok != token.PERIOD || toks[i+2].tok != token.IDENT || i > 0 && toks[i-1].tok == token.PERIOD {
			continue
		}
		if imported[t.lit] || seen[t.lit] {
			continue
		}
		seen[t.lit] = true
		if path, ok := p.cfg.AutoImport(t.lit); ok {
			paths = append(paths, path)
		}
	}
	sort.Strings(paths)
	return paths
}

// importedNames is checkImports' names from the tokens of the import
// declarations.
func importedNames(toks []scanTok) map[string]bool {
	names := map[string]bool{}
	spec := func(i int) int { // the spec at i; returns the index after it
		name := ""
		switch toks[i].tok {
		case token.IDENT:
			name = toks[i].lit
			i++
		case token.PERIOD:
			name = "."
			i++
		}
		if i < len(toks) && toks[i].tok == token.STRING {
			if path, err := strconv.Unquote(toks[i].lit); err == nil {
				if name == "" {
					name = path[strings.LastIndex(path, "/")+1:]
				}
				names[name] = true
			}
			i++
		}
		return i
	}
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].tok != token.IMPORT {
			continue
		}
		if toks[i+1].tok != token.LPAREN {
			spec(i + 1)
			continue
		}
		for j := i + 2; j < len(toks) && toks[j].tok != token.RPAREN; {
			if toks[j].tok == token.SEMICOLON {
				j++
				continue
			}
			next := spec(j)
			if next == j {
				break
			}
			j = next
		}
	}
	return names
}

// importNames is checkImports' names of specs.
func importNames(specs []*ast.ImportSpec) map[string]bool {
	names := map[string]bool{}
	for _, s := range specs {
		path, err := strconv.Unquote(s.Path.Value)
		if err != nil {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if s.Name != nil {
			name = s.Name.Name
		}
		names[name] = true
	}
	return names
}

// predictFromText is predictAutoImports from the text of a full
// program after its imports, without scanning it into tokens: an
// identifier right before a "." and another identifier, not right after
// a ".", outside comments, strings and runes. A selector written with
// space around its "." is missed, and parseOnce parses again.
func (p *Program) predictFromText(code string, imported map[string]bool) []string {
	if p.cfg.AutoImport == nil {
		return nil
	}
	var paths []string
	seen := map[string]bool{}
	identStart := func(c byte) bool { return c == '_' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
	for i := 0; i < len(code); {
		c := code[i]
		switch {
		case c == '/' && i+1 < len(code) && code[i+1] == '/':
			if j := strings.IndexByte(code[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(code)
			}
		case c == '/' && i+1 < len(code) && code[i+1] == '*':
			if j := strings.Index(code[i+2:], "*/"); j >= 0 {
				i += 2 + j + 2
			} else {
				i = len(code)
			}
		case c == '"' || c == '\'':
			i++
			for i < len(code) && code[i] != c && code[i] != '\n' {
				if code[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case c == '`':
			if j := strings.IndexByte(code[i+1:], '`'); j >= 0 {
				i += 1 + j + 1
			} else {
				i = len(code)
			}
		case isIdentByte(c):
			j := i
			for j < len(code) && isIdentByte(code[j]) {
				j++
			}
			name := code[i:j]
			if identStart(c) && j+1 < len(code) && code[j] == '.' && identStart(code[j+1]) && (i == 0 || code[i-1] != '.') &&
				!imported[name] && !seen[name] {
				seen[name] = true
				if path, ok := p.cfg.AutoImport(name); ok {
					paths = append(paths, path)
				}
			}
			i = j
		default:
			i++
		}
	}
	sort.Strings(paths)
	return paths
}
