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

// TestRunCall: the run call's body is a wire.Call that encoding/json
// reads as the worker's hand-written parse does, and a body of another
// form still parses.
func TestRunCall(t *testing.T) {
	req := RunRequest{Code: "fmt.Println(\"}\\\"\")", Limits: json.RawMessage(`{"timeout":1}`), ToolsKey: "ab12"}
	args, err := json.Marshal(&req)
	require.NoError(t, err)
	for _, name := range []string{runCall, sessionCall} {
		body := appendRunCall(nil, name, args, 7)
		var std wire.Call
		require.NoError(t, json.Unmarshal(body, &std))
		assert.Equal(t, name, std.Name)
		assert.Equal(t, "7", std.ExecID)
		c, err := parseRunCall(body)
		require.NoError(t, err)
		assert.Equal(t, name, c.Name)
		assert.Equal(t, string(args), string(c.Args))
		var got RunRequest
		require.NoError(t, decodeRun(runCall, c.Args, &got))
		assert.Equal(t, req.Code, got.Code)
		assert.Equal(t, req.ToolsKey, got.ToolsKey)
	}
	other, _ := json.Marshal(&wire.Call{Name: runCall, Args: args, ExecID: "3"})
	c, err := parseRunCall(other)
	require.NoError(t, err)
	assert.Equal(t, runCall, c.Name)
	assert.JSONEq(t, string(args), string(c.Args))
	for _, bad := range []string{`{"name":"run"`, `[]`, ``} {
		_, err := parseRunCall([]byte(bad))
		assert.Error(t, err, bad)
	}
}

// TestIsClean: only a clean ready message, in the worker's encoding or
// any other, lets the host give the worker back; anything else a worker
// sends counts as not clean (the worker is killed).
func TestIsClean(t *testing.T) {
	assert.True(t, isClean(readyClean))
	assert.True(t, isClean([]byte(`{ "clean": true }`)))
	for _, body := range []string{`{"clean":false}`, `{}`, ``, `{"clean":true`, `{"clean":1}`, `null`, `{"clean":true}x`} {
		assert.False(t, isClean([]byte(body)), body)
	}
}
