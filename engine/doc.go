// Package engine runs Go scripts written by a language model against a
// namespace of tools, in an embedded yaegi interpreter: programmatic tool
// calling ("code mode") for Go.
//
// A script is a full program (package main with func main) or bare
// statements; imports are optional. Each tool of the namespace
// (map[string]projection.ToolProjection) is a function of a Go package
// named after its namespace: the tool "math_ops-multiply" (or
// "math_ops.multiply") is math_ops.Multiply, a tool without namespace lives
// in package tools, and tools.Call(name, args) calls any tool by name.
// A tool without schema takes the keyword arguments as map[string]any and
// returns (any, error); a tool with an input schema (projection.Schemas) is
// a typed function of a generated argument struct, returning the type of
// its output schema or any, and also takes a map[string]any (the
// map form). tools.Decode fills a script struct from an untyped result.
// A namespace entry with projection.RoleSearch gives scripts
// tools.Search(query), which returns the best matching tools with their
// signatures; one with projection.RoleWithheld is reachable only through
// tools.Call. A projection.Gated tool's decision precedes each of its
// calls, in the host, and is in ToolCall.Decision.
// Describe (DescribeWith: filtered, with its size) prints this surface as
// Go declarations for the model's prompt. The surface is built once per
// namespace map and reused while the map holds the same projections (a
// map changed between executions gets a new one): an execution binds
// only the tools its script names, so its set-up does not grow with the
// namespace. A projection's name, role, namespace and schemas are read
// when the surface is built; to change them, put another projection in
// the map.
//
//	res, err := engine.Execute(ctx, `
//		r, err := math_ops.Multiply(map[string]any{"a": 6, "b": 7})
//		if err != nil {
//			panic(err)
//		}
//		fmt.Println(r)
//	`, ns)
//
// The script's output is CodeResult.Stdout (and Stderr); its value is the
// argument of result(v), or the last expression statement of a bare
// script. Every failure of the script is inside the CodeResult: a compile
// error or a panic (ReturnCode 1, with the script's line and column), a
// timeout (CodeTimeout), a tripped limit (CodeLimit), os.Exit(n) (n). The
// error returned by Execute is only for misuse.
//
// # Standard library
//
// Scripts can import the standard packages Packages lists: an allowlist,
// plus toolscript's own "os" (Exit, Stdout, Stderr), and interpreted
// subsets of "slices", "maps" and "cmp". The builtins min, max and clear
// work. Output of fmt, print and log goes to the CodeResult only, never to
// the host's streams.
//
// # Limits
//
// Limits bound the wall time, tool calls, output, goroutines, recursion
// depth, allocation sizes and heap growth, and a tripped limit names
// itself in a *LimitError.
//
// Zero means the default, everywhere in toolscript's API: a zero field of
// a configuration (Limits, Config, IsolatedConfig, WorkerLimits,
// registry.ToolMetadata, executor.ProcessConfig) or a zero argument of an
// option (WithTimeout, WithLimits, executor.WithTimeout,
// registry.WithMaxWorkers) takes the default its documentation states; for
// Execute's options that is the runtime's Config.Limits, else the
// package's Default constants. Unlimited, or any negative value, disables
// a limit of Limits or WorkerLimits; a bound whose default is none
// (Config.MaxConcurrent, executor.WithTimeout, ToolMetadata.Timeout) is
// none for both. A bound
// that cannot be lifted (a number of workers, a start timeout, a grace
// period) takes its default for a negative value too.
//
// Compilation runs under the same deadline and memory limit,
// and the source's size and nesting are bounded (MaxSourceBytes,
// MaxNesting). A tripped limit, and os.Exit on any goroutine, end the
// execution whatever the script recovers: the interpreter stops at once
// and no deferred function of the script runs. The call depth counts every
// call in progress, summed over the script's goroutines, also through
// closures, method values and native code calling the script back (a
// String method that formats itself); fmt and log refuse to print a map
// or slice that holds itself. Functions that time.AfterFunc,
// context.AfterFunc and (*sync.WaitGroup).Go run are goroutines of the
// script (MaxGoroutines, panics, os.Exit), stopped with it. Cancellation
// does not pre-empt host code: every tool receives the script's context
// and must return once it is done; a native call that calls script code
// fails once the execution has ended.
//
// # Sessions
//
// NewSession keeps the state of a script between executions: the
// variables an input declares at its top level, its functions, types,
// constants and imports are there for the next input (Session.Execute),
// on either runtime. An input is bare statements and declarations; its
// declarations are compiled first, then its statements run at package
// level in the session's interpreter (in process: one interpreter per
// session; isolated: one interpreter in the one worker the session pins,
// which never returns to the pool). The interpreter's host functions are
// bound to one execution value, reset for each input.
//
// After an input that completes (ReturnCode CodeOK) the session
// checkpoints its package: the symbol table, the methods of its types,
// and a deep copy of every variable, made in one pass so that values two
// variables share are shared by the copies, and measured against
// SessionLimits.MaxMemoryBytes. After any other outcome (a compile error,
// a panic, os.Exit(n) with n != 0, a timeout, a tripped limit, a
// cancellation) it waits for the input's program, goroutines and tool
// calls to stop (else the session is lost, ErrSessionLost), then puts the
// checkpoint back: names the input declared are gone, redeclared ones are
// the earlier declarations again, variables hold copies of their
// checkpointed values. Nothing is re-run, tool calls included. Function
// values and channels are kept as they are, and so are the values of Go
// packages' named types that pointers reach: changes a failed input made
// through them stay.
//
// A session runs one input at a time: an Execute or Reset while one runs
// returns ErrSessionBusy. Errors returned by Execute (ErrSessionClosed,
// ErrSessionExpired, ErrSessionLost, ErrSessionBusy) mean the input did
// not run; every failure of an input is in its CodeResult. An isolated
// session whose worker dies returns that input's result with CodeCrash
// and an Err matching ErrSessionLost, and ErrSessionLost afterwards.
//
// # Concurrency
//
// An Engine is safe for concurrent use, and each Execute gets a fresh
// interpreter built from a symbol table prepared once per process.
// Goroutines a script starts are stopped when its execution ends.
//
// # Security
//
// The in-process engine is not an OS-level boundary; the isolated runtime
// (NewIsolated) is: each script runs in a worker process under OS limits
// (WorkerLimits) while its tools run in the host, and a worker that
// crashes or overstays is killed and replaced (WorkerError). In-process,
// the allowlist decides which symbols a script can reach (no file system,
// network, processes, reflect, unsafe or runtime), package variables are
// read-only, no source is read from disk,
// and guards turn the usual accidents into errors instead of a dead host:
// endless loops and deadlocks (timeout), runaway recursion (MaxCallDepth),
// oversized allocations, native ones included (MaxAllocBytes, checked
// before the allocation), runaway heap growth
// (MaxMemoryBytes), goroutine bombs (MaxGoroutines), panics in script
// goroutines, output and tool-call floods. They are best effort: concurrent
// map writes are fatal to the Go runtime, a goroutine blocked in a native
// sync call stays blocked, and a long native call runs to its end after
// the deadline.
package engine
