package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolscript/toolscript/registry"
)

// Defaults of Options.
const (
	// DefaultConnectTimeout bounds starting a server and the MCP handshake.
	DefaultConnectTimeout = 30 * time.Second
	// DefaultCloseTimeout is how long Close waits for a stdio server to
	// exit once its input is closed, before SIGTERM (and, a second later,
	// SIGKILL).
	DefaultCloseTimeout = 5 * time.Second
	// DefaultMaxMessageBytes bounds one message from a server, and so one
	// tool result: 16 MiB, the SDK's own default bound.
	DefaultMaxMessageBytes = 16 << 20
)

// Errors of the package. Errors of a call are wrapped with the server's
// and the tool's name; errors.Is finds these.
var (
	// ErrConnection is matched by the error of a call that could not reach
	// the server, or lost it: it names the cause (the server's exit
	// status and the end of its standard error, for a stdio server). The
	// next call connects again.
	ErrConnection = errors.New("mcp: connection to the server failed")
	// ErrMessageTooLarge is matched by the error of a call whose result was
	// over Options.MaxMessageBytes. The connection is dropped with it (the
	// rest of an oversized message cannot be skipped reliably); the next
	// call connects again.
	ErrMessageTooLarge = errors.New("mcp: message from the server over the size limit")
	// ErrClosed is matched by the error of a call after Close.
	ErrClosed = errors.New("mcp: client closed")
)

// Options configure Connect and ConnectConfig. The zero value works; zero
// fields take the documented defaults.
type Options struct {
	// ConnectTimeout bounds starting a server and the MCP handshake, on
	// the first connection and on every reconnection (together with the
	// caller's context). Zero or negative means DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// CloseTimeout is how long Close waits for a stdio server to exit
	// after its input is closed, before it is terminated. Zero or negative
	// means DefaultCloseTimeout.
	CloseTimeout time.Duration
	// MaxMessageBytes bounds one message from a server (one tool result).
	// Zero means DefaultMaxMessageBytes; a negative value means no bound.
	MaxMessageBytes int
	// Stderr, if set, receives the standard error of stdio servers as
	// they write it. The last 4 KiB are kept for error messages either
	// way.
	Stderr io.Writer
	// HTTPClient is the base client for HTTP servers; nil means
	// http.DefaultClient. Its Transport gets the configured headers.
	HTTPClient *http.Client
	// Logger receives warnings: tools left out of an import and failed
	// re-listings. nil discards them.
	Logger *slog.Logger
	// OnToolsChanged, if set, is called after the tools of a server
	// changed (a tools/list_changed notification, or a reconnection that
	// found a different list), once the registries it feeds are updated.
	// It runs on a goroutine of the client; it must not call Close.
	OnToolsChanged func(ToolsChange)
}

