// Package executor runs tool functions on pluggable backends, with
// cancellation, progress reports, timeouts and exact status tracking. It is
// the Go port of the Python ToolRegistry's executor: a function plus a
// map of keyword arguments goes in through [Backend.Submit], a [Handle]
// comes out. It imports nothing else of toolscript; the registry builds
// ExecuteToolCalls on it.
//
// Three backends are provided:
//
//   - [GoroutineBackend] (the Python ToolRegistry's ThreadBackend): a bounded set of worker
//     goroutines fed by a FIFO queue. The default choice.
//   - [ProcessBackend] (the Python ToolRegistry's
//     ProcessPoolBackend): registered functions
//     run in a pool of warm child processes of the same binary, for
//     isolation and hard cancellation.
//   - [InlineBackend]: the function runs inside Submit, in the caller's
//     goroutine. For trivial functions it saves the hand-off to a worker
//     (see the benchmarks), at the price of no concurrency and no bound.
//
// Other backends implement [Backend]; [Task] provides a ready Handle with
// the exact status transitions and [Invoke] calls any accepted function
// shape (see the custom backend example).
//
// # Functions
//
// A backend accepts
//
//	func(map[string]any) (any, error)
//	func(*executor.ExecutionContext, map[string]any) (any, error)
//	func(context.Context, map[string]any) (any, error)
//
// and [Named] functions registered with [RegisterFunc]. A function that
// declares an [ExecutionContext] or a context.Context receives the
// execution's [ExecutionContext] (what the Python ToolRegistry injects as
// its _ctx argument); callers
// never pass it. Any other value makes the handle Failed with an error
// wrapping [ErrBadFunc]; Submit never panics. A panic in a function makes its
// handle Failed with a [*FuncPanicError] carrying the value and the stack.
//
// # Status
//
// An execution is PENDING, then RUNNING, then one of COMPLETED, FAILED or
// CANCELLED; [Status] documents the six legal transitions, which [Task]
// enforces. Final statuses never change: a result that arrives after a
// cancellation or a timeout is discarded.
//
// # Concurrency
//
// Backends, handles and execution contexts are safe for concurrent use.
// The goroutine backend starts workers on demand up to its bound and keeps
// them until Shutdown; work beyond the bound waits in a queue without
// adding goroutines. Progress callbacks run synchronously, one at a time, in
// report order, on the goroutine that reports (for the process backend, the
// worker that reads the child's messages). Every goroutine the package
// starts belongs to a backend and has ended when Shutdown(true) returns
// (for Shutdown(false), when the running functions have returned).
//
// # Cancellation
//
// [Handle.Cancel], [WithTimeout], the context given with [WithContext] and
// Shutdown(false) all end an execution at once, from the caller's point of
// view: the handle takes its final status (CANCELLED, or FAILED with a
// [*TimeoutError] for a timeout) and Result returns. What happens to the
// function depends on the backend:
//
//   - in the goroutine and inline backends cancellation is cooperative: the
//     function's context is cancelled and it should return promptly (check
//     [ExecutionContext.CheckCancelled] or select on Done). A function that
//     ignores it keeps its worker busy until it returns.
//   - in the process backend it is hard: the child's whole process group is
//     killed (after [ProcessConfig.CancelGrace], during which the child's
//     function sees a cooperative cancellation) and a fresh child replaces
//     it.
//
// A run timeout counts from the start of the run, not from Submit; zero
// means none, as a negative value does (the rule of zero values in
// toolscript: the package engine's "Limits" section). Errors match with
// errors.Is: [ErrCancelled] for every [*CancelledError] (which unwraps to
// its cause), [ErrTimeout] for every [*TimeoutError] (also
// context.DeadlineExceeded),
// [ErrResultTimeout] for a Result wait that ended first, [ErrShutdown],
// [ErrChildExited].
//
// # Process backend hook
//
// A [ProcessBackend] starts its own executable again as children, so main
// must hand control to the child side before doing anything else:
//
//	func main() {
//		executor.MaybeServeChild() // returns at once unless this is a child
//		...
//	}
//
// and functions must be registered at init, before that call, so that the
// children have them:
//
//	func init() { executor.RegisterFunc("resize", resize) }
//
// Tests that use the process backend do the same in TestMain (the test
// binary is the child), for example with goleak:
//
//	func TestMain(m *testing.M) {
//		executor.MaybeServeChild()
//		goleak.VerifyTestMain(m)
//	}
//
// The hook is the one of every child process toolscript starts: the
// engine's isolated runtime starts its workers the same way, and
// engine.MaybeServeWorker is the same function. A binary that uses both
// the process backend and the isolated runtime calls one of the two,
// once; it serves the children of both.
//
// Children get their own process group, a clean environment (only the
// variable naming their role, TOOLSCRIPT_CHILD, and [ProcessConfig.Env]),
// standard output discarded unless [ProcessConfig.Stdout] is set, and on
// Linux a parent-death signal; on every platform they also exit when their
// input pipe closes. A child counts as started once it has said hello
// within [ProcessConfig.StartTimeout]. Calls and results travel over two
// extra pipes (file descriptors 3 and 4) in the framing of toolscript's
// internal wire package: length-prefixed frames of hello, call, result,
// progress, cancel and shutdown messages with JSON bodies. Arguments and
// results must therefore be JSON-encodable; results come back as
// encoding/json decodes them into an any (numbers are float64).
package executor
