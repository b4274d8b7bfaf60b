package engine_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

// The surface of a namespace is built once per namespace map and shared
// by the executions given that map (engine/tools.go, surfaceFor). These
// tests pin that sharing it changes nothing an execution sees.

// echoTool is a tool named name returning tag.
func echoTool(name, tag string) projection.ToolProjection {
	return projection.MustDirect(name, func(context.Context, map[string]any) (any, error) { return tag, nil }, "Echo.")
}

// TestNamespaceCache_SeesChanges: a map given again after a change (a
// tool replaced, added or removed, also with the size unchanged) is
// seen as it is now, not as the cached surface saw it.
func TestNamespaceCache_SeesChanges(t *testing.T) {
	const code = "fmt.Println(tools.Names())\nr, err := tools.A(nil)\nfmt.Println(r, err)"
	tests := []struct {
		name   string
		change func(ns map[string]projection.ToolProjection)
		want   string
	}{
		{"unchanged", func(map[string]projection.ToolProjection) {}, "[a b]\nold-a <nil>\n"},
		{"replaced", func(ns map[string]projection.ToolProjection) { ns["a"] = echoTool("a", "new-a") }, "[a b]\nnew-a <nil>\n"},
		{"added", func(ns map[string]projection.ToolProjection) { ns["c"] = echoTool("c", "c") }, "[a b c]\nold-a <nil>\n"},
		{"removed and added", func(ns map[string]projection.ToolProjection) {
			delete(ns, "b")
			ns["d"] = echoTool("d", "d")
		}, "[a d]\nold-a <nil>\n"},
	}
	e := engine.New(engine.Config{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ns := map[string]projection.ToolProjection{"a": echoTool("a", "old-a"), "b": echoTool("b", "b")}
			res, err := e.Execute(context.Background(), code, ns)
			require.NoError(t, err)
			require.Equal(t, "[a b]\nold-a <nil>\n", res.Stdout, res.Error)
			tc.change(ns)
			res, err = e.Execute(context.Background(), code, ns)
			require.NoError(t, err)
			assert.Equal(t, tc.want, res.Stdout, res.Error)
		})
	}
	t.Run("removed tool is gone", func(t *testing.T) {
		ns := map[string]projection.ToolProjection{"a": echoTool("a", "a"), "b": echoTool("b", "b")}
		res, err := e.Execute(context.Background(), `r, _ := tools.B(nil); fmt.Println(r)`, ns)
		require.NoError(t, err)
		require.Equal(t, "b\n", res.Stdout, res.Error)
		delete(ns, "b")
		ns["c"] = echoTool("c", "c")
		res, err = e.Execute(context.Background(), `r, _ := tools.B(nil); fmt.Println(r)`, ns)
		require.NoError(t, err)
		assert.Equal(t, engine.CodeError, res.ReturnCode)
		assert.Contains(t, res.Error, "undefined: tools.B")
	})
	t.Run("invalid after a change", func(t *testing.T) {
		ns := map[string]projection.ToolProjection{"a": echoTool("a", "a")}
		_, err := e.Execute(context.Background(), `fmt.Println(1)`, ns)
		require.NoError(t, err)
		ns["a"] = echoTool("other", "x") // its key is not its name
		_, err = e.Execute(context.Background(), `fmt.Println(1)`, ns)
		assert.ErrorIs(t, err, projection.ErrNamespaceMismatch)
	})
}

