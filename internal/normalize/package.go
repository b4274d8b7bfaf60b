package normalize

import (
	"go/ast"
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"
)

// rewritePackageClause rewrites the package clause of a full program:
// whatever package it names, the program is package main (the
// interpreter runs main.main), followed by the generated imports
// (autoimports.go); the clause's own name is commented out, and a line
// directive gives the rest of its line back its own columns. Everything
// else of the model's program stays in place.
//
// Pinned by scripts/testdata/norm_package_clause.gos (comments before
// the clause, another package name, no imports) and the corpus's other
// full programs, e.g. result_helper.gos and parallel_customer_lookup.gos.
func (p *Program) rewritePackageClause(fset *token.FileSet, file *ast.File, auto []string) []edit {
	nameEnd := fset.Position(file.Name.End())
	pkgStart := fset.Position(file.Package)
	header := lineDirective(pkgStart.Line, pkgStart.Column) + "package main;" + p.importDecl(auto) + lineDirective(nameEnd.Line, nameEnd.Column)
	return []edit{{off: pkgStart.Offset, text: header + "/*"}, {off: nameEnd.Offset, text: "*/"}}
}

// hasMain reports whether file declares func main.
func hasMain(file *ast.File) bool {
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
			return true
		}
	}
	return false
}

// startsWithPackage reports whether the first token of code is "package":
// it skips white space and comments, as the scanner would. A script that
// does not is bare statements (bare.go).
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