func (o *Options) withDefaults() Options {
	var c Options
	if o != nil {
		c = *o
	}
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.CloseTimeout <= 0 {
		c.CloseTimeout = DefaultCloseTimeout
	}
	if c.MaxMessageBytes == 0 {
		c.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// ToolsChange reports a change of a server's tool list, by method name.
type ToolsChange struct {
	// Server is the server's name.
	Server string
	// Added, Removed and Changed list method names, sorted.
	Added, Removed, Changed []string
}

// Tool is one tool of a server, as imported.
type Tool struct {
	// Name is the method name: unique in the server's namespace, valid for
	// every model API (see the package documentation, "Names").
	Name string
	// Upstream is the server's own name for the tool, the one calls use.
	Upstream string
	// Title is the server's display name for the tool; "" for none.
	Title string
	// Description is the server's description.
	Description string
	// InputSchema is the JSON Schema of the arguments, as the server
	// sent it.
	InputSchema json.RawMessage
	// OutputSchema is the JSON Schema of the structured result; nil when
	// the server declares none.
	OutputSchema json.RawMessage
	// Annotations are the server's hints about the tool; nil for none.
	Annotations *sdk.ToolAnnotations
}

// Client is a persistent connection to one MCP server, whose tools it can
// call and import into registries. It reconnects when the connection was
// lost (the call that found it lost fails and says why; the next one
// connects again, restarting a stdio server), follows the server's
// tools/list_changed notifications, and Close ends it. A Client is safe
// for concurrent use.
type Client struct {
	name, ns string
	cfg      ServerConfig
	opts     Options
	sdk      *sdk.Client

	mu         sync.Mutex
	conn       *conn
	connecting *dial // non-nil while a connection is being made
	closed     bool
	tools      []Tool // sorted by Name
	problems   []error
	targets    []*target
	everConn   bool

	relist chan struct{} // capacity 1: a re-listing is due
	done   chan struct{} // closed by Close
	wg     sync.WaitGroup
	syncMu sync.Mutex // one re-listing at a time
}

// conn is one session with the server.
type conn struct {
	ctx     context.Context // cancelled when the session is being closed
	cancel  context.CancelFunc
	cs      *sdk.ClientSession
	proc    *process      // stdio only
	tripped *atomic.Bool  // a message was over the bound
	ended   chan struct{} // closed once the session has ended
	waited  chan struct{} // closed once the watcher returned
}

type dial struct {
	done chan struct{}
	err  error
}

// Connect starts (stdio) or reaches (HTTP) the server cfg describes, does
// the MCP handshake and lists its tools, within opts.ConnectTimeout and
// ctx. cfg.Name names the server in errors and gives the namespace; cfg
// is used as it is (ParseConfig fills Type; an empty Type is inferred
// from Command or URL). Close the Client when done.
func Connect(ctx context.Context, cfg ServerConfig, opts *Options) (*Client, error) {
	if cfg.Type == "" {
		cfg.Type = TypeStdio
		if cfg.URL != "" {
			cfg.Type = TypeHTTP
		}
	}
	ns, err := cfg.Namespace()
	if err != nil {
		return nil, fmt.Errorf("mcp: server %q: the name cannot be a namespace: %w", cfg.Name, err)
	}
	if cfg.Type == TypeStdio && cfg.Command == "" || cfg.Type == TypeHTTP && cfg.URL == "" {
		return nil, fmt.Errorf("mcp: server %q: a %s server needs a %s", cfg.Name, cfg.Type,
			map[string]string{TypeStdio: "command", TypeHTTP: "url"}[cfg.Type])
	}
	c := &Client{
		name:   cfg.Name,
		ns:     ns,
		cfg:    cfg,
		opts:   opts.withDefaults(),
		relist: make(chan struct{}, 1),
		done:   make(chan struct{}),
	}
	c.sdk = sdk.NewClient(&sdk.Implementation{Name: "toolscript", Version: "1"}, &sdk.ClientOptions{
		Logger: c.opts.Logger,
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			c.scheduleRelist()
		},
	})
	cn, err := c.live(ctx)
	if err != nil {
		return nil, err
	}
	tools, problems, err := c.list(ctx, cn)
	if err != nil {
		c.closeConn(cn)
		return nil, c.connErr("listing tools", err, cn)
	}
	c.tools, c.problems = tools, problems
	c.logProblems(problems)
	c.wg.Add(1)
	go c.watch()
	return c, nil
}

// Name returns the server's name.
func (c *Client) Name() string { return c.name }

// Namespace returns the registry namespace of the server's tools.
func (c *Client) Namespace() string { return c.ns }

// Tools returns the server's tools as last listed, sorted by Name.
func (c *Client) Tools() []Tool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Tool(nil), c.tools...)
}

// Problems returns why tools of the last listing were left out (a schema
// the registry refuses, say), one error per tool.
func (c *Client) Problems() []error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]error(nil), c.problems...)
}

