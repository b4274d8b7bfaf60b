package normalize

import (
	"go/ast"
	"strings"
)

// builtinFuncs returns the declarations of the builtins min, max and
// clear, which the interpreter lacks, for those the file calls and does
// not declare itself at package level; calls holds the identifiers the
// file calls.
//
// min and max are generic functions whose constraint is any: the
// interpreter checks the operator < on each instance, so a named ordered
// type of a package (time.Duration) is accepted, which a union of ~int |
// ... | ~string did not satisfy in the interpreter, and what Go refuses
// (an argument that cannot be ordered) fails to compile there too (the
// type-checking pass then gives Go's message, checking the program with
// Go's own min and max). They follow Go's rules for floats: a NaN
// argument makes the result NaN, and min prefers -0 to 0 where max
// prefers 0 (the runtime package's NegZero tells a negative zero).
//
// clear calls the runtime package's Clear, which empties a map or zeroes
// a slice's elements as Go's does. A script that declares its own min (a
// local func or variable) keeps it: a local name shadows the
// package-level declaration, as it would shadow the builtin.
//
// Pinned by scripts/testdata/modern_go_builtins.gos,
// scripts/testdata/wrong_min_max_floats.gos and
// scripts/testdata/builtins_min_max_named.gos.
func builtinFuncs(file *ast.File, calls map[string]bool) string {
	var b strings.Builder
	if calls["min"] && !declares(file, "min") {
		b.WriteString("func min[T any](x T, ys ...T) T { for _, y := range ys { if x != x { return x }; if y != y || y < x || y == x && " + RuntimeAlias + ".NegZero(y) { x = y } }; return x }\n")
	}
	if calls["max"] && !declares(file, "max") {
		b.WriteString("func max[T any](x T, ys ...T) T { for _, y := range ys { if x != x { return x }; if y != y || y > x || y == x && " + RuntimeAlias + ".NegZero(x) { x = y } }; return x }\n")
	}
	if calls["clear"] && !declares(file, "clear") {
		b.WriteString("func clear(v any) { " + RuntimeAlias + ".Clear(v) }\n")
	}
	return b.String()
}
