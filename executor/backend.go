package executor

// Backend runs functions with dict-style arguments, each execution observed
// and controlled through a Handle. This package provides GoroutineBackend,
// ProcessBackend and InlineBackend; implement Backend (with Task and Invoke)
// for others.
//
// fn is one of the shapes
//
//	func(map[string]any) (any, error)
//	func(*ExecutionContext, map[string]any) (any, error)
//	func(context.Context, map[string]any) (any, error)
//
// or a Named registered function. A function that declares an
// ExecutionContext or a context.Context gets the execution's; callers never
// pass it. Submit never fails and never panics: any error (unsupported fn,
// backend shut down) is reported by a Failed handle.
type Backend interface {
	// Submit starts or queues fn(kwargs) and returns its handle.
	Submit(fn any, kwargs map[string]any, opts ...SubmitOption) Handle
	// Shutdown stops the backend; with wait it returns when every execution
	// submitted earlier has ended, without wait it cancels them first.
	Shutdown(wait bool)
}
