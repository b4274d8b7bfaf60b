package main

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/mcp"
	"github.com/toolscript/toolscript/projection"
	"github.com/toolscript/toolscript/registry"
)

var serveHelp = subcommand{
	name:     "serve",
	synopsis: "[flags]",
	about: `Serves code mode to MCP clients (Claude Desktop, IDEs, agent frameworks):
an MCP server over standard input and output, or streamable HTTP with
--http, whose three tools stand for every configured tool, so the client
sees the same few hundred tokens of tool definitions whatever their
number:

  execute_code    runs a Go script against the tools (in an isolated
                  worker process unless --in-process) and returns its
                  output, its error with line and column, its value and
                  a summary of its tool calls; session_id "new" starts a
                  session whose variables persist across calls
  search_tools    the tools that best match some words, with their Go
                  signatures
  describe_tools  the Go declarations of packages or named tools

The tools are the demo tools (unless --no-demo) and those of the MCP
servers of --mcp FILE, whose "permissions" (allow, ask, deny) apply: a
denied tool is invisible and refused; before each call of an ask tool
the MCP client is asked (elicitation), and a client that cannot be asked
refuses.

Over HTTP, the server binds to the loopback interface unless --public;
--token (or the TOOLSCRIPT_TOKEN environment variable) makes it demand
"Authorization: Bearer TOKEN".`,
	examples: []string{
		"toolscript serve",
		"toolscript serve --mcp servers.json",
		"toolscript serve --http 127.0.0.1:8765 --token s3cret",
	},
}

// serveCmd runs the MCP server until the client leaves (stdio) or ctx ends.
func serveCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &serveHelp
	fs := c.newFlagSet()
	var limits limitFlags
	limits.register(fs)
	httpAddr := fs.String("http", "", "serve streamable HTTP at this `address` (host:port) instead of standard input and output")
	public := fs.Bool("public", false, "let --http bind to an address other than loopback")
	token := fs.String("token", os.Getenv("TOOLSCRIPT_TOKEN"), "with --http, the bearer `token` clients must send (default $TOOLSCRIPT_TOKEN)")
	inProcess := fs.Bool("in-process", false, "run scripts in this process instead of isolated worker processes")
	tf := addToolFlags(fs)
	pos, err := c.parse(fs, args, stdout, stderr)
	if err != nil {
		return exitCodeOf(err)
	}
	if len(pos) > 0 {
		c.fail(stderr, "takes no arguments (got %q)", pos[0])
		return exitUsage
	}
	if *httpAddr != "" && !*public {
		if err := checkLoopback(*httpAddr); err != nil {
			c.fail(stderr, "%v", err)
			return exitUsage
		}
	}
	srv := &codeServer{opts: limits.options(), sessions: map[string]*engine.Session{}, pending: map[string]pendingEntry{}}
	reg, closeTools, err := serveRegistry(ctx, tf, srv.ask, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "toolscript serve: %v\n", err)
		return exitUsage
	}
	defer closeTools()
	srv.reg = reg
	if *inProcess {
		srv.rt = engine.New(engine.Config{})
	} else {
		iso, err := engine.NewIsolated(engine.IsolatedConfig{})
		if err != nil {
			fmt.Fprintf(stderr, "toolscript serve: %v\n", err)
			return exitUsage
		}
		defer iso.Close()
		srv.rt = iso
	}
	defer srv.closeSessions()
	server := srv.mcpServer()
	if *httpAddr == "" {
		in, out := readCloser{stdin}, writeCloser{stdout}
		if err := server.Run(ctx, &sdk.IOTransport{Reader: in, Writer: out}); err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "toolscript serve: %v\n", err)
			return exitFailure
		}
		return exitOK
	}
	return serveHTTP(ctx, server, *httpAddr, *token, stderr)
}

// checkLoopback refuses an --http address that is not a loopback one.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %q: %v", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--http %q is not a loopback address: give 127.0.0.1:PORT, or --public to serve other hosts (with --token)", addr)
}

// serveHTTP serves streamable HTTP at addr until ctx ends.
func serveHTTP(ctx context.Context, server *sdk.Server, addr, token string, stderr io.Writer) int {
	var h http.Handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil)
	if token != "" {
		h = bearer(token, h)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(stderr, "toolscript serve: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stderr, "toolscript serve: MCP over streamable HTTP at http://%s/\n", ln.Addr())
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "toolscript serve: %v\n", err)
		return exitFailure
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	return exitOK
}