// TestNamespaceCache_ConcurrentExecutions: two executions running at once
// on the same namespace each see their own limits, trace, output and
// value, while both are inside a tool call at the same time.
func TestNamespaceCache_ConcurrentExecutions(t *testing.T) {
	var inside atomic.Int32
	both := make(chan struct{})
	var once sync.Once
	wait := projection.MustDirect("sync-wait", func(_ context.Context, a map[string]any) (any, error) {
		if inside.Add(1) == 2 {
			once.Do(func() { close(both) })
		}
		select {
		case <-both:
		case <-time.After(20 * time.Second):
			return nil, fmt.Errorf("the other execution never came")
		}
		return a["tag"], nil
	}, "Wait for the other execution.")
	ns := map[string]projection.ToolProjection{wait.Name(): wait, "a": echoTool("a", "a")}
	code := func(tag string, calls int) string {
		return fmt.Sprintf("for i := 0; i < %d; i++ {\n\tr, err := sync.Wait(map[string]any{\"tag\": %q})\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\tfmt.Println(r, i)\n}\n%q", calls, tag, tag)
	}
	e := engine.New(engine.Config{})
	// Warm the namespace's surface so that both executions share it.
	_, err := e.Execute(context.Background(), `fmt.Println(1)`, ns)
	require.NoError(t, err)
	var wg sync.WaitGroup
	var first, second engine.CodeResult
	wg.Add(2)
	go func() {
		defer wg.Done()
		first, _ = e.Execute(context.Background(), code("first", 3), ns, engine.WithLimits(engine.Limits{MaxToolCalls: 1}))
	}()
	go func() {
		defer wg.Done()
		second, _ = e.Execute(context.Background(), code("second", 3), ns, engine.WithLimits(engine.Limits{MaxToolCalls: 5}))
	}()
	wg.Wait()

	assert.Equal(t, engine.CodeLimit, first.ReturnCode, first.Error)
	assert.Contains(t, first.Error, "MaxToolCalls")
	assert.Equal(t, "first 0\n", first.Stdout)
	assert.Nil(t, first.Value)
	for _, c := range first.ToolCalls {
		assert.Equal(t, "first", c.Args["tag"])
	}

	assert.Equal(t, engine.CodeOK, second.ReturnCode, second.Error)
	assert.Equal(t, "second 0\nsecond 1\nsecond 2\n", second.Stdout)
	assert.Equal(t, "second", second.Value)
	require.Len(t, second.ToolCalls, 3)
	for _, c := range second.ToolCalls {
		assert.Equal(t, "sync-wait", c.Name)
		assert.Equal(t, "second", c.Args["tag"])
	}
}

// TestNamespaceCache_NothingCarriesOver: what one execution does to what
// the shared surface gave it (the names list, a typed value, its tool
// call budget) is not what the next execution sees.
func TestNamespaceCache_NothingCarriesOver(t *testing.T) {
	type in struct {
		N int `json:"n"`
	}
	type out struct {
		Items []string `json:"items"`
	}
	list := projection.MustDirect("shop-list", func(_ context.Context, a in) (out, error) {
		return out{Items: []string{"x", "y"}[:a.N]}, nil
	}, "List n items.")
	ns := map[string]projection.ToolProjection{list.Name(): list, "a": echoTool("a", "a")}
	e := engine.New(engine.Config{})
	const spoil = `n := tools.Names()
n[0] = "spoiled"
r, err := shop.List(shop.ListArgs{N: 2})
if err != nil {
	panic(err)
}
r.Items[0] = "spoiled"
for i := 0; i < 10; i++ {
	tools.A(nil)
}
fmt.Println(n[0], r.Items[0])`
	const look = `r, err := shop.List(shop.ListArgs{N: 2})
if err != nil {
	panic(err)
}
a, err := tools.A(nil)
fmt.Println(tools.Names()[0], r.Items[0], a, err)`
	res, err := e.Execute(context.Background(), spoil, ns, engine.WithLimits(engine.Limits{MaxToolCalls: 11}))
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	require.Equal(t, "spoiled spoiled\n", res.Stdout)
	res, err = e.Execute(context.Background(), look, ns, engine.WithLimits(engine.Limits{MaxToolCalls: 2}))
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Equal(t, "a x a <nil>\n", res.Stdout)
	assert.Len(t, res.ToolCalls, 2)
}

