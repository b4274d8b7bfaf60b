package registry_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/registry"
)

// modelOutputs are the same two calls as each API writes them.
var modelOutputs = map[registry.Format]string{
	registry.OpenAIChat: `{"role":"assistant","content":null,"tool_calls":[
		{"id":"call_a","type":"function","function":{"name":"math_ops-multiply","arguments":"{\"a\":2,\"b\":3}"}},
		{"id":"call_b","type":"function","function":{"name":"fail","arguments":"{}"}}]}`,
	registry.OpenAIResponses: `{"output":[
		{"type":"function_call","id":"fc_a","call_id":"call_a","name":"math_ops-multiply","arguments":"{\"a\":2,\"b\":3}"},
		{"type":"function_call","id":"fc_b","call_id":"call_b","name":"fail","arguments":"{}"}]}`,
	registry.Anthropic: `{"role":"assistant","content":[{"type":"text","text":"Computing."},
		{"type":"tool_use","id":"toolu_a","name":"math_ops-multiply","input":{"a":2,"b":3}},
		{"type":"tool_use","id":"toolu_b","name":"fail","input":{}}]}`,
	registry.Gemini: `{"candidates":[{"content":{"role":"model","parts":[
		{"functionCall":{"name":"math_ops-multiply","args":{"a":2,"b":3}}},
		{"functionCall":{"id":"g_b","name":"fail","args":{}}}]}}]}`,
}

func TestToolMessages(t *testing.T) {
	r := batchRegistry(t)
	for _, f := range []registry.Format{registry.OpenAIChat, registry.OpenAIResponses, registry.Anthropic, registry.Gemini} {
		t.Run(f.String(), func(t *testing.T) {
			calls, err := registry.ParseToolCalls([]byte(modelOutputs[f]))
			require.NoError(t, err)
			require.Len(t, calls, 2)
			results, err := r.ExecuteToolCalls(context.Background(), calls)
			require.NoError(t, err)
			msgs, err := registry.ToolMessages(f, results)
			require.NoError(t, err)
			only, err := registry.ResultMessages(f, results)
			require.NoError(t, err)
			assert.Equal(t, msgs[len(msgs)-len(only):], only, "ResultMessages is the tail of ToolMessages")

			// The model's turn round-trips through ParseToolCalls.
			again, err := registry.ParseToolCalls(msgs[0])
			if f == registry.OpenAIResponses {
				var items []json.RawMessage
				items = append(items, msgs...)
				all, _ := json.Marshal(items)
				again, err = registry.ParseToolCalls(all)
			}
			require.NoError(t, err)
			require.Len(t, again, 2)
			for i := range again {
				assert.Equal(t, calls[i].Name, again[i].Name)
				assert.JSONEq(t, string(calls[i].Arguments), string(again[i].Arguments))
			}

			all, err := json.Marshal(msgs)
			require.NoError(t, err)
			golden(t, filepath.Join("testdata", "messages", f.String()+".json"), all)
		})
	}
	_, err := registry.ToolMessages(registry.Format(7), nil)
	require.Error(t, err)
	_, err = registry.ResultMessages(registry.Format(7), nil)
	require.Error(t, err)
}
