package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
)

// mcpServerEnv makes the test binary a small MCP server over stdio, for
// the --mcp tests.
const mcpServerEnv = "TOOLSCRIPT_CMD_TEST_MCP"

// TestMain is also that server, and the isolated runtime's worker.
func TestMain(m *testing.M) {
	if os.Getenv(mcpServerEnv) != "" {
		srv := sdk.NewServer(&sdk.Implementation{Name: "greeter", Version: "1"}, nil)
		type in struct {
			Name string `json:"name" jsonschema:"who to greet"`
		}
		sdk.AddTool(srv, &sdk.Tool{Name: "greet", Description: "Greet someone."},
			func(_ context.Context, _ *sdk.CallToolRequest, a in) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "hello, " + a.Name}}}, nil, nil
			})
		if err := srv.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		os.Exit(0)
	}
	engine.MaybeServeWorker()
	if args := os.Getenv(serveChildEnv); args != "" {
		// toolscript serve for the stdio tests (serve_test.go).
		os.Exit(run(context.Background(), strings.Split(args, "\x1f"), os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func mcpConfigFile(t *testing.T) string {
	t.Helper()
	return mcpConfigFileWith(t, nil)
}

// mcpConfigFileWith is mcpConfigFile with the greeter's "permissions".
func mcpConfigFileWith(t *testing.T, permissions map[string][]string) string {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	greeter := map[string]any{"command": exe, "args": []string{"-test.run=^$"}, "env": map[string]string{mcpServerEnv: "1", cliEnv: "0"}} // cliEnv: the server, not the command, under a terminal test
	if permissions != nil {
		greeter["permissions"] = permissions
	}
	data, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"greeter": greeter}})
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "mcp.json")
	require.NoError(t, os.WriteFile(p, data, 0o600))
	return p
}

func TestRun_MCP(t *testing.T) {
	cfg := mcpConfigFile(t)
	const script = `s, err := greeter.Greet(map[string]any{"name": "Ada"})
if err != nil {
	panic(err)
}
c, _ := customers.Get(map[string]any{"id": 1})
fmt.Println(s, c.(map[string]any)["name"])`
	for _, mode := range [][]string{nil, {"--isolated"}} {
		t.Run(fmt.Sprint("run", mode), func(t *testing.T) {
			args := append(append([]string{"run", "--mcp", cfg}, mode...), "-")
			code, out, errOut := runCLI(t, script, args...)
			require.Equal(t, 0, code, errOut)
			assert.Equal(t, "hello, Ada Ada Thompson\n", out, "MCP tools in addition to the demo tools")
		})
	}
	code, _, errOut := runCLI(t, `customers.Get(map[string]any{"id": 1})`, "run", "--mcp", cfg, "--no-demo", "-")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "undefined: customers")

	code, out, errOut := runCLI(t, "", "describe", "--mcp", cfg, "--no-demo")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "package greeter")
	assert.Contains(t, out, "Greet someone.")
	assert.NotContains(t, out, "package customers")
}

func TestRun_MCPConfigErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"mcpServers": {"files": {"comand": "npx"}}}`), 0o600))
	code, _, errOut := runCLI(t, "", "run", "--mcp", bad, "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `server "files": comand: `)

	missing := filepath.Join(t.TempDir(), "missing.json")
	require.NoError(t, os.WriteFile(missing, []byte(`{"mcpServers": {"gone": {"command": "/no/such/mcp-server"}}}`), 0o600))
	code, _, errOut = runCLI(t, "", "describe", "--mcp", missing)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `server "gone"`)
}
