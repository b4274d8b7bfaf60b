package mcp_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/mcp"
	"github.com/toolscript/toolscript/registry"
)

// An MCP server's tools, imported into a registry, called from a script.
// The server here is an in-process one over streamable HTTP; a stdio
// server is a ServerConfig with a Command instead of a URL.
func Example() {
	// A server with one tool (any MCP server will do).
	server := sdk.NewServer(&sdk.Implementation{Name: "greeter", Version: "1"}, nil)
	type greetArgs struct {
		Name string `json:"name" jsonschema:"who to greet"`
	}
	sdk.AddTool(server, &sdk.Tool{Name: "sayHello", Description: "Greet someone."},
		func(_ context.Context, _ *sdk.CallToolRequest, in greetArgs) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "hello, " + in.Name}}}, nil, nil
		})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	defer hs.Close()
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()

	ctx := context.Background()
	client, err := mcp.Connect(ctx, mcp.ServerConfig{Name: "greeter", URL: hs.URL},
		&mcp.Options{HTTPClient: &http.Client{Transport: transport}})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	reg := registry.New("")
	if err := client.Register(reg); err != nil {
		log.Fatal(err)
	}
	fmt.Println(reg.Names())

	res, err := engine.Execute(ctx, `
		s, err := greeter.SayHello(map[string]any{"name": "Ada"})
		if err != nil {
			panic(err)
		}
		fmt.Println(s)
	`, reg.Projections())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Stdout, res.Error)
	// Output:
	// [greeter-say_hello]
	// hello, Ada
}

func ExampleParseConfig() {
	cfg, err := mcp.ParseConfig([]byte(`{
		"mcpServers": {
			"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
			"weather": {"type": "streamable-http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${WEATHER_TOKEN:-none}"}}
		}
	}`))
	if err != nil {
		log.Fatal(err)
	}
	for _, name := range cfg.Names() {
		s := cfg.Servers[name]
		fmt.Printf("%s: %s %s%s\n", name, s.Type, s.Command, s.URL)
	}
	_, err = mcp.ParseConfig([]byte(`{"mcpServers": {"files": {"command": "npx", "arg": ["-y"]}}}`))
	fmt.Println(err)
	// Output:
	// files: stdio npx
	// weather: http https://example.com/mcp
	// mcp: config: server "files": arg: invalid MCP configuration: unknown field (known: type, command, args, env, cwd, url, headers, disabled, permissions)
}
