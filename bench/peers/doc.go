// Package peers holds the engines that toolscript's benchmark harness
// (package bench/harness) compares with toolscript, side by side in the
// same run: what a Go program would embed instead to run scripts that
// call tools.
//
//   - yaegi: upstream yaegi (github.com/traefik/yaegi, unpatched), a fresh
//     interpreter per run with the standard library and the workload's
//     tools exported as Go functions of package tools.
//   - goja: github.com/dop251/goja, JavaScript, a fresh runtime per run,
//     call_tool(name, args) bound to the tool stubs, the timeout by
//     Runtime.Interrupt.
//   - starlark: go.starlark.net, Starlark, a fresh thread per run,
//     call_tool(name, args), a step limit by Thread.SetMaxExecutionSteps
//     and the timeout by Thread.Cancel.
//
// Every peer binds its tools to the workload's ToolSpec.Fn (the stubs
// every engine of the run calls), converts arguments to map[string]any and
// results back to its own values, compiles the script at each run (a
// model sends a new script every time) and prints what the workload's Want
// accepts. The scripts are in scripts/<language>/<workload>.<ext>; a
// workload without one is not supported by that peer (Prepare returns
// harness.ErrUnsupported). README.md says what each peer does and does not
// do.
//
// The module is separate from toolscript's, so toolscript never depends
// on the peers:
//
//	cd bench/peers && go run ./cmd/bench --short
package peers
