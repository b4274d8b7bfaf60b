package mcp_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/mcp"
	"github.com/toolscript/toolscript/registry"
)

func TestConfig_Permissions(t *testing.T) {
	cfg, err := mcp.ParseConfig([]byte(`{"mcpServers": {"files": {"command": "fs-server",
		"permissions": {"ask": ["*"], "allow": ["list_*", "read_*"], "deny": ["delete_*"]}}}}`))
	require.NoError(t, err)
	p := cfg.Servers["files"].Permissions
	require.NotNil(t, p)
	assert.Equal(t, &mcp.Permissions{Ask: []string{"*"}, Allow: []string{"list_*", "read_*"}, Deny: []string{"delete_*"}}, p)

	r := registry.New("")
	for _, n := range []string{"list_dir", "read_file", "write_file", "delete_file"} {
		require.NoError(t, r.Register(func() string { return n }, registry.WithNamespace("files"), registry.WithName(n)))
	}
	require.NoError(t, r.Register(func() string { return "" }, registry.WithNamespace("other"), registry.WithName("delete_file")))
	require.NoError(t, p.Apply(r, "files"))
	for name, want := range map[string]registry.Permission{
		"files-list_dir": registry.PermissionAllow, "files-read_file": registry.PermissionAllow,
		"files-write_file": registry.PermissionAsk, "files-delete_file": registry.PermissionDeny,
		"other-delete_file": registry.PermissionAllow,
	} {
		assert.Equal(t, want, r.PermissionOf(name), name)
	}
	assert.NoError(t, (*mcp.Permissions)(nil).Apply(r, "files"))

	for _, tc := range []struct{ json, field string }{
		{`{"permissions": []}`, "permissions"},
		{`{"permissions": {"maybe": ["x"]}}`, "permissions.maybe"},
		{`{"permissions": {"deny": "x"}}`, "permissions.deny"},
		{`{"permissions": {"deny": ["ok", "["]}}`, "permissions.deny[1]"},
		{`{"permissions": {"ask": [""]}}`, "permissions.ask[0]"},
	} {
		_, err := mcp.ParseConfig([]byte(`{"mcpServers": {"s": {"command": "x", ` + tc.json[1:] + `}}`))
		var ce *mcp.ConfigError
		require.ErrorAs(t, err, &ce, tc.json)
		assert.Equal(t, "s", ce.Server)
		assert.Equal(t, tc.field, ce.Field, tc.json)
		assert.ErrorIs(t, err, mcp.ErrConfig)
	}
}
