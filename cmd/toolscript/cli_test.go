package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHelp_EverySubcommand: -h of every subcommand prints, on stdout with
// status 0, what it does, its flags with their defaults and an example.
func TestHelp_EverySubcommand(t *testing.T) {
	tests := []struct {
		cmd   string
		flags []string // flags the help must list, with "--"
		text  string   // a phrase of what it does
	}{
		{cmd: "run", flags: []string{"--timeout duration", "--max-tool-calls count", "--json", "--isolated", "--mcp file", "--no-demo"}, text: "Runs a Go script"},
		{cmd: "describe", flags: []string{"--mcp file", "--no-demo", "--ns string", "--tool string", "--size"}, text: "tools"},
		{cmd: "repl", flags: []string{"--timeout duration", "--max-tool-calls count", "--isolated", "--trace", "--history file", "--mcp file", "--no-demo"}, text: "keeps the state"},
		{cmd: "serve", flags: []string{"--http address", "--timeout duration", "--max-tool-calls count", "--mcp file", "--no-demo"}, text: "MCP clients"},
		{cmd: "worker", text: "isolated runtime"},
		{cmd: "version", text: "Prints the version"},
	}
	for _, tt := range tests {
		for _, h := range []string{"-h", "--help"} {
			t.Run(tt.cmd+" "+h, func(t *testing.T) {
				code, out, errOut := runCLI(t, "", tt.cmd, h)
				require.Equal(t, 0, code, errOut)
				assert.Empty(t, errOut)
				assert.Contains(t, out, "Usage: toolscript "+tt.cmd)
				assert.Contains(t, out, tt.text)
				assert.Contains(t, out, "\nExample")
				for _, f := range tt.flags {
					assert.Contains(t, out, "\n  "+f+"\n", "flag %s listed", f)
				}
			})
		}
		t.Run("help "+tt.cmd, func(t *testing.T) {
			code, out, _ := runCLI(t, "", "help", tt.cmd)
			require.Equal(t, 0, code)
			assert.Contains(t, out, "Usage: toolscript "+tt.cmd)
		})
	}
	// The limits' defaults and the words 0 and unlimited are documented.
	_, out, _ := runCLI(t, "", "run", "-h")
	assert.Contains(t, out, "(default 0, the engine's 30s)")
	assert.Contains(t, out, "(default 0, the engine's 10000)")
	assert.Contains(t, out, `"unlimited" sets none`)
	assert.Contains(t, out, `marked "=> "`)
}

// TestHelp_ExitCodes: "toolscript help" documents every exit code.
func TestHelp_ExitCodes(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		code, out, _ := runCLI(t, "", args...)
		require.Equal(t, 0, code)
		assert.Contains(t, out, "Exit codes:")
		for _, c := range []string{"\n  0 ", "\n  1 ", "\n  2 ", "\n  124 ", "\n  125 ", "\n  130 ", "\n  137 ", "\n  N "} {
			assert.Contains(t, out, c)
		}
		assert.Contains(t, out, "toolscript repl")
	}
}

