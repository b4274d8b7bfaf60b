// Package harness is toolscript's benchmark harness: a fixed set of
// workloads, the engines that run them (the native Go floor, the
// in-process and isolated runtimes, the registry's ExecuteToolCalls, and
// any extra engine such as the peers of bench/peers), the runner that
// measures them (median and 95 % interval by golang.org/x/perf/benchmath,
// heap bytes and allocations per execution), the table, the raw samples
// as JSON, profiles and the scaling curves as plots.
//
// bench/cmd/bench is the command (harness.Main); BENCHMARKS.md at the
// repository's root publishes its table.
package harness

import (
	"context"
	"errors"
	"time"
)

// Engine is one column of the table: something that runs a workload's script.
type Engine interface {
	// Name is the column's heading, unique among the engines of a run.
	Name() string
	// Prepare readies w; it returns ErrUnsupported when the engine has no script for w.
	// run executes the workload once and returns what the script printed.
	// run must be safe for concurrent use (the throughput and concurrency
	// measurements call it from many goroutines at once). For a workload
	// whose Fail is set, run returns an error matching Fail.
	Prepare(w *Workload) (run func(ctx context.Context) (string, error), err error)
	// Close releases what the engine holds (worker processes).
	Close() error
}

// ErrUnsupported is returned by Engine.Prepare for a workload the engine has no script for.
var ErrUnsupported = errors.New("harness: workload not supported by this engine")

// ErrCompile and ErrTimeout are the expected failures of the
// compile_error and timeout workloads: an engine's run wraps the failure
// so that errors.Is(err, w.Fail) holds.
var (
	ErrCompile = errors.New("harness: script does not compile")
	ErrTimeout = errors.New("harness: script timed out")
)

// ToolSpec is one tool of a workload: the identical stub every engine
// binds (peers bind call_tool(name, args) to Fn).
type ToolSpec struct {
	// Name is the tool's name; toolscript scripts call it as
	// tools.<FuncName(Name)> (a tool without namespace).
	Name string
	// Doc describes the tool.
	Doc string
	// Params are the names of its keyword arguments.
	Params []string
	// Fn is the stub. It is safe for concurrent use and counts its calls
	// in the workload's Counter.
	Fn func(ctx context.Context, args map[string]any) (any, error)
}

// BatchCall is one call of a workload's batch, as a model would send it
// to the registry's ExecuteToolCalls.
type BatchCall struct {
	Name string
	Args map[string]any
}

// Workload is one row of the table.
type Workload struct {
	// Name is stable: it keys the JSON output, --filter and --workload.
	Name string
	// Doc says in a few words what the workload does.
	Doc string
	// Go is the toolscript script's source (bare statements, as a model
	// writes them).
	Go string
	// Tools are the tools the script may call.
	Tools []ToolSpec
	// Want checks what a successful run printed.
	Want func(out string) error
	// Short includes the workload in --short runs.
	Short bool
	// Fail is the error a run must return (ErrCompile, ErrTimeout), nil
	// when the script must succeed.
	Fail error
	// Timeout is the execution's timeout (0: the engine's default).
	Timeout time.Duration
	// Native is the same task written in Go and compiled with the harness
	// (the floor); nil when there is none.
	Native func(ctx context.Context) (string, error)
	// Batch, when set, is the workload as one batch of tool calls for the
	// registry's ExecuteToolCalls; BatchOut turns the batch's results (in
	// call order) into what the script prints, so Want checks it too.
	Batch    []BatchCall
	BatchOut func(results []any) string
	// Counter counts the calls of Tools (and their maximal concurrency).
	Counter *Counter
	// Calls is the number of tool calls one run makes; MaxConcurrent,
	// when not 0, the most that may run at once (the script's bound).
	Calls, MaxConcurrent int
	// Curve and X place a workload of a scaling curve ("" for the rows of
	// the table); Params holds the generator's parameters (for example
	// "tools": 1000) so that other engines can write the same script.
	Curve  string
	X      int
	Params map[string]int
}
