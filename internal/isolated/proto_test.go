package isolated

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/internal/wire"
)

// TestParseToolCall checks the hand-written parse of tool call bodies
// against encoding/json's, on appendToolCall's form and on others.
func TestParseToolCall(t *testing.T) {
	for _, name := range []string{"math_ops-multiply", "", "é-ü", "a\"b", "a\\b", "a\nb", "<&>"} {
		body, err := appendToolCall(nil, name, map[string]any{"a": 1, "s": "x\"}"}, 42)
		require.NoError(t, err)
		gotName, args, n, err := parseToolCall(body)
		require.NoError(t, err)
		assert.Equal(t, name, gotName)
		enc, _, _ := appendToolCallAt(nil, name, map[string]any{"a": 1, "s": "x\"}"}, 42)
		assert.Positive(t, n)
		assert.Less(t, n, len(enc))
		assert.Equal(t, map[string]any{"a": 1, "s": "x\"}"}, args)
	}
	other, _ := json.Marshal(&wire.Call{Name: "t", Args: json.RawMessage(`{"b":2.5}`)})
	name, args, n, err := parseToolCall(other)
	require.NoError(t, err)
	assert.Equal(t, "t", name)
	assert.Equal(t, map[string]any{"b": 2.5}, args)
	assert.Equal(t, len(`{"b":2.5}`), n)
	for _, bad := range []string{`{"name":"t","exec_id":"1","args":{"a":}}`, `{"name":"t"`, `[]`} {
		_, _, _, err := parseToolCall([]byte(bad))
		assert.Error(t, err, bad)
	}
	body := []byte(`{"name":"t","exec_id":"1","args":null}`)
	name, args, _, err = parseToolCall(body)
	require.NoError(t, err)
	assert.Equal(t, "t", name)
	assert.Nil(t, args)
	v, ok := resultValue([]byte(`{"value":{"code":0}}`))
	assert.True(t, ok)
	assert.JSONEq(t, `{"code":0}`, string(v))
	_, ok = resultValue([]byte(`{"error":{"kind":"x"}}`))
	assert.False(t, ok)
}
