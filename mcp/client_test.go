package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/mcp"
	"github.com/toolscript/toolscript/registry"
)

const token = "s3cret"

// transports runs f against the test server over stdio and over HTTP.
func transports(t *testing.T, opts mcp.Options, f func(t *testing.T, c *mcp.Client)) {
	t.Run("stdio", func(t *testing.T) {
		o := opts
		f(t, connect(t, stdioConfig("test-srv"), &o))
	})
	t.Run("http", func(t *testing.T) {
		hs := newHTTPServer(t, token)
		f(t, connect(t, httpConfig(hs, "test-srv", token), httpOptions(t, opts)))
	})
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func TestClient_Tools(t *testing.T) {
	transports(t, mcp.Options{}, func(t *testing.T, c *mcp.Client) {
		assert.Equal(t, "test_srv", c.Namespace())
		byName := map[string]mcp.Tool{}
		var names []string
		for _, tool := range c.Tools() {
			byName[tool.Name] = tool
			names = append(names, tool.Name)
		}
		assert.Contains(t, names, "place_order")
		assert.Equal(t, "placeOrder", byName["place_order"].Upstream)
		assert.Equal(t, "get_user", byName["get_user"].Upstream, "the normalized upstream name keeps its name")
		assert.Equal(t, "getUser", byName["get_user_2"].Upstream, "the clashing one gets a suffix")
		assert.NotContains(t, names, "broken")
		require.Len(t, c.Problems(), 1)
		assert.Contains(t, c.Problems()[0].Error(), `tool "broken" left out`)

		assert.JSONEq(t, `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`,
			string(byName["echo"].InputSchema), "the input schema passes unchanged")
		assert.Nil(t, byName["echo"].OutputSchema)
		var out map[string]any
		require.NoError(t, json.Unmarshal(byName["add"].OutputSchema, &out))
		assert.Contains(t, out["properties"], "sum", "the output schema passes too")

		// The registry validates arguments against the server's schema.
		reg := registry.New("")
		require.NoError(t, c.Register(reg))
		search, ok := reg.Projections()["test_srv-search"]
		require.True(t, ok)
		got, err := search.Call(ctxT(t), map[string]any{"query": "go", "mode": "exact"})
		require.NoError(t, err)
		assert.Equal(t, "found go", got)
		_, err = search.Call(ctxT(t), map[string]any{"query": "go", "mode": "slow"})
		require.ErrorContains(t, err, "mode")
		_, err = search.Call(ctxT(t), map[string]any{"mode": "fast"})
		require.ErrorContains(t, err, "query")
		tool, _ := reg.Get("test_srv-add")
		assert.JSONEq(t, string(byName["add"].OutputSchema), string(tool.OutputSchema))
	})
}

func TestClient_Results(t *testing.T) {
	transports(t, mcp.Options{}, func(t *testing.T, c *mcp.Client) {
		ctx := ctxT(t)
		tests := []struct {
			tool string
			args map[string]any
			want any
		}{
			{"echo", map[string]any{"text": "hi"}, "echo: hi"},
			{"lines", nil, "one\ntwo"},
			{"add", map[string]any{"a": 1, "b": 2.5}, map[string]any{"sum": 3.5, "parts": []any{1.0, 2.0}}},
			{"placeOrder", map[string]any{"items": []map[string]any{{"sku": "A-1", "qty": 2}}},
				map[string]any{"received": map[string]any{"items": []any{map[string]any{"sku": "A-1", "qty": 2.0}}}}},
			{"picture", nil, []any{
				map[string]any{"type": "text", "text": "a pixel"},
				map[string]any{"type": "image", "mimeType": "image/png", "data": []byte{0x89, 'P', 'N', 'G'}},
			}},
		}
		for _, tt := range tests {
			got, err := c.CallTool(ctx, tt.tool, tt.args)
			require.NoError(t, err, tt.tool)
			assert.Equal(t, tt.want, got, tt.tool)
		}
		_, err := c.CallTool(ctx, "fail", map[string]any{"msg": "no such city"})
		var te *mcp.ToolError
		require.ErrorAs(t, err, &te)
		assert.Equal(t, "no such city", err.Error(), "the server's text, as the model reads it")
		assert.Equal(t, "fail", te.Tool)
		assert.Equal(t, "test-srv", te.Server)

		_, err = c.CallTool(ctx, "nope", nil)
		require.Error(t, err)
		assert.NotErrorIs(t, err, mcp.ErrConnection, "an unknown tool is the server's answer, not a lost connection")
		assert.Contains(t, err.Error(), `tool "nope"`)

		_, err = c.CallTool(ctx, "echo", map[string]any{"text": func() {}})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "cannot be sent as JSON")
		got, err := c.CallTool(ctx, "echo", map[string]any{"text": "still connected"})
		require.NoError(t, err)
		assert.Equal(t, "echo: still connected", got)
	})
}

