package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/executor"
	"github.com/toolscript/toolscript/projection"
	"github.com/toolscript/toolscript/registry"
)

func multiply(a, b float64) float64 { return a * b }

type WeatherArgs struct {
	City  string `json:"city" jsonschema:"the city to look up"`
	Units string `json:"units,omitempty" jsonschema:"metric or imperial"`
}

func getWeather(_ context.Context, in WeatherArgs) (string, error) {
	return "sunny in " + in.City, nil
}

func calculateTotal(args map[string]any) (any, error) { return len(args), nil }

type calc struct{ factor float64 }

func (c *calc) Scale(_ context.Context, in struct {
	X float64 `json:"x"`
}) (float64, error) {
	return c.factor * in.X, nil
}

func TestRegistry_Register(t *testing.T) {
	c := &calc{factor: 3}
	tests := []struct {
		name       string
		fn         any
		opts       []registry.RegisterOption
		wantName   string
		wantSchema string
		args       map[string]any
		want       any
	}{
		{
			name: "plain func with params", fn: multiply,
			opts:       []registry.RegisterOption{registry.WithParams("a", "b"), registry.WithNamespace("math_ops")},
			wantName:   "math_ops-multiply",
			wantSchema: `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}`,
			args:       map[string]any{"a": 2.0, "b": 3.0}, want: 6.0,
		},
		{
			name: "struct input", fn: getWeather,
			wantName:   "get_weather",
			wantSchema: `{"type":"object","properties":{"city":{"type":"string","description":"the city to look up"},"units":{"type":"string","description":"metric or imperial"}},"required":["city"],"additionalProperties":false}`,
			args:       map[string]any{"city": "Oslo"}, want: "sunny in Oslo",
		},
		{
			name: "kwargs map", fn: calculateTotal,
			wantName: "calculate_total", wantSchema: `{"type":"object"}`,
			args: map[string]any{"x": 1, "y": 2}, want: 2,
		},
		{
			name: "method value", fn: c.Scale, opts: []registry.RegisterOption{registry.WithNamespace("Calc")},
			wantName:   "calc-scale",
			wantSchema: `{"type":"object","properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":false}`,
			args:       map[string]any{"x": 2.0}, want: 6.0,
		},
		{
			name: "literal with name", fn: func() string { return "pong" },
			opts:     []registry.RegisterOption{registry.WithName("Ping")},
			wantName: "ping", wantSchema: `{"type":"object","properties":{},"additionalProperties":false}`,
			args: nil, want: "pong",
		},
		{
			name: "execution context", fn: func(ec *executor.ExecutionContext, kw map[string]any) (any, error) {
				return ec.CheckCancelled() == nil, nil
			},
			opts:     []registry.RegisterOption{registry.WithName("alive")},
			wantName: "alive", wantSchema: `{"type":"object"}`, want: true,
		},
		{
			name: "explicit schema", fn: calculateTotal,
			opts:       []registry.RegisterOption{registry.WithSchema(json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)), registry.WithName("count")},
			wantName:   "count",
			wantSchema: `{"type":"object","properties":{"n":{"type":"integer"}}}`,
			args:       map[string]any{"n": 1}, want: 1,
		},
		{
			name: "tool value", fn: registry.Tool{Name: "Echo", Description: "Echo it.", Namespace: "util",
				Parameters: json.RawMessage(`{"type":"object","properties":{"s":{"type":"string"}}}`),
				Func:       func(_ context.Context, a map[string]any) (any, error) { return a["s"], nil }},
			wantName: "util-echo", wantSchema: `{"type":"object","properties":{"s":{"type":"string"}}}`,
			args: map[string]any{"s": "hi"}, want: "hi",
		},
		{
			name: "projection", fn: projection.MustDirect("sum", func(a, b int) int { return a + b }, "Sum.", projection.WithParams("a", "b")),
			wantName: "sum", wantSchema: `{"type":"object"}`,
			args: map[string]any{"a": 1, "b": 2}, want: 3,
		},
		{
			name: "executor named", fn: executor.Named("registry_test.add"),
			wantName: "registry_test_add", wantSchema: `{"type":"object"}`,
			args: map[string]any{"a": 1.0, "b": 2.0}, want: 3.0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := registry.New("test")
			require.NoError(t, r.Register(tt.fn, tt.opts...))
			assert.Equal(t, []string{tt.wantName}, r.Names())
			tool, ok := r.Get(tt.wantName)
			require.True(t, ok)
			assert.Equal(t, tt.wantName, tool.Name)
			assert.Equal(t, tt.wantName, tool.QualifiedName())
			assert.JSONEq(t, tt.wantSchema, string(tool.Parameters))
			got, err := r.Projections()[tt.wantName].Call(context.Background(), tt.args)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestRegistry_RegisterErrors(t *testing.T) {
	tests := []struct {
		name string
		fn   any
		opts []registry.RegisterOption
		want error
		msg  string
	}{
		{"nil", nil, nil, registry.ErrInvalidTool, "nil"},
		{"not a func", 42, nil, registry.ErrInvalidTool, "cannot register a int"},
		{"literal without name", func() {}, nil, registry.ErrInvalidTool, "use WithName"},
		{"positional without params", multiply, nil, registry.ErrInvalidTool, "need names"},
		{"params count", multiply, []registry.RegisterOption{registry.WithParams("a")}, registry.ErrInvalidTool, "names 1 parameters, function has 2"},
		{"bad schema type", calculateTotal, []registry.RegisterOption{registry.WithSchema(json.RawMessage(`{"type":"string"}`))}, registry.ErrInvalidTool, "must be an object schema"},
		{"bad schema json", calculateTotal, []registry.RegisterOption{registry.WithSchema(json.RawMessage(`{`))}, registry.ErrInvalidTool, "parameters"},
		{"unnormalizable name", calculateTotal, []registry.RegisterOption{registry.WithName(" \t ")}, registry.ErrInvalidName, "no letters"},
		{"unnormalizable namespace", calculateTotal, []registry.RegisterOption{registry.WithNamespace("天气")}, registry.ErrInvalidName, "namespace"},
		{"qualified too long", calculateTotal, []registry.RegisterOption{registry.WithNamespace("n123456789012345678901234567890"), registry.WithName("m123456789012345678901234567890123")}, registry.ErrInvalidName, "longer than 64"},
		{"tool without func", registry.Tool{Name: "x"}, nil, registry.ErrInvalidTool, "neither Func nor ProcessFunc"},
		{"unsupported field type", func(struct {
			C chan int `json:"c"`
		}) {
		}, []registry.RegisterOption{registry.WithName("c")}, registry.ErrInvalidTool, "unsupported type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := registry.New("test")
			err := r.Register(tt.fn, tt.opts...)
			require.ErrorIs(t, err, tt.want)
			assert.Contains(t, err.Error(), tt.msg)
			assert.Empty(t, r.Names())
		})
	}
}

func TestRegistry_Duplicates(t *testing.T) {
	r := registry.New("test")
	require.NoError(t, r.Register(calculateTotal))
	require.NoError(t, r.Register(getWeather))
	err := r.Register(calculateTotal, registry.WithDescription("again"))
	require.ErrorIs(t, err, registry.ErrDuplicateTool)
	assert.EqualError(t, err, `registry: duplicate tool: "calculate_total" is already registered (use WithReplace to replace it)`)

	require.NoError(t, r.Register(calculateTotal, registry.WithDescription("again"), registry.WithReplace()))
	assert.Equal(t, []string{"calculate_total", "get_weather"}, r.Names(), "replacing keeps the place")
	tool, _ := r.Get("calculate_total")
	assert.Equal(t, "again", tool.Description)

	// Names that normalize alike collide too.
	require.ErrorIs(t, r.Register(calculateTotal, registry.WithName("Calculate Total")), registry.ErrDuplicateTool)
}

func TestRegistry_Separator(t *testing.T) {
	for _, sep := range []registry.Separator{registry.SeparatorDash, registry.SeparatorDot} {
		t.Run(string(sep), func(t *testing.T) {
			r := registry.New("test", registry.WithSeparator(sep))
			require.NoError(t, r.Register(multiply, registry.WithParams("a", "b"), registry.WithNamespace("math_ops")))
			want := "math_ops" + string(sep) + "multiply"
			other := "math_ops.multiply"
			if sep == registry.SeparatorDot {
				other = "math_ops-multiply"
			}
			assert.Equal(t, []string{want}, r.Names())
			tool, ok := r.Get(want)
			require.True(t, ok)
			assert.Equal(t, "math_ops", tool.Namespace)
			assert.Equal(t, "multiply", tool.MethodName)
			assert.Equal(t, want, tool.QualifiedName())
			_, ok = r.Get(other)
			assert.False(t, ok, "lookup uses the registry's separator only")
			assert.Contains(t, r.Projections(), want)
		})
	}
	assert.PanicsWithValue(t, `registry: invalid separator "/": use SeparatorDash or SeparatorDot`, func() {
		registry.New("x", registry.WithSeparator("/"))
	})
}

// TestNew_Name checks the registry's name: normalized, "" for an unnamed
// registry, and a panic matching ErrInvalidName for a name that does not
// normalize (it used to leave the registry unnamed without a word).
func TestNew_Name(t *testing.T) {
	tests := []struct {
		name, in, want string
		panics         bool
	}{
		{name: "normalized", in: "Math Ops", want: "math_ops"},
		{name: "unnamed", in: "", want: ""},
		{name: "white space only", in: "   ", panics: true},
		{name: "no ASCII letter or digit", in: "éè", panics: true},
		{name: "too long", in: strings.Repeat("a", registry.MaxNameLength+1), panics: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.panics {
				assert.Equal(t, tt.want, registry.New(tt.in).Name())
				return
			}
			var got any
			func() {
				defer func() { got = recover() }()
				registry.New(tt.in)
			}()
			err, ok := got.(error)
			require.True(t, ok, "New(%q) panics with an error, got %v", tt.in, got)
			assert.ErrorIs(t, err, registry.ErrInvalidName)
			assert.Contains(t, err.Error(), "registry: New: ")
		})
	}
}

