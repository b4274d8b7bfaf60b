package registry

import (
	"errors"
	"fmt"
)

// Sentinel errors of the package. Match them with errors.Is; the structured
// errors below match or wrap them.
var (
	// ErrInvalidName reports a tool name, namespace or registry name that
	// cannot be normalized into a valid function name.
	ErrInvalidName = errors.New("registry: invalid name")
	// ErrDuplicateTool reports a registration under a name already taken,
	// without WithReplace.
	ErrDuplicateTool = errors.New("registry: duplicate tool")
	// ErrInvalidTool reports a value or function that cannot be registered.
	ErrInvalidTool = errors.New("registry: invalid tool")
	// ErrUnknownTool reports a name that is not in the registry.
	ErrUnknownTool = errors.New("registry: unknown tool")
	// ErrUnknownNamespace reports a namespace no tool of the registry has.
	ErrUnknownNamespace = errors.New("registry: unknown namespace")
	// ErrMixedNamespaces reports a ReduceNamespace on tools that do not all
	// share one namespace.
	ErrMixedNamespaces = errors.New("registry: tools do not share one namespace")
	// ErrToolDisabled reports a call of a disabled tool.
	ErrToolDisabled = errors.New("registry: tool disabled")
	// ErrBadToolCall reports a tool call that cannot be decoded or run as
	// given: unknown shape, arguments that are not a JSON object, a duplicate
	// call id.
	ErrBadToolCall = errors.New("registry: bad tool call")
	// ErrNotProcessable reports a process-mode call of a tool that has no
	// function registered with executor.RegisterFunc.
	ErrNotProcessable = errors.New("registry: tool cannot run in a child process")
	// ErrClosed reports an ExecuteToolCalls after Close.
	ErrClosed = errors.New("registry: closed")
)

// CallError is the error of one tool call in ExecuteToolCalls that failed
// before reaching the tool: unknown or disabled tool, undecodable arguments,
// no backend. Errors of the tool itself, and argument errors (a
// *projection.ArgumentError), are reported unwrapped.
type CallError struct {
	ID   string // the call's id
	Tool string // the tool name as called
	Err  error  // the cause, matching one of the sentinels
}

// Error returns `registry: call "<id>" to tool "<tool>": <cause>`.
func (e *CallError) Error() string {
	return fmt.Sprintf("registry: call %q to tool %q: %v", e.ID, e.Tool, e.Err)
}

// Unwrap returns the cause.
func (e *CallError) Unwrap() error { return e.Err }

// The messages of errors raised in more than one place, each defined once.

func unknownTool(name string) error { return fmt.Errorf("%w: %q", ErrUnknownTool, name) }

func unknownNamespace(ns string) error { return fmt.Errorf("%w: %q", ErrUnknownNamespace, ns) }

func duplicateTool(name string) error {
	return fmt.Errorf("%w: %q is already registered (use WithReplace to replace it)", ErrDuplicateTool, name)
}

func duplicateID(id string) error { return fmt.Errorf("%w: duplicate call id %q", ErrBadToolCall, id) }

func unknownMode(m ExecutionMode) error {
	return fmt.Errorf("registry: unknown execution mode %q", string(m))
}

func unknownFormat(f Format) error { return fmt.Errorf("registry: unknown format %v", f) }

// checkQualifiedName refuses a qualified name longer than MaxNameLength.
func checkQualifiedName(name string) error {
	if len(name) > MaxNameLength {
		return fmt.Errorf("%w: qualified name %q is longer than %d characters", ErrInvalidName, name, MaxNameLength)
	}
	return nil
}
