package normalize

import (
	"go/ast"
	"go/token"
)

// Native mode (Config.Native) makes of a script the plain Go program the
// Go toolchain builds, for comparing the interpreter with Go itself (the
// differential test, internal/difftest): the same wrapping of bare
// statements, the same package clause and automatic imports, the same
// checks, but none of the rewrites for the interpreter (switches, comma-ok
// assertions, go statements, result positions, the builtins it lacks) and
// no call of RuntimePath. The two toolscript conveniences that are not Go
// become Go that compiles and prints nothing:
//
//   - result(v), when the script calls it and declares none, is
//     func result(v any) {};
//   - a bare script's final expression x (not a call) becomes _ = x.

// nativeLastExpr is rewriteLastExpr of native mode: the final expression
// statement x of a bare script's func main, unless it is a call, becomes
// _ = x, which Go accepts; a line directive after "_ = " gives x back its
// own columns (the type-checking pass reports its errors: without it they
// were four columns to the right).
//
// Pinned by the differential test over the corpus (scripts/
// difftest_test.go), e.g. scripts/testdata/final_expression_value.gos
// (a final expression) and scripts/testdata/result_helper.gos (result).
func nativeLastExpr(fset *token.FileSet, file *ast.File) []edit {
	es := finalExpr(file)
	if es == nil {
		return nil
	}
	pos := fset.Position(es.Pos())
	return []edit{{off: pos.Offset, text: "_ = " + lineDirective(pos.Line, pos.Column)}}
}

// nativeTrailer is the trailer of native mode: result(v) that does
// nothing, when the file calls result and declares none at package
// level.
func nativeTrailer(file *ast.File, src string) string {
	if !mentions(src, "result") {
		return ""
	}
	if calledIdents(file)["result"] && !declares(file, "result") {
		return "func result(v any) {}\n"
	}
	return ""
}
