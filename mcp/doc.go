// Package mcp imports the tools of MCP (Model Context Protocol) servers
// into a registry, so that scripts call them as Go functions and JSON
// tool-calling loops call them by name. It is built on the official MCP
// Go SDK (github.com/modelcontextprotocol/go-sdk).
//
//	cfg, err := mcp.LoadConfig("mcp.json")
//	...
//	reg := registry.New("")
//	clients, err := mcp.ConnectConfig(ctx, cfg, reg, nil)
//	...
//	defer clients.Close()
//	res, err := engine.Execute(ctx, `
//		s, err := files.ReadFile(map[string]any{"path": "/tmp/notes.txt"})
//		if err != nil {
//			panic(err)
//		}
//		fmt.Println(len(s.(string)))
//	`, reg.Projections())
//
// # Servers
//
// A [Client] is a persistent connection to one server, made by [Connect]:
// over stdio, it runs a command (with arguments, environment added to the
// host's, a working directory) in a process group of its own and speaks
// MCP on its standard input and output; over streamable HTTP, it reaches a
// URL with the configured headers on every request. A stdio server's
// standard error is kept (its last 4 KiB) for error messages and copied to
// [Options].Stderr when set.
//
// The connection lasts until Close. When it is lost (the server exited,
// the HTTP server refused or went away, a message was over the size
// bound), the call that found out fails with an error matching
// [ErrConnection] that says why (for a stdio server: its exit status and
// the end of its standard error), and the next call connects again,
// restarting a stdio server; concurrent calls share one attempt, and one
// attempt is made per call, bounded by [Options].ConnectTimeout. A call
// is never sent twice, except when an HTTP server answers that it no
// longer knows the session (it restarted): the call never reached a tool,
// and it is sent once more on a new session. A reconnection lists the
// tools again.
//
// [Client.Close] closes a stdio server's input, gives it
// [Options].CloseTimeout to exit, then sends SIGTERM and, a second later,
// SIGKILL to its process group; whatever is left of the group once the
// server has exited is killed too, so no process outlives Close. If the
// host itself dies, even by SIGKILL with nothing left to run Close, the
// kernel kills a stdio server on Linux (the parent-death signal: servers
// are started from one OS thread that lives as long as the host, because
// Linux sends the signal when the thread that started the child ends);
// elsewhere a stdio server sees its input close, which ends well-behaved
// servers.
//
// # Tools and names
//
// [Client.Register] imports the server's tools into a registry namespace,
// the server's name normalized with registry.NormalizeToolName ("my-files"
// gives my_files). Each tool keeps the server's input schema (the
// registry validates arguments against it before a call) and output
// schema (registry.Tool.OutputSchema) as the server sent them, and its
// description. A tool whose schema the registry refuses (not an object
// schema, or one it cannot compile) is left out; [Client.Problems] says
// which and why, and [Options].Logger is told.
//
// Tool names are normalized for the script and the registry, and the
// server's own name is what a call sends upstream ([Tool].Upstream).
// A method name is the upstream name normalized ("getWeather" gives
// get_weather, a name with no ASCII letter or digit gives "tool"), cut to
// fit registry.MaxNameLength with the namespace, and unique within the
// server, also as the Go identifier a script writes (get_v1 and get_v_1
// are both GetV1): when names clash, an upstream name already in
// normalized form keeps its name and the others get _2, _3, ... in the
// byte order of their upstream names. The same list always gives the
// same names; a tool added later can shift the suffixes of its clashes.
//
// When the server sends notifications/tools/list_changed, the client
// lists the tools again and updates every registry it feeds: removed
// tools are unregistered, changed ones replaced (a tool disabled in the
// registry stays disabled), new ones added; [Options].OnToolsChanged is
// then called with the change. [Client.Refresh] does the same on demand.
// A projection map taken before the change (registry.Projections) keeps
// the tools it had.
//
// # Results
//
// A call's result becomes the Go value a script receives ([Value]):
//
//   - structured content (the result of a tool with an output schema) as
//     encoding/json decodes JSON into an any: map[string]any, []any,
//     string, float64 (every JSON number, integral or not, as for the
//     JSON-decoded arguments a registry tool receives), bool, nil;
//   - otherwise, text content as one string, several text blocks joined
//     by "\n"; no content at all is nil;
//   - otherwise (images, audio, resources among the blocks) a []any with
//     one map[string]any per block, text blocks included, such as
//     {"type": "image", "mimeType": "image/png", "data": []byte{...}}.
//
// A result the server marks isError is a [*ToolError], whose Error is the
// server's text. A protocol error (an unknown tool, say) is an error
// naming the server and the tool. When the call's context ends first, the
// server is sent a cancellation and the error wraps the context's error.
//
// One message from a server, and so one result, is bounded by
// [Options].MaxMessageBytes ([DefaultMaxMessageBytes], 16 MiB): a larger
// one fails the call with [ErrMessageTooLarge] and drops the connection,
// the only way to skip the rest of it; the next call reconnects.
//
// # Configuration
//
// [ParseConfig] and [LoadConfig] read the configuration format of MCP
// clients, a JSON object whose "mcpServers" maps names to servers:
//
//	{
//	  "mcpServers": {
//	    "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
//	    "weather": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${WEATHER_TOKEN}"}}
//	  }
//	}
//
// A server has "command" (with "args", "env", "cwd") or "url" (with
// "headers"), optionally "type" ("stdio", "http" or "streamable-http")
// and "disabled". ${NAME} and ${NAME:-default} take values from the
// environment. Unknown fields of a server are errors; unknown top-level
// members are ignored, so a client's whole settings file works. Every
// error is a [*ConfigError] naming the server and the field.
// [ConnectConfig] connects every enabled server of a configuration,
// concurrently, into one registry, each in its namespace; it is all or
// nothing, and [Clients].Close closes them all.
//
// # Concurrency
//
// A Client and Clients are safe for concurrent use. Calls to one server
// run concurrently over its one connection.
//
// # Security
//
// A stdio server runs with the host's rights and environment (plus its
// configured variables); an HTTP server gets its configured headers. The
// configuration is trusted input: it names programs to run. Results are
// bounded in size but not otherwise trusted: they reach scripts as plain
// values.
package mcp
