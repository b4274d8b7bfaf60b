package projection

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/toolscript/toolscript/internal/schema"
	"github.com/toolscript/toolscript/internal/suggest"
)

// DirectProjection wraps a Go function as a ToolProjection. Build one with
// NewDirect; the zero value is not usable. It is immutable and safe for
// concurrent use.
type DirectProjection struct {
	name   string
	doc    string
	schema json.RawMessage
	call   func(ctx context.Context, args map[string]any) (any, error)
	fn     reflect.Value
	params []string // parameter names, in order; nil for map or struct input
	in     reflect.Type

	outSchema json.RawMessage // WithOutputSchema
	inTypes   []reflect.Type  // parameter types of a plain function
	out       reflect.Type    // the result type, nil for none
	noArgs    bool            // the function takes no arguments
	derive    sync.Once       // derives the schemas not given
	derived   [2]json.RawMessage
}

var (
	_ SchemaProjection       = (*DirectProjection)(nil)
	_ OutputSchemaProjection = (*DirectProjection)(nil)
)

// DirectOption configures NewDirect.
type DirectOption func(*directConfig)

type directConfig struct {
	params    []string
	schema    json.RawMessage
	outSchema json.RawMessage
}

// WithParams names the parameters of a plain function such as
// func(a, b float64) float64, in order. Go keeps no parameter names at run
// time, so a function with positional parameters needs this option.
func WithParams(names ...string) DirectOption {
	return func(c *directConfig) { c.params = names }
}

// WithSchema attaches the JSON Schema of the arguments object, returned by
// Schema instead of the derived one. NewDirect checks only that it is valid
// JSON.
func WithSchema(schema json.RawMessage) DirectOption {
	return func(c *directConfig) { c.schema = schema }
}

// WithOutputSchema attaches the JSON Schema of the result, returned by
// OutputSchema instead of the derived one. NewDirect checks only that it is
// valid JSON.
func WithOutputSchema(schema json.RawMessage) DirectOption {
	return func(c *directConfig) { c.outSchema = schema }
}

var (
	ctxType   = reflect.TypeFor[context.Context]()
	errType   = reflect.TypeFor[error]()
	kwargType = reflect.TypeFor[map[string]any]()
)

// NewDirect wraps fn as a projection named name with documentation doc.
//
// Accepted shapes, each optionally taking a context.Context first (it then
// receives the script's context, so timeouts reach the tool):
//
//	func(map[string]any) (any, error)   // the kwargs map as is (fastest)
//	func(In) (Out, error)               // In a struct or *struct; json tags name the arguments
//	func(a A, b B, ...) (Out, error)    // plain parameters, named by WithParams
//
// The results may be (Out, error), (Out), (error) or nothing. Any other shape
// is an error matching ErrInvalidFunc.
func NewDirect(name string, fn any, doc string, opts ...DirectOption) (*DirectProjection, error) {
	var cfg directConfig
	for _, o := range opts {
		o(&cfg)
	}
	if name == "" {
		return nil, fmt.Errorf("%w: empty tool name", ErrInvalidFunc)
	}
	if cfg.schema != nil && !json.Valid(cfg.schema) {
		return nil, fmt.Errorf("%w: tool %q: schema is not valid JSON", ErrInvalidFunc, name)
	}
	if cfg.outSchema != nil && !json.Valid(cfg.outSchema) {
		return nil, fmt.Errorf("%w: tool %q: output schema is not valid JSON", ErrInvalidFunc, name)
	}
	p := &DirectProjection{name: name, doc: doc, schema: cfg.schema, outSchema: cfg.outSchema}
	switch f := fn.(type) {
	case func(context.Context, map[string]any) (any, error):
		p.call = f
		return p, nil
	case func(map[string]any) (any, error):
		p.call = func(_ context.Context, args map[string]any) (any, error) { return f(args) }
		return p, nil
	}
	if err := p.bindReflect(fn, cfg.params); err != nil {
		return nil, err
	}
	return p, nil
}