func TestTool_QualifiedName(t *testing.T) {
	assert.Equal(t, "a-b", (&registry.Tool{Name: "ignored", Namespace: "a", MethodName: "b"}).QualifiedName())
	assert.Equal(t, "plain", (&registry.Tool{Name: "plain", MethodName: "plain"}).QualifiedName())
	assert.Equal(t, "plain", (&registry.Tool{Name: "plain", Namespace: "a"}).QualifiedName())
}

func TestRegistry_GetReturnsCopy(t *testing.T) {
	r := registry.New("test")
	require.NoError(t, r.Register(getWeather, registry.WithMetadata(registry.ToolMetadata{Tags: []registry.Tag{registry.TagReadOnly}})))
	tool, _ := r.Get("get_weather")
	tool.Description = "changed"
	tool.Metadata.Tags[0] = registry.TagDestructive
	again, _ := r.Get("get_weather")
	assert.Empty(t, again.Description)
	assert.True(t, again.Metadata.HasTag(registry.TagReadOnly))
	assert.False(t, again.Metadata.HasTag(registry.TagDestructive))
}

func TestRegistry_EnableDisable(t *testing.T) {
	r := registry.New("test")
	require.NoError(t, r.Register(multiply, registry.WithParams("a", "b"), registry.WithNamespace("math")))
	require.NoError(t, r.Register(calculateTotal, registry.WithNamespace("math")))
	require.NoError(t, r.Register(getWeather))

	require.NoError(t, r.Disable("math-multiply", "under maintenance"))
	assert.Equal(t, []string{"math-calculate_total", "get_weather"}, r.Names())
	reason, off := r.DisabledReason("math-multiply")
	assert.True(t, off)
	assert.Equal(t, "under maintenance", reason)
	assert.NotContains(t, r.Projections(), "math-multiply")
	tool, ok := r.Get("math-multiply")
	require.True(t, ok, "Get still finds disabled tools")
	assert.True(t, tool.Metadata.Disabled)

	require.NoError(t, r.DisableNamespace("math", "no math today"))
	assert.Equal(t, []string{"get_weather"}, r.Names())
	reason, off = r.DisabledReason("math-calculate_total")
	assert.True(t, off)
	assert.Equal(t, "no math today", reason)
	assert.Len(t, r.Tools(), 3)

	require.NoError(t, r.EnableNamespace("math"))
	assert.Equal(t, []string{"math-calculate_total", "get_weather"}, r.Names(), "a tool disabled by itself stays disabled")
	require.NoError(t, r.Enable("math-multiply"))
	assert.Equal(t, []string{"math-multiply", "math-calculate_total", "get_weather"}, r.Names())

	require.ErrorIs(t, r.Disable("nope", ""), registry.ErrUnknownTool)
	require.ErrorIs(t, r.DisableNamespace("nope", ""), registry.ErrUnknownNamespace)
	_, off = r.DisabledReason("nope")
	assert.False(t, off)
}

