package projection

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Sentinel errors of the package. Match them with errors.Is.
var (
	// ErrInvalidFunc reports a function that NewDirect cannot wrap.
	ErrInvalidFunc = errors.New("projection: invalid function")
	// ErrBadArgument reports an argument that does not fit the tool.
	ErrBadArgument = errors.New("projection: bad argument")
	// ErrNamespaceMismatch reports a namespace key that differs from its
	// projection's name.
	ErrNamespaceMismatch = errors.New("projection: namespace key does not match tool name")
)

// ToolProjection is a tool as a script sees it. Implementations must be safe
// for concurrent use: one projection may serve many executions at once.
type ToolProjection interface {
	// Name is the tool's name in the namespace, for example
	// "math_ops-multiply" or "get_weather".
	Name() string
	// Doc is the human- and model-readable description of the tool.
	Doc() string
	// Call runs the tool with keyword arguments. ctx is the script's
	// context: it is cancelled when the execution times out or ends, and a
	// tool that blocks must return promptly once it is done.
	Call(ctx context.Context, args map[string]any) (any, error)
}

// SchemaProjection is implemented by projections that know the JSON Schema
// of their arguments (an object schema). The engine uses it to describe
// tools to the model and to give scripts typed arguments.
type SchemaProjection interface {
	ToolProjection
	// Schema returns the JSON Schema of the arguments object, or nil.
	Schema() json.RawMessage
}

// OutputSchemaProjection is implemented by projections that know the JSON
// Schema of their result. The engine uses it to give scripts a typed
// result and to describe it; it does not validate results against it.
type OutputSchemaProjection interface {
	ToolProjection
	// OutputSchema returns the JSON Schema of the result, or nil.
	OutputSchema() json.RawMessage
}

// Schemas returns the JSON Schemas by which the engine types a tool for
// scripts: of the arguments (a DirectProjection's InputSchema, else
// SchemaProjection's Schema) and of the result (OutputSchemaProjection's
// OutputSchema); nil for none.
func Schemas(p ToolProjection) (in, out json.RawMessage) {
	switch sp := p.(type) {
	case *DirectProjection:
		in = sp.InputSchema()
	case SchemaProjection:
		in = sp.Schema()
	}
	if op, ok := p.(OutputSchemaProjection); ok {
		out = op.OutputSchema()
	}
	return in, out
}

// Namespaced is implemented by projections that know their namespace and
// method name explicitly, so the engine need not split Name() on a
// separator. A tool without namespace returns "" from Namespace.
type Namespaced interface {
	// Namespace is the tool's namespace, "" for none.
	Namespace() string
	// MethodName is the tool's name within its namespace.
	MethodName() string
}

// ArgumentError reports an argument that does not fit a tool's parameters.
type ArgumentError struct {
	Tool string // the tool's name
	Arg  string // the argument's name, "" when the whole set is wrong
	Err  error  // what is wrong
}

// Error implements error.
func (e *ArgumentError) Error() string {
	if e.Arg == "" {
		return fmt.Sprintf("projection: tool %q: %v", e.Tool, e.Err)
	}
	return fmt.Sprintf("projection: tool %q: argument %q: %v", e.Tool, e.Arg, e.Err)
}

// Unwrap returns the cause.
func (e *ArgumentError) Unwrap() error { return e.Err }

// Is reports whether target is ErrBadArgument.
func (e *ArgumentError) Is(target error) bool { return target == ErrBadArgument }

// ValidateNamespace checks that every key of ns equals the Name of its
// projection and that no projection is nil. The error lists every offending
// key, sorted, and matches ErrNamespaceMismatch.
func ValidateNamespace(ns map[string]ToolProjection) error {
	var bad []string
	for key, p := range ns {
		switch {
		case p == nil:
			bad = append(bad, fmt.Sprintf("%q: nil projection", key))
		case p.Name() != key:
			bad = append(bad, fmt.Sprintf("%q: projection is named %q", key, p.Name()))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return fmt.Errorf("%w: %s", ErrNamespaceMismatch, strings.Join(bad, "; "))
}
