package mcp_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/mcp"
)

func TestParseConfig(t *testing.T) {
	t.Setenv("MCP_CFG_TOKEN", "tok")
	t.Setenv("MCP_CFG_EMPTY", "")
	cfg, err := mcp.ParseConfig([]byte(`{
		"globalShortcut": "ignored",
		"mcpServers": {
			"files": {"command": "npx", "args": ["-y", "server-fs", "${HOME:-/home}"], "env": {"DEBUG": "1"}},
			"web": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${MCP_CFG_TOKEN}"}},
			"typed": {"type": "streamable-http", "url": "http://127.0.0.1:9/mcp"},
			"local": {"type": "stdio", "command": "srv", "cwd": "/tmp", "args": ["a$$b", "$x", "${MCP_CFG_EMPTY:-dflt}"]},
			"off": {"command": "never", "disabled": true}
		}
	}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"files", "local", "typed", "web"}, cfg.Names(), "disabled servers are left out")
	files := cfg.Servers["files"]
	assert.Equal(t, mcp.TypeStdio, files.Type)
	assert.Equal(t, "files", files.Name)
	assert.Equal(t, "1", files.Env["DEBUG"])
	assert.NotContains(t, files.Args[2], "$")
	assert.Equal(t, mcp.TypeHTTP, cfg.Servers["web"].Type)
	assert.Equal(t, "Bearer tok", cfg.Servers["web"].Headers["Authorization"])
	assert.Equal(t, mcp.TypeHTTP, cfg.Servers["typed"].Type)
	assert.Equal(t, []string{"a$b", "$x", "dflt"}, cfg.Servers["local"].Args)
	assert.Equal(t, "/tmp", cfg.Servers["local"].Cwd)
}

func TestParseConfig_Errors(t *testing.T) {
	tests := []struct {
		name, json     string
		server, field  string
		wantSubstrings []string
	}{
		{"not JSON", `{`, "", "", []string{"not a JSON object"}},
		{"no mcpServers", `{"servers": {}}`, "", "mcpServers", []string{"missing"}},
		{"mcpServers not an object", `{"mcpServers": []}`, "", "mcpServers", []string{"object"}},
		{"server not an object", `{"mcpServers": {"a": "npx"}}`, "a", "", []string{"must be an object"}},
		{"neither command nor url", `{"mcpServers": {"a": {}}}`, "a", "", []string{"needs command (stdio) or url (http)"}},
		{"both", `{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}`, "a", "", []string{"both command and url"}},
		{"unknown field", `{"mcpServers": {"a": {"command": "x", "header": {}}}}`, "a", "header", []string{"unknown field"}},
		{"args not strings", `{"mcpServers": {"a": {"command": "x", "args": ["a", 1]}}}`, "a", "args", []string{"array of strings"}},
		{"env not strings", `{"mcpServers": {"a": {"command": "x", "env": {"A": 1}}}}`, "a", "env", []string{"object of strings"}},
		{"command not a string", `{"mcpServers": {"a": {"command": ["x"]}}}`, "a", "command", []string{"must be a string"}},
		{"unknown type", `{"mcpServers": {"a": {"type": "ws", "url": "http://h"}}}`, "a", "type", []string{`unknown transport "ws"`}},
		{"sse", `{"mcpServers": {"a": {"type": "sse", "url": "http://h"}}}`, "a", "type", []string{"SSE transport is not supported"}},
		{"http without url", `{"mcpServers": {"a": {"type": "http", "command": "x"}}}`, "a", "type", []string{"is http"}},
		{"http type, nothing", `{"mcpServers": {"a": {"type": "http"}}}`, "a", "url", []string{"missing"}},
		{"stdio with url", `{"mcpServers": {"a": {"type": "stdio", "url": "http://h"}}}`, "a", "type", []string{"is stdio"}},
		{"relative url", `{"mcpServers": {"a": {"url": "/mcp"}}}`, "a", "url", []string{"not an absolute http or https URL"}},
		{"ftp url", `{"mcpServers": {"a": {"url": "ftp://h/x"}}}`, "a", "url", []string{"not an absolute"}},
		{"headers on stdio", `{"mcpServers": {"a": {"command": "x", "headers": {"A": "b"}}}}`, "a", "headers", []string{"only an http server"}},
		{"env on http", `{"mcpServers": {"a": {"url": "http://h", "env": {"A": "b"}}}}`, "a", "env", []string{"only a stdio server"}},
		{"bad header name", `{"mcpServers": {"a": {"url": "http://h", "headers": {"A B": "b"}}}}`, "a", "headers", []string{"invalid header name"}},
		{"header with newline", `{"mcpServers": {"a": {"url": "http://h", "headers": {"A": "b\r\nX: y"}}}}`, "a", "headers.A", []string{"line break"}},
		{"unset variable", `{"mcpServers": {"a": {"url": "http://h", "headers": {"Authorization": "Bearer ${MCP_NOT_SET_ANYWHERE}"}}}}`,
			"a", "headers.Authorization", []string{"MCP_NOT_SET_ANYWHERE is not set"}},
		{"unclosed variable", `{"mcpServers": {"a": {"command": "x", "args": ["${A"]}}}`, "a", "args[0]", []string{"unclosed"}},
		{"bad variable", `{"mcpServers": {"a": {"command": "x", "args": ["${1A}"]}}}`, "a", "args[0]", []string{"invalid variable reference"}},
		{"name clash", `{"mcpServers": {"my-files": {"command": "x"}, "my_files": {"command": "y"}}}`, "my_files", "", []string{`"my-files"`, "my_files"}},
		{"name without letters", `{"mcpServers": {"工具": {"command": "x"}}}`, "工具", "", []string{"cannot be a namespace"}},
		{"disabled not bool", `{"mcpServers": {"a": {"command": "x", "disabled": "yes"}}}`, "a", "disabled", []string{"true or false"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mcp.ParseConfig([]byte(tt.json))
			require.Error(t, err)
			require.ErrorIs(t, err, mcp.ErrConfig)
			var ce *mcp.ConfigError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, tt.server, ce.Server)
			assert.Equal(t, tt.field, ce.Field)
			for _, s := range tt.wantSubstrings {
				assert.Contains(t, err.Error(), s)
			}
			if tt.server != "" {
				assert.Contains(t, err.Error(), `server "`+tt.server+`"`)
			}
		})
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"mcpServers": {"a": {"command": "x", "comand": "y"}}}`), 0o600))
	_, err := mcp.LoadConfig(path)
	require.ErrorIs(t, err, mcp.ErrConfig)
	assert.Contains(t, err.Error(), path)
	assert.Contains(t, err.Error(), `server "a": comand: `)

	_, err = mcp.LoadConfig(filepath.Join(dir, "none.json"))
	require.Error(t, err)
	assert.True(t, errors.Is(err, os.ErrNotExist))

	big := make([]byte, mcp.MaxConfigBytes+10)
	require.NoError(t, os.WriteFile(path, big, 0o600))
	_, err = mcp.LoadConfig(path)
	require.ErrorIs(t, err, mcp.ErrConfig)
	assert.Contains(t, err.Error(), "larger than")
}

