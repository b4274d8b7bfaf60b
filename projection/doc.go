// Package projection defines how a host tool appears inside a toolscript
// script: a [ToolProjection] has a name, a doc string and a Call method that
// takes the script's context and a map of keyword arguments.
//
// [NewDirect] wraps an ordinary Go function as a projection with near-zero
// overhead. [ValidateNamespace] checks that a namespace map is keyed by the
// names of its projections.
//
// The package imports nothing else of toolscript but internal/schema, which
// derives the JSON Schemas of a wrapped function's arguments and result
// ([DirectProjection.InputSchema], [DirectProjection.OutputSchema]): the engine
// sees tools only through this interface, and any tool catalogue can
// produce projections.
//
// # Argument binding
//
// Arguments arrive as map[string]any, the shape a model's JSON produces.
// A [DirectProjection] converts them to the wrapped function's parameter
// types: JSON numbers (float64) become ints only when they are whole and fit,
// maps become structs by their json tags, slices convert element by element.
// A value that does not fit, a missing parameter of a plain function and an
// unknown argument name are each an [*ArgumentError] naming the tool and the
// argument; it matches [ErrBadArgument] with errors.Is.
//
// # Host policy
//
// Optional interfaces let a tool source shape what a script sees and
// does: a [Gated] projection's Decide precedes each call (in the host, in
// both runtimes, recorded in the trace), and a [Roled] entry is the
// namespace's tool search ([RoleSearch], tools.Search in scripts) or a
// tool withheld from the surface ([RoleWithheld]). [CodeRunner] lets a
// tool run scripts on a runtime it does not import.
//
// # Concurrency
//
// A DirectProjection is immutable after construction and safe for concurrent
// use; it adds no locking of its own around the wrapped function.
package projection
