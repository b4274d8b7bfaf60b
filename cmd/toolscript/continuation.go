package main

import (
	"go/scanner"
	"go/token"
	"strings"
)

// needsMore reports whether the REPL input src (the lines read so far)
// is incomplete, so that the REPL reads another line before running it.
// It decides with go/scanner, on Go's tokens, never by counting
// characters:
//
//   - a parenthesis, bracket or brace is open;
//   - a raw string (`...`) or a general comment (/* ... */) is not
//     closed;
//   - the last token is a binary operator, an assignment, a comma, a
//     period or an arrow, after which Go inserts no semicolon: the
//     statement goes on on the next line.
//
// An interpreted string or rune literal cannot hold a newline in Go, so
// one left open at the end of a line is complete: the compiler reports
// it. So is any other scanning error, and a closing bracket too many
// anywhere.
func needsMore(src string) bool {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	failed := false
	s.Init(file, []byte(src), func(token.Position, string) { failed = true }, scanner.ScanComments)
	depth := 0
	last := token.ILLEGAL // the last token before EOF but comments, auto-semicolons included
	for {
		_, tok, lit := s.Scan()
		switch tok {
		case token.EOF:
			if failed {
				return false
			}
			return depth > 0 || continues(last)
		case token.STRING:
			if unclosed(lit, "`", "`") {
				return true // a raw string goes on until its backquote
			}
		case token.COMMENT:
			if unclosed(lit, "/*", "*/") {
				return true
			}
			continue
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
			if depth < 0 {
				return false // a closer too many: more lines cannot mend it
			}
		}
		last = tok
	}
}

// unclosed reports whether the literal lit, which opens with open, lacks
// its closing delimiter: the scanner reached the end of the input in it.
func unclosed(lit, open, close string) bool {
	return strings.HasPrefix(lit, open) && (len(lit) < len(open)+len(close) || !strings.HasSuffix(lit, close))
}

// continues reports whether a line ending in tok goes on on the next one.
func continues(tok token.Token) bool {
	switch {
	case tok.IsOperator():
		switch tok {
		case token.INC, token.DEC, // x++ ends a statement
			token.RPAREN, token.RBRACK, token.RBRACE, token.SEMICOLON,
			token.COLON,    // a label or a case: at the top level a label alone is complete
			token.ELLIPSIS: // f(xs...) closes with a parenthesis; a trailing ... is an error
			return false
		}
		return true
	}
	return false
}
