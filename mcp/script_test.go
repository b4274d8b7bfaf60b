package mcp_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/mcp"
	"github.com/toolscript/toolscript/registry"
)

// scriptConfig is a configuration of two servers: the test binary over
// stdio ("local") and an HTTP server ("remote").
func scriptConfig(t *testing.T, hs *httpServer) *mcp.Config {
	local := stdioConfig("local")
	data, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"local":  map[string]any{"command": local.Command, "args": local.Args, "env": local.Env},
		"remote": map[string]any{"type": "streamable-http", "url": hs.URL, "headers": map[string]string{"Authorization": "Bearer ${MCP_TEST_TOKEN}"}},
	}})
	require.NoError(t, err)
	t.Setenv("MCP_TEST_TOKEN", token)
	cfg, err := mcp.ParseConfig(data)
	require.NoError(t, err)
	return cfg
}

// TestScript_BothRuntimes imports a stdio and an HTTP server from one
// configuration into a registry and calls their tools from a script, in
// process and in the isolated runtime; the stdio server crashes in the
// middle of the script, the call says why, and the next call reconnects.
func TestScript_BothRuntimes(t *testing.T) {
	hs := newHTTPServer(t, token)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	reg := registry.New("")
	clients, err := mcp.ConnectConfig(ctx, scriptConfig(t, hs), reg, httpOptions(t, mcp.Options{}))
	require.NoError(t, err)
	defer clients.Close()
	require.Len(t, clients.All(), 2)
	require.NotNil(t, clients.Get("remote"))
	assert.Contains(t, reg.Names(), "local-echo")
	assert.Contains(t, reg.Names(), "remote-place_order")

	const script = `
s, err := local.Echo(map[string]any{"text": "hi"})
if err != nil {
	panic(err)
}
r, err := remote.Add(map[string]any{"a": 1, "b": 2})
if err != nil {
	panic(err)
}
fmt.Println(s, r.(map[string]any)["sum"])
o, err := remote.PlaceOrder(map[string]any{"items": []map[string]any{{"sku": "A-1", "qty": 2}}})
fmt.Println(o, err)
_, err = local.Fail(map[string]any{"msg": "no such city"})
fmt.Println("tool error:", err)
_, err = local.Echo(map[string]any{"text": 7})
fmt.Println("argument error:", err != nil)
_, err = local.Crash(nil)
fmt.Println("crash:", strings.Contains(err.Error(), "exit status 3"), strings.Contains(err.Error(), "crashing on purpose"))
s, err = local.Echo(map[string]any{"text": "back"})
fmt.Println(s, err)
`
	const want = "echo: hi 3\n" +
		"map[received:map[items:[map[qty:2 sku:A-1]]]] <nil>\n" +
		"tool error: no such city\n" +
		"argument error: true\n" +
		"crash: true true\n" +
		"echo: back <nil>\n"

	t.Run("in-process", func(t *testing.T) {
		res, err := engine.Execute(ctx, script, reg.Projections())
		require.NoError(t, err)
		require.Equal(t, 0, res.ReturnCode, "error: %s\nstderr: %s", res.Error, res.Stderr)
		assert.Equal(t, want, res.Stdout)
	})
	t.Run("isolated", func(t *testing.T) {
		iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
		require.NoError(t, err)
		defer iso.Close()
		res, err := iso.Execute(ctx, script, reg.Projections())
		require.NoError(t, err)
		require.Equal(t, 0, res.ReturnCode, "error: %s\nstderr: %s", res.Error, res.Stderr)
		assert.Equal(t, want, res.Stdout)
	})
	t.Run("describe", func(t *testing.T) {
		d := engine.Describe(reg.Projections())
		assert.Contains(t, d, "package local")
		assert.Contains(t, d, "Echo the text.")
	})
}

// TestConnectConfig_AllOrNothing: one server that cannot start fails the
// whole configuration, closes the others and leaves the registry as it
// was.
func TestConnectConfig_AllOrNothing(t *testing.T) {
	local := stdioConfig("ok")
	cfg := &mcp.Config{Servers: map[string]mcp.ServerConfig{
		"ok":     local,
		"broken": {Command: "/no/such/server"},
	}}
	reg := registry.New("")
	_, err := mcp.ConnectConfig(context.Background(), cfg, reg, nil)
	require.ErrorIs(t, err, mcp.ErrConnection)
	assert.Contains(t, err.Error(), `server "broken"`)
	assert.Zero(t, reg.Len())

	// A namespace already taken in the registry.
	reg = registry.New("")
	require.NoError(t, reg.Register(func() string { return "" }, registry.WithName("echo"), registry.WithNamespace("ok")))
	_, err = mcp.ConnectConfig(context.Background(), &mcp.Config{Servers: map[string]mcp.ServerConfig{"ok": local}}, reg, nil)
	require.ErrorIs(t, err, registry.ErrDuplicateTool)
	assert.Equal(t, 1, reg.Len())
}
