package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/toolscript/toolscript/engine"
)

// cliEnv makes the test binary the toolscript command itself: the REPL's
// terminal tests run it in a pseudo-terminal.
const cliEnv = "TOOLSCRIPT_CMD_TEST_CLI"

func init() {
	if os.Getenv(cliEnv) == "1" {
		main() // exits
	}
	// The isolated runtime's workers are this binary too.
	engine.MaybeServeWorker()
}

// TestREPL_Scripted: standard input that is not a terminal is read as
// inputs, one complete statement at a time, with the terminal's rules.
func TestREPL_Scripted(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	in := strings.Join([]string{
		`x := 6 * 7`,
		`x`,
		`f := func(a int) int {`,
		`	return a * 2`,
		`}`,
		`f(x)`,
		`len("abc")`,
		`fmt.Println("printed")`,
		`s := ` + "`raw",
		"string`",
		`s`,
		`total := 1 +`,
		`	2`,
		`total`,
		`type point struct{ X, Y int }`,
		`point{1, 2}`,
		`:trace on`,
		`e, _ := tools.Echo(map[string]any{"id": 1})`,
		`:trace off`,
		`e.(map[string]any)["id"]`,
		`:timeout 100ms`,
		`for {}`,
		`x + 1`,
		`undefinedName`,
		`:reset`,
		`x`,
		`:bogus`,
		`:quit`,
		`"never runs"`,
	}, "\n") + "\n"
	code, out, errOut := runCLI(t, in, "repl")
	assert.Equal(t, 1, code, "an input failed: status 1")
	assert.Equal(t, strings.Join([]string{
		"42",
		"84",
		"3",
		"printed",
		`"raw\nstring"`,
		"3",
		"{X:1 Y:2}",
		"trace: on",
		`[tool] echo {"id":1} `, // then the duration
	}, "\n"), out[:strings.Index(out, `{"id":1} `)+len(`{"id":1} `)])
	assert.Contains(t, out, "trace: off\n1\ntimeout: 100ms\n43\nthe session's state is dropped\n")
	assert.NotContains(t, out, "never runs")
	assert.Contains(t, errOut, "error: engine: timeout")
	assert.Contains(t, errOut, "undefined: undefinedName")
	assert.Contains(t, errOut, "undefined: x", "after :reset")
	assert.Contains(t, errOut, "unknown command :bogus")
}

// TestREPL_ScriptedProcess: the command itself, its standard input a
// pipe, reads the inputs without a prompt.
func TestREPL_ScriptedProcess(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "repl")
	cmd.Env = append(os.Environ(), cliEnv+"=1")
	cmd.Stdin = strings.NewReader("x := 6 * 7\nx\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	assert.Equal(t, "42\n", string(out))
}

func TestREPL_ScriptedAllSucceed(t *testing.T) {
	code, out, errOut := runCLI(t, "a := []int{1, 2, 3}\nlen(a)\n", "repl")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "3\n", out)
	// An input left open at the end still runs: the compiler says why.
	code, _, errOut = runCLI(t, "f := func() {\n", "repl")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "error: ")
}

// TestREPL_CallValues: a call shows its one value, a call of a value
// and an error (a tool call) its value or its error, a call of no value
// or of other results nothing, and a printing call only its output.
func TestREPL_CallValues(t *testing.T) {
	in := strings.Join([]string{
		`tools.Echo(map[string]any{"k": "v"})`,
		`customers.Get(map[string]any{"id": 999999})`,
		`func pair() (int, error) { return 7, nil }`,
		`pair()`,
		`func three() (int, int, int) { return 1, 2, 3 }`,
		`three()`,
		`func none() { fmt.Println("none ran") }`,
		`none()`,
		`fmt.Println("once")`,
		`len([]int{1, 2})`,
		`(len("abc"))`,
	}, "\n")
	code, out, errOut := runCLI(t, in, "repl")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "{\n  \"k\": \"v\"\n}\nerr: customer 999999: not found\n7\nnone ran\nonce\n2\n3\n", out)
}