// CallTool calls the server's tool upstream (the server's own name, as in
// Tool.Upstream) with args and converts the result with Value: a string,
// the structured content, a list of content blocks, or a *ToolError when
// the server marks the result as an error. ctx bounds the call: when it
// ends, the server is told the call is cancelled and CallTool returns
// ctx's error (wrapped). A call that finds the connection lost returns an
// error matching ErrConnection that says why; the next call connects
// again. A call whose session the HTTP server no longer knows is sent
// again on a new session, once (it never reached the tool).
func (c *Client) CallTool(ctx context.Context, upstream string, args map[string]any) (any, error) {
	if args == nil {
		args = map[string]any{}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("mcp: server %q: tool %q: the arguments cannot be sent as JSON: %w", c.name, upstream, err)
	}
	for attempt := 0; ; attempt++ {
		cn, err := c.live(ctx)
		if err != nil {
			return nil, fmt.Errorf("tool %q: %w", upstream, err)
		}
		callCtx, stop := cn.bind(ctx)
		res, err := cn.cs.CallTool(callCtx, &sdk.CallToolParams{Name: upstream, Arguments: json.RawMessage(raw)})
		stop()
		if err == nil {
			v, err := Value(res)
			var te *ToolError
			if errors.As(err, &te) {
				te.Server, te.Tool = c.name, upstream
			}
			return v, err
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("mcp: server %q: tool %q: no answer: %w", c.name, upstream, ctx.Err())
		}
		if cn.ctx.Err() != nil { // the session was ended under the call
			if c.isClosed() {
				return nil, fmt.Errorf("mcp: server %q: tool %q: %w", c.name, upstream, ErrClosed)
			}
			return nil, fmt.Errorf("mcp: server %q: tool %q: %w: the connection was dropped during the call; the next call reconnects", c.name, upstream, ErrConnection)
		}
		var werr *jsonrpc.Error
		if errors.As(err, &werr) && werr.Code != -32003 && werr.Code != -32004 { // not client/server closing
			return nil, fmt.Errorf("mcp: server %q: tool %q: %w", c.name, upstream, err)
		}
		if errors.Is(err, sdk.ErrSessionMissing) && attempt == 0 {
			c.closeConn(cn)
			continue
		}
		if c.isClosed() { // Close ended the session under the call
			return nil, fmt.Errorf("mcp: server %q: tool %q: %w", c.name, upstream, ErrClosed)
		}
		e := c.connErr(fmt.Sprintf("calling tool %q", upstream), err, cn)
		c.closeConn(cn)
		return nil, e
	}
}

func (c *Client) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// bind returns ctx, also cancelled when the session is closed, so that
// closing a session ends the calls in progress on it (the SDK's Close
// waits for them).
func (cn *conn) bind(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(cn.ctx, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}

// Refresh lists the server's tools again now and updates the registries
// the client feeds, as a tools/list_changed notification does.
func (c *Client) Refresh(ctx context.Context) error {
	return c.sync(ctx)
}

// Close ends the connection: a stdio server's input is closed, it gets
// Options.CloseTimeout to exit and is then terminated with its process
// group; an HTTP session is ended. The registries keep the tools, whose
// calls then fail with ErrClosed. Close waits for the client's goroutines
// and is idempotent.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	close(c.done)
	cn := c.conn
	c.conn = nil
	d := c.connecting
	c.mu.Unlock()
	if d != nil {
		<-d.done // the dialler sees closed and closes what it made
	}
	c.wg.Wait()
	if cn != nil {
		c.closeConn(cn)
	}
	return nil
}

// live returns the current session, connecting when there is none or it
// has ended. Concurrent callers share one attempt.
func (c *Client) live(ctx context.Context) (*conn, error) {
	c.mu.Lock()
	for {
		if c.closed {
			c.mu.Unlock()
			return nil, fmt.Errorf("mcp: server %q: %w", c.name, ErrClosed)
		}
		if cn := c.conn; cn != nil {
			select {
			case <-cn.ended:
				c.conn = nil
				c.mu.Unlock()
				c.closeConn(cn)
				c.mu.Lock()
				continue
			default:
				c.mu.Unlock()
				return cn, nil
			}
		}
		if d := c.connecting; d != nil {
			c.mu.Unlock()
			select {
			case <-d.done:
			case <-ctx.Done():
				return nil, fmt.Errorf("mcp: server %q: connecting: %w", c.name, ctx.Err())
			}
			if d.err != nil {
				return nil, d.err
			}
			c.mu.Lock()
			continue
		}
		d := &dial{done: make(chan struct{})}
		c.connecting = d
		c.mu.Unlock()
		cn, err := c.dial(ctx)
		c.mu.Lock()
		c.connecting = nil
		d.err = err
		close(d.done)
		if err != nil {
			c.mu.Unlock()
			return nil, err
		}
		if c.closed {
			c.mu.Unlock()
			c.closeConn(cn)
			return nil, fmt.Errorf("mcp: server %q: %w", c.name, ErrClosed)
		}
		c.conn = cn
		again := c.everConn
		c.everConn = true
		c.mu.Unlock()
		if again {
			c.scheduleRelist() // the new server may have other tools
		}
		return cn, nil
	}
}