// FuzzParseConfig: the parser never panics, every error is a
// *ConfigError matching ErrConfig, and an accepted configuration is
// consistent.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`{"mcpServers": {"a": {"command": "x", "args": ["${HOME}"]}}}`))
	f.Add([]byte(`{"mcpServers": {"b": {"url": "http://h/mcp", "headers": {"A": "b"}, "type": "http"}}}`))
	f.Add([]byte(`{"mcpServers": {"a-b": {"command": "x"}, "a_b": {"command": "y"}}}`))
	f.Add([]byte(`{"mcpServers": {"a": {"command": "$$${X:-y}", "disabled": false}}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := mcp.ParseConfig(data)
		if err != nil {
			var ce *mcp.ConfigError
			if !errors.As(err, &ce) || !errors.Is(err, mcp.ErrConfig) {
				t.Fatalf("error of another kind: %T %v", err, err)
			}
			return
		}
		namespaces := map[string]bool{}
		for name, s := range cfg.Servers {
			if s.Name != name {
				t.Fatalf("server %q named %q", name, s.Name)
			}
			switch s.Type {
			case mcp.TypeStdio:
				if s.Command == "" || s.URL != "" {
					t.Fatalf("stdio server %q: %+v", name, s)
				}
			case mcp.TypeHTTP:
				if s.URL == "" || s.Command != "" {
					t.Fatalf("http server %q: %+v", name, s)
				}
			default:
				t.Fatalf("server %q: type %q", name, s.Type)
			}
			ns, err := s.Namespace()
			if err != nil || namespaces[ns] {
				t.Fatalf("server %q: namespace %q (%v)", name, ns, err)
			}
			namespaces[ns] = true
		}
	})
}
