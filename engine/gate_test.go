package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

// gatedTool is a tool whose calls a decision precedes: it approves calls
// whose "ok" argument is true.
type gatedTool struct {
	projection.ToolProjection
	decided, ran int
}

type approvedKey struct{}

func (g *gatedTool) Decide(ctx context.Context, args map[string]any) (context.Context, string, error) {
	g.decided++
	if args["ok"] == true {
		return context.WithValue(ctx, approvedKey{}, true), projection.DecisionApproved, nil
	}
	return ctx, projection.DecisionRefused, errors.New("tool \"guarded\": the user refused the call")
}

func (g *gatedTool) Call(ctx context.Context, args map[string]any) (any, error) {
	if ctx.Value(approvedKey{}) != true {
		return nil, errors.New("called without an approval")
	}
	g.ran++
	return "done", nil
}

// roled is a namespace entry with a role.
type roled struct {
	projection.ToolProjection
	role string
}

func (r *roled) Role() string { return r.role }

// withheldTool refuses every call: a denied tool.
type withheldTool struct{ roled }

func (w *withheldTool) Decide(ctx context.Context, _ map[string]any) (context.Context, string, error) {
	return ctx, projection.DecisionDenied, errors.New("tool \"secret\" is denied by the host's policy")
}

func gateNamespace(g *gatedTool) map[string]projection.ToolProjection {
	g.ToolProjection = projection.MustDirect("guarded", func(ok bool) string { return "unused" }, "A guarded tool.", projection.WithParams("ok"))
	search := &roled{role: projection.RoleSearch, ToolProjection: projection.MustDirect("tool_search", func(query string, limit int) []any {
		return []any{map[string]any{"name": "guarded", "signature": "tools.Guarded(args map[string]any) (any, error)", "description": "for " + query}}
	}, "", projection.WithParams("query", "limit"))}
	secret := &withheldTool{roled{role: projection.RoleWithheld, ToolProjection: projection.MustDirect("secret", func() string { return "leaked" }, "Secret.")}}
	return map[string]projection.ToolProjection{"guarded": g, "tool_search": search, "secret": secret}
}

// TestGates_BothRuntimes: a gated tool's decision precedes each call and
// enters the trace; a withheld tool is invisible to the surface and its
// call by name is refused; tools.Search calls the search entry in the
// host.
func TestGates_BothRuntimes(t *testing.T) {
	iso := newIsolated(t, engine.IsolatedConfig{Workers: 1})
	runtimes := map[string]engine.CodeRuntime{"in-process": engine.New(engine.Config{}), "isolated": iso}
	for _, extra := range extraRuntimes { // the fleet: decided in the host too
		name, rt := extra(t)
		runtimes[name] = rt
	}
	for name, rt := range runtimes {
		t.Run(name, func(t *testing.T) {
			g := &gatedTool{}
			ns := gateNamespace(g)
			code := `
v, err := tools.Guarded(map[string]any{"ok": true})
fmt.Println(v, err)
_, err = tools.Guarded(map[string]any{"ok": false})
fmt.Println(err)
_, err = tools.Call("secret", nil)
fmt.Println(err)
fmt.Println(tools.Names())
hits, err := tools.Search("guard")
fmt.Println(len(hits), hits[0].Name, hits[0].Signature, hits[0].Description, err)
`
			res, err := rt.Execute(context.Background(), code, ns)
			require.NoError(t, err)
			require.True(t, res.OK(), res.Error)
			assert.Equal(t, `done <nil>
tool "guarded": the user refused the call
tool "secret" is denied by the host's policy
[guarded]
1 guarded tools.Guarded(args map[string]any) (any, error) for guard <nil>
`, res.Stdout)
			assert.Equal(t, 2, g.decided)
			assert.Equal(t, 1, g.ran)
			require.Len(t, res.ToolCalls, 4)
			var decisions []string
			for _, c := range res.ToolCalls {
				decisions = append(decisions, c.Name+":"+c.Decision)
			}
			assert.Equal(t, []string{"guarded:approved", "guarded:refused", "secret:denied", "tool_search:"}, decisions)
			assert.Equal(t, "", res.ToolCalls[0].Error)
			assert.Contains(t, res.ToolCalls[1].Error, "refused")
		})
	}
	t.Run("describe", func(t *testing.T) {
		d := engine.Describe(gateNamespace(&gatedTool{}))
		assert.NotContains(t, d, "Secret")
		assert.NotContains(t, d, "tool_search")
		assert.Contains(t, d, "func Search(query string) ([]SearchResult, error)")
		assert.Contains(t, d, "func Guarded(")
		assert.False(t, strings.Contains(d, "func ToolSearch"))
	})
}