// bearer demands "Authorization: Bearer token".
func bearer(token string, h http.Handler) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="toolscript"`)
			http.Error(w, "toolscript serve: missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// serveRegistry gathers the tools: the demo tools unless --no-demo, and
// the MCP servers of --mcp with their permissions.
func serveRegistry(ctx context.Context, tf *toolFlags, ask registry.AskFunc, stderr io.Writer) (*registry.Registry, func(), error) {
	reg := registry.New("", registry.WithAskFunc(ask))
	if !tf.noDemo {
		// Each demo tool in its namespace: "customers-get" is customers.Get.
		for name, p := range demo.Namespace() {
			var opts []registry.RegisterOption
			if ns, method, ok := strings.Cut(name, "-"); ok {
				opts = append(opts, registry.WithNamespace(ns), registry.WithName(method))
			}
			if err := reg.Register(p, opts...); err != nil {
				return nil, nil, err
			}
		}
	}
	if tf.mcpFile == "" {
		return reg, func() { _ = reg.Close() }, nil
	}
	cfg, err := mcp.LoadConfig(tf.mcpFile)
	if err != nil {
		return nil, nil, err
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{}))
	clients, err := mcp.ConnectConfig(ctx, cfg, reg, &mcp.Options{Logger: logger, Stderr: stderr})
	if err != nil {
		return nil, nil, err
	}
	return reg, func() { _ = clients.Close(); _ = reg.Close() }, nil
}

// readCloser and writeCloser give standard input and output the Close
// the transport wants, without closing them.
type readCloser struct{ io.Reader }

func (readCloser) Close() error { return nil }

type writeCloser struct{ io.Writer }

func (writeCloser) Close() error { return nil }

// maxSessions bounds the sessions a server keeps.
const maxSessions = 32

// codeServer is the state of toolscript serve.
type codeServer struct {
	reg  *registry.Registry
	rt   engine.CodeRuntime
	opts []engine.Option

	mu       sync.Mutex
	sessions map[string]*engine.Session
	seq      int
	pending  map[string]pendingEntry // scripts waiting for an answer, by request state
}

// The serve tools' descriptions: short, as the point is that they stay
// small whatever the number of tools behind them.
const (
	executeCodeDesc = "Run Go code (a program or bare statements) whose Go functions are the available tools: " +
		"loop, filter and combine their results in the script and print (fmt.Println) or return (end with an expression) only what is needed. " +
		"Tools are package functions taking a map of arguments, e.g. customers.Get(map[string]any{\"id\": 1}) returning (any, error); " +
		"find them with search_tools or describe_tools, or from the script with tools.Search(\"words\"). " +
		"Returns stdout, the error with line and column, the value and the tool calls. session_id \"new\" starts a session whose variables persist; pass the returned id to continue it."
	searchToolsDesc   = "Find tools by words: returns the best matches with their names and Go signatures, for execute_code."
	describeToolsDesc = "The Go declarations of tools, for execute_code: give packages (namespaces) or tool names; with neither, lists the packages."
)

var (
	executeCodeSchema = json.RawMessage(`{"type":"object","properties":{` +
		`"code":{"type":"string","description":"Go program or statements"},` +
		`"session_id":{"type":"string","description":"\"new\", or an id to continue"},` +
		`"timeout_seconds":{"type":"number"}},"required":["code"]}`)
	searchToolsSchema = json.RawMessage(`{"type":"object","properties":{` +
		`"query":{"type":"string"},"limit":{"type":"integer","description":"default 10"}},"required":["query"]}`)
	describeToolsSchema = json.RawMessage(`{"type":"object","properties":{` +
		`"packages":{"type":"array","items":{"type":"string"}},"tools":{"type":"array","items":{"type":"string"}}}}`)
)

// mcpServer is the MCP server of the three tools.
func (s *codeServer) mcpServer() *sdk.Server {
	server := sdk.NewServer(&sdk.Implementation{Name: "toolscript", Version: version}, nil)
	server.AddTool(&sdk.Tool{Name: "execute_code", Description: executeCodeDesc, InputSchema: executeCodeSchema}, s.executeCode)
	server.AddTool(&sdk.Tool{Name: "search_tools", Description: searchToolsDesc, InputSchema: searchToolsSchema}, s.searchTools)
	server.AddTool(&sdk.Tool{Name: "describe_tools", Description: describeToolsDesc, InputSchema: describeToolsSchema}, s.describeTools)
	return server
}

func textResult(text string, structured any, isErr bool) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: structured, IsError: isErr}
}

func decodeArgs(req *sdk.CallToolRequest, v any) error {
	if len(req.Params.Arguments) == 0 {
		return nil
	}
	if err := json.Unmarshal(req.Params.Arguments, v); err != nil {
		return fmt.Errorf("the arguments do not fit the tool's schema: %v", err)
	}
	return nil
}

// callSummary is one tool call in execute_code's result.
type callSummary struct {
	Name       string  `json:"name"`
	DurationMS float64 `json:"duration_ms"`
	Error      string  `json:"error,omitempty"`
	Decision   string  `json:"decision,omitempty"`
}

// executeResult is execute_code's structured result.
type executeResult struct {
	Stdout     string        `json:"stdout"`
	Error      string        `json:"error,omitempty"`
	Value      any           `json:"value,omitempty"`
	ReturnCode int           `json:"return_code"`
	ToolCalls  []callSummary `json:"tool_calls,omitempty"`
	SessionID  string        `json:"session_id,omitempty"`
}

func (s *codeServer) executeCode(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	if state := req.Params.RequestState; state != "" {
		// The client's answer to the question of an ask tool.
		run := s.takePending(state, req.Session)
		if run == nil {
			return textResult("execute_code: the approval came for no waiting script (it ended, or the question expired)", nil, true), nil
		}
		er, _ := req.Params.InputResponses[askInputID].(*sdk.ElicitResult)
		run.current.answer <- er
		return s.await(ctx, req.Session, run), nil
	}
	var in struct {
		Code      string  `json:"code"`
		SessionID string  `json:"session_id"`
		Timeout   float64 `json:"timeout_seconds"`
	}
	if err := decodeArgs(req, &in); err != nil {
		return textResult(err.Error(), nil, true), nil
	}
	opts := append([]engine.Option(nil), s.opts...)
	if in.Timeout > 0 {
		opts = append(opts, engine.WithTimeout(time.Duration(in.Timeout*float64(time.Second))))
	}
	var sess *engine.Session
	id := ""
	if in.SessionID != "" {
		var err error
		if sess, id, err = s.session(in.SessionID); err != nil {
			return textResult("execute_code: "+err.Error(), nil, true), nil
		}
	}
	// The script runs apart from this request: a question to the client
	// (an ask tool) ends the request with the question, and the client's
	// answer comes in a next one (MCP's multi round-trip requests).
	run := &pendingRun{
		questions: make(chan *question),
		done:      make(chan struct{}),
		canAsk:    canElicit(req.Session),
		id:        id,
	}
	rctx, cancel := context.WithCancel(context.WithValue(context.WithoutCancel(ctx), pendingKey{}, run))
	run.cancel = cancel
	go func() {
		defer close(run.done)
		defer cancel()
		if sess == nil {
			run.res, run.err = s.rt.Execute(rctx, in.Code, s.reg.ScriptNamespace(), opts...)
			return
		}
		run.res, run.err = sess.Execute(rctx, in.Code, opts...)
		if errors.Is(run.err, engine.ErrSessionClosed) {
			s.dropSession(id)
		}
	}()
	return s.await(ctx, req.Session, run), nil
}

// askInputID is the id of an ask tool's question among a result's input
// requests.
const askInputID = "approve_tool_call"

// askWait bounds how long a question waits for the client's answer.
const askWait = 10 * time.Minute

// pendingRun is one execute_code's script, which may outlive the request
// that started it while the client answers a question.
type pendingRun struct {
	questions chan *question
	done      chan struct{}
	cancel    context.CancelFunc
	canAsk    bool
	id        string // the session's, "" for none
	current   *question
	res       engine.CodeResult
	err       error
}

// question is one call of an ask tool waiting for the client.
type question struct {
	call   registry.Call
	answer chan *sdk.ElicitResult // buffered: the answer never blocks
}

type pendingKey struct{}

// await waits for the script to end or ask a question.
func (s *codeServer) await(ctx context.Context, ss *sdk.ServerSession, run *pendingRun) *sdk.CallToolResult {
	select {
	case <-run.done:
		return s.result(run)
	case q := <-run.questions:
		run.current = q
		token := s.addPending(ss, run)
		time.AfterFunc(askWait, func() {
			if s.takePending(token, ss) != nil {
				q.answer <- nil
			}
		})
		args, _ := json.Marshal(q.call.Args)
		if len(args) > 2000 {
			args = append(args[:2000:2000], "..."...)
		}
		return &sdk.CallToolResult{
			InputRequests: sdk.InputRequestMap{askInputID: &sdk.ElicitParams{
				Message:         fmt.Sprintf("A script wants to call the tool %s with %s. Allow it?", q.call.Name, args),
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`),
			}},
			RequestState: token,
		}
	case <-ctx.Done():
		// The client gave up on the call.
		run.cancel()
		<-run.done
		return s.result(run)
	}
}