// dial makes a new session.
func (c *Client) dial(ctx context.Context) (*conn, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.ConnectTimeout)
	defer cancel()
	cn := &conn{tripped: new(atomic.Bool), ended: make(chan struct{}), waited: make(chan struct{})}
	cn.ctx, cn.cancel = context.WithCancel(context.Background())
	var t sdk.Transport
	switch c.cfg.Type {
	case TypeHTTP:
		t = httpTransport(c.cfg, c.opts.HTTPClient, c.opts.MaxMessageBytes, cn.tripped)
	default:
		p, err := startProcess(c.cfg, c.opts.MaxMessageBytes, c.opts.Stderr)
		if err != nil {
			return nil, fmt.Errorf("mcp: server %q: %w: %w", c.name, ErrConnection, err)
		}
		cn.proc, cn.tripped = p, p.stdout.tripped
		t = p.transport()
	}
	cs, err := c.sdk.Connect(ctx, t, nil)
	if err != nil {
		var e error
		if ctx.Err() != nil {
			// Closing the session closes a stdio server's input: that it
			// then exits says nothing.
			e = fmt.Errorf("mcp: server %q: %w: no answer to the MCP handshake in time (Options.ConnectTimeout is %v): %w", c.name, ErrConnection, c.opts.ConnectTimeout, ctx.Err())
		} else {
			e = c.connErr("connecting", err, cn)
		}
		c.closeConn(cn)
		return nil, e
	}
	cn.cs = cs
	go func() {
		defer close(cn.waited)
		_ = cs.Wait()
		close(cn.ended)
	}()
	return cn, nil
}

// closeConn ends a session and, for stdio, the server; it is idempotent
// per conn only through the SDK's and the process's own idempotence, so
// each conn is closed by whoever took it out of c.conn (or never put it
// there).
func (c *Client) closeConn(cn *conn) {
	c.mu.Lock()
	if c.conn == cn {
		c.conn = nil
	}
	c.mu.Unlock()
	cn.cancel() // end the calls in progress: the SDK's Close waits for them
	if cn.cs != nil {
		_ = cn.cs.Close()
		<-cn.waited
	}
	if cn.proc != nil {
		cn.proc.stop(c.opts.CloseTimeout)
	}
}

// connErr describes a failed or lost connection: the cause and, for a
// stdio server that ended, how it ended.
func (c *Client) connErr(op string, err error, cn *conn) error {
	if cn.tripped.Load() {
		return fmt.Errorf("mcp: server %q: %s: %w: a message was over %d bytes (Options.MaxMessageBytes); the connection is closed and the next call reconnects",
			c.name, op, ErrMessageTooLarge, c.opts.MaxMessageBytes)
	}
	if p := cn.proc; p != nil {
		// The server's end of the pipe closing usually means it exited;
		// give the exit a moment to be seen, to say how it ended.
		if p.exitedWithin(context.Background(), time.Second) {
			p.stderrWithin(time.Second)
			return fmt.Errorf("mcp: server %q: %s: %w: the server exited (%s); the next call restarts it",
				c.name, op, ErrConnection, p.exitString())
		}
	}
	return fmt.Errorf("mcp: server %q: %s: %w: %v; the next call reconnects", c.name, op, ErrConnection, err)
}

// scheduleRelist asks the watcher to list the tools again.
func (c *Client) scheduleRelist() {
	select {
	case c.relist <- struct{}{}:
	default:
	}
}

// watch re-lists the tools when asked, until Close.
func (c *Client) watch() {
	defer c.wg.Done()
	for {
		select {
		case <-c.done:
			return
		case <-c.relist:
		}
		ctx, cancel := context.WithTimeout(context.Background(), c.opts.ConnectTimeout)
		go func() { // Close cancels a re-listing in progress
			select {
			case <-c.done:
				cancel()
			case <-ctx.Done():
			}
		}()
		if err := c.sync(ctx); err != nil && !errors.Is(err, ErrClosed) {
			c.opts.Logger.Warn("mcp: re-listing tools failed", "server", c.name, "error", err)
		}
		cancel()
	}
}