func TestREPL_Commands(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib.gos")
	require.NoError(t, os.WriteFile(lib, []byte("func double(x int) int { return 2 * x }\nfactor := 21\n"), 0o600))
	in := strings.Join([]string{
		":help", ":tools", ":describe math_ops", ":describe slug", ":describe zzz qqq",
		":load " + lib, "double(factor)", ":load", ":timeout 5", ":timeout unlimited", ":trace maybe",
	}, "\n")
	code, out, errOut := runCLI(t, in, "repl")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, ":isolated on|off")
	assert.Contains(t, out, "customers.Get")
	assert.Contains(t, out, "Get one customer")
	assert.Contains(t, out, "func Multiply(")
	assert.Contains(t, out, "func Slugify(")
	assert.NotContains(t, out, "func Get(", ":describe WORDS picks the matching tools")
	assert.Contains(t, out, "\n42\n")
	assert.Contains(t, out, "timeout: unlimited")
	assert.Contains(t, errOut, `no package or tool is named "zzz qqq", and a search for it finds no tool`)
	assert.Contains(t, errOut, ":load needs a FILE")
	assert.Contains(t, errOut, "use a unit, such as 5s")
	assert.Contains(t, errOut, `:trace takes on or off, not "maybe"`)
}

func TestREPL_Isolated(t *testing.T) {
	in := "x := 1\n:isolated on\nx\ny := 2\ny\n:isolated off\ny\n"
	code, out, errOut := runCLI(t, in, "repl")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "a new session on the isolated (worker process) runtime: the earlier state is dropped\n2\n")
	assert.Contains(t, out, "a new session on the in-process runtime")
	assert.Contains(t, errOut, "undefined: x")
	assert.Contains(t, errOut, "undefined: y")
}

// TestREPL_MCP: the REPL offers the tools of --mcp's servers too.
func TestREPL_MCP(t *testing.T) {
	cfg := mcpConfigFile(t)
	code, out, errOut := runCLI(t, "greeter.Greet(map[string]any{\"name\": \"Ada\"})\n:tools\n", "repl", "--mcp", cfg)
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "\"hello, Ada\"\n"), out)
	assert.Contains(t, out, "greeter.Greet")
	assert.Contains(t, out, "customers.Get", "the demo tools too")
}

func TestREPL_Arguments(t *testing.T) {
	code, _, errOut := runCLI(t, "", "repl", "file.gos")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "takes no arguments")
}

// terminal is a REPL process on a pseudo-terminal.
type terminal struct {
	t    *testing.T
	cmd  *exec.Cmd
	pty  *os.File
	mu   sync.Mutex
	out  []byte
	seen int // out[:seen] was matched by expect
	more chan struct{}
	done chan struct{} // closed when the output ends
}

// wait bounds every expectation: far above the milliseconds each takes,
// so that a loaded machine does not fail the test.
const wait = 30 * time.Second

func startTerminal(t *testing.T, history string, flags ...string) *terminal {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, append([]string{"repl", "--history", history}, flags...)...)
	cmd.Env = append(os.Environ(), cliEnv+"=1", "TERM=xterm")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 200})
	require.NoError(t, err)
	tm := &terminal{t: t, cmd: cmd, pty: f, more: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(tm.done)
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			tm.mu.Lock()
			tm.out = append(tm.out, buf[:n]...)
			tm.mu.Unlock()
			select {
			case tm.more <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		f.Close()
	})
	return tm
}

// expect waits until s appears in the output after what earlier
// expectations matched, and moves past it.
func (tm *terminal) expect(s string) {
	tm.t.Helper()
	tm.await(s, time.After(wait), nil)
}

// await waits until the output shows s (and marks it seen), failing at
// deadline; it returns false when again fires first (nil: never).
func (tm *terminal) await(s string, deadline, again <-chan time.Time) bool {
	tm.t.Helper()
	for {
		tm.mu.Lock()
		i := bytes.Index(tm.out[tm.seen:], []byte(s))
		if i >= 0 {
			tm.seen += i + len(s)
		}
		out := string(tm.out)
		tm.mu.Unlock()
		if i >= 0 {
			return true
		}
		select {
		case <-tm.more:
		case <-tm.done:
			tm.t.Fatalf("the REPL's output ended without %q; output:\n%q", s, out)
		case <-deadline:
			tm.t.Fatalf("no %q within %s; output:\n%q", s, wait, out)
		case <-again:
			return false
		}
	}
}

// sendUntil sends s, and again each second, until the output shows want
// (within wait).
func (tm *terminal) sendUntil(s, want string) {
	tm.t.Helper()
	deadline := time.After(wait)
	for {
		tm.send(s)
		if tm.await(want, deadline, time.After(time.Second)) {
			return
		}
	}
}