// result is execute_code's result of a finished script.
func (s *codeServer) result(run *pendingRun) *sdk.CallToolResult {
	if run.err != nil {
		return textResult("execute_code: "+run.err.Error(), nil, true)
	}
	res := run.res
	out := executeResult{Stdout: res.Stdout + res.Stderr, Error: res.Error, Value: res.Value, ReturnCode: res.ReturnCode, SessionID: run.id}
	for _, c := range res.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, callSummary{Name: c.Name, DurationMS: float64(c.Duration.Microseconds()) / 1000, Error: c.Error, Decision: c.Decision})
	}
	structured := out
	if _, err := json.Marshal(out.Value); err != nil {
		structured.Value = fmt.Sprintf("(a %T value JSON cannot encode)", out.Value)
	}
	return textResult(executeText(out, res.ToolCallsTruncated), structured, !res.OK())
}

// addPending keeps run under a new random token, for ss's answer.
func (s *codeServer) addPending(ss *sdk.ServerSession, run *pendingRun) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	s.mu.Lock()
	s.pending[token] = pendingEntry{ss: ss, run: run}
	s.mu.Unlock()
	return token
}

// takePending removes and returns the run waiting under token for ss's
// answer; nil if none (another client's token is none).
func (s *codeServer) takePending(token string, ss *sdk.ServerSession) *pendingRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.pending[token]
	if !ok || e.ss != ss {
		return nil
	}
	delete(s.pending, token)
	return e.run
}

