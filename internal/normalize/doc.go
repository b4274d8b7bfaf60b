// Package normalize turns the script a model wrote into the Go program
// the interpreter runs, and checks it on the way.
//
// A script is a full program (package main with func main) or bare
// statements, imports optional. Source makes it a package main program
// whose positions, through line directives, are the model's lines and
// columns, so that every error the interpreter reports points into the
// model's text. Every rewrite is a list of insertions and replacements in
// the source it parsed (edit.go), never a printed syntax tree: the
// model's text stays as it was wherever no rewrite touches it.
//
// One file per job, each naming in its doc the corpus scripts
// (scripts/testdata) that pin it:
//
//   - package.go: a full program's package clause becomes package main
//     with the generated imports.
//   - bare.go: bare statements become func main; their imports, types,
//     constants, functions and methods stay at package level.
//   - lastexpr.go: the value of a bare script's final expression is its
//     result.
//   - imports.go: the script's imports are checked against the allowlist.
//   - autoimports.go: the packages a script uses without importing them
//     are imported.
//   - results.go: result(v) records its position; the result function.
//   - builtins.go: min, max and clear, which the interpreter lacks.
//   - switches.go: switches on an interface value with literal cases.
//   - goroutines.go: go statements run under the host's goroutine guard.
//   - parseonce.go: with Config.Parse, Src is built before it is parsed
//     and parsed once, and the interpreter compiles that tree
//     (Program.File).
//   - native.go: Config.Native, plain Go for the Go toolchain (the
//     differential test).
//   - reserved.go, readonly.go, nesting.go: the checks that refuse
//     reserved names, assignments to read-only package variables and
//     too deep a nesting.
//
// The generated code calls a package of the host, RuntimePath, imported
// as RuntimeAlias; the caller provides it to the interpreter when
// Program.UsesRuntime. Everything the normaliser must know of its caller
// (the allowlist, the automatic imports, the read-only variables, the
// nesting bound) comes in through Config: the package imports nothing of
// the project.
package normalize