func (tm *terminal) send(s string) {
	tm.t.Helper()
	_, err := tm.pty.Write([]byte(s))
	require.NoError(tm.t, err)
}

// exitCode waits for the process to end and returns its status.
func (tm *terminal) exitCode() int {
	tm.t.Helper()
	ended := make(chan error, 1)
	go func() { ended <- tm.cmd.Wait() }()
	select {
	case err := <-ended:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		require.NoError(tm.t, err)
		return 0
	case <-time.After(wait):
		tm.t.Fatalf("the REPL did not exit within %s", wait)
		return -1
	}
}

// The prompts as the terminal shows them. Values end their line with
// "\r\n" (the terminal's output processing), which escape sequences of
// the line editor never do.
const (
	promptOut   = "ts> "
	continueOut = "... "
)

// TestREPL_Terminal runs the REPL on a pseudo-terminal: multi-line input,
// an expression's value, Ctrl-C during a running input (back at the
// prompt at once, the state kept), Ctrl-C at the prompt (the line
// cleared), Ctrl-D (status 0), and the history recalled with the up
// arrow by a second REPL process.
func TestREPL_Terminal(t *testing.T) {
	history := filepath.Join(t.TempDir(), "state", "history")

	tm := startTerminal(t, history)
	tm.expect(promptOut)
	tm.send("f := func(a int) int {\r")
	tm.expect(continueOut)
	tm.send("return a * 2\r")
	tm.expect(continueOut)
	tm.send("}\r")
	tm.expect(promptOut)
	tm.send("f(21)\r")
	tm.expect("\r\n42\r\n")
	tm.expect(promptOut)

	// Ctrl-C while an input runs cancels it, and only it.
	tm.send("x := 41\r")
	tm.expect(promptOut)
	tm.send("fmt.Println(\"spin\" + \"ning\"); for {}\r")
	tm.expect("spinning\r\n") // it runs: the terminal is out of the line editor
	start := time.Now()
	tm.send("\x03")
	tm.expect("interrupted")
	tm.expect(promptOut)
	elapsed := time.Since(start)
	assert.Less(t, elapsed, time.Second, "back at the prompt within a second of Ctrl-C")
	t.Logf("from Ctrl-C to the prompt: %s", elapsed)
	tm.send("x + 1\r")
	tm.expect("\r\n42\r\n")
	tm.expect(promptOut)

	// Ctrl-C at the prompt clears the line.
	tm.send("garbage")
	tm.expect("garbage")
	tm.send("\x03")
	tm.expect("^C")
	tm.expect(promptOut)
	tm.send("x\r")
	tm.expect("\r\n41\r\n")
	tm.expect(promptOut)

	tm.send("\"hist\" + \"ory\"\r")
	tm.expect("\r\n\"history\"\r\n")
	tm.expect(promptOut)

	// Ctrl-D exits with status 0.
	tm.send("\x04")
	assert.Equal(t, 0, tm.exitCode())

	data, err := os.ReadFile(history)
	require.NoError(t, err)
	assert.Equal(t, "f := func(a int) int {\nreturn a * 2\n}\nf(21)\nx := 41\nfmt.Println(\"spin\" + \"ning\"); for {}\nx + 1\nx\n\"hist\" + \"ory\"\n", string(data))

	// A second REPL process recalls the history with the up arrow.
	tm2 := startTerminal(t, history)
	tm2.expect(promptOut)
	tm2.send("\x1b[A")
	tm2.expect(`"hist" + "ory"`)
	tm2.send("\r")
	tm2.expect("\r\n\"history\"\r\n")
	tm2.expect(promptOut)
	tm2.send("\x04")
	assert.Equal(t, 0, tm2.exitCode())
}

func TestDefaultHistoryFile(t *testing.T) {
	t.Setenv(historyEnv, "/x/h")
	assert.Equal(t, "/x/h", defaultHistoryFile())
	t.Setenv(historyEnv, "")
	assert.Equal(t, "", defaultHistoryFile(), "empty: no history")
	require.NoError(t, os.Unsetenv(historyEnv))
	t.Setenv("XDG_STATE_HOME", "/state")
	assert.Equal(t, "/state/toolscript/history", defaultHistoryFile())
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("XDG_CACHE_HOME", "/cache")
	assert.Equal(t, "/cache/toolscript/history", defaultHistoryFile())
}