// TestClient_Timeout: a tool that does not answer gives the context's
// error in time, and the connection stays usable.
func TestClient_Timeout(t *testing.T) {
	transports(t, mcp.Options{}, func(t *testing.T, c *mcp.Client) {
		ctx, cancel := context.WithTimeout(ctxT(t), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := c.CallTool(ctx, "slow", map[string]any{"ms": 3_600_000})
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Less(t, time.Since(start), 10*time.Second)
		assert.Contains(t, err.Error(), `tool "slow": no answer`)
		got, err := c.CallTool(ctxT(t), "echo", map[string]any{"text": "after"})
		require.NoError(t, err)
		assert.Equal(t, "echo: after", got)
	})
}

// TestClient_HugeResult: a result over MaxMessageBytes is a clear error,
// and the next call works on a new connection.
func TestClient_HugeResult(t *testing.T) {
	transports(t, mcp.Options{MaxMessageBytes: 64 << 10}, func(t *testing.T, c *mcp.Client) {
		ctx := ctxT(t)
		got, err := c.CallTool(ctx, "huge", map[string]any{"n": 1000})
		require.NoError(t, err)
		assert.Len(t, got, 1000)
		_, err = c.CallTool(ctx, "huge", map[string]any{"n": 1 << 20})
		require.ErrorIs(t, err, mcp.ErrMessageTooLarge)
		assert.Contains(t, err.Error(), "over 65536 bytes (Options.MaxMessageBytes)")
		got, err = c.CallTool(ctx, "echo", map[string]any{"text": "again"})
		require.NoError(t, err)
		assert.Equal(t, "echo: again", got)
	})
}

// TestClient_Reconnect_Stdio: a server that dies mid-session fails the
// call with how it ended; the next call restarts it.
func TestClient_Reconnect_Stdio(t *testing.T) {
	c := connect(t, stdioConfig("crashy"), nil)
	ctx := ctxT(t)
	pid1 := pidOf(t, c)
	_, err := c.CallTool(ctx, "crash", nil)
	require.ErrorIs(t, err, mcp.ErrConnection)
	assert.Contains(t, err.Error(), `server "crashy"`)
	assert.Contains(t, err.Error(), "exit status 3")
	assert.Contains(t, err.Error(), "crashing on purpose")
	assert.Contains(t, err.Error(), "the next call restarts it")
	pid2 := pidOf(t, c)
	assert.NotEqual(t, pid1, pid2, "a new server process")
	assertGone(t, pid1)
}

// TestClient_Reconnect_HTTP: a server that forgot the session (it
// restarted) is reached on a new session without failing the call, which
// never reached a tool; a server that refuses (401) fails the call.
func TestClient_Reconnect_HTTP(t *testing.T) {
	hs := newHTTPServer(t, token)
	c := connect(t, httpConfig(hs, "web", token), httpOptions(t, mcp.Options{}))
	ctx := ctxT(t)
	_, err := c.CallTool(ctx, "echo", map[string]any{"text": "one"})
	require.NoError(t, err)
	hs.restart()
	got, err := c.CallTool(ctx, "echo", map[string]any{"text": "two"})
	require.NoError(t, err)
	assert.Equal(t, "echo: two", got)

	bad := httpConfig(hs, "web", "wrong")
	_, err = mcp.Connect(ctx, bad, httpOptions(t, mcp.Options{}))
	require.ErrorIs(t, err, mcp.ErrConnection)
	assert.Contains(t, err.Error(), `server "web"`)
	assert.Contains(t, err.Error(), "Unauthorized")
}

// TestClient_ListChanged: tools/list_changed updates the registry: added,
// removed tools; the callback reports the change.
func TestClient_ListChanged(t *testing.T) {
	changes := make(chan mcp.ToolsChange, 4)
	transports(t, mcp.Options{OnToolsChanged: func(ch mcp.ToolsChange) { changes <- ch }}, func(t *testing.T, c *mcp.Client) {
		reg := registry.New("")
		require.NoError(t, c.Register(reg))
		require.NoError(t, reg.Disable("test_srv-lines", "not for models"))
		_, ok := reg.Get("test_srv-late")
		require.False(t, ok)
		ctx := ctxT(t)
		_, err := c.CallTool(ctx, "add_tool", nil)
		require.NoError(t, err)
		ch := waitChange(t, changes)
		assert.Equal(t, []string{"late"}, ch.Added)
		tool, ok := reg.Get("test_srv-late")
		require.True(t, ok)
		assert.Equal(t, "Added late.", tool.Description)
		got, err := tool.Func(ctx, nil)
		require.NoError(t, err)
		assert.Equal(t, "late", got)

		_, err = c.CallTool(ctx, "remove_tool", nil)
		require.NoError(t, err)
		ch = waitChange(t, changes)
		assert.Equal(t, []string{"echo", "late"}, ch.Removed)
		for _, n := range []string{"test_srv-late", "test_srv-echo"} {
			_, ok := reg.Get(n)
			assert.False(t, ok, n)
		}
		reason, off := reg.DisabledReason("test_srv-lines")
		assert.True(t, off, "a disabled tool stays disabled")
		assert.Equal(t, "not for models", reason)
	})
}

func waitChange(t *testing.T, ch chan mcp.ToolsChange) mcp.ToolsChange {
	t.Helper()
	select {
	case c := <-ch:
		return c
	case <-time.After(30 * time.Second):
		t.Fatal("no tools/list_changed seen")
	}
	return mcp.ToolsChange{}
}

// TestClient_Close leaves no child process and fails later calls.
func TestClient_Close(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := mcp.Connect(ctx, stdioConfig("closing"), nil)
	require.NoError(t, err)
	pid := pidOf(t, c)
	start := time.Now()
	require.NoError(t, c.Close())
	assert.Less(t, time.Since(start), mcp.DefaultCloseTimeout, "the server exits when its input closes")
	assertGone(t, pid)
	_, err = c.CallTool(ctx, "echo", map[string]any{"text": "x"})
	require.ErrorIs(t, err, mcp.ErrClosed)
	require.NoError(t, c.Close(), "Close is idempotent")
}

// TestConnect_Failures: a server that never answers, one that exits at
// once, one that cannot start.
func TestConnect_Failures(t *testing.T) {
	ctx := ctxT(t)
	silent := stdioConfig("silent")
	silent.Env[serverEnv] = "silent"
	start := time.Now()
	_, err := mcp.Connect(ctx, silent, &mcp.Options{ConnectTimeout: 300 * time.Millisecond})
	require.ErrorIs(t, err, mcp.ErrConnection)
	assert.Contains(t, err.Error(), "no answer to the MCP handshake in time (Options.ConnectTimeout is 300ms)")
	assert.Less(t, time.Since(start), 10*time.Second)

	_, err = mcp.Connect(ctx, mcp.ServerConfig{Name: "quits", Command: "sh", Args: []string{"-c", "echo bye >&2; exit 7"}}, nil)
	require.ErrorIs(t, err, mcp.ErrConnection)
	assert.Contains(t, err.Error(), "exit status 7")
	assert.Contains(t, err.Error(), "bye")

	_, err = mcp.Connect(ctx, mcp.ServerConfig{Name: "missing", Command: "/no/such/server"}, nil)
	require.ErrorIs(t, err, mcp.ErrConnection)
	assert.Contains(t, err.Error(), `server "missing"`)
	assert.Contains(t, err.Error(), "/no/such/server")
}

// TestClient_Concurrent: concurrent calls share one connection, and
// concurrent calls after a crash share one reconnection.
func TestClient_Concurrent(t *testing.T) {
	c := connect(t, stdioConfig("busy"), nil)
	ctx := ctxT(t)
	const n = 16
	errs := make(chan error, n)
	for i := range n {
		go func() {
			got, err := c.CallTool(ctx, "echo", map[string]any{"text": strconv.Itoa(i)})
			if err == nil && got != "echo: "+strconv.Itoa(i) {
				err = fmt.Errorf("got %v", got)
			}
			errs <- err
		}()
	}
	for range n {
		require.NoError(t, <-errs)
	}
	pid := pidOf(t, c)
	_, err := c.CallTool(ctx, "crash", nil)
	require.ErrorIs(t, err, mcp.ErrConnection)
	pids := make(chan int, n)
	for range n {
		go func() { pids <- pidOf(t, c) }()
	}
	seen := map[int]bool{}
	for range n {
		seen[<-pids] = true
	}
	assert.Len(t, seen, 1, "one reconnection for all")
	assert.False(t, seen[pid])
}

func pidOf(t *testing.T, c *mcp.Client) int {
	got, err := c.CallTool(context.Background(), "pid", nil)
	if err != nil {
		t.Error(err)
		return 0
	}
	pid, err := strconv.Atoi(got.(string))
	require.NoError(t, err)
	return pid
}

// assertGone checks that the process pid no longer exists (it was reaped).
func assertGone(t *testing.T, pid int) {
	t.Helper()
	if runtime.GOOS == "windows" || pid == 0 {
		return
	}
	err := syscall.Kill(pid, 0)
	assert.True(t, errors.Is(err, syscall.ESRCH), "process %d still exists (%v)", pid, err)
}

// TestValue covers the conversions without a server.
func TestValue(t *testing.T) {
	tests := []struct {
		name string
		res  *sdk.CallToolResult
		want any
	}{
		{"nil", nil, nil},
		{"no content", &sdk.CallToolResult{}, nil},
		{"one empty text", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{}}}, ""},
		{"structured wins over content", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: `{"n":1}`}},
			StructuredContent: map[string]any{"n": 1.0}}, map[string]any{"n": 1.0}},
		{"structured Go values become JSON values", &sdk.CallToolResult{StructuredContent: map[string]int{"n": 1}},
			map[string]any{"n": 1.0}},
		{"structured array", &sdk.CallToolResult{StructuredContent: []any{"a", 2.0}}, []any{"a", 2.0}},
		{"resource", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{
			Resource: &sdk.ResourceContents{URI: "file:///a", MIMEType: "text/plain", Text: "hello"}}}},
			[]any{map[string]any{"type": "resource", "uri": "file:///a", "mimeType": "text/plain", "text": "hello"}}},
		{"resource link", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ResourceLink{URI: "file:///b", Name: "b"}}},
			[]any{map[string]any{"type": "resource_link", "uri": "file:///b", "name": "b", "title": "", "description": "", "mimeType": ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mcp.Value(tt.res)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	_, err := mcp.Value(&sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "a"}, &sdk.TextContent{Text: "b"}}})
	assert.EqualError(t, err, "a\nb")
	_, err = mcp.Value(&sdk.CallToolResult{IsError: true})
	assert.ErrorContains(t, err, "failed without a message")
	assert.True(t, strings.HasPrefix(err.Error(), "mcp: "))
}

// TestClient_CloseDuringCall: a call in progress when Close is called
// returns ErrClosed at once.
func TestClient_CloseDuringCall(t *testing.T) {
	transports(t, mcp.Options{}, func(t *testing.T, c *mcp.Client) {
		ctx := ctxT(t)
		errc := make(chan error, 1)
		go func() {
			_, err := c.CallTool(ctx, "slow", map[string]any{"ms": 3_600_000})
			errc <- err
		}()
		// Calls on one connection are concurrent: the slow one is sent
		// once this one is answered, or soon after.
		_, err := c.CallTool(ctx, "echo", map[string]any{"text": "x"})
		require.NoError(t, err)
		start := time.Now()
		require.NoError(t, c.Close())
		// Over HTTP the SDK may wait up to its 5s bound to deliver the
		// cancellation of the call in progress.
		assert.Less(t, time.Since(start), 20*time.Second)
		select {
		case err := <-errc:
			require.ErrorIs(t, err, mcp.ErrClosed)
		case <-time.After(30 * time.Second):
			t.Fatal("the call did not end with Close")
		}
	})
}
