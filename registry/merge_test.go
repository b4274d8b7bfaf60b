package registry_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/registry"
)

func op(result string) func(context.Context, map[string]any) (any, error) {
	return func(context.Context, map[string]any) (any, error) { return result, nil }
}

// seedRegistries builds two registries like those of the Python
// ToolRegistry's merge examples: openapi_math with tools named the OpenAPI
// way (add_get, ...) and mcp_math (add, ...).
func seedRegistries(t *testing.T, sep registry.Separator) (openapi, mcp *registry.Registry) {
	t.Helper()
	openapi = registry.New("openapi_math", registry.WithSeparator(sep))
	mcp = registry.New("mcp_math", registry.WithSeparator(sep))
	for _, n := range []string{"add", "subtract", "multiply", "divide"} {
		// OpenAPI operation ids such as add_add_get normalize to add_get.
		require.NoError(t, openapi.Register(op("openapi "+n), registry.WithName(n+"_"+n+"_get")))
		require.NoError(t, mcp.Register(op("mcp "+n), registry.WithName(n)))
	}
	return openapi, mcp
}

// seedNames writes the names the Python ToolRegistry's merge examples
// print (with ".") in separator sep.
func seedNames(sep registry.Separator, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.ReplaceAll(n, ".", string(sep))
	}
	return out
}

var separators = []registry.Separator{registry.SeparatorDash, registry.SeparatorDot}

func TestRegistry_Merge(t *testing.T) {
	tests := []struct {
		name  string
		force bool
		want  []string
	}{
		{"default keeps each registry's namespace", false, []string{
			"openapi_math.add_get", "openapi_math.subtract_get", "openapi_math.multiply_get", "openapi_math.divide_get",
			"mcp_math.add", "mcp_math.subtract", "mcp_math.multiply", "mcp_math.divide"}},
		{"force_namespace uses the receiver's name", true, []string{
			"openapi_math.add_get", "openapi_math.subtract_get", "openapi_math.multiply_get", "openapi_math.divide_get",
			"openapi_math.add", "openapi_math.subtract", "openapi_math.multiply", "openapi_math.divide"}},
	}
	for _, sep := range separators {
		for _, tt := range tests {
			t.Run(string(sep)+"/"+tt.name, func(t *testing.T) {
				mixed, mcp := seedRegistries(t, sep)
				require.NoError(t, mixed.Merge(mcp, tt.force, false))
				want := seedNames(sep, tt.want...)
				assert.Equal(t, want, mixed.Names())
				for _, n := range want {
					tool, ok := mixed.Get(n)
					require.True(t, ok, n)
					assert.Equal(t, n, tool.QualifiedName())
				}
				// other is never mutated.
				assert.Equal(t, []string{"add", "subtract", "multiply", "divide"}, mcp.Names())
				// Calls reach the right functions.
				res, err := mixed.Projections()[want[4]].Call(context.Background(), nil)
				require.NoError(t, err)
				assert.Equal(t, "mcp add", res)
			})
		}
	}
}

func TestRegistry_MergeSeparators(t *testing.T) {
	dash := registry.New("dash")
	require.NoError(t, dash.Register(op("a"), registry.WithName("a"), registry.WithNamespace("x")))
	dot := registry.New("dot", registry.WithSeparator(registry.SeparatorDot))
	require.NoError(t, dot.Register(op("b"), registry.WithName("b"), registry.WithNamespace("y")))
	require.NoError(t, dot.Merge(dash, false, false))
	assert.Equal(t, []string{"y.b", "x.a"}, dot.Names(), "the receiver's separator wins")
	_, ok := dot.Get("x.a")
	assert.True(t, ok)
	assert.Equal(t, []string{"x-a"}, dash.Names())
}

