package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/peterh/liner"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
	"github.com/toolscript/toolscript/registry"
)

var replHelp = subcommand{
	name:     "repl",
	synopsis: "[flags]",
	about: `Reads Go statements and declarations, runs each in one session against the
demo tools (and the tools of MCP servers, with --mcp) and prints what it
printed, its value and any error. The session keeps the state: variables,
functions, types and imports declared by one input are there for the next
(an input that fails leaves the state as it was). An expression shows its
value: x, len(orders), a call of one result; a call of a value and an
error, such as a tool call (customers.Get(...)), shows the value, or the
error as "err: ...".

An input goes on over several lines while a parenthesis, bracket or brace
is open, a raw string or a /* comment is not closed, or a line ends in an
operator, a comma or a period. Lines starting with ":" are commands: :help
lists them.

On a terminal: line editing, and a history kept across sessions (at most
1000 lines) in the file of --history. Ctrl-C while an input runs cancels
that input only (the session keeps its state); Ctrl-C at the prompt clears
the line; Ctrl-D exits (status 0). The session has no idle or age limit;
each input has the limits of the flags.

Before each call of an MCP server's ask tool (its "permissions" in the
--mcp file), the REPL shows the tool and its arguments and asks: y runs
the call, n (or Enter) refuses it (the script gets the error), a runs
it and the tool's later calls without asking until the REPL exits;
Ctrl-C refuses and cancels the input. The time to answer counts in the
input's timeout. Scripted, the answer is the next line of the input.

When standard input is not a terminal, it reads the inputs from it (same
rules, no prompt) so that it can be scripted: it runs them all, and exits
with status 0 when every input succeeded, 1 otherwise.`,
	examples: []string{
		"toolscript repl",
		"toolscript repl --isolated --timeout 5s",
		`printf 'x := 6 * 7\nx\n' | toolscript repl`,
	},
}

// historyEnv overrides the history file, as --history does.
const historyEnv = "TOOLSCRIPT_HISTORY"

// historyMaxLine bounds a line kept in the history: longer ones (a
// pasted blob) are not kept, and the history file stays readable.
const historyMaxLine = 4000

// replCmd is "toolscript repl".
func replCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &replHelp
	fs := c.newFlagSet()
	r := &repl{ctx: ctx, errw: stderr, out: &lineWriter{w: stdout}}
	r.limits.register(fs)
	fs.BoolVar(&r.isolated, "isolated", false, "run the session in a worker process under OS limits (:isolated\nswitches); tools stay in this process")
	fs.BoolVar(&r.trace, "trace", false, "print the tool calls of each input (:trace switches)")
	tf := addToolFlags(fs)
	history := fs.String("history", "", "`file` of the line history; empty keeps none (default: $"+historyEnv+",\nelse $XDG_STATE_HOME/toolscript/history, else toolscript/history\nin the user's cache directory)")
	pos, err := c.parse(fs, args, stdout, stderr)
	if err != nil {
		return exitCodeOf(err)
	}
	if len(pos) != 0 {
		c.fail(stderr, "takes no arguments (got %q): use :load FILE inside", pos[0])
		return exitUsage
	}
	r.ask.w, r.ask.endLine, r.ask.interrupt = stderr, r.out.endLine, r.interrupt
	ns, closeTools, err := tf.namespace(ctx, stderr, r.ask.decide)
	if err != nil {
		fmt.Fprintf(stderr, "toolscript repl: %v\n", err)
		return exitUsage
	}
	defer closeTools()
	r.ns = ns
	r.ask.setNames(ns)
	if err := r.openSession(); err != nil {
		fmt.Fprintf(stderr, "toolscript repl: %v\n", err)
		return exitUsage
	}
	defer r.closeSession()

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	idle := make(chan struct{}, 1) // an interrupt while no input runs
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-sig:
				if r.ask.asking.Load() {
					continue // the question's own Ctrl-C refuses (asker.asking)
				}
				if !r.interrupt() {
					select {
					case idle <- struct{}{}:
					default:
					}
				}
			case <-done:
				return
			}
		}
	}()
	defer func() {
		signal.Stop(sig)
		close(done)
		wg.Wait()
	}()

	if f, ok := stdin.(*os.File); ok && f == os.Stdin && stdout == os.Stdout && isTerminal() {
		histFile := ""
		set := false
		fs.Visit(func(f *flag.Flag) { set = set || f.Name == "history" })
		if set {
			histFile = *history
		} else {
			histFile = defaultHistoryFile()
		}
		return r.terminal(histFile)
	}
	return r.scripted(stdin, idle, done)
}

