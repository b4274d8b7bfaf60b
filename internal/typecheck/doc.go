// Package typecheck is the type-checking pass over a script: go/types
// over the program internal/normalize makes in native mode, so that a
// script the interpreter refuses gets the Go compiler's errors at the
// model's line and column ("cannot use x (variable of type string) as
// int value in struct literal", "undefined: foo", "too many arguments in
// call to shop.GetOrder\n\thave (...)\n\twant (...)"), with a "did you
// mean" for an unknown name near one that exists (Nearest): identifiers,
// packages, package members (tools and standard functions), fields,
// methods and struct literal fields (a typed tool's arguments).
//
// Its importer declares to go/types what a script can import:
//
//   - the allowlisted standard packages, from the interpreter's symbol
//     tables (internal/policy.Declared): each reflect.Type becomes a
//     types.Type (named types with their methods and fields, interfaces,
//     functions, variables, constants with the tables' values), one per
//     process (reflect.go);
//   - the source packages (slices, maps, cmp, ...: internal/policy's
//     _gosrc), type-checked from their source;
//   - the tool packages, from the Go declarations engine.Describe renders
//     for the namespace (Tools), each typed function given a map form so
//     that a call passing a map[string]any, which the interpreter accepts,
//     checks too (Checker.Check).
//
// What Go reports but the interpreter tolerates (variables and imports
// declared and not used: go/types' soft errors) is not an error here. No
// position points into generated code or into the source packages: an
// error there is left out.
//
// The engine runs the pass when the interpreter refuses a script, and
// its errors then replace the interpreter's message (engine/typecheck.go
// says why not always: BenchmarkCheck).
package typecheck
