package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"sync"

	"github.com/toolscript/toolscript/executor"
	"github.com/toolscript/toolscript/internal/schema"
	"github.com/toolscript/toolscript/projection"
)

// RegisterOption configures one Register call. Options only record values.
type RegisterOption func(*regConfig)

type regConfig struct {
	ns, name, desc string
	hasDesc        bool
	meta           *ToolMetadata
	replace        bool
	params         []string
	schema         json.RawMessage
}

// WithNamespace puts the tool in namespace ns (normalized), so that its
// qualified name is ns, the separator and its method name.
func WithNamespace(ns string) RegisterOption { return func(c *regConfig) { c.ns = ns } }

// WithName sets the tool's method name (normalized). Without it the name of
// a Go function is its declared name; a function literal needs WithName.
func WithName(name string) RegisterOption { return func(c *regConfig) { c.name = name } }

// WithDescription sets the description shown to the model.
func WithDescription(desc string) RegisterOption {
	return func(c *regConfig) { c.desc, c.hasDesc = desc, true }
}

// WithMetadata sets the tool's timeout, concurrency safety, tags and
// enabled state.
func WithMetadata(m ToolMetadata) RegisterOption { return func(c *regConfig) { c.meta = &m } }

// WithReplace lets the registration replace a tool of the same qualified
// name, keeping its place in Names. Without it a duplicate is an error.
func WithReplace() RegisterOption { return func(c *regConfig) { c.replace = true } }

// WithParams names the parameters of a plain function such as
// func(a, b float64) float64, in order (Go keeps no parameter names at run
// time). See projection.WithParams.
func WithParams(names ...string) RegisterOption {
	return func(c *regConfig) { c.params = names }
}

// WithSchema sets the JSON Schema of the arguments object instead of the
// derived one. It must be an object schema; arguments are validated against
// it before every call.
func WithSchema(s json.RawMessage) RegisterOption { return func(c *regConfig) { c.schema = s } }

var (
	ctxType    = reflect.TypeFor[context.Context]()
	kwargsType = reflect.TypeFor[map[string]any]()
	anyObject  = json.RawMessage(`{"type":"object"}`)
	noArgs     = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
)

// Register adds a tool to the registry. x is one of
//
//   - a Go function of a shape projection.NewDirect accepts:
//     func(ctx, map[string]any) (any, error), func(ctx, In) (Out, error) with
//     In a struct whose json and jsonschema tags give the argument schema,
//     or a plain function whose parameters WithParams names (each optionally
//     without ctx, with results (Out, error), (Out), (error) or none);
//   - a func(*executor.ExecutionContext, map[string]any) (any, error), which
//     receives its ExecutionContext under ExecuteToolCalls;
//   - an executor.Named function registered with executor.RegisterFunc,
//     which can also run in ModeProcess;
//   - a Tool or *Tool built by hand (it is copied);
//   - a projection.ToolProjection, with its schema and namespace when it
//     implements projection.SchemaProjection and projection.Namespaced;
//   - a whole namespace: a map[string]projection.ToolProjection (the shape
//     engine.Execute takes), each registered as above in key order, all or
//     none. WithNamespace then applies to every tool; WithName is refused.
//
// The name comes from WithName, else from the tool or projection, else the
// function's declared name. Names and namespaces are normalized with
// NormalizeToolName. The schema comes from WithSchema, else from the tool
// or projection, else it is derived from the function's argument types (see
// package documentation). A qualified name already taken is an error
// matching ErrDuplicateTool unless WithReplace is given; any other problem
// matches ErrInvalidTool or ErrInvalidName. On error nothing changes.
func (r *Registry) Register(x any, opts ...RegisterOption) error {
	var cfg regConfig
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if ns, ok := x.(map[string]projection.ToolProjection); ok {
		return r.registerAll(ns, cfg)
	}
	t, err := buildTool(x, &cfg)
	if err != nil {
		return err
	}
	if err := r.prepare(t); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.insertLocked(t, cfg.replace)
}