// TestREPL_TerminalIsolated: on the isolated runtime too, Ctrl-C cancels
// the running input only; the worker keeps the session's state.
func TestREPL_TerminalIsolated(t *testing.T) {
	tm := startTerminal(t, "", "--isolated")
	tm.expect(promptOut)
	tm.send("x := 41\r")
	tm.expect(promptOut)
	tm.send("fmt.Println(\"spin\" + \"ning\"); for {}\r")
	tm.expect("spinning\r\n")
	start := time.Now()
	tm.send("\x03")
	tm.expect("interrupted")
	tm.expect(promptOut)
	elapsed := time.Since(start)
	assert.Less(t, elapsed, time.Second, "back at the prompt within a second of Ctrl-C")
	t.Logf("from Ctrl-C to the prompt: %s", elapsed)
	tm.send("x + 1\r")
	tm.expect("\r\n42\r\n")
	tm.expect(promptOut)
	tm.send("\x04")
	assert.Equal(t, 0, tm.exitCode())
}

// askConfig is an --mcp file whose greeter asks before each call.
func askConfig(t *testing.T) string {
	t.Helper()
	return mcpConfigFileWith(t, map[string][]string{"ask": {"greet"}})
}

// TestREPL_AskScripted: scripted, the answer to an ask tool's question
// is the next line of the input: y runs the call, n refuses it (the
// script gets the error), an unknown answer asks again, and a runs the
// call and the tool's later calls without asking; each decision is in
// the trace.
func TestREPL_AskScripted(t *testing.T) {
	in := strings.Join([]string{
		`:trace on`,
		`greeter.Greet(map[string]any{"name": "Ada"})`,
		`y`,
		`greeter.Greet(map[string]any{"name": "Bob"})`,
		`n`,
		`greeter.Greet(map[string]any{"name": "Cy"})`,
		`maybe`,
		`always`,
		`greeter.Greet(map[string]any{"name": "Di"})`,
		`customers.Get(map[string]any{"id": 1})`,
		`greeter.Greet(map[string]any{"name": "Ed"})`,
	}, "\n") + "\n"
	code, out, errOut := runCLI(t, in, "repl", "--mcp", askConfig(t))
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(out, "\n")
	var got []string
	for _, l := range lines {
		if strings.HasPrefix(l, "[tool] ") {
			f := strings.Fields(l)
			l = strings.Join(append(f[:3:3], f[4:]...), " ") // without the duration
		}
		if l != "" && !strings.HasPrefix(l, "  ") && l != "{" && l != "}" {
			got = append(got, l)
		}
	}
	assert.Equal(t, []string{
		"trace: on",
		`[tool] greeter-greet {"name":"Ada"} approved`, `"hello, Ada"`,
		`[tool] greeter-greet {"name":"Bob"} refused error: registry: call refused: the call of "greeter-greet" was not approved`,
		`err: registry: call refused: the call of "greeter-greet" was not approved`,
		`[tool] greeter-greet {"name":"Cy"} approved`, `"hello, Cy"`,
		`[tool] greeter-greet {"name":"Di"} approved`, `"hello, Di"`,
		`[tool] customers-get {"id":1}`,
		`[tool] greeter-greet {"name":"Ed"} approved`, `"hello, Ed"`,
	}, got)
	assert.Equal(t, 3, strings.Count(errOut, `the script calls greeter.Greet(`), errOut)
	assert.Contains(t, errOut, `the script calls greeter.Greet({"name":"Ada"}), a tool that asks before each call`)
	assert.Contains(t, errOut, `answer y, n or a, not "maybe"`)
	assert.Contains(t, errOut, "greeter.Greet runs without asking until the REPL exits")

	// The input ends before the answer: refused.
	code, out, errOut = runCLI(t, "greeter.Greet(map[string]any{\"name\": \"Ada\"})\n", "repl", "--mcp", askConfig(t))
	assert.Equal(t, 0, code, "the call's error is the script's value, not a failure")
	assert.Equal(t, "err: registry: call refused: the call of \"greeter-greet\" was not approved: no answer: the input ended\n", out, errOut)

	// run has nobody to ask: refused.
	code, out, errOut = runCLI(t, "_, err := greeter.Greet(map[string]any{\"name\": \"Ada\"})\nfmt.Println(err)\n", "run", "--mcp", askConfig(t), "-")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `the call of "greeter-greet" was not approved: no ask function is set`)
}