// MustDirect is like NewDirect but panics on error. Use it for package-level
// tool tables whose shape is fixed at compile time.
func MustDirect(name string, fn any, doc string, opts ...DirectOption) *DirectProjection {
	p, err := NewDirect(name, fn, doc, opts...)
	if err != nil {
		panic(err)
	}
	return p
}

func (p *DirectProjection) bindReflect(fn any, params []string) error {
	v := reflect.ValueOf(fn)
	if !v.IsValid() || v.Kind() != reflect.Func || v.IsNil() {
		return fmt.Errorf("%w: tool %q: want a func, got %T", ErrInvalidFunc, p.name, fn)
	}
	t := v.Type()
	if t.IsVariadic() {
		return fmt.Errorf("%w: tool %q: variadic functions are not supported", ErrInvalidFunc, p.name)
	}
	first := 0
	wantCtx := t.NumIn() > 0 && t.In(0) == ctxType
	if wantCtx {
		first = 1
	}
	// Results: (), (T), (error), (T, error).
	hasErr, hasOut := false, false
	switch t.NumOut() {
	case 0:
	case 1:
		if t.Out(0) == errType {
			hasErr = true
		} else {
			hasOut = true
		}
	case 2:
		if t.Out(1) != errType {
			return fmt.Errorf("%w: tool %q: second result must be error, got %v", ErrInvalidFunc, p.name, t.Out(1))
		}
		hasOut, hasErr = true, true
	default:
		return fmt.Errorf("%w: tool %q: at most two results (value, error), got %d", ErrInvalidFunc, p.name, t.NumOut())
	}
	n := t.NumIn() - first
	var bind func(args map[string]any, in []reflect.Value) error
	switch {
	case params != nil:
		if len(params) != n {
			return fmt.Errorf("%w: tool %q: WithParams names %d parameters, function has %d", ErrInvalidFunc, p.name, len(params), n)
		}
		seen := map[string]bool{}
		for _, name := range params {
			if name == "" || seen[name] {
				return fmt.Errorf("%w: tool %q: parameter names must be unique and non-empty: %q", ErrInvalidFunc, p.name, params)
			}
			seen[name] = true
		}
		p.params = params
		types := make([]reflect.Type, n)
		for i := range n {
			types[i] = t.In(first + i)
		}
		p.inTypes = types
		bind = func(args map[string]any, in []reflect.Value) error {
			for k := range args {
				if !seen[k] {
					return &ArgumentError{Tool: p.name, Arg: k, Err: fmt.Errorf("unknown argument%s; parameters are %s", suggest.Hint(k, params), strings.Join(params, ", "))}
				}
			}
			for i, name := range params {
				a, ok := args[name]
				if !ok {
					return &ArgumentError{Tool: p.name, Arg: name, Err: fmt.Errorf("missing argument")}
				}
				rv, err := convert(a, types[i])
				if err != nil {
					return &ArgumentError{Tool: p.name, Arg: name, Err: err}
				}
				in[first+i] = rv
			}
			return nil
		}
	case n == 0:
		p.noArgs = true
		bind = func(args map[string]any, _ []reflect.Value) error {
			for k := range args {
				return &ArgumentError{Tool: p.name, Arg: k, Err: fmt.Errorf("unknown argument; the tool takes no arguments")}
			}
			return nil
		}
	case n == 1 && (t.In(first) == kwargType):
		bind = func(args map[string]any, in []reflect.Value) error {
			if args == nil {
				args = map[string]any{}
			}
			in[first] = reflect.ValueOf(args)
			return nil
		}
	case n == 1 && isStructish(t.In(first)):
		st := t.In(first)
		p.in = st
		bind = func(args map[string]any, in []reflect.Value) error {
			rv, err := convertStruct(args, st, true)
			if err != nil {
				return argError(p.name, err)
			}
			in[first] = rv
			return nil
		}
	default:
		return fmt.Errorf("%w: tool %q: %d positional parameters need names: use projection.WithParams", ErrInvalidFunc, p.name, n)
	}
	p.fn = v
	if hasOut {
		p.out = t.Out(0)
	}
	nin := t.NumIn()
	p.call = func(ctx context.Context, args map[string]any) (any, error) {
		in := make([]reflect.Value, nin)
		if wantCtx {
			if ctx == nil {
				ctx = context.Background()
			}
			in[0] = reflect.ValueOf(&ctx).Elem()
		}
		if err := bind(args, in); err != nil {
			return nil, err
		}
		out := v.Call(in)
		var res any
		var err error
		if hasOut {
			res = out[0].Interface()
		}
		if hasErr {
			if e := out[len(out)-1]; !e.IsNil() {
				err = e.Interface().(error)
			}
		}
		return res, err
	}
	return nil
}