type pendingEntry struct {
	ss  *sdk.ServerSession
	run *pendingRun
}

// canElicit reports whether the client can be asked.
func canElicit(ss *sdk.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil
}

// executeText is execute_code's result as text for the model.
func executeText(r executeResult, cut bool) string {
	var b strings.Builder
	if r.Stdout != "" {
		b.WriteString(r.Stdout)
		if !strings.HasSuffix(r.Stdout, "\n") {
			b.WriteString("\n")
		}
	}
	if r.Error != "" {
		fmt.Fprintf(&b, "error: %s\n", r.Error)
	}
	if r.Value != nil {
		v, err := json.Marshal(r.Value)
		if err != nil {
			v = []byte(fmt.Sprintf("%v", r.Value))
		}
		fmt.Fprintf(&b, "value: %s\n", v)
	}
	if len(r.ToolCalls) > 0 {
		counts := map[string]int{}
		var order []string
		for _, c := range r.ToolCalls {
			key := c.Name
			if c.Decision != "" {
				key += " (" + c.Decision + ")"
			} else if c.Error != "" {
				key += " (failed)"
			}
			if counts[key] == 0 {
				order = append(order, key)
			}
			counts[key]++
		}
		parts := make([]string, len(order))
		for i, k := range order {
			parts[i] = k
			if counts[k] > 1 {
				parts[i] = fmt.Sprintf("%s x%d", k, counts[k])
			}
		}
		more := ""
		if cut {
			more = " and more"
		}
		fmt.Fprintf(&b, "tool calls: %d%s: %s\n", len(r.ToolCalls), more, strings.Join(parts, ", "))
	}
	if r.SessionID != "" {
		fmt.Fprintf(&b, "session_id: %s\n", r.SessionID)
	}
	if b.Len() == 0 {
		b.WriteString("(no output)\n")
	}
	return b.String()
}

// session returns the session named id, or a new one for "new".
func (s *codeServer) session(id string) (*engine.Session, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id != "new" {
		sess, ok := s.sessions[id]
		if !ok {
			return nil, "", fmt.Errorf("no session %q (it may have expired): start one with session_id \"new\"", id)
		}
		return sess, id, nil
	}
	if len(s.sessions) >= maxSessions {
		return nil, "", fmt.Errorf("%d sessions are open, the most this server keeps: continue one of them", maxSessions)
	}
	sess, err := engine.NewSession(s.rt, s.reg.ScriptNamespace())
	if err != nil {
		return nil, "", err
	}
	s.seq++
	id = fmt.Sprintf("s%d", s.seq)
	s.sessions[id] = sess
	return sess, id, nil
}

func (s *codeServer) dropSession(id string) {
	s.mu.Lock()
	sess := s.sessions[id]
	delete(s.sessions, id)
	s.mu.Unlock()
	if sess != nil {
		_ = sess.Close()
	}
}

