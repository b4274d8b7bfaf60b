package executor

import (
	"context"
	"errors"
	"time"
)

// ExecutionContext is what a running function sees of its execution: its
// cancellation, its deadline and a way to report progress. The backend
// creates it and passes it to functions that declare it (see Invoke); callers
// never pass it themselves.
//
// ExecutionContext implements context.Context, so the function can select on
// Done, pass it to any API taking a context, and derive contexts from it.
// Err is context.DeadlineExceeded after the run timeout and context.Canceled
// after a cancellation. A function declared with a plain context.Context
// receives the ExecutionContext too; FromContext recovers it.
//
// Its methods are safe for concurrent use.
type ExecutionContext struct {
	task     *Task // nil outside a backend
	ctx      context.Context
	deadline time.Time
}

var _ context.Context = (*ExecutionContext)(nil)

type ecKey struct{}

// FromContext returns the ExecutionContext that ctx is or derives from.
func FromContext(ctx context.Context) (*ExecutionContext, bool) {
	if ec, ok := ctx.(*ExecutionContext); ok {
		return ec, true
	}
	ec, ok := ctx.Value(ecKey{}).(*ExecutionContext)
	return ec, ok
}

// ID returns the execution id, or "" outside a backend.
func (c *ExecutionContext) ID() string {
	if c.task == nil {
		return ""
	}
	return c.task.ID()
}

// Context returns c as a context.Context.
func (c *ExecutionContext) Context() context.Context { return c }

// Cancelled reports whether the execution was cancelled or timed out.
func (c *ExecutionContext) Cancelled() bool { return c.ctx.Err() != nil }

// CheckCancelled returns nil while the execution may go on, else a
// *CancelledError (matching ErrCancelled) whose cause says why: for a timeout
// it also matches ErrTimeout and context.DeadlineExceeded.
func (c *ExecutionContext) CheckCancelled() error {
	if c.ctx.Err() == nil {
		return nil
	}
	return &CancelledError{ID: c.ID(), Err: context.Cause(c.ctx)}
}

// ReportProgress reports progress to the handle's OnProgress callbacks.
// fraction is clamped to [0, 1]; detail is any value (JSON-encodable for the
// process backend). Reports after the execution ended are dropped.
func (c *ExecutionContext) ReportProgress(fraction float64, message string, detail any) {
	if c.task != nil {
		c.task.Report(Progress{Fraction: fraction, Message: message, Detail: detail})
	}
}

// Deadline implements context.Context: the end of the run timeout if any,
// else the parent's deadline.
func (c *ExecutionContext) Deadline() (time.Time, bool) {
	if !c.deadline.IsZero() {
		if d, ok := c.ctx.Deadline(); ok && d.Before(c.deadline) {
			return d, true
		}
		return c.deadline, true
	}
	return c.ctx.Deadline()
}

// Done implements context.Context.
func (c *ExecutionContext) Done() <-chan struct{} { return c.ctx.Done() }

// Err implements context.Context: nil while running, then
// context.DeadlineExceeded after a timeout, else context.Canceled.
func (c *ExecutionContext) Err() error {
	err := c.ctx.Err()
	if err != nil && errors.Is(context.Cause(c.ctx), context.DeadlineExceeded) {
		return context.DeadlineExceeded
	}
	return err
}

// Value implements context.Context.
func (c *ExecutionContext) Value(key any) any {
	if key == (ecKey{}) {
		return c
	}
	return c.ctx.Value(key)
}