func isStructish(t reflect.Type) bool {
	return t.Kind() == reflect.Struct || (t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct)
}

// argError turns a conversion error into an ArgumentError, keeping the
// argument path the converter found.
func argError(tool string, err error) error {
	if pe, ok := err.(*pathError); ok {
		return &ArgumentError{Tool: tool, Arg: pe.path, Err: pe.err}
	}
	return &ArgumentError{Tool: tool, Err: err}
}

// Name returns the tool's name.
func (p *DirectProjection) Name() string { return p.name }

// Doc returns the tool's documentation.
func (p *DirectProjection) Doc() string { return p.doc }

// Schema returns the JSON Schema given with WithSchema, or nil.
func (p *DirectProjection) Schema() json.RawMessage { return p.schema }

// InputSchema returns the JSON Schema of the arguments: the one given with
// WithSchema, else the one derived from the function's parameters (an
// input struct, the parameters named by WithParams, or none), or nil for a
// function of the kwargs map or whose types have no schema. Unlike Schema
// it is not a contract a tool catalogue validates calls against (a
// derived schema requires every field, the binding does not): the engine
// types scripts' calls with it (see Schemas).
func (p *DirectProjection) InputSchema() json.RawMessage {
	if p.schema != nil {
		return p.schema
	}
	p.derive.Do(p.deriveSchemas)
	return p.derived[0]
}

// OutputSchema returns the JSON Schema of the result: the one given with
// WithOutputSchema, else the one derived from the function's result type,
// or nil for a function without result, of result type any, or of the
// kwargs map.
func (p *DirectProjection) OutputSchema() json.RawMessage {
	if p.outSchema != nil {
		return p.outSchema
	}
	p.derive.Do(p.deriveSchemas)
	return p.derived[1]
}

// deriveSchemas derives the schemas of the function's types, once.
func (p *DirectProjection) deriveSchemas() {
	switch {
	case p.params != nil:
		p.derived[0], _ = schema.Params(p.params, p.inTypes)
	case p.in != nil:
		p.derived[0], _ = schema.For(p.in)
	case p.noArgs:
		p.derived[0] = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
	}
	if p.out != nil && p.out.Kind() != reflect.Interface {
		p.derived[1], _ = schema.ForResult(p.out)
	}
}

// Params returns the parameter names given with WithParams, or the json
// names of the input struct's fields, in declaration order; nil for a
// function that takes the kwargs map.
func (p *DirectProjection) Params() []string {
	if p.params != nil {
		return append([]string(nil), p.params...)
	}
	if p.in != nil {
		st := p.in
		if st.Kind() == reflect.Pointer {
			st = st.Elem()
		}
		fs := fieldsOf(st)
		names := make([]string, 0, len(fs.order))
		names = append(names, fs.order...)
		return names
	}
	return nil
}

// Call converts args to the function's parameters and calls it. A panic in
// the function is not recovered here: the caller (the engine) owns that
// boundary.
func (p *DirectProjection) Call(ctx context.Context, args map[string]any) (any, error) {
	return p.call(ctx, args)
}
