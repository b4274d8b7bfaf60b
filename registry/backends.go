package registry

import (
	"fmt"

	"github.com/toolscript/toolscript/executor"
)

// ExecutionMode chooses the executor backend of ExecuteToolCalls.
type ExecutionMode string

// The execution modes.
const (
	// ModeGoroutine runs calls on a bounded pool of goroutines in this
	// process (the default). Cancellation and timeouts are cooperative.
	ModeGoroutine ExecutionMode = "goroutine"
	// ModeProcess runs calls in warm child processes of this binary, which
	// must call executor.MaybeServeChild first in main; only tools with a
	// ProcessFunc can run there. Cancellation and timeouts kill the child.
	ModeProcess ExecutionMode = "process"
)

// SetDefaultExecutionMode sets the mode of ExecuteToolCalls calls that do
// not choose one with WithExecutionMode. The default is ModeGoroutine.
func (r *Registry) SetDefaultExecutionMode(m ExecutionMode) error {
	if m != ModeGoroutine && m != ModeProcess {
		return unknownMode(m)
	}
	r.mu.Lock()
	r.mode = m
	r.mu.Unlock()
	return nil
}

// DefaultExecutionMode returns the mode set by SetDefaultExecutionMode.
func (r *Registry) DefaultExecutionMode() ExecutionMode {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.mode
}

// backend returns the backend of mode, starting it on first use.
func (r *Registry) backend(m ExecutionMode) (executor.Backend, error) {
	r.bmu.Lock()
	defer r.bmu.Unlock()
	if r.closed {
		return nil, ErrClosed
	}
	if b, ok := r.backends[m]; ok {
		return b, nil
	}
	var b executor.Backend
	switch m {
	case ModeGoroutine:
		b = executor.NewGoroutineBackend(r.cfg.maxWorkers)
	case ModeProcess:
		pb, err := executor.NewProcessBackend(r.cfg.procCfg)
		if err != nil {
			return nil, fmt.Errorf("registry: start process backend: %w", err)
		}
		b = pb
	default:
		return nil, unknownMode(m)
	}
	r.backends[m], r.owned[m] = b, true
	return b, nil
}

// Close shuts down the backends the registry started, waiting for the calls
// they run. Later ExecuteToolCalls fail with ErrClosed; the catalogue and
// its projections remain usable. Close is idempotent.
func (r *Registry) Close() error {
	r.bmu.Lock()
	if r.closed {
		r.bmu.Unlock()
		return nil
	}
	r.closed = true
	var stop []executor.Backend
	for m, b := range r.backends {
		if r.owned[m] {
			stop = append(stop, b)
		}
	}
	r.bmu.Unlock()
	for _, b := range stop {
		b.Shutdown(true)
	}
	return nil
}