func (s *codeServer) closeSessions() {
	s.mu.Lock()
	all := s.sessions
	s.sessions = map[string]*engine.Session{}
	s.mu.Unlock()
	for _, sess := range all {
		_ = sess.Close()
	}
}

func (s *codeServer) searchTools(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var in struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}
	if err := decodeArgs(req, &in); err != nil {
		return textResult(err.Error(), nil, true), nil
	}
	hits := s.reg.Search(in.Query, in.Limit)
	if len(hits) == 0 {
		return textResult("no tool matches "+fmt.Sprintf("%q", in.Query)+"; describe_tools lists the packages", nil, false), nil
	}
	var b strings.Builder
	for _, h := range hits {
		fmt.Fprintf(&b, "%s\n    %s\n", h.Tool.Name, h.Signature)
		if d := strings.Join(strings.Fields(h.Tool.Description), " "); d != "" {
			fmt.Fprintf(&b, "    %s\n", d)
		}
	}
	return textResult(b.String(), nil, false), nil
}

func (s *codeServer) describeTools(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var in struct {
		Packages []string `json:"packages"`
		Tools    []string `json:"tools"`
	}
	if err := decodeArgs(req, &in); err != nil {
		return textResult(err.Error(), nil, true), nil
	}
	ns := s.reg.Projections()
	if len(in.Packages) == 0 && len(in.Tools) == 0 {
		return textResult(packageList(ns), nil, false), nil
	}
	pick := map[string]projection.ToolProjection{}
	var unknown []string
	for _, name := range in.Tools {
		p, ok := ns[name]
		if !ok || isWithheld(p) {
			unknown = append(unknown, name)
			continue
		}
		pick[name] = p
	}
	for _, pkg := range in.Packages {
		found := false
		for name, p := range ns {
			if packageOf(p) == pkg && !isWithheld(p) {
				pick[name], found = p, true
			}
		}
		if !found {
			unknown = append(unknown, "package "+pkg)
		}
	}
	text := ""
	if len(pick) > 0 {
		text = engine.Describe(pick)
	}
	if len(unknown) > 0 {
		text += fmt.Sprintf("\nnot found: %s (describe_tools with no arguments lists the packages; search_tools finds tools)\n", strings.Join(unknown, ", "))
	}
	return textResult(text, nil, len(pick) == 0), nil
}

func isWithheld(p projection.ToolProjection) bool {
	r, ok := p.(projection.Roled)
	return ok && r.Role() == projection.RoleWithheld
}

// packageOf is the script package of a tool.
func packageOf(p projection.ToolProjection) string {
	if n, ok := p.(projection.Namespaced); ok {
		return engine.PackageName(n.Namespace())
	}
	return engine.PackageName("")
}

// packageList names the packages and how many tools each has.
func packageList(ns map[string]projection.ToolProjection) string {
	counts := map[string]int{}
	total := 0
	for _, p := range ns {
		if !isWithheld(p) {
			counts[packageOf(p)]++
			total++
		}
	}
	pkgs := make([]string, 0, len(counts))
	for p := range counts {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var b strings.Builder
	fmt.Fprintf(&b, "%d tools in %d packages (describe_tools with packages gives their Go declarations):\n", total, len(pkgs))
	for _, p := range pkgs {
		fmt.Fprintf(&b, "  %s (%d)\n", p, counts[p])
	}
	return b.String()
}

// ask decides a call of an ask tool by asking the MCP client that made
// the execute_code call (elicitation, as an input request of the call's
// result); a client that does not support elicitation cannot approve, so
// the call is refused.
func (s *codeServer) ask(ctx context.Context, call registry.Call) (bool, error) {
	run, _ := ctx.Value(pendingKey{}).(*pendingRun)
	if run == nil {
		return false, errors.New("no MCP client to ask")
	}
	if !run.canAsk {
		return false, errors.New("the MCP client cannot be asked (it does not support elicitation)")
	}
	q := &question{call: call, answer: make(chan *sdk.ElicitResult, 1)}
	select {
	case run.questions <- q:
	case <-ctx.Done():
		return false, context.Cause(ctx)
	}
	var res *sdk.ElicitResult
	select {
	case res = <-q.answer:
	case <-ctx.Done():
		return false, context.Cause(ctx)
	}
	switch {
	case res == nil:
		return false, errors.New("the MCP client gave no answer")
	case res.Action != "accept":
		return false, fmt.Errorf("the user chose %q", res.Action)
	}
	return true, nil
}