func TestRegistry_MergeConflicts(t *testing.T) {
	build := func() (*registry.Registry, *registry.Registry) {
		a := registry.New("a")
		require.NoError(t, a.Register(op("mine"), registry.WithName("add")))
		b := registry.New("b")
		require.NoError(t, b.Register(op("theirs"), registry.WithName("add")))
		require.NoError(t, b.Register(op("theirs"), registry.WithName("sub")))
		return a, b
	}
	tests := []struct {
		name         string
		keepExisting bool
		want         string
	}{
		{"overwrite", false, "theirs"},
		{"keep existing", true, "mine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := build()
			require.NoError(t, a.Merge(b, true, tt.keepExisting))
			assert.Equal(t, []string{"a-add", "a-sub"}, a.Names())
			got, err := a.Projections()["a-add"].Call(context.Background(), nil)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestRegistry_MergeErrors(t *testing.T) {
	unnamed := registry.New("")
	require.NoError(t, unnamed.Register(op("x"), registry.WithName("x")))
	named := registry.New("named")
	require.NoError(t, named.Register(op("y"), registry.WithName("y")))

	err := named.Merge(unnamed, false, false)
	require.ErrorIs(t, err, registry.ErrInvalidName)
	assert.Equal(t, []string{"y"}, named.Names(), "unchanged on error")
	require.ErrorIs(t, unnamed.Merge(named, true, false), registry.ErrInvalidName)
	require.ErrorIs(t, named.Merge(nil, false, false), registry.ErrInvalidTool)
}

func TestRegistry_MergeKeepsEnabledState(t *testing.T) {
	a := registry.New("a")
	b := registry.New("b")
	require.NoError(t, b.Register(op("x"), registry.WithName("x"), registry.WithNamespace("ns")))
	require.NoError(t, b.Register(op("y"), registry.WithName("y"), registry.WithNamespace("ns")))
	require.NoError(t, b.DisableNamespace("ns", "off"))
	require.NoError(t, a.Merge(b, true, false))
	assert.Empty(t, a.Names())
	reason, off := a.DisabledReason("a-x")
	assert.True(t, off)
	assert.Equal(t, "off", reason)
}

func TestRegistry_Spinoff(t *testing.T) {
	tests := []struct {
		name         string
		retain       bool
		wantSpun     []string
		wantRemained []string
	}{
		{"retain namespace", true,
			[]string{"openapi_math.add_get", "openapi_math.subtract_get", "openapi_math.multiply_get", "openapi_math.divide_get"},
			[]string{"mcp_math.add", "mcp_math.subtract", "mcp_math.multiply", "mcp_math.divide"}},
		{"drop namespace", false,
			[]string{"add_get", "subtract_get", "multiply_get", "divide_get"},
			[]string{"add", "subtract", "multiply", "divide"}},
	}
	for _, sep := range separators {
		for _, tt := range tests {
			t.Run(string(sep)+"/"+tt.name, func(t *testing.T) {
				mixed, mcp := seedRegistries(t, sep)
				require.NoError(t, mixed.Merge(mcp, false, false))
				spun, err := mixed.Spinoff("openapi_math", tt.retain)
				require.NoError(t, err)
				assert.Equal(t, seedNames(sep, tt.wantSpun...), spun.Names())
				assert.Equal(t, seedNames(sep, tt.wantRemained...), mixed.Names())
				assert.Equal(t, "openapi_math", spun.Name())
				assert.Equal(t, sep, spun.Separator())

				// Names, lookups, projections and schemas agree.
				for _, reg := range []*registry.Registry{spun, mixed} {
					ns := reg.Projections()
					assert.Len(t, ns, 4)
					for _, n := range reg.Names() {
						tool, ok := reg.Get(n)
						require.True(t, ok, n)
						assert.Equal(t, n, tool.QualifiedName())
						assert.Contains(t, ns, n)
					}
					schemas, err := reg.Schemas(registry.OpenAIChat)
					require.NoError(t, err)
					for _, n := range reg.Names() {
						assert.Contains(t, string(schemas), `"name":"`+n+`"`)
					}
				}
				got, err := spun.Projections()[spun.Names()[0]].Call(context.Background(), nil)
				require.NoError(t, err)
				assert.Equal(t, "openapi add", got)
			})
		}
	}
}

func TestRegistry_SpinoffErrors(t *testing.T) {
	mixed, mcp := seedRegistries(t, registry.SeparatorDash)
	require.NoError(t, mixed.Merge(mcp, false, false))
	_, err := mixed.Spinoff("nothing_here", false)
	require.ErrorIs(t, err, registry.ErrUnknownNamespace)
	assert.EqualError(t, err, `registry: unknown namespace: no tool has namespace "nothing_here"`)
	_, err = mixed.Spinoff("", false)
	require.ErrorIs(t, err, registry.ErrUnknownNamespace)
	assert.Len(t, mixed.Names(), 8, "unchanged on error")
}

func TestRegistry_SpinoffKeepsMixedRemainder(t *testing.T) {
	r := registry.New("r")
	require.NoError(t, r.Register(op("1"), registry.WithName("a"), registry.WithNamespace("x")))
	require.NoError(t, r.Register(op("2"), registry.WithName("b"), registry.WithNamespace("y")))
	require.NoError(t, r.Register(op("3"), registry.WithName("c"), registry.WithNamespace("z")))
	_, err := r.Spinoff("x", false)
	require.NoError(t, err)
	assert.Equal(t, []string{"y-b", "z-c"}, r.Names(), "two namespaces remain: nothing is reduced")
}

func TestRegistry_ReduceNamespace(t *testing.T) {
	r := registry.New("r", registry.WithSeparator(registry.SeparatorDot))
	require.NoError(t, r.Register(multiply, registry.WithParams("a", "b"), registry.WithNamespace("math_ops")))
	require.NoError(t, r.Register(calculateTotal, registry.WithNamespace("math_ops")))
	require.NoError(t, r.ReduceNamespace())
	assert.Equal(t, []string{"multiply", "calculate_total"}, r.Names())
	tool, ok := r.Get("multiply")
	require.True(t, ok)
	assert.Empty(t, tool.Namespace)
	assert.Equal(t, "multiply", tool.QualifiedName())
	_, ok = r.Get("math_ops.multiply")
	assert.False(t, ok)
	schemas, err := r.Schemas(registry.Anthropic)
	require.NoError(t, err)
	assert.Contains(t, string(schemas), `"name":"multiply"`)
	assert.NotContains(t, string(schemas), "math_ops")
	ns := r.Projections()
	require.Contains(t, ns, "multiply")
	got, err := ns["multiply"].Call(context.Background(), map[string]any{"a": 2, "b": 4})
	require.NoError(t, err)
	assert.Equal(t, 8.0, got)

	require.NoError(t, r.ReduceNamespace(), "nothing to reduce is fine")

	mixed := registry.New("m")
	require.NoError(t, mixed.Register(op("1"), registry.WithName("a"), registry.WithNamespace("x")))
	require.NoError(t, mixed.Register(op("2"), registry.WithName("b")))
	err = mixed.ReduceNamespace()
	require.ErrorIs(t, err, registry.ErrMixedNamespaces)
	assert.EqualError(t, err, "registry: tools do not share one namespace: x, (none)")
	assert.Equal(t, []string{"x-a", "b"}, mixed.Names())
}
