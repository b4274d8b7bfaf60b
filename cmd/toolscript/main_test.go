package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func writeScript(t *testing.T, code string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.gos")
	require.NoError(t, os.WriteFile(p, []byte(code), 0o600))
	return p
}

func TestRun(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string
		stderr string
	}{
		{name: "corpus script", args: []string{"run", "../../scripts/testdata/top_customers_by_revenue.gos"}, code: 0, stdout: "Barbara Hamilton        3027.64\n"},
		{name: "stdin", args: []string{"run", "-"}, stdin: `c, _ := customers.Get(map[string]any{"id": 1}); fmt.Println(c.(map[string]any)["name"])`, code: 0, stdout: "Ada Thompson\n"},
		{name: "exit code", args: []string{"run", "-"}, stdin: "fmt.Println(\"x\")\nos.Exit(3)", code: 3, stdout: "x\n", stderr: "error: exit status 3"},
		{name: "compile error", args: []string{"run", "-"}, stdin: "fmt.Println(y)", code: 1, stderr: "error: line 1:13: undefined: y"},
		{name: "timeout flag", args: []string{"run", "--timeout", "50ms", "-"}, stdin: "for {}", code: 124, stderr: "timeout"},
		{name: "tool call limit flag", args: []string{"run", "--max-tool-calls", "2", "-"}, stdin: "for { if _, err := tools.Echo(nil); err != nil { panic(err) } }", code: 125, stderr: "MaxToolCalls (2)"},
		{name: "missing file", args: []string{"run", "/nonexistent/x.gos"}, code: 2, stderr: "reading script"},
		{name: "no file", args: []string{"run"}, code: 2, stderr: "toolscript run: needs one FILE, or - for standard input"},
		{name: "bad flag", args: []string{"run", "--nope", "-"}, code: 2, stderr: "flag provided but not defined"},
		{name: "unknown command", args: []string{"frobnicate"}, code: 2, stderr: `unknown command "frobnicate"`},
		{name: "no command", args: nil, code: 2, stderr: "Usage:"},
		{name: "version", args: []string{"version"}, code: 0, stdout: "toolscript dev\n"},
		{name: "describe", args: []string{"describe"}, code: 0, stdout: "package customers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.stdin, tt.args...)
			assert.Equal(t, tt.code, code, "stderr: %s", errOut)
			if tt.stdout != "" {
				assert.Contains(t, out, tt.stdout)
			}
			if tt.stderr != "" {
				assert.Contains(t, errOut, tt.stderr)
			}
		})
	}
}

func TestRun_JSON(t *testing.T) {
	p := writeScript(t, "r, _ := math_ops.Multiply(map[string]any{\"a\": 6, \"b\": 7})\nfmt.Println(r)\nresult(r)")
	code, out, errOut := runCLI(t, "", "run", "--json", p)
	require.Equal(t, 0, code, errOut)
	var res struct {
		Stdout     string  `json:"stdout"`
		ReturnCode int     `json:"return_code"`
		Value      float64 `json:"value"`
		ToolCalls  []struct {
			Name string         `json:"name"`
			Args map[string]any `json:"args"`
		} `json:"tool_calls"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	assert.Equal(t, "42\n", res.Stdout)
	assert.Equal(t, 42.0, res.Value)
	require.Len(t, res.ToolCalls, 1)
	assert.Equal(t, "math_ops-multiply", res.ToolCalls[0].Name)
	assert.Equal(t, map[string]any{"a": 6.0, "b": 7.0}, res.ToolCalls[0].Args)
}

func TestDescribe_ListsEveryDemoTool(t *testing.T) {
	code, out, _ := runCLI(t, "", "describe")
	require.Equal(t, 0, code)
	for _, fn := range []string{"func List(", "func Get(", "func Search(", "func UpdateStatus(", "func WordCount(", "func Multiply(", "func Stats(", "func Echo(", "func Call("} {
		assert.Contains(t, out, fn)
	}
}