// TestNamespaceCache_BindsWhatTheScriptNames: only the tools a script
// names are bound, however it names them: a selector across lines or
// comments, a typed function and its argument type, a dot import (the
// package whole), a tool a later session input names first.
func TestNamespaceCache_BindsWhatTheScriptNames(t *testing.T) {
	type in struct {
		Mode string `json:"mode"`
	}
	typed := projection.MustDirect("shop-run", func(_ context.Context, a in) (string, error) { return "ran " + a.Mode, nil }, "Run.")
	ns := map[string]projection.ToolProjection{typed.Name(): typed, "a": echoTool("a", "a"), "b": echoTool("b", "b")}
	tests := []struct {
		name, code, want string
	}{
		{"selector across lines", "r, _ := tools.\n\t// the tool\n\tA(nil)\nfmt.Println(r)", "a\n"},
		{"selector after a comment", "r, _ := tools./* b */B(nil)\nfmt.Println(r)", "b\n"},
		{"typed", `r, err := shop.Run(shop.RunArgs{Mode: "fast"}); fmt.Println(r, err)`, "ran fast <nil>\n"},
		{"dot import", "package main\n\nimport (\n\t\"fmt\"\n\t. \"shop\"\n)\n\nfunc main() {\n\tr, err := Run(RunArgs{Mode: \"slow\"})\n\tfmt.Println(r, err)\n}\n", "ran slow <nil>\n"},
		{"function value", "f := tools.B\nr, _ := f(nil)\nfmt.Println(r)", "b\n"},
	}
	e := engine.New(engine.Config{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := e.Execute(context.Background(), tc.code, ns)
			require.NoError(t, err)
			assert.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
			assert.Equal(t, tc.want, res.Stdout)
		})
	}
	t.Run("session", func(t *testing.T) {
		s, err := engine.NewSession(e, ns)
		require.NoError(t, err)
		defer s.Close()
		for _, step := range []struct{ code, want string }{
			{"r, _ := tools.A(nil)\nfmt.Println(r)", "a\n"},
			{"f := tools.B\nr, _ := f(nil)\nfmt.Println(r)", "b\n"},
			{`r, err := shop.Run(shop.RunArgs{Mode: "slow"}); fmt.Println(r, err)`, "ran slow <nil>\n"},
			{"g, _ := f(nil)\nh, _ := tools.A(nil)\nfmt.Println(g, h)", "b a\n"},
		} {
			res, err := s.Execute(context.Background(), step.code)
			require.NoError(t, err)
			require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
			assert.Equal(t, step.want, res.Stdout)
		}
	})
}

// TestNamespaceCache_NewMapSameTools: a host that builds a new map for
// every execution from the same projections (the registry's
// ScriptNamespace) finds the surface cached too, by the entries' sum and
// then an exact check: set-up does not grow with the namespace, and a new
// map with one projection replaced is seen as it is.
func TestNamespaceCache_NewMapSameTools(t *testing.T) {
	const n = 2000
	tools := make(map[string]projection.ToolProjection, n)
	for i := range n {
		name := fmt.Sprintf("t%04d", i)
		tools[name] = echoTool(name, name)
	}
	fresh := func() map[string]projection.ToolProjection {
		m := make(map[string]projection.ToolProjection, n)
		for k, v := range tools {
			m[k] = v
		}
		return m
	}
	e := engine.New(engine.Config{})
	const code = "r, _ := tools.T1999(nil)\nfmt.Println(r)"
	res, err := e.Execute(context.Background(), code, fresh())
	require.NoError(t, err)
	require.Equal(t, "t1999\n", res.Stdout, res.Error)

	maps := make([]map[string]projection.ToolProjection, 8)
	for i := range maps {
		maps[i] = fresh()
	}
	next := 0
	allocs := testing.AllocsPerRun(len(maps)-1, func() {
		res, err := e.Execute(context.Background(), code, maps[next])
		next++
		if err != nil || res.Stdout != "t1999\n" {
			t.Errorf("got %q, %v", res.Stdout, err)
		}
	})
	// A surface built anew binds and copies every tool: several
	// allocations per tool (thousands here); a cached one none.
	assert.Less(t, allocs, float64(n), "a new map of the same tools rebuilt the surface")

	changed := fresh()
	changed["t1999"] = echoTool("t1999", "replaced")
	res, err = e.Execute(context.Background(), code, changed)
	require.NoError(t, err)
	assert.Equal(t, "replaced\n", res.Stdout, res.Error)
	res, err = e.Execute(context.Background(), code, fresh())
	require.NoError(t, err)
	assert.Equal(t, "t1999\n", res.Stdout, res.Error)
}