// TestREPL_AskTerminal: on a terminal the question is read through the
// line editor: y runs the call, Ctrl-C refuses it and cancels the input,
// and the REPL's prompt, line editing and history go on as before (the
// answers are not in the history).
func TestREPL_AskTerminal(t *testing.T) {
	tm := startTerminal(t, filepath.Join(t.TempDir(), "history"), "--mcp", askConfig(t))
	tm.expect(promptOut)
	tm.send("fmt.Print(\"before \"); greeter.Greet(map[string]any{\"name\": \"Ada\"})\r")
	tm.expect("before \r\nthe script calls greeter.Greet({\"name\":\"Ada\"}), a tool that asks before each call\r\n")
	tm.expect("run it? y(es), n(o), a(lways this tool) [n]: ")
	tm.send("y\r")
	tm.expect(promptOut)

	tm.send("s, err := greeter.Greet(map[string]any{\"name\": \"Bob\"})\r")
	tm.expect("run it?")
	// The line editor shows the question before it turns the terminal's
	// signals off: a Ctrl-C in between is a SIGINT, which the REPL leaves
	// to the question; the question refuses the next one.
	tm.sendUntil("\x03", "refused; the input is interrupted")
	tm.expect("interrupted")
	tm.expect(promptOut)

	tm.send("s, err := greeter.Greet(map[string]any{\"name\": \"Cy\"}); fmt.Println(\"got\", s, err)\r")
	tm.expect("run it?")
	tm.send("yes\r")
	tm.expect("got hello, Cy <nil>\r\n")
	tm.expect(promptOut)
	tm.send("1 + 1\r")
	tm.expect("\r\n2\r\n")
	tm.expect(promptOut)
	tm.send("\x1b[A")
	tm.expect("1 + 1")
	tm.send("\x1b[A")
	tm.expect(`fmt.Println("got", s, err)`)
	tm.send("\x03")
	tm.expect(promptOut)
	tm.send("\x04")
	assert.Equal(t, 0, tm.exitCode())
}

// TestREPL_DescribeSearch: :describe with no words is the whole surface;
// with package or tool names, those; with other words, the few tools the
// registry's search ranks best, never a denied one.
func TestREPL_DescribeSearch(t *testing.T) {
	describe := func(t *testing.T, query string, flags ...string) (string, string) {
		t.Helper()
		_, out, errOut := runCLI(t, ":describe "+query+"\n", append([]string{"repl"}, flags...)...)
		return out, errOut
	}
	all, _ := describe(t, "")
	for _, s := range []string{"package customers", "package orders", "package text", "func Multiply("} {
		assert.Contains(t, all, s)
	}
	tests := []struct {
		query      string
		has, hasNo []string
	}{
		{query: "customers", has: []string{"func Get(args GetArgs) (Customer, error)", "func List("}, hasNo: []string{"package orders"}},
		{query: "customers.Get", has: []string{"func Get(args GetArgs) (Customer, error)"}, hasNo: []string{"func List(", "package orders"}},
		{query: "customers.Get orders-list", has: []string{"func Get(args GetArgs) (Customer, error)", "func List(args ListArgs) ([]Order, error)"}, hasNo: []string{"func Search(", "func UpdateStatus("}},
		// Words: a search, ranked, at most describeLimit tools.
		{query: "change the status of an order", has: []string{"func UpdateStatus("}, hasNo: []string{"func Slugify(", "func Multiply("}},
		{query: "multiply numbers", has: []string{"func Multiply("}, hasNo: []string{"package customers"}},
		{query: "slug", has: []string{"func Slugify("}, hasNo: []string{"func Get("}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			out, errOut := describe(t, tt.query)
			assert.Empty(t, errOut)
			for _, s := range tt.has {
				assert.Contains(t, out, s)
			}
			for _, s := range tt.hasNo {
				assert.NotContains(t, out, s)
			}
			assert.LessOrEqual(t, strings.Count(out, "\nfunc ")-strings.Count(out, "\npackage tools\n")*3, describeLimit, out)
		})
	}

	// The search never finds a denied tool; an ask tool it finds.
	out, errOut := describe(t, "greet someone", "--no-demo", "--mcp", mcpConfigFileWith(t, map[string][]string{"deny": {"greet"}}))
	assert.NotContains(t, out, "func Greet(")
	assert.Contains(t, errOut, "a search for it finds no tool")
	out, errOut = describe(t, "greet someone", "--no-demo", "--mcp", askConfig(t))
	assert.Contains(t, out, "func Greet(", errOut)
}
