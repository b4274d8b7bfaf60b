package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
	"github.com/toolscript/toolscript/registry"
)

// Column names of the built-in engines.
const (
	NativeName    = "native"
	InProcessName = "in-process"
	IsolatedName  = "isolated"
	RegistryName  = "registry"
)

// Native is the floor: the workload's task written in Go and compiled
// with the harness (Workload.Native).
type Native struct{}

// Name implements Engine.
func (Native) Name() string { return NativeName }

// Prepare implements Engine.
func (Native) Prepare(w *Workload) (func(context.Context) (string, error), error) {
	if w.Native == nil {
		return nil, ErrUnsupported
	}
	return w.Native, nil
}

// Close implements Engine.
func (Native) Close() error { return nil }

// Namespace turns a workload's tools into the namespace toolscript takes.
func Namespace(tools []ToolSpec) map[string]projection.ToolProjection {
	ns := make(map[string]projection.ToolProjection, len(tools))
	for _, t := range tools {
		p := projection.MustDirect(t.Name, t.Fn, t.Doc)
		ns[p.Name()] = p
	}
	return ns
}

// Runtime is a toolscript runtime as a column: the in-process Engine or
// the isolated runtime with its warm pool of workers.
type Runtime struct {
	name string
	rt   engine.CodeRuntime
	stop func() error
}

// NewInProcess returns the in-process runtime (engine.New).
func NewInProcess() *Runtime {
	e := engine.New(engine.Config{})
	return &Runtime{name: InProcessName, rt: e, stop: e.Close}
}

// NewIsolated returns the isolated runtime with GOMAXPROCS workers
// started (engine.NewIsolated). The binary's main must call
// engine.MaybeServeWorker first (Main does).
func NewIsolated() (*Runtime, error) {
	e, err := engine.NewIsolated(engine.IsolatedConfig{Workers: runtime.GOMAXPROCS(0)})
	if err != nil {
		return nil, err
	}
	return &Runtime{name: IsolatedName, rt: e, stop: e.Close}, nil
}

// Name implements Engine.
func (r *Runtime) Name() string { return r.name }

// Close implements Engine.
func (r *Runtime) Close() error { return r.stop() }

// Prepare implements Engine.
func (r *Runtime) Prepare(w *Workload) (func(context.Context) (string, error), error) {
	if w.Go == "" {
		return nil, ErrUnsupported
	}
	ns := Namespace(w.Tools)
	var opts []engine.Option
	if w.Timeout > 0 {
		opts = append(opts, engine.WithTimeout(w.Timeout))
	}
	code := w.Go
	return func(ctx context.Context) (string, error) {
		res, err := r.rt.Execute(ctx, code, ns, opts...)
		if err != nil {
			return "", err
		}
		return res.Stdout, ResultError(res)
	}, nil
}

// ResultError maps a failed CodeResult to the harness's errors: a
// timeout matches ErrTimeout, a script error before anything ran (no
// output, no tool call) matches ErrCompile; nil on success.
func ResultError(res engine.CodeResult) error {
	if res.OK() {
		return nil
	}
	var se *engine.ScriptError
	switch {
	case res.ReturnCode == engine.CodeTimeout:
		return fmt.Errorf("%w: %s", ErrTimeout, res.Error)
	case res.ReturnCode == engine.CodeError && errors.As(res.Err, &se) && res.Stdout == "" && len(res.ToolCalls) == 0:
		return fmt.Errorf("%w: %s", ErrCompile, res.Error)
	}
	return fmt.Errorf("exit %d: %s", res.ReturnCode, res.Error)
}

// Registry is the registry's ExecuteToolCalls as a column: the workload's
// batch sent as a model sends it (arguments as JSON text), for the
// workloads that are a batch of calls (Workload.Batch).
type Registry struct {
	mu   sync.Mutex
	regs []*registry.Registry
}

// Name implements Engine.
func (*Registry) Name() string { return RegistryName }

// Close implements Engine: it closes the registries Prepare made.
func (e *Registry) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	var errs []error
	for _, r := range e.regs {
		errs = append(errs, r.Close())
	}
	e.regs = nil
	return errors.Join(errs...)
}

// Prepare implements Engine.
func (e *Registry) Prepare(w *Workload) (func(context.Context) (string, error), error) {
	if w.Batch == nil || w.BatchOut == nil {
		return nil, ErrUnsupported
	}
	var opts []registry.Option
	if w.MaxConcurrent > 0 {
		// The batch's bound is the script's.
		opts = append(opts, registry.WithMaxWorkers(w.MaxConcurrent))
	}
	r := registry.New("bench", opts...)
	e.mu.Lock()
	e.regs = append(e.regs, r)
	e.mu.Unlock()
	for _, p := range Namespace(w.Tools) {
		if err := r.Register(p); err != nil {
			return nil, err
		}
	}
	calls := make([]registry.Call, len(w.Batch))
	for i, c := range w.Batch {
		args, err := json.Marshal(c.Args)
		if err != nil {
			return nil, err
		}
		calls[i] = registry.Call{ID: "call_" + strconv.Itoa(i), Name: c.Name, Arguments: args}
	}
	out := w.BatchOut
	return func(ctx context.Context) (string, error) {
		results, err := r.ExecuteToolCalls(ctx, calls)
		if err != nil {
			return "", err
		}
		values := make([]any, len(results))
		for i, res := range results {
			if res.Err != nil {
				return "", fmt.Errorf("call %s: %w", res.ID, res.Err)
			}
			values[i] = res.Value
		}
		return out(values), nil
	}, nil
}