// sync lists the tools and applies the change to the registries.
func (c *Client) sync(ctx context.Context) error {
	c.syncMu.Lock()
	defer c.syncMu.Unlock()
	cn, err := c.live(ctx)
	if err != nil {
		return err
	}
	tools, problems, err := c.list(ctx, cn)
	if err != nil {
		return fmt.Errorf("mcp: server %q: listing tools: %w", c.name, err)
	}
	c.logProblems(problems)
	c.mu.Lock()
	old := c.tools
	c.tools, c.problems = tools, problems
	targets := append([]*target(nil), c.targets...)
	c.mu.Unlock()
	change := diff(c.name, old, tools)
	if len(change.Added)+len(change.Removed)+len(change.Changed) == 0 {
		return nil
	}
	for _, t := range targets {
		t.apply(c, old, tools)
	}
	if f := c.opts.OnToolsChanged; f != nil {
		f(change)
	}
	return nil
}

// list lists the server's tools and maps them to method names, leaving out
// (with a problem each) the tools the registry would refuse.
func (c *Client) list(ctx context.Context, cn *conn) ([]Tool, []error, error) {
	ctx, stop := cn.bind(ctx)
	defer stop()
	var raw []*sdk.Tool
	for t, err := range cn.cs.Tools(ctx, nil) {
		if err != nil {
			return nil, nil, err
		}
		raw = append(raw, t)
	}
	names := make([]string, len(raw))
	for i, t := range raw {
		names[i] = t.Name
	}
	methods := methodNames(c.ns, names)
	check := registry.New("")
	var tools []Tool
	var problems []error
	seen := map[string]bool{}
	for _, t := range raw {
		if seen[t.Name] {
			problems = append(problems, fmt.Errorf("mcp: server %q: tool %q: listed twice; the first is kept", c.name, t.Name))
			continue
		}
		seen[t.Name] = true
		tool, err := convertTool(t, methods[t.Name])
		if err == nil {
			err = check.Register(c.registryTool(tool), registry.WithNamespace(c.ns))
		}
		if err != nil {
			problems = append(problems, fmt.Errorf("mcp: server %q: tool %q left out: %w", c.name, t.Name, err))
			continue
		}
		tools = append(tools, tool)
	}
	sort.Slice(tools, func(i, j int) bool { return tools[i].Name < tools[j].Name })
	return tools, problems, nil
}

func (c *Client) logProblems(problems []error) {
	for _, p := range problems {
		c.opts.Logger.Warn("mcp: tool left out", "server", c.name, "error", p)
	}
}

// convertTool turns the SDK's view of a tool into a Tool.
func convertTool(t *sdk.Tool, method string) (Tool, error) {
	out := Tool{Name: method, Upstream: t.Name, Title: t.Title, Description: t.Description, Annotations: t.Annotations}
	var err error
	if t.InputSchema == nil {
		out.InputSchema = json.RawMessage(`{"type":"object"}`)
	} else if out.InputSchema, err = json.Marshal(t.InputSchema); err != nil {
		return Tool{}, fmt.Errorf("input schema: %w", err)
	}
	if t.OutputSchema != nil {
		if out.OutputSchema, err = json.Marshal(t.OutputSchema); err != nil {
			return Tool{}, fmt.Errorf("output schema: %w", err)
		}
	}
	return out, nil
}

// diff compares two tool lists sorted by Name.
func diff(server string, old, tools []Tool) ToolsChange {
	ch := ToolsChange{Server: server}
	before := map[string]Tool{}
	for _, t := range old {
		before[t.Name] = t
	}
	for _, t := range tools {
		b, ok := before[t.Name]
		switch {
		case !ok:
			ch.Added = append(ch.Added, t.Name)
		case !sameTool(b, t):
			ch.Changed = append(ch.Changed, t.Name)
		}
		delete(before, t.Name)
	}
	for n := range before {
		ch.Removed = append(ch.Removed, n)
	}
	sort.Strings(ch.Removed)
	return ch
}

func sameTool(a, b Tool) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}
