package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serveChildEnv makes the test binary run toolscript with the arguments
// it holds (separated by the unit separator, 0x1f): the stdio server the tests start.
const serveChildEnv = "TOOLSCRIPT_CMD_TEST_SERVE"

// upstream is an MCP server over streamable HTTP with the 247 tools of
// the registry's search catalogue, flattened to namespace_name; each
// tool answers with its name and its arguments.
func upstream(t *testing.T) (url string, tools int) {
	t.Helper()
	data, err := os.ReadFile("../../registry/testdata/search_catalogue.json")
	require.NoError(t, err)
	var cat []struct {
		Namespace, Name, Description string
		InputSchema                  json.RawMessage
	}
	require.NoError(t, json.Unmarshal(data, &cat))
	srv := sdk.NewServer(&sdk.Implementation{Name: "catalogue", Version: "1"}, nil)
	for _, c := range cat {
		name := c.Namespace + "_" + c.Name
		srv.AddTool(&sdk.Tool{Name: name, Description: c.Description, InputSchema: c.InputSchema},
			func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: name + " " + string(req.Params.Arguments)}}}, nil
			})
	}
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return hs.URL, len(cat)
}

// serveConfig is an --mcp file naming the upstream, refunds asked for and
// file deletion denied.
func serveConfig(t *testing.T, url string) string {
	t.Helper()
	data, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"cat": map[string]any{"url": url, "permissions": map[string]any{
			"ask": []string{"payments_refund_*"}, "deny": []string{"files_delete_*"},
		}},
	}})
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "mcp.json")
	require.NoError(t, os.WriteFile(p, data, 0o600))
	return p
}

// approver is an elicitation handler that approves the calls whose
// message holds "p-ok".
func approver(asked *[]string, mu *sync.Mutex) func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	return func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		mu.Lock()
		*asked = append(*asked, req.Params.Message)
		mu.Unlock()
		if strings.Contains(req.Params.Message, "p-ok") {
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
		}
		return &sdk.ElicitResult{Action: "decline"}, nil
	}
}

func callTool(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) (string, *sdk.CallToolResult) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res
}

// permissionScript calls an allowed tool, an ask tool approved and
// refused, and a denied one by name, and looks for the denied one.
const permissionScript = `v, err := cat.PaymentsGetPayment(map[string]any{"payment_id": "p1"})
fmt.Println(v, err)
v, err = cat.PaymentsRefundPayment(map[string]any{"payment_id": "p-ok"})
fmt.Println(v, err)
_, err = cat.PaymentsRefundPayment(map[string]any{"payment_id": "p-no"})
fmt.Println(err)
_, err = tools.Call("cat-files_delete_file", map[string]any{"path": "/x"})
fmt.Println(err)
hits, err := tools.Search("delete a file")
for _, h := range hits {
	if strings.Contains(h.Name, "delete_file") {
		fmt.Println("found", h.Name)
	}
}
len(hits)
`

const permissionOut = `payments_get_payment {"payment_id":"p1"} <nil>
payments_refund_payment {"payment_id":"p-ok"} <nil>
registry: call refused: the call of "cat-payments_refund_payment" was not approved: the user chose "decline"
registry: tool denied: "cat-files_delete_file" is denied by the registry's permissions
`

// checkServe drives a serve session: its tool list, execute_code with
// upstream tools and permissions, sessions, search_tools and
// describe_tools. It returns the size of the tool list as JSON.
func checkServe(t *testing.T, cs *sdk.ClientSession, asked *[]string, mu *sync.Mutex) int {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	assert.Equal(t, []string{"describe_tools", "execute_code", "search_tools"}, names)
	listJSON, err := json.Marshal(list.Tools)
	require.NoError(t, err)

	text, res := callTool(t, cs, "execute_code", map[string]any{"code": permissionScript})
	require.False(t, res.IsError, text)
	assert.True(t, strings.HasPrefix(text, permissionOut), text)
	assert.NotContains(t, text, "found")
	assert.Contains(t, text, "tool calls: 5: cat-payments_get_payment, cat-payments_refund_payment (approved), cat-payments_refund_payment (refused), cat-files_delete_file (denied), tools.Search")
	mu.Lock()
	assert.Len(t, *asked, 2)
	mu.Unlock()
	sc, _ := json.Marshal(res.StructuredContent)
	assert.Contains(t, string(sc), `"decision":"refused"`)

	text, res = callTool(t, cs, "execute_code", map[string]any{"code": "x := 1\nfmt.Println(y)"})
	assert.True(t, res.IsError)
	assert.Contains(t, text, "error: line 2:")

	text, res = callTool(t, cs, "execute_code", map[string]any{"code": "x := 41", "session_id": "new"})
	require.False(t, res.IsError, text)
	require.Contains(t, text, "session_id: s1")
	text, res = callTool(t, cs, "execute_code", map[string]any{"code": "x + 1", "session_id": "s1"})
	require.False(t, res.IsError, text)
	assert.Contains(t, text, "value: 42")

	text, _ = callTool(t, cs, "search_tools", map[string]any{"query": "refund a payment", "limit": 3})
	assert.Contains(t, text, "cat-payments_refund_payment\n    cat.PaymentsRefundPayment(args map[string]any) (any, error) // args: payment_id string, amount_cents? int")
	text, _ = callTool(t, cs, "search_tools", map[string]any{"query": "delete file"})
	assert.NotContains(t, text, "files_delete_file")

	text, _ = callTool(t, cs, "describe_tools", map[string]any{"tools": []string{"cat-weather_forecast", "cat-files_delete_file"}})
	assert.Contains(t, text, "func WeatherForecast(")
	assert.Contains(t, text, "not found: cat-files_delete_file")
	text, _ = callTool(t, cs, "describe_tools", nil)
	assert.Contains(t, text, "246 tools in 1 packages")
	return len(listJSON)
}