// isTerminal reports whether standard input is a terminal.
func isTerminal() bool {
	_, err := liner.TerminalMode()
	return err == nil
}

// defaultHistoryFile is the history file when --history is not given:
// $TOOLSCRIPT_HISTORY (empty: none), else toolscript/history in the
// user's state directory ($XDG_STATE_HOME) or cache directory.
func defaultHistoryFile() string {
	if v, ok := os.LookupEnv(historyEnv); ok {
		return v
	}
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		var err error
		if dir, err = os.UserCacheDir(); err != nil {
			return ""
		}
	}
	return filepath.Join(dir, "toolscript", "history")
}

// session is what the REPL needs of an *engine.Session.
type session interface {
	Execute(ctx context.Context, code string, opts ...engine.Option) (engine.CodeResult, error)
	Reset() error
	Close() error
}

var _ session = (*engine.Session)(nil)

// repl is the state of one "toolscript repl".
type repl struct {
	ctx      context.Context
	ns       map[string]projection.ToolProjection
	out      *lineWriter
	errw     io.Writer
	limits   limitFlags
	isolated bool
	trace    bool
	failed   bool // an input failed: the scripted exit status
	ask      asker

	sess    session
	closeRT func() // closes the runtime under sess, nil for none

	mu     sync.Mutex
	cancel context.CancelFunc // the running input's, nil at the prompt
}

// openSession starts a session on the runtime r.isolated chooses.
func (r *repl) openSession() error {
	var rt engine.CodeRuntime = engine.New(engine.Config{})
	closeRT := func() {}
	if r.isolated {
		iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
		if err != nil {
			return err
		}
		rt, closeRT = iso, func() { _ = iso.Close() }
	}
	// A person at a prompt may come back after lunch: no idle or age
	// limit; each input has its own limits.
	s, err := engine.NewSession(rt, r.ns, engine.WithSessionLimits(engine.SessionLimits{
		IdleTimeout: engine.Unlimited, MaxAge: engine.Unlimited}))
	if err != nil {
		closeRT()
		return err
	}
	r.sess, r.closeRT = s, closeRT
	return nil
}

func (r *repl) closeSession() {
	if r.sess != nil {
		_ = r.sess.Close()
		r.sess = nil
	}
	if r.closeRT != nil {
		r.closeRT()
		r.closeRT = nil
	}
}

// interrupt cancels the running input; false if none runs.
func (r *repl) interrupt() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel == nil {
		return false
	}
	r.cancel()
	return true
}

const (
	prompt         = "ts> "
	promptContinue = "... "
)

// terminal is the loop on a terminal, with line editing and history.
func (r *repl) terminal(histFile string) int {
	line := liner.NewLiner()
	defer line.Close()
	line.SetCtrlCAborts(true)
	r.ask.mu.Lock()
	r.ask.read = func(_ context.Context, p string) (string, error) {
		r.ask.asking.Store(true)
		defer r.ask.asking.Store(false)
		return line.Prompt(p)
	}
	r.ask.mu.Unlock()
	if histFile != "" {
		if f, err := os.Open(histFile); err == nil {
			if _, err := line.ReadHistory(f); err != nil {
				fmt.Fprintf(r.errw, "toolscript repl: history %s: %v\n", histFile, err)
			}
			f.Close()
		}
	}
	fmt.Fprintf(r.out, "toolscript %s: Go statements and declarations, run in one session. :help for commands, Ctrl-D to exit.\n", version)
	var buf strings.Builder
	for {
		p := prompt
		if buf.Len() > 0 {
			p = promptContinue
		}
		text, err := r.ask.lockedPrompt(line, p)
		switch {
		case errors.Is(err, liner.ErrPromptAborted): // Ctrl-C: clear the line
			buf.Reset()
			continue
		case errors.Is(err, io.EOF): // Ctrl-D
			fmt.Fprintln(r.out)
			return exitOK
		case err != nil:
			fmt.Fprintf(r.errw, "toolscript repl: %v\n", err)
			return exitUsage
		}
		if strings.TrimSpace(text) != "" && len(text) <= historyMaxLine {
			line.AppendHistory(text)
			if histFile != "" {
				if err := saveHistory(line, histFile); err != nil {
					fmt.Fprintf(r.errw, "toolscript repl: history not saved: %v\n", err)
					histFile = ""
				}
			}
		}
		if r.feed(&buf, text) {
			return exitOK
		}
	}
}

