package registry

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/toolscript/toolscript/executor"
	"github.com/toolscript/toolscript/internal/schema"
)

// Tool is one entry of a registry: a function with a name, a description and
// the JSON Schema of its arguments.
//
// Build one by hand to register a tool whose schema is known rather than
// derived (an MCP server's tool, say): set Name, Description, Parameters and
// Func (or ProcessFunc) and pass it to Registry.Register. The registry
// normalizes the names and fills Namespace, MethodName and Name.
//
// The Tools that Get and Tools return are copies: changing them does not
// change the registry (register again WithReplace for that).
type Tool struct {
	// Name is the qualified name, the one models call: QualifiedName() for a
	// registered tool.
	Name string
	// Description is shown to the model; "" for none.
	Description string
	// Parameters is the JSON Schema of the arguments object. nil means an
	// object with any properties.
	Parameters json.RawMessage
	// OutputSchema is the JSON Schema of the tool's result when one is
	// known (an MCP tool's outputSchema), nil otherwise. The registry
	// keeps it for describing the tool; it does not validate results
	// against it, and the API schemas (Schemas) leave it out, as the
	// model APIs take none.
	OutputSchema json.RawMessage
	// Namespace groups tools, such as "math_ops"; "" for none.
	Namespace string
	// MethodName is the name within the namespace, such as "multiply".
	MethodName string
	// Metadata holds timeout, concurrency, tags and enabled state.
	Metadata ToolMetadata
	// Func runs the tool in this process. ctx carries cancellation and the
	// per-tool timeout; under ExecuteToolCalls it is an
	// *executor.ExecutionContext (see executor.FromContext for progress
	// reports). Errors it returns reach callers unchanged.
	Func func(ctx context.Context, args map[string]any) (any, error)
	// ProcessFunc names the function registered with executor.RegisterFunc
	// that runs this tool in a child process (ModeProcess). "" means the
	// tool runs only in this process.
	ProcessFunc executor.Named

	sep      Separator
	compiled *schema.Schema
	serial   *sync.Mutex // for ConcurrencyUnsafe tools: one run at a time in this process
}

// QualifiedName returns Namespace, the registry's separator and MethodName
// when both are set, such as "math_ops-multiply", else Name.
func (t *Tool) QualifiedName() string {
	if t.Namespace != "" && t.MethodName != "" {
		sep := t.sep
		if sep == "" {
			sep = DefaultSeparator
		}
		return t.Namespace + string(sep) + t.MethodName
	}
	return t.Name
}

// run calls the tool in this process, one run at a time for a
// ConcurrencyUnsafe tool.
func (t *Tool) run(ctx context.Context, args map[string]any) (any, error) {
	if t.serial != nil {
		t.serial.Lock()
		defer t.serial.Unlock()
	}
	return t.Func(ctx, args)
}

// clone returns a deep copy of t sharing only immutable parts.
func (t *Tool) clone() *Tool {
	c := *t
	c.Parameters = slices.Clone(t.Parameters)
	c.OutputSchema = slices.Clone(t.OutputSchema)
	c.Metadata.Tags = slices.Clone(t.Metadata.Tags)
	return &c
}

// Tag classifies what a tool does, for policies and for the model.
type Tag string

// Tags known to the package. Any other string may be used too.
const (
	TagReadOnly    Tag = "read_only"   // reads only; safe to retry
	TagDestructive Tag = "destructive" // deletes or overwrites data
	TagNetwork     Tag = "network"     // talks to the network
	TagFileSystem  Tag = "file_system" // touches files
	TagSlow        Tag = "slow"        // takes seconds or more
	TagPrivileged  Tag = "privileged"  // needs elevated rights
)

// ToolMetadata is the execution policy and classification of a tool. The
// zero value means: no timeout, safe to run concurrently, no tags, enabled.
type ToolMetadata struct {
	// Timeout bounds each run of the tool. Zero, the default, means no
	// limit, and so does a negative value. A call over it fails with an
	// *executor.TimeoutError (matching context.DeadlineExceeded).
	Timeout time.Duration
	// ConcurrencyUnsafe marks a tool that must not run alongside other
	// calls: an ExecuteToolCalls batch containing it runs one call at a
	// time, in order, and runs of the tool in this process (from any batch
	// or projection) never overlap.
	ConcurrencyUnsafe bool
	// Tags classify the tool.
	Tags []Tag
	// Disabled hides the tool from Names, schemas and projections, and makes
	// its calls fail with ErrToolDisabled. Set it through Registry.Disable.
	Disabled bool
	// DisabledReason says why, for the model and for logs.
	DisabledReason string
}

// HasTag reports whether m lists tag.
func (m ToolMetadata) HasTag(tag Tag) bool { return slices.Contains(m.Tags, tag) }
