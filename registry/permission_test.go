package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/registry"
)

// permRegistry has files-read, files-delete and files-write; asks records
// the calls its ask function saw and approves those whose path is "ok".
func permRegistry(t *testing.T, asks *[]string, mu *sync.Mutex) *registry.Registry {
	t.Helper()
	r := registry.New("perm", registry.WithAskFunc(func(ctx context.Context, c registry.Call) (bool, error) {
		mu.Lock()
		*asks = append(*asks, c.Name+":"+c.Args["path"].(string))
		mu.Unlock()
		if c.Args["path"] == "boom" {
			return false, errors.New("the user closed the dialog")
		}
		return c.Args["path"] == "ok", nil
	}))
	t.Cleanup(func() { r.Close() })
	for _, name := range []string{"read", "delete", "write"} {
		name := name
		require.NoError(t, r.Register(func(path string) string { return name + " " + path },
			registry.WithNamespace("files"), registry.WithName(name), registry.WithParams("path"),
			registry.WithDescription("The file operation "+name+".")))
	}
	require.NoError(t, r.SetPermission("files-*", registry.PermissionAsk))
	require.NoError(t, r.SetNamespacePermission("files", "read", registry.PermissionAllow))
	require.NoError(t, r.SetPermission("*-delete", registry.PermissionDeny))
	return r
}

func TestPermission_Rules(t *testing.T) {
	var asks []string
	var mu sync.Mutex
	r := permRegistry(t, &asks, &mu)
	assert.Equal(t, registry.PermissionAllow, r.PermissionOf("files-read"))
	assert.Equal(t, registry.PermissionDeny, r.PermissionOf("files-delete"))
	assert.Equal(t, registry.PermissionAsk, r.PermissionOf("files-write"))
	assert.Equal(t, registry.PermissionAllow, r.PermissionOf("other"))
	assert.Error(t, r.SetPermission("[", registry.PermissionDeny))
	assert.Error(t, r.SetPermission("*", "maybe"))
	// The last matching rule wins.
	require.NoError(t, r.SetPermission("files-delete", registry.PermissionAllow))
	assert.Equal(t, registry.PermissionAllow, r.PermissionOf("files-delete"))
}

// TestPermission_DeniedInvisible: a denied tool is absent from Names,
// Schemas, the engine's surface and Describe, and Search.
func TestPermission_DeniedInvisible(t *testing.T) {
	var asks []string
	var mu sync.Mutex
	r := permRegistry(t, &asks, &mu)
	assert.Equal(t, []string{"files-read", "files-write"}, r.Names())
	for _, f := range []registry.Format{registry.OpenAIChat, registry.OpenAIResponses, registry.Anthropic, registry.Gemini} {
		decls, err := r.Schemas(f)
		require.NoError(t, err)
		assert.NotContains(t, string(decls), "delete", f)
		assert.Contains(t, string(decls), "files-write", f)
	}
	d := engine.Describe(r.Projections())
	assert.NotContains(t, d, "Delete")
	assert.Contains(t, d, "func Write(")
	for _, h := range r.Search("delete file", 10) {
		assert.NotEqual(t, "files-delete", h.Tool.Name)
	}
	assert.Empty(t, asks)
}

