package executor

import (
	"context"
	"time"
)

// SubmitOption sets a per-call option of Backend.Submit. Options only record
// values; they never fail.
type SubmitOption func(*SubmitOptions)

// SubmitOptions is the result of applying SubmitOptions, for backends
// implemented outside this package (see CollectOptions).
type SubmitOptions struct {
	// ID is the execution id; "" means an id chosen by the backend, unique
	// within the process.
	ID string
	// Timeout bounds the run time, counted from the start of the run (time
	// spent queued does not count); 0 means no limit. A run over the limit
	// is Failed with an error matching ErrTimeout.
	Timeout time.Duration
	// Context, when not nil, cancels the execution (pending or running)
	// when it is done, and is the parent of the context the function sees.
	Context context.Context
	// Progress, when not nil, is registered with Handle.OnProgress before
	// the execution can start, so that it sees every report.
	Progress func(Progress)
}

// WithID sets the execution id reported by Handle.ID.
func WithID(id string) SubmitOption { return func(o *SubmitOptions) { o.ID = id } }

// WithTimeout limits the execution's run time; d <= 0 means no limit.
func WithTimeout(d time.Duration) SubmitOption {
	return func(o *SubmitOptions) { o.Timeout = max(d, 0) }
}

// WithContext ties the execution to ctx: when ctx is done the execution is
// cancelled with ctx's cause, and ctx's values reach the function.
func WithContext(ctx context.Context) SubmitOption {
	return func(o *SubmitOptions) { o.Context = ctx }
}

// WithProgress registers cb for progress reports before the execution can
// start (Handle.OnProgress registered after Submit may miss early reports,
// though it sees the latest).
func WithProgress(cb func(Progress)) SubmitOption {
	return func(o *SubmitOptions) { o.Progress = cb }
}

// CollectOptions applies opts in order and returns the result.
func CollectOptions(opts ...SubmitOption) SubmitOptions {
	if len(opts) == 0 {
		return SubmitOptions{} // no allocation on the common path
	}
	o := new(SubmitOptions)
	for _, opt := range opts {
		if opt != nil {
			opt(o)
		}
	}
	return *o
}