func TestRegistry_Unregister(t *testing.T) {
	r := registry.New("test")
	require.NoError(t, r.Register(calculateTotal))
	require.NoError(t, r.Register(getWeather))
	require.NoError(t, r.Unregister("calculate_total"))
	assert.Equal(t, []string{"get_weather"}, r.Names())
	require.ErrorIs(t, r.Unregister("calculate_total"), registry.ErrUnknownTool)
}

func TestRegistry_Projections(t *testing.T) {
	r := registry.New("test")
	require.NoError(t, r.Register(multiply, registry.WithParams("a", "b"), registry.WithNamespace("math_ops"), registry.WithDescription("Multiply two numbers.")))
	require.NoError(t, r.Register(func(ctx context.Context, _ map[string]any) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}, registry.WithName("slow"), registry.WithMetadata(registry.ToolMetadata{Timeout: 10 * time.Millisecond})))
	ns := r.Projections()
	require.NoError(t, projection.ValidateNamespace(ns))
	require.Len(t, ns, 2)

	p := ns["math_ops-multiply"]
	assert.Equal(t, "Multiply two numbers.", p.Doc())
	sp, ok := p.(projection.SchemaProjection)
	require.True(t, ok)
	assert.Contains(t, string(sp.Schema()), `"required":["a","b"]`)
	np, ok := p.(projection.Namespaced)
	require.True(t, ok)
	assert.Equal(t, "math_ops", np.Namespace())
	assert.Equal(t, "multiply", np.MethodName())

	_, err := p.Call(context.Background(), map[string]any{"a": "two", "b": 3})
	var ae *projection.ArgumentError
	require.ErrorAs(t, err, &ae)
	require.ErrorIs(t, err, projection.ErrBadArgument)
	assert.Equal(t, "a", ae.Arg)
	assert.EqualError(t, err, `projection: tool "math_ops-multiply": argument "a": expected number, got string "two"`)

	_, err = ns["slow"].Call(context.Background(), nil)
	require.ErrorIs(t, err, context.DeadlineExceeded, "the tool's timeout applies")

	snp, ok := ns["slow"].(projection.Namespaced)
	require.True(t, ok)
	assert.Empty(t, snp.Namespace())
	assert.Equal(t, "slow", snp.MethodName())
}

