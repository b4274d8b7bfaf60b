package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/internal/proc"
	"github.com/toolscript/toolscript/mcp"
)

// serverEnv makes the test binary an MCP server over stdio (TestMain):
// the stdio end-to-end tests start the binary itself as their server.
const serverEnv = "TOOLSCRIPT_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	if pidFile := os.Getenv(parentEnv); pidFile != "" {
		serveAsParent(pidFile) // exits
	}
	switch os.Getenv(serverEnv) {
	case "":
	case "silent": // reads and never answers
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	case "orphan": // writes its pid, serves, and outlives the end of its input
		if err := os.WriteFile(os.Getenv(parentEnv+"_CHILD"), []byte(fmt.Sprint(os.Getpid())), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "test server:", err)
			os.Exit(1)
		}
		_ = newTestServer(true, nil).Run(context.Background(), &sdk.StdioTransport{})
		time.Sleep(2 * time.Minute) // bounded: a failed test leaves no process for long
		os.Exit(0)
	default:
		srv := newTestServer(true, nil)
		if err := srv.Run(context.Background(), &sdk.StdioTransport{}); err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintln(os.Stderr, "test server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	engine.MaybeServeWorker()
	// StartTied's spawner lives as long as the process, by design.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction(proc.SpawnerFunc))
}

type addIn struct {
	A float64 `json:"a" jsonschema:"the first number"`
	B float64 `json:"b" jsonschema:"the second number"`
}

type addOut struct {
	Sum   float64 `json:"sum"`
	Parts []int   `json:"parts"`
}

// newTestServer is the MCP server of the tests. stdio says whether it is
// its own process (the crash tool may then exit); closing done ends the
// slow tool's calls (nil: never).
func newTestServer(stdio bool, done <-chan struct{}) *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "testsrv", Version: "1"}, nil)
	raw := func(name, desc, schema string, h sdk.ToolHandler) {
		srv.AddTool(&sdk.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(schema)}, h)
	}
	text := func(s ...string) *sdk.CallToolResult {
		r := &sdk.CallToolResult{}
		for _, t := range s {
			r.Content = append(r.Content, &sdk.TextContent{Text: t})
		}
		return r
	}
	args := func(req *sdk.CallToolRequest) map[string]any {
		var m map[string]any
		_ = json.Unmarshal(req.Params.Arguments, &m)
		return m
	}
	raw("echo", "Echo the text.", `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`,
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text(fmt.Sprint("echo: ", args(req)["text"])), nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "add", Description: "Add two numbers."},
		func(_ context.Context, _ *sdk.CallToolRequest, in addIn) (*sdk.CallToolResult, addOut, error) {
			return nil, addOut{Sum: in.A + in.B, Parts: []int{int(in.A), int(in.B)}}, nil
		})
	raw("placeOrder", "Place an order.", `{"type":"object","properties":{
		"items":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string"},"qty":{"type":"integer"}},"required":["sku","qty"]}},
		"note":{"type":"string"}},"required":["items"]}`,
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{StructuredContent: map[string]any{"received": args(req)}}, nil
		})
	srv.AddTool(&sdk.Tool{Name: "search", Description: "Search, fast or exact.", InputSchema: &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"query": {Type: "string", Description: "words to look for"},
			"mode":  {Type: "string", Enum: []any{"fast", "exact"}},
			"limit": {Type: "integer", Minimum: jsonschema.Ptr(1.0)},
		},
		Required: []string{"query"},
	}}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return text(fmt.Sprint("found ", args(req)["query"])), nil
	})
	raw("lines", "Two text blocks.", `{"type":"object"}`,
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text("one", "two"), nil
		})
	raw("fail", "Fail with the message.", `{"type":"object","properties":{"msg":{"type":"string"}}}`,
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			r := text(fmt.Sprint(args(req)["msg"]))
			r.IsError = true
			return r, nil
		})
	raw("slow", "Wait ms milliseconds, or until cancelled.", `{"type":"object","properties":{"ms":{"type":"number"}}}`,
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			ms, _ := args(req)["ms"].(float64)
			select {
			case <-time.After(time.Duration(ms) * time.Millisecond):
				return text("done"), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-done:
				return nil, errors.New("server shut down")
			}
		})
	raw("huge", "Return n bytes of text.", `{"type":"object","properties":{"n":{"type":"integer"}}}`,
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			n, _ := args(req)["n"].(float64)
			return text(strings.Repeat("x", int(n))), nil
		})
	raw("picture", "An image and a caption.", `{"type":"object"}`,
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "a pixel"},
				&sdk.ImageContent{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}},
			}}, nil
		})
	raw("get_user", "Clashes with getUser.", `{"type":"object"}`,
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return text("get_user"), nil })
	raw("getUser", "Clashes with get_user.", `{"type":"object"}`,
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return text("getUser"), nil })
	raw("broken", "A schema the registry refuses.", `{"type":"object","properties":{"x":{"type":"frobnicate"}}}`,
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text("unreachable"), nil
		})
	raw("pid", "The server's process id.", `{"type":"object"}`,
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text(fmt.Sprint(os.Getpid())), nil
		})
	raw("add_tool", "Add the tool late.", `{"type":"object"}`,
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			srv.AddTool(&sdk.Tool{Name: "late", Description: "Added late.", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return text("late"), nil })
			return text("added"), nil
		})
	raw("remove_tool", "Remove the tool late and echo.", `{"type":"object"}`,
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			srv.RemoveTools("late", "echo")
			return text("removed"), nil
		})
	if stdio {
		raw("crash", "Exit the server.", `{"type":"object"}`,
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				fmt.Fprintln(os.Stderr, "crashing on purpose")
				os.Exit(3)
				return nil, nil
			})
	}
	return srv
}

