package projection_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/projection"
)

type point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

type searchArgs struct {
	Query string   `json:"query"`
	Limit int      `json:"limit,omitempty"`
	Tags  []string `json:"tags"`
	Near  *point   `json:"near"`
	Skip  string   `json:"-"`
}

func TestNewDirect_Shapes(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		fn   any
		opts []projection.DirectOption
		args map[string]any
		want any
	}{
		{"kwargs with ctx", func(_ context.Context, a map[string]any) (any, error) { return a["x"], nil }, nil, map[string]any{"x": 1}, 1},
		{"kwargs", func(a map[string]any) (any, error) { return len(a), nil }, nil, map[string]any{"x": 1, "y": 2}, 2},
		{"positional float from int", func(a, b float64) float64 { return a * b }, []projection.DirectOption{projection.WithParams("a", "b")}, map[string]any{"a": 2, "b": 3.5}, 7.0},
		{"positional int from whole float", func(a, b int) (int, error) { return a + b, nil }, []projection.DirectOption{projection.WithParams("a", "b")}, map[string]any{"a": 2.0, "b": float64(40)}, 42},
		{"struct", func(_ context.Context, in searchArgs) (string, error) {
			return fmt.Sprintf("%s/%d/%v/%v", in.Query, in.Limit, in.Tags, *in.Near), nil
		}, nil, map[string]any{"query": "q", "limit": 3.0, "tags": []any{"a", "b"}, "near": map[string]any{"x": 1, "y": 2.0}}, "q/3/[a b]/{1 2}"},
		{"pointer struct", func(in *point) int { return in.X + in.Y }, nil, map[string]any{"x": 5}, 5},
		{"no args", func() string { return "ok" }, nil, nil, "ok"},
		{"error only", func(map[string]any) error { return nil }, nil, map[string]any{}, nil},
		{"time from string", func(in struct {
			At time.Time `json:"at"`
		}) int {
			return in.At.Year()
		}, nil, map[string]any{"at": "2026-01-02T03:04:05Z"}, 2026},
		{"map of ints", func(in struct {
			M map[string]int `json:"m"`
		}) int {
			return in.M["a"] + in.M["b"]
		}, nil, map[string]any{"m": map[string]any{"a": 1.0, "b": 2}}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := projection.NewDirect("tool", tt.fn, "doc", tt.opts...)
			require.NoError(t, err)
			got, err := p.Call(ctx, tt.args)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestNewDirect_InvalidShapes(t *testing.T) {
	tests := []struct {
		name string
		fn   any
		opts []projection.DirectOption
		msg  string
	}{
		{"not a func", 42, nil, "want a func"},
		{"nil func", (func())(nil), nil, "want a func"},
		{"unnamed positional", func(a, b int) int { return a + b }, nil, "need names"},
		{"wrong param count", func(a, b int) int { return a + b }, []projection.DirectOption{projection.WithParams("a")}, "names 1 parameters"},
		{"duplicate names", func(a, b int) int { return a + b }, []projection.DirectOption{projection.WithParams("a", "a")}, "unique"},
		{"bad second result", func() (int, int) { return 1, 2 }, nil, "second result must be error"},
		{"three results", func() (int, int, error) { return 1, 2, nil }, nil, "at most two results"},
		{"variadic", func(a ...int) int { return 0 }, nil, "variadic"},
		{"bad schema", func(map[string]any) (any, error) { return nil, nil }, []projection.DirectOption{projection.WithSchema([]byte("{"))}, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := projection.NewDirect("tool", tt.fn, "", tt.opts...)
			require.ErrorIs(t, err, projection.ErrInvalidFunc)
			assert.Contains(t, err.Error(), tt.msg)
			assert.Contains(t, err.Error(), `"tool"`)
		})
	}
	_, err := projection.NewDirect("", func() {}, "")
	require.ErrorIs(t, err, projection.ErrInvalidFunc)
	assert.Panics(t, func() { projection.MustDirect("x", 1, "") })
}

func TestDirectProjection_BadArguments(t *testing.T) {
	add := projection.MustDirect("add", func(a, b int) int { return a + b }, "", projection.WithParams("a", "b"))
	search := projection.MustDirect("search", func(in searchArgs) int { return 0 }, "")
	none := projection.MustDirect("none", func() int { return 0 }, "")
	tests := []struct {
		name string
		p    projection.ToolProjection
		args map[string]any
		arg  string
		msg  string
	}{
		{"string for int", add, map[string]any{"a": "x", "b": 1}, "a", `cannot use string "x" as int`},
		{"fraction for int", add, map[string]any{"a": 1.5, "b": 1}, "a", "cannot use float64 1.5 as int"},
		{"missing", add, map[string]any{"a": 1}, "b", "missing argument"},
		{"unknown positional", add, map[string]any{"a": 1, "b": 2, "c": 3}, "c", "parameters are a, b"},
		{"unknown struct field", search, map[string]any{"qery": "x"}, "qery", "arguments are query, limit, tags, near"},
		{"nested element", search, map[string]any{"tags": []any{"a", 2}}, "tags[1]", "cannot use int 2 as string"},
		{"nested struct field", search, map[string]any{"near": map[string]any{"x": "far"}}, "near.x", "as int"},
		{"args to no-arg tool", none, map[string]any{"z": 1}, "z", "takes no arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.p.Call(context.Background(), tt.args)
			require.ErrorIs(t, err, projection.ErrBadArgument)
			var ae *projection.ArgumentError
			require.ErrorAs(t, err, &ae)
			assert.Equal(t, tt.p.Name(), ae.Tool)
			assert.Equal(t, tt.arg, ae.Arg)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}

func TestDirectProjection_ContextReachesTool(t *testing.T) {
	p := projection.MustDirect("wait", func(ctx context.Context) error {
		<-ctx.Done()
		return ctx.Err()
	}, "")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	_, err := p.Call(ctx, nil)
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestDirectProjection_ToolErrorUnchanged(t *testing.T) {
	sentinel := errors.New("no such customer")
	p := projection.MustDirect("get", func(in point) (any, error) { return nil, sentinel }, "")
	_, err := p.Call(context.Background(), map[string]any{"x": 1})
	require.Same(t, sentinel, err)
}

func TestDirectProjection_Accessors(t *testing.T) {
	p := projection.MustDirect("search", func(in searchArgs) int { return 0 }, "Search things.", projection.WithSchema([]byte(`{"type":"object"}`)))
	assert.Equal(t, "search", p.Name())
	assert.Equal(t, "Search things.", p.Doc())
	assert.JSONEq(t, `{"type":"object"}`, string(p.Schema()))
	assert.Equal(t, []string{"query", "limit", "tags", "near"}, p.Params())
	add := projection.MustDirect("add", func(a, b int) int { return a + b }, "", projection.WithParams("a", "b"))
	assert.Equal(t, []string{"a", "b"}, add.Params())
	assert.Nil(t, add.Schema(), "only the schema given")
	in, out := projection.Schemas(add)
	assert.JSONEq(t, `{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`, string(in), "derived from the parameters")
	assert.JSONEq(t, `{"type":"integer"}`, string(out), "derived from the result type")
	kw := projection.MustDirect("kw", func(map[string]any) (any, error) { return nil, nil }, "")
	in, out = projection.Schemas(kw)
	assert.Nil(t, in, "the kwargs map has no schema")
	assert.Nil(t, out)
	given := projection.MustDirect("out", func(in searchArgs) any { return nil }, "", projection.WithOutputSchema([]byte(`{"type":"string"}`)))
	in, out = projection.Schemas(given)
	assert.JSONEq(t, `{"type":"string"}`, string(out))
	assert.Contains(t, string(in), `"query"`, "derived from the input struct")
	none := projection.MustDirect("none", func() {}, "")
	in, out = projection.Schemas(none)
	assert.JSONEq(t, `{"type":"object","properties":{},"additionalProperties":false}`, string(in), "no arguments")
	assert.Nil(t, out, "no result")
}

func TestValidateNamespace(t *testing.T) {
	add := projection.MustDirect("add", func(a, b int) int { return a + b }, "", projection.WithParams("a", "b"))
	require.NoError(t, projection.ValidateNamespace(map[string]projection.ToolProjection{"add": add}))
	require.NoError(t, projection.ValidateNamespace(nil))
	err := projection.ValidateNamespace(map[string]projection.ToolProjection{"wrong": add, "nil": nil})
	require.ErrorIs(t, err, projection.ErrNamespaceMismatch)
	assert.Contains(t, err.Error(), `"wrong": projection is named "add"`)
	assert.Contains(t, err.Error(), `"nil": nil projection`)
}

func BenchmarkDirectProjection_Call(b *testing.B) {
	ctx := context.Background()
	b.Run("kwargs", func(b *testing.B) {
		p := projection.MustDirect("mul", func(_ context.Context, a map[string]any) (any, error) {
			return a["a"].(float64) * a["b"].(float64), nil
		}, "")
		args := map[string]any{"a": 2.0, "b": 3.0}
		b.ReportAllocs()
		for b.Loop() {
			_, _ = p.Call(ctx, args)
		}
	})
	b.Run("positional", func(b *testing.B) {
		p := projection.MustDirect("mul", func(a, b float64) float64 { return a * b }, "", projection.WithParams("a", "b"))
		args := map[string]any{"a": 2.0, "b": 3.0}
		b.ReportAllocs()
		for b.Loop() {
			_, _ = p.Call(ctx, args)
		}
	})
	b.Run("struct", func(b *testing.B) {
		p := projection.MustDirect("pt", func(in point) int { return in.X * in.Y }, "")
		args := map[string]any{"x": 2.0, "y": 3.0}
		b.ReportAllocs()
		for b.Loop() {
			_, _ = p.Call(ctx, args)
		}
	})
}