// TestPermission_ExecuteToolCalls: a denied call fails saying so, an ask
// call runs only when approved, and every decision is in the results.
func TestPermission_ExecuteToolCalls(t *testing.T) {
	var asks []string
	var mu sync.Mutex
	r := permRegistry(t, &asks, &mu)
	calls := []registry.Call{
		{ID: "1", Name: "files-read", Arguments: json.RawMessage(`{"path":"a"}`)},
		{ID: "2", Name: "files-delete", Arguments: json.RawMessage(`{"path":"a"}`)},
		{ID: "3", Name: "files-write", Arguments: json.RawMessage(`{"path":"ok"}`)},
		{ID: "4", Name: "files-write", Arguments: json.RawMessage(`{"path":"no"}`)},
		{ID: "5", Name: "files-write", Arguments: json.RawMessage(`{"path":"boom"}`)},
		{ID: "6", Name: "files-write", Arguments: json.RawMessage(`{"path":1}`)},
	}
	res, err := r.ExecuteToolCalls(context.Background(), calls)
	require.NoError(t, err)
	assert.Equal(t, "read a", res[0].Value)
	assert.Equal(t, "", res[0].Decision)

	assert.ErrorIs(t, res[1].Err, registry.ErrToolDenied)
	assert.Contains(t, res[1].Err.Error(), `"files-delete" is denied`)
	assert.Equal(t, registry.DecisionDenied, res[1].Decision)

	assert.NoError(t, res[2].Err)
	assert.Equal(t, "write ok", res[2].Value)
	assert.Equal(t, registry.DecisionApproved, res[2].Decision)

	assert.ErrorIs(t, res[3].Err, registry.ErrCallRefused)
	assert.Nil(t, res[3].Value)
	assert.Equal(t, registry.DecisionRefused, res[3].Decision)

	assert.ErrorIs(t, res[4].Err, registry.ErrCallRefused)
	assert.Contains(t, res[4].Err.Error(), "the user closed the dialog")

	assert.Error(t, res[5].Err) // invalid arguments: not asked
	assert.Equal(t, "", res[5].Decision)
	assert.Equal(t, []string{"files-write:ok", "files-write:no", "files-write:boom"}, asks)

	t.Run("no ask function refuses", func(t *testing.T) {
		r := registry.New("noask")
		defer r.Close()
		require.NoError(t, r.Register(func() string { return "ran" }, registry.WithName("risky")))
		require.NoError(t, r.SetPermission("risky", registry.PermissionAsk))
		res, err := r.ExecuteToolCalls(context.Background(), []registry.Call{{ID: "1", Name: "risky"}})
		require.NoError(t, err)
		assert.ErrorIs(t, res[0].Err, registry.ErrCallRefused)
		assert.Contains(t, res[0].Err.Error(), "WithAskFunc")
		assert.Equal(t, registry.DecisionRefused, res[0].Decision)
	})
}

// TestPermission_Scripts: in both runtimes, an ask tool runs when approved,
// a refused call and a denied tool's call by name fail saying so, and the
// trace holds each decision.
func TestPermission_Scripts(t *testing.T) {
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
	require.NoError(t, err)
	defer iso.Close()
	for name, rt := range map[string]engine.CodeRuntime{"in-process": engine.New(engine.Config{}), "isolated": iso} {
		t.Run(name, func(t *testing.T) {
			var asks []string
			var mu sync.Mutex
			r := permRegistry(t, &asks, &mu)
			code := `
fmt.Println(files.Read(map[string]any{"path": "x"}))
fmt.Println(files.Write(map[string]any{"path": "ok"}))
_, err := files.Write(map[string]any{"path": "no"})
fmt.Println(err)
_, err = tools.Call("files-delete", map[string]any{"path": "x"})
fmt.Println(err)
fmt.Println(tools.Names())
`
			res, err := rt.Execute(context.Background(), code, r.Projections())
			require.NoError(t, err)
			require.True(t, res.OK(), res.Error)
			assert.Equal(t, `read x <nil>
write ok <nil>
registry: call refused: the call of "files-write" was not approved
registry: tool denied: "files-delete" is denied by the registry's permissions
[files-read files-write]
`, res.Stdout)
			var decisions []string
			for _, c := range res.ToolCalls {
				decisions = append(decisions, c.Name+":"+c.Decision)
			}
			assert.Equal(t, []string{"files-read:", "files-write:approved", "files-write:refused", "files-delete:denied"}, decisions)
			assert.Equal(t, []string{"files-write:ok", "files-write:no"}, asks)
		})
	}
	t.Run("a projection called without the engine still asks", func(t *testing.T) {
		var asks []string
		var mu sync.Mutex
		r := permRegistry(t, &asks, &mu)
		p := r.Projections()["files-write"]
		_, err := p.Call(context.Background(), map[string]any{"path": "no"})
		assert.ErrorIs(t, err, registry.ErrCallRefused)
		v, err := p.Call(context.Background(), map[string]any{"path": "ok"})
		require.NoError(t, err)
		assert.Equal(t, "write ok", v)
		_, err = r.Projections()["files-delete"].Call(context.Background(), nil)
		assert.ErrorIs(t, err, registry.ErrToolDenied)
	})
}