func TestRegistry_SetDefaultExecutionMode(t *testing.T) {
	r := registry.New("test")
	assert.Equal(t, registry.ModeGoroutine, r.DefaultExecutionMode())
	require.NoError(t, r.SetDefaultExecutionMode(registry.ModeProcess))
	assert.Equal(t, registry.ModeProcess, r.DefaultExecutionMode())
	err := r.SetDefaultExecutionMode("thread")
	require.Error(t, err)
	assert.EqualError(t, err, `registry: unknown execution mode "thread"`)
}

func TestRegistry_Namespaces(t *testing.T) {
	r := registry.New("test")
	require.NoError(t, r.Register(calculateTotal, registry.WithNamespace("b")))
	require.NoError(t, r.Register(getWeather, registry.WithNamespace("a")))
	require.NoError(t, r.Register(multiply, registry.WithParams("x", "y"), registry.WithNamespace("b")))
	require.NoError(t, r.Register(calculateTotal))
	assert.Equal(t, []string{"b", "a"}, r.Namespaces())
	assert.Equal(t, 4, r.Len())
	assert.Equal(t, "test", r.Name())
	assert.Equal(t, registry.SeparatorDash, r.Separator())
}

var _ = errors.New

func TestRegistry_RegisterNamespace(t *testing.T) {
	ns := map[string]projection.ToolProjection{
		"multiply": projection.MustDirect("multiply", multiply, "Multiply.", projection.WithParams("a", "b")),
		"add":      projection.MustDirect("add", func(a, b float64) float64 { return a + b }, "Add.", projection.WithParams("a", "b")),
	}
	r := registry.New("r")
	require.NoError(t, r.Register(ns, registry.WithNamespace("math_ops")))
	assert.Equal(t, []string{"math_ops-add", "math_ops-multiply"}, r.Names())
	got, err := r.Projections()["math_ops-add"].Call(context.Background(), map[string]any{"a": 1, "b": 2})
	require.NoError(t, err)
	assert.Equal(t, 3.0, got)

	// All or nothing.
	bad := map[string]projection.ToolProjection{"ok": ns["add"], "zz": nil}
	r2 := registry.New("r2")
	require.ErrorIs(t, r2.Register(bad), registry.ErrInvalidTool)
	assert.Empty(t, r2.Names())
	require.ErrorIs(t, r.Register(ns, registry.WithNamespace("math_ops")), registry.ErrDuplicateTool)
	assert.Len(t, r.Names(), 2)
	require.NoError(t, r.Register(ns, registry.WithNamespace("math_ops"), registry.WithReplace()))
	require.ErrorIs(t, r.Register(ns, registry.WithName("x")), registry.ErrInvalidTool)
}
