// Package policy is the one place that says what a script can reach: the
// standard packages it may import (allowlist.go), the symbols of each, as
// one table built once per process and shared by every interpreter
// (table.go), the package variables scripts get read-only copies of and
// the values and fields they cannot write or select (pkgstate.go), the
// symbols replaced, removed or confined (pkgstate.go), and the symbols
// every execution gets its own of (exports.go, methods.go, alloc.go).
//
// The per-execution replacements need the execution's state (its output,
// limits, deadline, goroutines): the engine passes it as Hooks. The entry
// points, for each execution, are UseShared (the shared tables its
// imports need), Exports (its own symbols, bound to its Hooks) and Method
// (the interpreter's BinMethod hook); Allowed and PathOf are the import
// rules the normaliser applies, Paths the list scripts are told of.
//
// Nothing here is reachable from outside the module, and nothing of the
// module's internal packages is reachable from scripts but what the
// audit's reviewed list names (TestNoInternalTypes).
//
// Adding a standard package:
//
//  1. Add its import path to allowlist (allowlist.go) and run
//     go generate ./internal/policy, which writes its symbol table
//     (package stdlib, from the standard library of the toolchain that
//     runs it; TestSymbols_UpToDate fails when the tables are stale).
//  2. Run go test ./internal/policy -run TestScriptSymbols_Audit
//     -update, and review every new line of testdata/script_symbols.golden:
//     a function or method that reaches files, the environment, the
//     network, other processes or global state must be replaced or
//     removed (pkgstate.go), or the package left out.
//  3. Run go test ./internal/policy: TestAllowlist_Complete checks that
//     the package has symbols, golden lines and is importable by a
//     script.
//
// A package with mutable package variables needs nothing more (they are
// copied per execution); one with natives a script can make allocate
// without bound needs an entry in alloc.go and a row in the engine's
// TestGuardedNatives.
package policy
