package registry_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/registry"
)

func TestCall_UnmarshalJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want registry.Call
	}{
		{"openai chat", `{"id":"call_1","type":"function","function":{"name":"math_ops-multiply","arguments":"{\"a\":2,\"b\":3}"}}`,
			registry.Call{ID: "call_1", Name: "math_ops-multiply", Arguments: json.RawMessage(`{"a":2,"b":3}`), Format: registry.OpenAIChat}},
		{"openai chat empty arguments", `{"id":"call_1","type":"function","function":{"name":"ping","arguments":""}}`,
			registry.Call{ID: "call_1", Name: "ping", Format: registry.OpenAIChat}},
		{"openai responses", `{"type":"function_call","id":"fc_1","call_id":"call_9","name":"ping","arguments":"{}","status":"completed"}`,
			registry.Call{ID: "call_9", Name: "ping", Arguments: json.RawMessage(`{}`), Format: registry.OpenAIResponses}},
		{"anthropic", `{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo"}}`,
			registry.Call{ID: "toolu_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`), Format: registry.Anthropic}},
		{"gemini part", `{"functionCall":{"name":"get_weather","args":{"city":"Oslo"}}}`,
			registry.Call{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`), Format: registry.Gemini}},
		{"gemini part with id", `{"functionCall":{"id":"g1","name":"ping","args":{}}}`,
			registry.Call{ID: "g1", Name: "ping", Arguments: json.RawMessage(`{}`), Format: registry.Gemini}},
		{"gemini function call", `{"name":"ping","args":{"x":1}}`,
			registry.Call{Name: "ping", Arguments: json.RawMessage(`{"x":1}`), Format: registry.Gemini}},
		{"generic", `{"id":"c","name":"ping","arguments":{"x":1}}`,
			registry.Call{ID: "c", Name: "ping", Arguments: json.RawMessage(`{"x":1}`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got registry.Call
			require.NoError(t, json.Unmarshal([]byte(tt.in), &got))
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestCall_UnmarshalJSONErrors(t *testing.T) {
	tests := []struct{ name, in, msg string }{
		{"not an object", `[1]`, "cannot unmarshal"},
		{"unknown shape", `{"type":"text","text":"hi"}`, "unrecognized tool call"},
		{"no name", `{"type":"tool_use","id":"x","input":{}}`, "without a name"},
		{"bad arguments string", `{"id":"c","type":"function","function":{"name":"x","arguments":5}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c registry.Call
			err := json.Unmarshal([]byte(tt.in), &c)
			if tt.msg == "" {
				// A non-string, non-object value is kept for ExecuteToolCalls to refuse.
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, registry.ErrBadToolCall)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}

func TestParseToolCalls(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantIDs []string
		format  registry.Format
	}{
		{"openai chat completion", `{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,
			"tool_calls":[{"id":"a","type":"function","function":{"name":"x","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"y","arguments":"{}"}}]}}]}`,
			[]string{"a", "b"}, registry.OpenAIChat},
		{"openai chat message", `{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"x","arguments":"{}"}}]}`,
			[]string{"a"}, registry.OpenAIChat},
		{"openai responses", `{"id":"resp_1","object":"response","output":[{"type":"reasoning","id":"rs_1","summary":[]},
			{"type":"function_call","id":"fc_1","call_id":"c1","name":"x","arguments":"{}"},{"type":"message","role":"assistant","content":[]}]}`,
			[]string{"c1"}, registry.OpenAIResponses},
		{"anthropic message", `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"Let me check."},
			{"type":"tool_use","id":"toolu_1","name":"x","input":{}},{"type":"tool_use","id":"toolu_2","name":"y","input":{"a":1}}],"stop_reason":"tool_use"}`,
			[]string{"toolu_1", "toolu_2"}, registry.Anthropic},
		{"gemini response", `{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"},{"functionCall":{"name":"x","args":{}}},{"functionCall":{"name":"y","args":{}}}]}}]}`,
			[]string{"", ""}, registry.Gemini},
		{"gemini content", `{"role":"model","parts":[{"functionCall":{"id":"g","name":"x","args":{}}}]}`, []string{"g"}, registry.Gemini},
		{"bare array", `[{"type":"tool_use","id":"t","name":"x","input":{}}]`, []string{"t"}, registry.Anthropic},
		{"single call", `{"type":"tool_use","id":"t","name":"x","input":{}}`, []string{"t"}, registry.Anthropic},
		{"text only", `{"role":"assistant","content":"no tools needed"}`, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls, err := registry.ParseToolCalls([]byte(tt.in))
			require.NoError(t, err)
			var ids []string
			for _, c := range calls {
				ids = append(ids, c.ID)
				assert.Equal(t, tt.format, c.Format)
			}
			assert.Equal(t, tt.wantIDs, ids)
		})
	}
	_, err := registry.ParseToolCalls([]byte("  "))
	require.ErrorIs(t, err, registry.ErrBadToolCall)
	_, err = registry.ParseToolCalls([]byte(`{"foo":1}`))
	require.ErrorIs(t, err, registry.ErrBadToolCall)
}
