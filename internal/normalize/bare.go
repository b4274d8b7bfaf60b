package normalize

import (
	"go/scanner"
	"go/token"
	"strings"
)

// wrapBare turns bare statements into a package main file: the
// statements become the body of func main, in order; leading imports,
// and the func, method, type and const declarations at brace depth zero,
// stay at package level (a method needs it, and Go allows no type with
// methods inside a function), the imports first. Each piece keeps the
// model's position through a line directive. The skeleton it returns
// starts with "package main;" and still lacks the generated imports.
//
// Pinned by most of the corpus, which is bare statements, e.g.
// scripts/testdata/imports_then_comment.gos (a leading import with a
// comment after it), and scripts/testdata/adversarial/
// recursion_mutual.gos (functions), recursion_method.gos and
// recursion_native_stringer.gos (types and their methods).
func wrapBare(code string) (string, error) {
	skeleton, _, _, err := wrapBareBody(code)
	return skeleton, err
}

// wrapBareBody is wrapBare that also returns where the body of func main
// is in the skeleton: the bytes [start, end).
func wrapBareBody(code string) (skeleton string, start, end int, err error) {
	segs, err := splitTopLevel(code)
	if err != nil {
		return "", 0, 0, err
	}
	skeleton, start, end = wrapSegments(code, segs)
	return skeleton, start, end, nil
}

// wrapSegments is wrapBareBody of code cut into segs.
func wrapSegments(code string, segs []segment) (skeleton string, start, end int) {
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
	head := "package main;" + imports.String() + "func main() {"
	return head + body.String() + "\n}" + decls.String(), len(head), len(head) + body.Len()
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
	f, toks, err := scanTokens(code)
	if err != nil {
		return nil, err
	}
	return splitTokens(code, f, toks), nil
}

// scanTokens returns the tokens of code, as a file of a new file set.
func scanTokens(code string) (*token.File, []scanTok, error) {
	fset := token.NewFileSet()
	f := fset.AddFile(File, -1, len(code))
	var errs scanner.ErrorList
	var s scanner.Scanner
	s.Init(f, []byte(code), func(pos token.Position, msg string) { errs.Add(pos, msg) }, 0)
	toks := make([]scanTok, 0, len(code)/4)
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		toks = append(toks, scanTok{pos, t, lit})
	}
	if errs.Len() > 0 {
		return nil, nil, errs
	}
	return f, toks, nil
}

// splitTokens is splitTopLevel of code's tokens, scanned in f.
func splitTokens(code string, f *token.File, toks []scanTok) []segment {
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
	// closeBlock returns the index after the token that closes the
	// bracket opened at or after i.
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
	return segs
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