// stdioConfig is the test binary as a stdio server.
func stdioConfig(name string) mcp.ServerConfig {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	return mcp.ServerConfig{Name: name, Command: exe, Args: []string{"-test.run=^$"}, Env: map[string]string{serverEnv: "1"}}
}

// httpServer serves a fresh test server over streamable HTTP on loopback,
// requiring the bearer token; restart replaces the server (sessions are
// forgotten, as when a server restarts).
type httpServer struct {
	*httptest.Server
	handler  atomic.Pointer[http.Handler]
	requests atomic.Int64
	srv      *sdk.Server   // the current server
	done     chan struct{} // closed at the end of the test
}

func newHTTPServer(t *testing.T, token string) *httpServer {
	hs := &httpServer{done: make(chan struct{})}
	hs.restart()
	hs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hs.requests.Add(1)
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		(*hs.handler.Load()).ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		close(hs.done)
		hs.CloseClientConnections()
		hs.Close()
		closeSessions(hs.srv)
	})
	return hs
}

func (hs *httpServer) restart() {
	if hs.srv != nil {
		closeSessions(hs.srv) // what a server that restarts forgets
	}
	srv := newTestServer(false, hs.done)
	hs.srv = srv
	var h http.Handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	hs.handler.Store(&h)
}

func closeSessions(srv *sdk.Server) {
	for ss := range srv.Sessions() {
		_ = ss.Close()
	}
}

// httpConfig and httpOptions reach hs with its own HTTP client, closed at
// the end of the test.
func httpConfig(hs *httpServer, name, token string) mcp.ServerConfig {
	return mcp.ServerConfig{Name: name, URL: hs.URL, Headers: map[string]string{"Authorization": "Bearer " + token}}
}

func httpOptions(t *testing.T, o mcp.Options) *mcp.Options {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	o.HTTPClient = &http.Client{Transport: tr}
	return &o
}

// connect connects and closes the client at the end of the test.
func connect(t *testing.T, cfg mcp.ServerConfig, opts *mcp.Options) *mcp.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := mcp.Connect(ctx, cfg, opts)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, c.Close()) })
	return c
}
