package registry_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/registry"
)

// TestEngineE2E projects a registry with two namespaces into engine.Execute
// and runs a script that calls tools of both.
func TestEngineE2E(t *testing.T) {
	type upperArgs struct {
		S string `json:"s" jsonschema:"the text"`
	}
	build := func(t *testing.T, sep registry.Separator) *registry.Registry {
		r := registry.New("e2e", registry.WithSeparator(sep))
		require.NoError(t, r.Register(multiply, registry.WithParams("a", "b"), registry.WithNamespace("math_ops"),
			registry.WithDescription("Multiply two numbers.")))
		require.NoError(t, r.Register(func(a, b float64) (float64, error) {
			if b == 0 {
				return 0, errors.New("division by zero")
			}
			return a / b, nil
		}, registry.WithName("divide"), registry.WithParams("a", "b"), registry.WithNamespace("math_ops")))
		require.NoError(t, r.Register(func(_ context.Context, in upperArgs) (string, error) {
			return strings.ToUpper(in.S), nil
		}, registry.WithName("upper"), registry.WithNamespace("text")))
		return r
	}
	const script = `
p, err := math_ops.Multiply(map[string]any{"a": 6, "b": 7})
if err != nil {
	panic(err)
}
s, err := text.Upper(map[string]any{"s": "hello"})
if err != nil {
	panic(err)
}
fmt.Println(s, p)
if _, err := math_ops.Divide(map[string]any{"a": 1, "b": 0}); err != nil {
	fmt.Println("tool error:", err)
}
if _, err := math_ops.Multiply(map[string]any{"a": "six", "b": 7}); err != nil {
	fmt.Println("argument error:", err != nil)
}
`
	for _, sep := range separators {
		t.Run(string(sep), func(t *testing.T) {
			r := build(t, sep)
			ns := r.Projections()
			require.Contains(t, ns, "math_ops"+string(sep)+"multiply")
			res, err := engine.Execute(context.Background(), script, ns)
			require.NoError(t, err)
			require.Equal(t, 0, res.ReturnCode, "stderr: %s\nerror: %s", res.Stderr, res.Error)
			assert.Equal(t, "HELLO 42\ntool error: division by zero\nargument error: true\n", res.Stdout)
		})
	}
	t.Run("disabled namespace is not in the script", func(t *testing.T) {
		r := build(t, registry.SeparatorDash)
		require.NoError(t, r.DisableNamespace("text", "maintenance"))
		res, err := engine.Execute(context.Background(), script, r.Projections())
		require.NoError(t, err)
		assert.NotEqual(t, 0, res.ReturnCode)
		assert.Contains(t, res.Error, "undefined: text")
	})
}