// saveHistory writes the history (liner keeps the last 1000 lines) to
// file through a temporary file, so a crash leaves the old one.
func saveHistory(line *liner.State, file string) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".history-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := line.WriteHistory(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// scripted is the loop on an input that is not a terminal.
//
// A goroutine reads the lines, so that an interrupt between inputs is
// seen while it waits; once the REPL is done (done closed) it stops at
// its next line. A read blocked on stdin ends with the process.
func (r *repl) scripted(stdin io.Reader, idle, done <-chan struct{}) int {
	lines := make(chan string)
	go func() {
		defer close(lines)
		br := bufio.NewReader(stdin)
		for {
			s, err := br.ReadString('\n')
			if s != "" {
				select {
				case lines <- strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r"):
				case <-done:
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	r.ask.mu.Lock()
	r.ask.read = func(ctx context.Context, p string) (string, error) {
		fmt.Fprintln(r.errw, p) // the answer is the next line of the input
		select {
		case s, ok := <-lines:
			if !ok {
				return "", io.EOF
			}
			return s, nil
		case <-ctx.Done():
			return "", context.Cause(ctx)
		}
	}
	r.ask.mu.Unlock()
	var buf strings.Builder
	for {
		select {
		case <-idle:
			fmt.Fprintln(r.errw, "toolscript repl: interrupted")
			return exitInterrupted
		case text, ok := <-lines:
			if !ok {
				if strings.TrimSpace(buf.String()) != "" {
					// An unfinished input at the end: run it, the
					// compiler says what is missing.
					r.eval(buf.String(), true)
				}
				if r.failed {
					return exitFailure
				}
				return exitOK
			}
			if r.feed(&buf, text) {
				if r.failed {
					return exitFailure
				}
				return exitOK
			}
		}
	}
}

// feed adds a line to the input in buf, and runs the input or the
// command once complete. It reports whether the REPL should exit.
func (r *repl) feed(buf *strings.Builder, text string) (quit bool) {
	if buf.Len() == 0 && strings.HasPrefix(strings.TrimSpace(text), ":") {
		return r.command(strings.TrimSpace(text))
	}
	buf.WriteString(text)
	buf.WriteByte('\n')
	if needsMore(buf.String()) {
		return false
	}
	code := buf.String()
	buf.Reset()
	if strings.TrimSpace(code) != "" {
		r.eval(code, true)
	}
	return false
}

// eval runs one input and prints its value, error and trace.
//
// With asExpr, an input that is one call shows its value, which Go's
// statements drop: it runs first as result(call), for a call with one
// result (len(xs), double(2)); when that does not compile, as a call of
// a value and an error (a tool call: customers.Get(...)), whose value
// or error it shows; when that does not compile either, as written (a
// call of no result or of other results). A try that did not compile, or
// failed before any output or tool call, shows nothing, and a failed
// input leaves the session's state as it was: the next try starts from
// the same state. fmt's and log's printing functions and print/println
// run as written at once.
func (r *repl) eval(code string, asExpr bool) {
	if asExpr {
		if call := oneCall(code); call != nil && !isPrint(call) {
			expr := strings.TrimSpace(code)
			tries := []struct {
				code string
				pair bool
			}{
				{code: "result(" + expr + ")"},
				{code: "result(func() [2]any { __v, __err := " + expr + "; var __e any; if __err != nil { __e = __err.Error() }; return [2]any{__v, __e} }())", pair: true},
			}
			for _, try := range tries {
				res, err := r.execute(try.code)
				var se *engine.ScriptError
				if err != nil || !errors.As(res.Err, &se) || res.Stdout != "" || res.Stderr != "" || len(res.ToolCalls) > 0 {
					r.report(res, err, try.pair)
					return
				}
			}
		}
	}
	res, err := r.execute(code)
	r.report(res, err, false)
}

// oneCall returns the call expression that code is, or nil.
func oneCall(code string) *ast.CallExpr {
	e, err := parser.ParseExpr(code)
	if err != nil {
		return nil
	}
	call, _ := e.(*ast.CallExpr)
	return call
}

// isPrint reports whether call prints: print, println, or a Print, Fprint
// or Fatal function of fmt or log, whose results nobody wants shown.
func isPrint(call *ast.CallExpr) bool {
	switch f := call.Fun.(type) {
	case *ast.Ident:
		return f.Name == "print" || f.Name == "println"
	case *ast.SelectorExpr:
		pkg, ok := f.X.(*ast.Ident)
		if !ok || pkg.Name != "fmt" && pkg.Name != "log" {
			return false
		}
		n := f.Sel.Name
		return strings.HasPrefix(n, "Print") || strings.HasPrefix(n, "Fprint") || strings.HasPrefix(n, "Fatal") || strings.HasPrefix(n, "Panic")
	}
	return false
}

// errInterrupted is the cause of the context of an input cut short by
// Ctrl-C; the result's error of an input cut short by Ctrl-C.
var errInterrupted = errors.New("interrupted")

// execute runs code in the session, cancellable by Ctrl-C.
func (r *repl) execute(code string) (engine.CodeResult, error) {
	ctx, cancel := context.WithCancelCause(r.ctx)
	r.mu.Lock()
	r.cancel = func() { cancel(errInterrupted) }
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.cancel = nil
		r.mu.Unlock()
		cancel(nil)
	}()
	opts := append(r.limits.options(), engine.WithStdout(r.out), engine.WithStderr(r.errw))
	res, err := r.sess.Execute(ctx, code, opts...)
	if errors.Is(context.Cause(ctx), errInterrupted) && res.Err != nil {
		res.Error = "interrupted: the input was cancelled; the session keeps the state of the inputs before it"
	}
	return res, err
}

// report prints what an input left: the end of its output line, its
// trace on request, its error or its value.
//
// With pair, the value is the [2]any of a call's value and error
// message (eval's second try): it shows the value, or the error.
func (r *repl) report(res engine.CodeResult, err error, pair bool) {
	r.out.endLine()
	if err != nil {
		r.failed = true
		switch {
		case errors.Is(err, engine.ErrSessionExpired):
			fmt.Fprintf(r.errw, "error: %v; the input did not run; a new session starts (the state was dropped)\n", err)
			r.closeSession()
			if err := r.openSession(); err != nil {
				fmt.Fprintf(r.errw, "error: %v\n", err)
			}
		case errors.Is(err, engine.ErrSessionLost):
			fmt.Fprintf(r.errw, "error: %v; :reset starts afresh\n", err)
		default:
			fmt.Fprintf(r.errw, "error: %v\n", err)
		}
		return
	}
	if r.trace {
		r.printTrace(res)
	}
	if res.Error != "" {
		r.failed = true
		fmt.Fprintf(r.errw, "error: %s\n", res.Error)
		if errors.Is(res.Err, engine.ErrSessionLost) {
			fmt.Fprintln(r.errw, "the session's state was lost: :reset starts afresh")
		}
		return
	}
	if p, ok := res.Value.([2]any); ok && pair {
		if p[1] == nil || !isNil(p[0]) {
			fmt.Fprintln(r.out, formatValue(p[0]))
		}
		if p[1] != nil {
			fmt.Fprintf(r.out, "err: %v\n", p[1])
		}
		return
	}
	if res.Value != nil {
		fmt.Fprintln(r.out, formatValue(res.Value))
	}
}

func (r *repl) printTrace(res engine.CodeResult) {
	for _, c := range res.ToolCalls {
		args := "(arguments not kept: too large)"
		if !c.ArgsOmitted {
			args = compactJSON(c.Args)
		}
		fmt.Fprintf(r.out, "[tool] %s %s %s", c.Name, args, c.Duration.Round(1000))
		if c.Decision != "" {
			fmt.Fprintf(r.out, " %s", c.Decision)
		}
		if c.Error != "" {
			fmt.Fprintf(r.out, " error: %s", c.Error)
		}
		fmt.Fprintln(r.out)
	}
	if res.ToolCallsTruncated {
		fmt.Fprintln(r.out, "[tool] ... more calls, past the trace's bound")
	}
}

const replCommands = `Commands:
  :help                    this text
  :tools                   the tools, one line each
  :describe [NAMES|WORDS]  the tools as Go declarations: all, those of the
                           packages or tools named (customers, orders.List),
                           or the few that best match the words (a search)
  :timeout [D]             show or set each input's timeout (5s, 2m; 0 the
                           default, unlimited for none)
  :reset                   drop the session's state
  :trace on|off            print the tool calls of each input
  :load FILE               run a file's statements and declarations as one input
  :isolated on|off         switch to the isolated (worker process) or the
                           in-process runtime: a new session, the state is dropped
  :quit                    exit (so does Ctrl-D)
Inputs are Go statements and declarations; an expression shows its value.`

// command runs a ":" command; it reports whether the REPL should exit.
func (r *repl) command(text string) (quit bool) {
	name, arg, _ := strings.Cut(text, " ")
	arg = strings.TrimSpace(arg)
	say := func(format string, args ...any) { fmt.Fprintf(r.out, format+"\n", args...) }
	fail := func(format string, args ...any) {
		r.failed = true
		fmt.Fprintf(r.errw, "error: "+format+"\n", args...)
	}
	onOff := func(cur *bool) bool {
		switch arg {
		case "on":
			*cur = true
		case "off":
			*cur = false
		case "":
		default:
			fail("%s takes on or off, not %q", name, arg)
			return false
		}
		return true
	}
	switch name {
	case ":help", ":h", ":?":
		say("%s", replCommands)
	case ":quit", ":q", ":exit":
		return true
	case ":tools":
		for _, t := range toolIndex(r.ns) {
			say("%-28s %s", t.pkg+"."+t.fn, t.summary)
		}
	case ":describe":
		out, err := describeTools(r.ns, arg)
		if err != nil {
			fail("%v", err)
			return false
		}
		fmt.Fprint(r.out, out)
	case ":timeout":
		if arg != "" {
			d, err := parseTimeout(arg)
			if err != nil {
				fail(":timeout %s: %v", arg, err)
				return false
			}
			r.limits.timeout.d = d
		}
		switch d := r.limits.timeout.d; {
		case d == 0:
			say("timeout: the default, %s", engine.DefaultTimeout)
		case d < 0:
			say("timeout: unlimited")
		default:
			say("timeout: %s", d)
		}
	case ":reset":
		if err := r.sess.Reset(); err != nil {
			fail("%v", err)
			return false
		}
		say("the session's state is dropped")
	case ":trace":
		if onOff(&r.trace) {
			say("trace: %s", onOffWord(r.trace))
		}
	case ":load":
		if arg == "" {
			fail(":load needs a FILE")
			return false
		}
		data, err := os.ReadFile(arg)
		if err != nil {
			fail("%v", err)
			return false
		}
		r.eval(string(data), false)
	case ":isolated":
		was := r.isolated
		if !onOff(&r.isolated) {
			return false
		}
		if r.isolated != was {
			// The new session first: if it does not start, the old one
			// goes on with its state.
			old, oldRT := r.sess, r.closeRT
			if err := r.openSession(); err != nil {
				r.isolated = was
				fail("%v (still on the %s runtime, state kept)", err, runtimeName(was))
				return false
			}
			_ = old.Close()
			oldRT()
			say("a new session on the %s runtime: the earlier state is dropped", runtimeName(r.isolated))
			return false
		}
		say("runtime: %s", runtimeName(r.isolated))
	default:
		fail("unknown command %s (:help lists them)", name)
	}
	return false
}

func onOffWord(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func runtimeName(isolated bool) string {
	if isolated {
		return "isolated (worker process)"
	}
	return "in-process"
}

// toolEntry is one tool as a script sees it.
type toolEntry struct {
	pkg, fn, summary string
	name             string // the tool's name in the namespace
	decl             string // engine.Describe of the tool alone
}

// toolIndex lists the tools of ns as script packages and functions,
// sorted, reading their Go names from engine.Describe so that they are
// the engine's.
func toolIndex(ns map[string]projection.ToolProjection) []toolEntry {
	var out []toolEntry
	for name, p := range ns {
		decl := engine.Describe(map[string]projection.ToolProjection{name: p})
		t := toolEntry{name: name, decl: decl, summary: firstSentence(p.Doc())}
		for _, l := range strings.Split(decl, "\n") {
			if s, ok := strings.CutPrefix(l, "package "); ok && t.pkg == "" {
				t.pkg = strings.TrimSpace(s)
			}
			if s, ok := strings.CutPrefix(l, "func "); ok && t.fn == "" {
				t.fn, _, _ = strings.Cut(s, "(")
			}
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].pkg != out[j].pkg {
			return out[i].pkg < out[j].pkg
		}
		return out[i].fn < out[j].fn
	})
	return out
}

func firstSentence(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	if i := strings.Index(doc, ". "); i >= 0 {
		return doc[:i+1]
	}
	return doc
}

// describeLimit is the number of tools :describe WORDS shows.
const describeLimit = 5

// describeTools is :describe: every tool; the tools of the script
// packages and tools a query's words name (customers, customers.Get or
// customers-get); otherwise the tools the registry's search ranks best
// for the words (at most describeLimit of them).
func describeTools(ns map[string]projection.ToolProjection, query string) (string, error) {
	fields := strings.Fields(query)
	if len(fields) == 0 {
		return engine.Describe(ns), nil
	}
	idx := toolIndex(ns)
	sub := map[string]projection.ToolProjection{}
	for _, f := range fields {
		found := false
		for _, t := range idx {
			if f == t.pkg || f == t.pkg+"."+t.fn || f == t.name {
				sub[t.name], found = ns[t.name], true
			}
		}
		if !found {
			sub = nil
			break
		}
	}
	if len(sub) > 0 {
		return engine.Describe(sub), nil
	}
	names, err := searchTools(ns, query, describeLimit)
	if err != nil {
		return "", err
	}
	if len(names) == 0 {
		return "", fmt.Errorf("no package or tool is named %q, and a search for it finds no tool", query)
	}
	sub = map[string]projection.ToolProjection{}
	for _, n := range names {
		sub[n] = ns[n]
	}
	return engine.Describe(sub), nil
}

// searchTools ranks the tools of ns for query with the registry's search
// (registry.Registry.Search: BM25 over names, descriptions and argument
// names), returning at most limit names of ns, best first.
func searchTools(ns map[string]projection.ToolProjection, query string, limit int) ([]string, error) {
	reg := registry.New("")
	defer reg.Close()
	byQualified := map[string]string{} // the registry's name -> the name in ns
	for name, p := range ns {
		if r, ok := p.(projection.Roled); ok && (r.Role() == projection.RoleWithheld || r.Role() == projection.RoleSearch) {
			continue // not on the script's surface: a denied tool, tools.Search
		}
		var opts []registry.RegisterOption
		qualified := name
		if n, method, ok := strings.Cut(name, "-"); ok {
			nn, err1 := registry.NormalizeToolName(n)
			nm, err2 := registry.NormalizeToolName(method)
			if err1 == nil && err2 == nil {
				opts = append(opts, registry.WithNamespace(n), registry.WithName(method))
				qualified = nn + "-" + nm
			}
		}
		if len(opts) == 0 {
			nm, err := registry.NormalizeToolName(name)
			if err != nil {
				return nil, err
			}
			opts = append(opts, registry.WithName(name))
			qualified = nm
		}
		if err := reg.Register(p, opts...); err != nil {
			return nil, fmt.Errorf("indexing %s for the search: %w", name, err)
		}
		byQualified[qualified] = name
	}
	var names []string
	for _, h := range reg.Search(query, limit) {
		if n, ok := byQualified[h.Tool.Name]; ok {
			names = append(names, n)
		}
	}
	return names, nil
}

// compactJSON renders a tool call's arguments on one line.
func compactJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(data)
}

// isNil reports whether v is nil or a nil map, slice, pointer, func or
// channel (a tool's value beside its error).
func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Map, reflect.Slice, reflect.Pointer, reflect.Func, reflect.Chan, reflect.Interface:
		return rv.IsNil()
	}
	return false
}