// TestFlags_AfterFile: flags are accepted after the file name, and "--"
// ends the flags.
func TestFlags_AfterFile(t *testing.T) {
	p := writeScript(t, "fmt.Println(\"hi\")\nresult(6 * 7)")
	code, out, errOut := runCLI(t, "", "run", p, "--json", "--timeout", "5s")
	require.Equal(t, 0, code, errOut)
	var res struct {
		Stdout string `json:"stdout"`
		Value  int    `json:"value"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	assert.Equal(t, "hi\n", res.Stdout)
	assert.Equal(t, 42, res.Value)

	code, _, errOut = runCLI(t, "", "run", "--", "--json")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "open --json", "after --, --json is the file's name")

	code, _, errOut = runCLI(t, "", "run", p, "other.gos")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "needs one FILE, or - for standard input (got 2 arguments)")
}

// TestFlags_BadValues: a bad value names the flag and the expected form;
// a negative limit is an error; 0 and unlimited are accepted.
func TestFlags_BadValues(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stderr []string
	}{
		{name: "timeout without unit", args: []string{"--timeout", "5"}, stderr: []string{`invalid value "5" for flag -timeout`, "use a unit, such as 5s"}},
		{name: "timeout not a duration", args: []string{"--timeout", "soon"}, stderr: []string{`invalid value "soon" for flag -timeout`, "use a unit, such as 5s", "unlimited"}},
		{name: "negative timeout", args: []string{"--timeout=-1s"}, stderr: []string{"flag -timeout: a timeout cannot be negative", `"unlimited" for none`}},
		{name: "negative timeout number", args: []string{"--timeout", "-1"}, stderr: []string{"a timeout cannot be negative"}},
		{name: "negative limit", args: []string{"--max-tool-calls", "-1"}, stderr: []string{"flag -max-tool-calls: a limit cannot be negative", "0 for the default"}},
		{name: "limit not a number", args: []string{"--max-tool-calls", "many"}, stderr: []string{"flag -max-tool-calls: not a whole number", "such as 100"}},
		{name: "unknown flag", args: []string{"--nope"}, stderr: []string{"flag provided but not defined: -nope", `Run "toolscript run -h"`}},
	}
	for _, tt := range tests {
		for _, cmd := range []string{"run", "repl"} {
			t.Run(cmd+" "+tt.name, func(t *testing.T) {
				args := append([]string{cmd}, tt.args...)
				if cmd == "run" {
					args = append(args, "-")
				}
				code, out, errOut := runCLI(t, "", args...)
				assert.Equal(t, 2, code)
				assert.Empty(t, out)
				for _, s := range tt.stderr {
					assert.Contains(t, errOut, strings.ReplaceAll(s, "toolscript run", "toolscript "+cmd))
				}
			})
		}
	}
	for _, args := range [][]string{{"--timeout", "0"}, {"--timeout", "unlimited"}, {"--max-tool-calls", "0"}, {"--max-tool-calls", "unlimited"}, {"--timeout", "1m"}} {
		code, out, errOut := runCLI(t, "x := 1; x", append(append([]string{"run"}, args...), "-")...)
		assert.Equal(t, 0, code, "%v: %s", args, errOut)
		assert.Equal(t, "=> 1\n", out, "%v", args)
	}
}

// TestRun_Value: run prints the script's value after its output, on a
// line of its own, marked; no value, no line.
func TestRun_Value(t *testing.T) {
	tests := []struct {
		name, script, stdout string
	}{
		{name: "final expression", script: "x := 6 * 7\nx", stdout: "=> 42\n"},
		{name: "after output without newline", script: "fmt.Print(\"a\")\nresult(\"b\")", stdout: "a\n=> \"b\"\n"},
		{name: "map as JSON", script: `result(map[string]any{"k": []int{1, 2}})`, stdout: "=> {\n  \"k\": [\n    1,\n    2\n  ]\n}\n"},
		{name: "no value", script: `fmt.Println("only output")`, stdout: "only output\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.script, "run", "-")
			require.Equal(t, 0, code, errOut)
			assert.Equal(t, tt.stdout, out)
		})
	}
}

// TestRun_JSONValueNotEncodable: a value JSON cannot encode loses neither
// the output nor the trace; the result names the value's type.
func TestRun_JSONValueNotEncodable(t *testing.T) {
	for _, tt := range []struct{ script, typ string }{
		{script: "complex(1, 2)", typ: "complex128"},
		{script: "math.Inf(1)", typ: "float64"},
	} {
		script := "fmt.Println(\"kept\")\ntools.Echo(map[string]any{\"a\": 1})\nresult(" + tt.script + ")"
		code, out, errOut := runCLI(t, script, "run", "--json", "-")
		require.Equal(t, 0, code, errOut)
		var res struct {
			Stdout     string           `json:"stdout"`
			Value      any              `json:"value"`
			ValueError string           `json:"value_error"`
			ToolCalls  []map[string]any `json:"tool_calls"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &res), out)
		assert.Equal(t, "kept\n", res.Stdout)
		assert.Nil(t, res.Value)
		assert.Contains(t, res.ValueError, "of type "+tt.typ+", cannot be encoded as JSON")
		require.Len(t, res.ToolCalls, 1)
		assert.Equal(t, "echo", res.ToolCalls[0]["name"])

		// Without --json the value prints as Go does.
		code, out, _ = runCLI(t, script, "run", "-")
		require.Equal(t, 0, code)
		assert.Contains(t, out, "kept\n=> ")
	}
}

// TestVersionWorker_Arguments: version and worker check their arguments
// too.
func TestVersionWorker_Arguments(t *testing.T) {
	code, _, errOut := runCLI(t, "", "version", "extra")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "toolscript version: takes no arguments")
	code, _, errOut = runCLI(t, "", "worker", "--nope")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "flag provided but not defined")
	code, _, errOut = runCLI(t, "", "worker")
	assert.NotEqual(t, 0, code)
	assert.Contains(t, errOut, "not by hand")
}

// TestRun_Interrupted: run exits 130 when its context ends (Ctrl-C),
// 124 when its own timeout passes.
func TestRun_Interrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"run", "-"}, strings.NewReader("fmt.Println(\"started\")\nfor {}"), &lineSignal{w: &out, seen: cancel, want: "started"}, &errb)
	}()
	select {
	case code := <-done:
		assert.Equal(t, 130, code, errb.String())
	case <-time.After(30 * time.Second):
		t.Fatal("run did not end after its context was cancelled")
	}
	code, _, _ := runCLI(t, "for {}", "run", "--timeout", "50ms", "-")
	assert.Equal(t, 124, code)
}

// lineSignal calls seen once the output has want.
type lineSignal struct {
	mu   sync.Mutex
	w    *bytes.Buffer
	seen func()
	want string
}

func (l *lineSignal) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.w.Write(p)
	if l.seen != nil && strings.Contains(l.w.String(), l.want) {
		l.seen()
		l.seen = nil
	}
	return n, err
}