// TestServe_Stdio runs toolscript serve as a process (isolated runtime),
// driven by the SDK's client over its standard input and output, and
// measures the tool list it serves against the upstream's.
func TestServe_Stdio(t *testing.T) {
	url, n := upstream(t)
	cfg := serveConfig(t, url)
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), serveChildEnv+"="+strings.Join([]string{"serve", "--no-demo", "--mcp", cfg}, "\x1f"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	var asked []string
	var mu sync.Mutex
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{ElicitationHandler: approver(&asked, &mu)})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err, stderr.String())
	served := checkServe(t, cs, &asked, &mu)
	require.NoError(t, cs.Close())

	// The upstream listed directly, as a client of it sees it.
	direct, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url}, nil)
	require.NoError(t, err)
	defer direct.Close()
	list, err := direct.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list.Tools, n)
	upstreamJSON, err := json.Marshal(list.Tools)
	require.NoError(t, err)
	t.Logf("tool definitions: through serve %d bytes (~%d tokens); %d upstream tools listed directly %d bytes (~%d tokens)",
		served, served/4, n, len(upstreamJSON), len(upstreamJSON)/4)
	assert.Less(t, served, 3000)
	assert.Greater(t, len(upstreamJSON), 20*served)
}

// TestServe_HTTP runs toolscript serve over streamable HTTP in process
// (--in-process), with a bearer token, and a client without elicitation:
// its ask tools are refused.
func TestServe_HTTP(t *testing.T) {
	url, _ := upstream(t)
	cfg := serveConfig(t, url)
	ctx, stop := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--no-demo", "--in-process", "--mcp", cfg, "--http", "127.0.0.1:0", "--token", "s3cret"}, strings.NewReader(""), io.Discard, pw)
		pw.Close()
	}()
	defer func() {
		stop()
		assert.Equal(t, exitOK, <-done)
	}()
	sc := bufio.NewScanner(pr)
	var endpoint string
	for sc.Scan() {
		if _, after, ok := strings.Cut(sc.Text(), "streamable HTTP at "); ok {
			endpoint = after
			break
		}
	}
	require.NotEmpty(t, endpoint)
	go func() { _, _ = io.Copy(io.Discard, pr) }()

	resp, err := http.Post(endpoint, "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)

	hc := &http.Client{Transport: tokenTransport{"s3cret"}}
	cctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).
		Connect(cctx, &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc}, nil)
	require.NoError(t, err)
	defer cs.Close()
	list, err := cs.ListTools(cctx, nil)
	require.NoError(t, err)
	assert.Len(t, list.Tools, 3)
	text, res := callTool(t, cs, "execute_code", map[string]any{"code": permissionScript})
	require.False(t, res.IsError, text)
	assert.Contains(t, text, `payments_get_payment {"payment_id":"p1"} <nil>`)
	assert.Contains(t, text, `<nil> registry: call refused: the call of "cat-payments_refund_payment" was not approved: the MCP client cannot be asked (it does not support elicitation)`)
	assert.Contains(t, text, `"cat-files_delete_file" is denied`)
}

type tokenTransport struct{ token string }

func (tt tokenTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+tt.token)
	return http.DefaultTransport.RoundTrip(r)
}

func TestServe_Flags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"serve", "--http", "0.0.0.0:0"}, "not a loopback address"},
		{[]string{"serve", "--http", "nope"}, "--http"},
		{[]string{"serve", "extra"}, "takes no arguments"},
	} {
		code, _, errOut := runCLI(t, "", tc.args...)
		assert.Equal(t, exitUsage, code, fmt.Sprint(tc.args))
		assert.Contains(t, errOut, tc.msg)
	}
	code, out, _ := runCLI(t, "", "serve", "-h")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "execute_code")
}

// TestServe_Demo: with no configuration, serve offers the demo tools
// (here over in-process pipes, as standard input and output).
func TestServe_Demo(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"serve", "--in-process"}, inR, outW, io.Discard)
		outW.Close()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	require.NoError(t, err)
	text, res := callTool(t, cs, "execute_code", map[string]any{"code": `c, err := customers.Get(map[string]any{"id": 1})
fmt.Println(c.(map[string]any)["name"], err)`})
	require.False(t, res.IsError, text)
	assert.Contains(t, text, "Ada Thompson <nil>\ntool calls: 1: customers-get\n")
	text, _ = callTool(t, cs, "describe_tools", map[string]any{"packages": []string{"customers"}})
	assert.Contains(t, text, "package customers")
	require.NoError(t, cs.Close())
	inW.Close()
	assert.Equal(t, exitOK, <-done)
}