// registerAll registers every projection of ns, atomically.
func (r *Registry) registerAll(ns map[string]projection.ToolProjection, cfg regConfig) error {
	if cfg.name != "" {
		return fmt.Errorf("%w: WithName cannot name a whole namespace", ErrInvalidTool)
	}
	keys := make([]string, 0, len(ns))
	for k := range ns {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	tools := make([]*Tool, 0, len(keys))
	for _, k := range keys {
		if ns[k] == nil {
			return fmt.Errorf("%w: %q: nil projection", ErrInvalidTool, k)
		}
		c := cfg
		t, err := buildTool(ns[k], &c)
		if err != nil {
			return fmt.Errorf("%q: %w", k, err)
		}
		if err := r.prepare(t); err != nil {
			return fmt.Errorf("%q: %w", k, err)
		}
		tools = append(tools, t)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := map[string]bool{}
	for _, t := range tools {
		_, dup := r.tools[t.Name]
		if seen[t.Name] || dup && !cfg.replace {
			return duplicateTool(t.Name)
		}
		seen[t.Name] = true
	}
	for _, t := range tools {
		_ = r.insertLocked(t, true)
	}
	return nil
}

// buildTool makes an unnormalized tool of x and the options.
func buildTool(x any, cfg *regConfig) (*Tool, error) {
	var t *Tool
	switch v := x.(type) {
	case nil:
		return nil, fmt.Errorf("%w: nil", ErrInvalidTool)
	case Tool:
		t = v.clone()
	case *Tool:
		if v == nil {
			return nil, fmt.Errorf("%w: nil *Tool", ErrInvalidTool)
		}
		t = v.clone()
	case executor.Named:
		t = &Tool{Name: string(v), ProcessFunc: v, Parameters: anyObject}
	case projection.ToolProjection:
		t = &Tool{Name: v.Name(), Description: v.Doc(), Func: v.Call}
		if sp, ok := v.(projection.SchemaProjection); ok {
			t.Parameters = sp.Schema()
		}
		if np, ok := v.(projection.Namespaced); ok && np.Namespace() != "" {
			t.Namespace, t.MethodName = np.Namespace(), np.MethodName()
		}
	case func(*executor.ExecutionContext, map[string]any) (any, error):
		t = &Tool{Name: funcName(v), Parameters: anyObject, Func: execContextFunc(v)}
	default:
		var err error
		if t, err = funcTool(x, cfg); err != nil {
			return nil, err
		}
	}
	if cfg.name != "" {
		t.Name, t.MethodName = cfg.name, ""
	}
	if t.MethodName == "" {
		t.MethodName = t.Name
	}
	if t.MethodName == "" {
		return nil, fmt.Errorf("%w: cannot tell the name of %T (a function literal?): use WithName", ErrInvalidTool, x)
	}
	if cfg.ns != "" {
		t.Namespace = cfg.ns
	}
	if cfg.hasDesc {
		t.Description = cfg.desc
	}
	if cfg.meta != nil {
		t.Metadata = *cfg.meta
		t.Metadata.Tags = append([]Tag(nil), cfg.meta.Tags...)
	}
	if cfg.schema != nil {
		t.Parameters = cfg.schema
	}
	if t.Func == nil && t.ProcessFunc != "" {
		t.Func = namedFunc(t.ProcessFunc)
	}
	if t.Func == nil {
		return nil, fmt.Errorf("%w: tool %q has neither Func nor ProcessFunc", ErrInvalidTool, t.MethodName)
	}
	return t, nil
}

// funcTool wraps a Go function with projection.NewDirect and derives its
// schema.
func funcTool(fn any, cfg *regConfig) (*Tool, error) {
	name := cfg.name
	if name == "" {
		name = funcName(fn)
	}
	if name == "" {
		if reflect.ValueOf(fn).Kind() != reflect.Func {
			return nil, fmt.Errorf("%w: cannot register a %T", ErrInvalidTool, fn)
		}
		return nil, fmt.Errorf("%w: cannot tell the name of a function literal: use WithName", ErrInvalidTool)
	}
	var dopts []projection.DirectOption
	if cfg.params != nil {
		dopts = append(dopts, projection.WithParams(cfg.params...))
	}
	p, err := projection.NewDirect(name, fn, cfg.desc, dopts...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidTool, err)
	}
	t := &Tool{Name: name, Func: p.Call}
	if f, ok := fn.(func(context.Context, map[string]any) (any, error)); ok {
		t.Func = f // no indirection for the fastest shape
	}
	if cfg.schema == nil {
		if t.Parameters, err = deriveSchema(reflect.TypeOf(fn), cfg.params); err != nil {
			return nil, fmt.Errorf("%w: tool %q: %w", ErrInvalidTool, name, err)
		}
	}
	return t, nil
}

// deriveSchema returns the argument schema of a function type NewDirect
// accepted.
func deriveSchema(ft reflect.Type, params []string) (json.RawMessage, error) {
	first := 0
	if ft.NumIn() > 0 && ft.In(0) == ctxType {
		first = 1
	}
	n := ft.NumIn() - first
	switch {
	case params != nil:
		types := make([]reflect.Type, n)
		for i := range types {
			types[i] = ft.In(first + i)
		}
		return schema.Params(params, types)
	case n == 0:
		return noArgs, nil
	case ft.In(first) == kwargsType:
		return anyObject, nil
	}
	return schema.For(ft.In(first))
}

// execContextFunc adapts a function declaring an ExecutionContext: under a
// backend it gets the execution's; elsewhere one that is never cancelled.
func execContextFunc(f func(*executor.ExecutionContext, map[string]any) (any, error)) func(context.Context, map[string]any) (any, error) {
	return func(ctx context.Context, args map[string]any) (any, error) {
		if ec, ok := executor.FromContext(ctx); ok {
			return f(ec, args)
		}
		return executor.Invoke(nil, f, args)
	}
}

// namedFunc runs a registered executor function in this process.
func namedFunc(n executor.Named) func(context.Context, map[string]any) (any, error) {
	return func(ctx context.Context, args map[string]any) (any, error) {
		ec, _ := executor.FromContext(ctx)
		return executor.Invoke(ec, n, args)
	}
}

// prepare normalizes t's names for this registry and compiles its schema.
func (r *Registry) prepare(t *Tool) error {
	method, err := NormalizeToolName(t.MethodName)
	if err != nil {
		return err
	}
	ns := ""
	if t.Namespace != "" {
		if ns, err = NormalizeToolName(t.Namespace); err != nil {
			return fmt.Errorf("namespace: %w", err)
		}
	}
	t.sep, t.MethodName, t.Namespace, t.Name = r.sep, method, ns, method
	t.Name = t.QualifiedName()
	if err := checkQualifiedName(t.Name); err != nil {
		return err
	}
	if t.Parameters == nil {
		t.Parameters = anyObject
	}
	if err := checkObjectSchema(t.Parameters); err != nil {
		return fmt.Errorf("%w: tool %q: %w", ErrInvalidTool, t.Name, err)
	}
	if t.compiled, err = schema.Compile(t.Parameters); err != nil {
		return fmt.Errorf("%w: tool %q: %w", ErrInvalidTool, t.Name, err)
	}
	if t.OutputSchema != nil && !json.Valid(t.OutputSchema) {
		return fmt.Errorf("%w: tool %q: the output schema is not JSON", ErrInvalidTool, t.Name)
	}
	t.serial = nil
	if t.Metadata.ConcurrencyUnsafe {
		t.serial = new(sync.Mutex)
	}
	return nil
}

func checkObjectSchema(raw json.RawMessage) error {
	var top struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return fmt.Errorf("parameters: %w", err)
	}
	if top.Type != nil && top.Type != "object" {
		return fmt.Errorf("parameters must be an object schema, got type %v", top.Type)
	}
	return nil
}

// insertLocked adds t; r.mu is held.
func (r *Registry) insertLocked(t *Tool, replace bool) error {
	if _, dup := r.tools[t.Name]; dup {
		if !replace {
			return duplicateTool(t.Name)
		}
	} else {
		r.order = append(r.order, t.Name)
	}
	r.tools[t.Name] = t
	return nil
}
