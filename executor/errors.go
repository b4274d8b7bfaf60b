package executor

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Errors of this package. Match them with errors.Is; the structured errors
// below wrap or match them.
var (
	// ErrCancelled is matched by every *CancelledError: the execution was
	// cancelled by Handle.Cancel, by Shutdown(false) or by the context given
	// with WithContext.
	ErrCancelled = errors.New("executor: execution cancelled")
	// ErrTimeout is matched by every *TimeoutError: the execution ran
	// longer than its WithTimeout. It also matches context.DeadlineExceeded.
	ErrTimeout error = &TimeoutError{}
	// ErrResultTimeout is returned by Handle.Result when its wait ends
	// before the execution does; the execution goes on.
	ErrResultTimeout = errors.New("executor: timed out waiting for the result")
	// ErrShutdown is the error of a Submit after Shutdown, and the cause of
	// executions cancelled by Shutdown(false).
	ErrShutdown = errors.New("executor: backend is shut down")
	// ErrBadFunc is wrapped by the error of a Submit whose function has a
	// shape this package cannot call, and by RegisterFunc's panics.
	ErrBadFunc = errors.New("executor: unsupported function")
	// ErrNotRegistered is wrapped when a function (or Named name) is not in
	// the registry built by RegisterFunc but the backend needs it there.
	ErrNotRegistered = errors.New("executor: function not registered")
	// ErrChildExited is wrapped by the error of an execution whose child
	// process died or could not be started; the message says why.
	ErrChildExited = errors.New("executor: child process exited")
)

// TimeoutError is the error of an execution that ran longer than its
// WithTimeout, and the cause of its context's cancellation. It matches
// ErrTimeout and context.DeadlineExceeded.
type TimeoutError struct {
	Timeout time.Duration // the WithTimeout bound; 0 in ErrTimeout itself
}

// Error returns "executor: execution timed out after <timeout>".
func (e *TimeoutError) Error() string {
	if e.Timeout == 0 {
		return "executor: execution timed out"
	}
	return "executor: execution timed out after " + e.Timeout.String()
}

// Is reports whether target is ErrTimeout or context.DeadlineExceeded.
func (e *TimeoutError) Is(target error) bool {
	return target == ErrTimeout || target == context.DeadlineExceeded
}

// CancelledError is the error of a cancelled execution and of
// ExecutionContext.CheckCancelled. It matches ErrCancelled and unwraps to the
// cause: context.Canceled for Handle.Cancel, ErrShutdown, a *TimeoutError,
// or the cause of the context given with WithContext.
type CancelledError struct {
	ID  string // the execution's id
	Err error  // why it was cancelled; never nil
}

// Error returns "executor: execution <id> cancelled: <cause>".
func (e *CancelledError) Error() string {
	return "executor: execution " + e.ID + " cancelled: " + e.Err.Error()
}

// Is reports whether target is ErrCancelled.
func (e *CancelledError) Is(target error) bool { return target == ErrCancelled }

// Unwrap returns the cause.
func (e *CancelledError) Unwrap() error { return e.Err }

// FuncPanicError is the error of an execution whose function panicked. In
// the process backend Value is the panic value's text. (A panic of a script
// is an engine.PanicError.)
type FuncPanicError struct {
	Value any    // the value passed to panic
	Stack string // the goroutine's stack at the panic
}

// Error returns "executor: panic: <value>".
func (e *FuncPanicError) Error() string { return fmt.Sprintf("executor: panic: %v", e.Value) }

// Unwrap returns Value when it is an error.
func (e *FuncPanicError) Unwrap() error {
	if err, ok := e.Value.(error); ok {
		return err
	}
	return nil
}

// RemoteError is an error returned by a function that ran in a child
// process. Its message is the function's error text, unchanged.
type RemoteError struct {
	Message string
}

// Error returns the function's error text.
func (e *RemoteError) Error() string { return e.Message }
