package registry_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/registry"
)

// TestTool_OutputSchema: a hand-built tool's output schema is kept as
// given, copied out by Get, left out of the API schemas, and refused when
// it is not JSON.
func TestTool_OutputSchema(t *testing.T) {
	out := json.RawMessage(`{"type":"object","properties":{"temp":{"type":"number"}}}`)
	r := registry.New("")
	require.NoError(t, r.Register(&registry.Tool{
		Name:         "weather",
		Namespace:    "srv",
		Parameters:   json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`),
		OutputSchema: out,
		Func:         func(context.Context, map[string]any) (any, error) { return nil, nil },
	}))
	got, ok := r.Get("srv-weather")
	require.True(t, ok)
	assert.JSONEq(t, string(out), string(got.OutputSchema))
	got.OutputSchema[0] = 'X'
	again, _ := r.Get("srv-weather")
	assert.JSONEq(t, string(out), string(again.OutputSchema), "Get returns a copy")

	schemas, err := r.Schemas(registry.OpenAIChat)
	require.NoError(t, err)
	assert.NotContains(t, string(schemas), "temp", "the output schema is not exported")

	err = r.Register(&registry.Tool{
		Name:         "bad",
		OutputSchema: json.RawMessage(`{"type":`),
		Func:         func(context.Context, map[string]any) (any, error) { return nil, nil },
	})
	require.ErrorIs(t, err, registry.ErrInvalidTool)
	assert.Contains(t, err.Error(), "output schema")
}
