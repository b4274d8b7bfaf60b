package isolated

import (
	"encoding/json"
	"testing"
	"time"

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

// TestAppendRunRequest checks the hand-written encoding of run requests
// against encoding/json's: the worker decodes the same request.
func TestAppendRunRequest(t *testing.T) {
	for _, req := range []RunRequest{
		{Code: "fmt.Println(\"hi\")\n<&>\té\x00", Limits: json.RawMessage(`{"Timeout":1}`), Grace: time.Second},
		{Code: "x", ToolsKey: "abc", Limits: json.RawMessage(`{}`), Deadline: 1234567890123, Globals: json.RawMessage(`{"a":{"int":1}}`), Grace: 5, RunCPU: 31 * time.Second},
		{Code: "", Tools: []toolSpec{{Name: "t", Doc: "d\"", Schema: json.RawMessage(`{"type":"object"}`)}}, ToolsKey: "k", Deadline: -1},
		{Code: "bad utf-8 \xff", Limits: nil},
	} {
		got, err := appendRunRequest(nil, &req)
		require.NoError(t, err)
		require.True(t, json.Valid(got), "%s", got)
		want, err := json.Marshal(&req)
		require.NoError(t, err)
		var a, b RunRequest
		require.NoError(t, json.Unmarshal(got, &a))
		require.NoError(t, json.Unmarshal(want, &b))
		assert.Equal(t, b, a, "%s", got)
	}
}

// TestParseRunRequest checks the hand-written parse of run requests
// against encoding/json's: on appendRunRequest's form (parsed by hand
// when it has no tools) and on others, which encoding/json reads or
// refuses.
func TestParseRunRequest(t *testing.T) {
	for _, req := range []RunRequest{
		{Code: "fmt.Println(\"hi\")\n<&>\té\x00\\", Limits: json.RawMessage(`{"Timeout":1}`), Grace: time.Second},
		{Code: "x", ToolsKey: "abc", Limits: json.RawMessage(`{"a":"}{\"","b":[1,{"c":2}]}`), Deadline: 1234567890123, Globals: json.RawMessage(`{"a":{"int":1}}`), Grace: 5, RunCPU: 31 * time.Second},
		{Code: "", Tools: []toolSpec{{Name: "t", Doc: "d\"", Schema: json.RawMessage(`{"type":"object"}`)}}, ToolsKey: "k", Deadline: -1},
		{Code: "bad utf-8 \xff", Limits: nil, Grace: -3},
	} {
		body, err := appendRunRequest(nil, &req)
		require.NoError(t, err)
		var want, got RunRequest
		require.NoError(t, json.Unmarshal(body, &want))
		require.NoError(t, parseRunRequest(body, &got))
		assert.Equal(t, want, got, "%s", body)
		var fast RunRequest
		assert.Equal(t, len(req.Tools) == 0, parseRunFast(body, &fast), "parsed by hand: %s", body)
	}
	for _, body := range []string{
		`{"code":"x","limits":{},"grace":1,"extra":2}`,
		`{"grace":1,"code":"x","limits":{}}`,
		`{"code":"x","limits":{"a":1},"grace":1} `,
		`{"code":"x","limits":{"a":},"grace":1}`,
		`{"code":"x\u0041","limits":{},"grace":99999999999999999999}`,
		`{"code":"x","limits":{"a":"}"},"grace":1}`,
		`{"code":"x","limits":{},"deadline":-,"grace":1}`,
		`{"code":"x`, ``, `null`,
	} {
		var want, got RunRequest
		wantErr := json.Unmarshal([]byte(body), &want)
		err := parseRunRequest([]byte(body), &got)
		if wantErr != nil {
			assert.Error(t, err, body)
			continue
		}
		require.NoError(t, err, body)
		assert.Equal(t, want, got, body)
	}
}

// FuzzParseRunRequest: whatever the bytes, the hand-written parse agrees
// with encoding/json's when it accepts them.
func FuzzParseRunRequest(f *testing.F) {
	f.Add([]byte(`{"code":"x\n","tools_key":"k","limits":{"T":1},"deadline":5,"globals":{"a":{"int":1}},"grace":1,"run_cpu":2}`))
	f.Add([]byte(`{"code":"x","limits":null,"grace":0}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var fast RunRequest
		if !parseRunFast(b, &fast) {
			return
		}
		var want RunRequest
		require.NoError(t, json.Unmarshal(b, &want), "%q", b)
		assert.Equal(t, want, fast, "%q", b)
	})
}

// TestRunReply checks the hand-written encoding and parse of run replies
// against encoding/json's: a reply reads back as it was, parsed by hand
// when it has no Err; replies of other forms are read by encoding/json,
// and what it refuses is refused.
func TestRunReply(t *testing.T) {
	for _, r := range []runReply{
		{},
		{Code: 0, Value: json.RawMessage(`{"int":999000}`), HasValue: true, Trace: 1000},
		{Code: 1, Error: "engine: bad \"x\"\n<&>é", StdoutTruncated: true, StderrTruncated: true, Retire: true, ErrorTruncated: true, TraceTruncated: true},
		{Code: 124, Value: json.RawMessage(`"s}{,"`), HasValue: true},
		{Code: 0, Value: json.RawMessage(`[1,{"a":"]"},[]]`), HasValue: true},
		{Code: 0, Value: json.RawMessage(`-1.5e3`), HasValue: true, Trace: 2},
		{Code: 0, Value: json.RawMessage(`null`)},
		{Code: 1, Error: "e", Err: &ErrInfo{Kind: "script", Msg: "e", Line: 3}},
	} {
		body, err := appendRunReply(nil, &r)
		require.NoError(t, err)
		var want, got runReply
		require.NoError(t, json.Unmarshal(body, &want), "%s", body)
		require.NoError(t, parseRunReply(body, &got))
		assert.Equal(t, want, got, "%s", body)
		assert.Equal(t, r, got, "%s", body)
		var fast runReply
		assert.Equal(t, r.Err == nil, parseReplyFast(body, &fast), "parsed by hand: %s", body)
	}
	for _, body := range []string{
		`{"code":0,"value":{"int":1},"has_value":true,"extra":1}`,
		`{"value":{"int":1},"code":0}`,
		`{"code":0,"value":{"int":},"has_value":true}`,
		`{"code":0,"value":tru,"has_value":true}`,
		`{"code":99999999999999999999}`,
		`{"code":0,"value":"x`, `{"code":0,"value":[1,2}`, `{"code":0`, ``, `null`, `{"code":0} `,
		`{"code":0,"trace":-1}`,
	} {
		var want, got runReply
		wantErr := json.Unmarshal([]byte(body), &want)
		err := parseRunReply([]byte(body), &got)
		if wantErr != nil {
			assert.Error(t, err, body)
			continue
		}
		require.NoError(t, err, body)
		assert.Equal(t, want, got, body)
	}
}

// FuzzParseRunReply: whatever the worker sends, the hand-written parse
// agrees with encoding/json's when it accepts it.
func FuzzParseRunReply(f *testing.F) {
	f.Add([]byte(`{"code":0,"error":"x","value":{"int":1},"has_value":true,"stdout_truncated":true,"stderr_truncated":true,"retire":true,"trace":3,"error_truncated":true,"trace_truncated":true}`))
	f.Add([]byte(`{"code":1,"value":[1,"]",{}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var fast runReply
		if !parseReplyFast(b, &fast) {
			return
		}
		var want runReply
		require.NoError(t, json.Unmarshal(b, &want), "%q", b)
		assert.Equal(t, want, fast, "%q", b)
	})
}
