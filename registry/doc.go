// Package registry is the tool catalogue of toolscript: Go functions, MCP or
// hand-built tools with names, namespaces, descriptions and JSON Schemas of
// their arguments. Agents use one registry two ways: for classic JSON tool
// calling (declare the tools with [Registry.Schemas], run the model's calls
// with [Registry.ExecuteToolCalls], answer with [ToolMessages]) and as the
// tool source of the engine ([Registry.Projections] for engine.Execute).
//
// # Names and namespaces
//
// Every name is normalized with [NormalizeToolName] into snake_case that
// every supported API accepts. A tool in a namespace has the qualified name
// namespace + separator + method name, such as "math_ops-multiply"; the
// separator is "-" by default ([SeparatorDash]), valid for OpenAI since
// GPT-4.1, or "." ([SeparatorDot]) with [WithSeparator]. The registry's
// separator is used everywhere: registration, [Registry.Get], [Registry.Merge],
// [Registry.Spinoff], schemas and projections. A lookup with the other
// separator fails; ExecuteToolCalls then says which name was meant.
//
// [Registry.Merge] gathers registries into one, namespacing each tool by its
// registry's name (or, with forceNamespace, by the receiver's name);
// [Registry.Spinoff] takes a namespace back out into a registry of its own;
// [Registry.ReduceNamespace] drops a namespace all tools share. Names() lists
// the enabled tools in registration order.
//
// # Schemas
//
// Registering a function whose argument is a struct derives the schema from
// its fields: json tags name the arguments (omitempty or a pointer type makes
// one optional) and the whole `jsonschema` tag is the description, the
// convention of the official MCP Go SDK:
//
//	type SearchArgs struct {
//		Query string `json:"query" jsonschema:"words to look for"`
//		Limit int    `json:"limit,omitempty" jsonschema:"at most this many results"`
//	}
//
// Integers are "integer", floats "number", slices "array", maps with string
// keys "object", time.Time a "date-time" string; unknown arguments are
// refused (additionalProperties false). A plain function's parameters,
// named with [WithParams], are all required. [WithSchema] sets any object
// schema instead.
//
// [Registry.Schemas] exports the declarations of the enabled tools as the
// "tools" value of a request to the OpenAI Chat Completions, OpenAI
// Responses, Anthropic Messages or Gemini API (see [Format]); the Gemini
// form is converted to that API's OpenAPI subset.
//
// # Tool calls
//
// [Call] decodes from the tool calls of all four APIs, and
// [ParseToolCalls] finds them in whole responses and messages.
// [Registry.ExecuteToolCalls] validates each call's arguments against its
// tool's schema before running it (compiled once per tool, so a failing
// argument is reported by path, such as items[2].qty, at the cost of well
// under a microsecond), runs the batch on an executor backend and returns one
// [ToolResult] per call in input order, whatever happened to the others.
//
// In [ModeGoroutine] (the default) calls run on a bounded goroutine pool of
// package executor; a tool's context is then an *executor.ExecutionContext
// for progress reports. In [ModeProcess] they run in child processes of the
// same binary; only tools with a ProcessFunc registered with
// executor.RegisterFunc can, since a child cannot receive a closure. Tools
// whose Metadata says ConcurrencyUnsafe make their whole batch sequential,
// and Metadata.Timeout bounds each run.
//
// Functions of the kwargs shape, func(ctx, map[string]any) (any, error), see
// the arguments as given: JSON-decoded values (float64 for numbers) for
// calls decoded from JSON, the caller's Go values for Call.Args. The
// other shapes convert them (see package projection).
//
// # Search, permissions and the PTC tool
//
// [Registry.Search] ranks the visible tools for some words (BM25 over
// names, descriptions and argument names) and gives each hit's Go
// [Signature]; a script's tools.Search runs it (see
// [Registry.ScriptNamespace]). [Registry.SetPermission] makes tools
// allowed, asked for ([WithAskFunc] decides each call) or denied (absent
// from Names, Schemas, the script surface and Search; calls fail with
// [ErrToolDenied]); [ToolResult.Decision] and the engine's trace record
// each decision. [Registry.EnablePTC] adds the programmatic_tool_call
// tool, whose scripts call the other tools, for JSON tool-calling loops.
//
// # Concurrency
//
// A Registry is safe for concurrent use: lookups and batches take a read
// lock; registration, Merge, Spinoff and ReduceNamespace replace entries
// under a write lock and never mutate a stored Tool, so a running batch or a
// projection map keeps the tools it started with. Merge reads the other
// registry before locking the receiver, so two registries can be merged
// into each other concurrently without deadlock.
//
// A registry starts its goroutine backend on the first ExecuteToolCalls and
// its process backend on the first process-mode call; Close stops them.
//
// # Security
//
// The registry does not sandbox tools: a tool runs with the rights of the
// host, in this process or a child of it. Validation keeps malformed
// arguments from reaching a tool but checks types and shapes, not intent;
// use tags (TagDestructive, TagNetwork, ...) and Disable to decide what a
// model may call.
package registry
