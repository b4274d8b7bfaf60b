// Package schema derives JSON Schemas of tool arguments from Go types and
// validates argument maps against a schema, quickly.
//
// # Deriving
//
// [For] maps a Go type to a JSON Schema the way the argument binding of
// package projection reads values: bool is "boolean", integer kinds are
// "integer", floats are "number", strings are "string", slices and arrays are
// "array" with "items", map[string]T is an "object" whose
// "additionalProperties" is the schema of T, time.Time is a string in
// "date-time" format, other types that decode themselves from text are
// strings, and interfaces accept anything. A pointer has the schema of its
// element.
//
// A struct is an "object" listing its fields in declaration order under the
// names encoding/json uses, with "additionalProperties": false (the binding
// rejects unknown arguments). A field is required unless its json tag says
// omitempty or omitzero, or its type is a pointer. The field's description
// is its whole `jsonschema` tag:
//
//	type Args struct {
//		City  string `json:"city" jsonschema:"the city to look up"`
//		Units string `json:"units,omitempty" jsonschema:"metric or imperial"`
//	}
//
// This is the convention of the official MCP Go SDK (its jsonschema
// package), so one struct serves both; like that package, For refuses a tag
// that starts with a "word=" pair such as "description=...", which other
// libraries use and which the SDK reserves.
//
// Recursive types, channels, functions, complex numbers and maps with
// non-string keys are refused with an error matching [ErrUnsupportedType].
//
// # Validating
//
// [Compile] turns a schema into a [*Schema] once; [Schema.Validate] then
// checks an argument map without allocating on success. The validator knows
// the keywords that decide whether a call can reach the tool: type (a name or
// a list of names), properties, required, additionalProperties (false or a
// schema), items, enum, const, anyOf, oneOf, allOf and local $ref into
// "$defs" or "definitions". Other keywords (formats, bounds, patterns) are
// accepted and not checked: the tool itself remains the judge of values.
//
// Values are those JSON decoding produces (nil, bool, float64, json.Number,
// string, []any, map[string]any) and the usual Go values a caller may pass
// instead (integers, float32, typed slices and maps); anything else is
// checked through its JSON encoding. An "integer" is any whole number.
//
// A failure is a [*ValidationError] naming the argument path, such as
// items[2].qty, and matching [ErrInvalid].
//
// # Concurrency
//
// A *Schema is immutable and safe for concurrent use.
package schema
