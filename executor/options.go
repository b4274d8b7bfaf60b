package executor

import (
	"context"
	"time"
)

// SubmitOption sets a per-call option of Backend.Submit. Options only record
// values; they never fail. A custom backend applies them with NewTask.
type SubmitOption func(*submitOptions)

// submitOptions is the result of applying SubmitOption values.
type submitOptions struct {
	// ID is the execution id; "" means an id chosen by the backend, unique
	// within the process.
	ID string
	// Timeout bounds the run time, counted from the start of the run (time
	// spent queued does not count); 0 means no limit. A run over the limit
	// is Failed with a *TimeoutError.
	Timeout time.Duration
	// Context, when not nil, cancels the execution (pending or running)
	// when it is done, and is the parent of the context the function sees.
	Context context.Context
	// Progress, when not nil, is registered with Handle.OnProgress before
	// the execution can start, so that it sees every report.
	Progress func(Progress)
}

// WithID sets the execution id reported by Handle.ID.
func WithID(id string) SubmitOption { return func(o *submitOptions) { o.ID = id } }

// WithTimeout limits the execution's run time, counted from the start of
// the run. Zero means the default, no limit, and so does a negative d (as
// engine.Unlimited does for the engine's limits).
func WithTimeout(d time.Duration) SubmitOption {
	return func(o *submitOptions) { o.Timeout = max(d, 0) }
}

// WithContext ties the execution to ctx: when ctx is done the execution is
// cancelled with ctx's cause, and ctx's values reach the function.
func WithContext(ctx context.Context) SubmitOption {
	return func(o *submitOptions) { o.Context = ctx }
}

// WithProgress registers cb for progress reports before the execution can
// start (Handle.OnProgress registered after Submit may miss early reports,
// though it sees the latest).
func WithProgress(cb func(Progress)) SubmitOption {
	return func(o *submitOptions) { o.Progress = cb }
}

// collectOptions applies opts in order and returns the result.
func collectOptions(opts ...SubmitOption) submitOptions {
	if len(opts) == 0 {
		return submitOptions{} // no allocation on the common path
	}
	o := new(submitOptions)
	for _, opt := range opts {
		if opt != nil {
			opt(o)
		}
	}
	return *o
}
