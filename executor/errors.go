package executor

import (
	"context"
	"fmt"
	"time"
)

// Errors of this package. Match them with errors.Is; the structured errors
// below wrap or match them.
var (
	// ErrCancelled is matched by every *CancelledError: the execution was
	// cancelled by Handle.Cancel, by Shutdown(false) or by the context given
	// with WithContext.
	ErrCancelled = &sentinel{"executor: execution cancelled"}
	// ErrTimeout is the cause of an execution that ran longer than its
	// WithTimeout; it also matches context.DeadlineExceeded.
	ErrTimeout error = &timeoutError{}
	// ErrResultTimeout is returned by Handle.Result when its wait ends
	// before the execution does; the execution goes on.
	ErrResultTimeout = &sentinel{"executor: timed out waiting for the result"}
	// ErrShutdown is the error of a Submit after Shutdown, and the cause of
	// executions cancelled by Shutdown(false).
	ErrShutdown = &sentinel{"executor: backend is shut down"}
	// ErrBadFunc is wrapped by the error of a Submit whose function has a
	// shape this package cannot call, and by RegisterFunc's panics.
	ErrBadFunc = &sentinel{"executor: unsupported function"}
	// ErrNotRegistered is wrapped when a function (or Named name) is not in
	// the registry built by RegisterFunc but the backend needs it there.
	ErrNotRegistered = &sentinel{"executor: function not registered"}
	// ErrChildExited is wrapped by the error of an execution whose child
	// process died or could not be started; the message says why.
	ErrChildExited = &sentinel{"executor: child process exited"}
)

type sentinel struct{ msg string }

func (e *sentinel) Error() string { return e.msg }

type timeoutError struct{}

func (*timeoutError) Error() string { return "executor: execution timed out" }

// Is makes ErrTimeout match context.DeadlineExceeded.
func (*timeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

func newTimeoutError(d time.Duration) error {
	return fmt.Errorf("%w after %v", ErrTimeout, d)
}

// CancelledError is the error of a cancelled execution and of
// ExecutionContext.CheckCancelled. It matches ErrCancelled and unwraps to the
// cause: context.Canceled for Handle.Cancel, ErrShutdown, ErrTimeout, or the
// cause of the context given with WithContext.
type CancelledError struct {
	ID    string // the execution's id
	Cause error  // why it was cancelled; never nil
}

// Error returns "executor: execution <id> cancelled: <cause>".
func (e *CancelledError) Error() string {
	return "executor: execution " + e.ID + " cancelled: " + e.Cause.Error()
}

// Is reports whether target is ErrCancelled.
func (e *CancelledError) Is(target error) bool { return target == ErrCancelled }

// Unwrap returns the cause.
func (e *CancelledError) Unwrap() error { return e.Cause }

// PanicError is the error of an execution whose function panicked. In the
// process backend Value is the panic value's text.
type PanicError struct {
	Value any    // the value passed to panic
	Stack string // the goroutine's stack at the panic
}

// Error returns "executor: panic: <value>".
func (e *PanicError) Error() string { return fmt.Sprintf("executor: panic: %v", e.Value) }

// Unwrap returns Value when it is an error.
func (e *PanicError) Unwrap() error {
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
