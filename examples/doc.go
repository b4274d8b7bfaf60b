// Package examples holds runnable programs that show toolscript in use,
// one per folder:
//
//   - embed: a registry of Go tools and one script that calls them in
//     process (engine.Execute over Registry.Projections).
//   - isolated: the same tools, with each script run in a worker process
//     under OS limits (engine.NewIsolated).
//   - toolloop: a JSON tool-calling loop (the messages an LLM API
//     exchanges) whose model calls a run_go tool: code mode in a classic
//     loop.
//
// Run one with `go run ./examples/embed`. Each folder's test runs the
// program and compares its output, so the examples cannot rot; README's
// snippets are cut from these files between "README:start" and
// "README:end" markers and a test keeps them identical.
package examples
