package isolated

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/projection"
)

func testTool(name, doc string) projection.ToolProjection {
	return projection.MustDirect(name, func(context.Context, map[string]any) (any, error) { return name, nil }, doc)
}

func testNS(n int) map[string]projection.ToolProjection {
	ns := map[string]projection.ToolProjection{}
	for i := range n {
		t := testTool(fmt.Sprintf("tool_%d", i), fmt.Sprintf("Tool %d.", i))
		ns[t.Name()] = t
	}
	return ns
}

// boundsEngine is an Engine of which only Bounds is called.
type boundsEngine struct{ Engine }

func (boundsEngine) Bounds() Bounds { return Bounds{TraceBytes: 1 << 20} }

// TestListCache_SeesChanges: a namespace given again keeps its list only
// while it is the same map with the same tools; every change is seen.
func TestListCache_SeesChanges(t *testing.T) {
	var c listCache
	ns := testNS(3)
	first := c.get(ns)
	require.Len(t, first.specs, 3)
	assert.Same(t, first, c.get(ns), "the same map, unchanged")

	ns["tool_1"] = ns["tool_1"] // the same value again
	assert.Same(t, first, c.get(ns))

	changes := []struct {
		name   string
		change func(map[string]projection.ToolProjection)
		names  []string
	}{
		{"added", func(m map[string]projection.ToolProjection) { m["extra"] = testTool("extra", "Extra.") }, []string{"extra", "tool_0", "tool_1", "tool_2"}},
		{"removed", func(m map[string]projection.ToolProjection) { delete(m, "tool_0") }, []string{"tool_1", "tool_2"}},
		{"replaced", func(m map[string]projection.ToolProjection) { m["tool_2"] = testTool("tool_2", "Another doc.") }, []string{"tool_0", "tool_1", "tool_2"}},
		{"renamed", func(m map[string]projection.ToolProjection) {
			p := m["tool_0"]
			delete(m, "tool_0")
			m["tool_9"] = p
		}, []string{"tool_1", "tool_2", "tool_9"}},
	}
	for _, tc := range changes {
		t.Run(tc.name, func(t *testing.T) {
			m := testNS(3)
			before := c.get(m)
			tc.change(m)
			after := c.get(m)
			require.NotSame(t, before, after)
			var names []string
			for _, s := range after.specs {
				names = append(names, s.Name)
			}
			assert.Equal(t, tc.names, names)
			assert.NotEqual(t, before.key, after.key)
			assert.Same(t, after, c.get(m), "kept once built")
		})
	}

	t.Run("replaced doc", func(t *testing.T) {
		m := testNS(2)
		before := c.get(m)
		m["tool_1"] = testTool("tool_1", "Changed.")
		after := c.get(m)
		require.NotSame(t, before, after)
		assert.Equal(t, "Changed.", after.specs[1].Doc)
	})

	t.Run("same tools, other map", func(t *testing.T) {
		a := testNS(2)
		b := map[string]projection.ToolProjection{}
		for k, v := range a {
			b[k] = v
		}
		la, lb := c.get(a), c.get(b)
		assert.NotSame(t, la, lb)
		assert.Equal(t, la.key, lb.key, "the workers share the list")
	})

	t.Run("empty", func(t *testing.T) {
		l := c.get(nil)
		assert.Empty(t, l.key)
		assert.Empty(t, l.specs)
	})

	t.Run("bounded", func(t *testing.T) {
		for range 3 * hostLists {
			c.get(testNS(1))
		}
		assert.Len(t, c.lists, hostLists)
	})
}

// TestKeptLists pins the rule both sides apply to the lists a worker
// holds: most recently used first, at most workerLists.
func TestKeptLists(t *testing.T) {
	var keys []string
	var held bool
	for _, k := range []string{"a", "b", "c", "d"} {
		keys, held = keptLists(keys, k)
		assert.False(t, held)
	}
	assert.Equal(t, []string{"d", "c", "b", "a"}, keys)
	keys, held = keptLists(keys, "b")
	assert.True(t, held)
	assert.Equal(t, []string{"b", "d", "c", "a"}, keys)
	keys, held = keptLists(keys, "e")
	assert.False(t, held)
	assert.Equal(t, []string{"e", "b", "d", "c"}, keys)
	keys, held = keptLists(keys, "a")
	assert.False(t, held, "evicted")
	assert.Equal(t, []string{"a", "e", "b", "d"}, keys)
}

// TestWorkerToolLists: the worker keeps the lists as the host counts
// them, refuses a run naming a list it does not hold without its tools,
// takes tools sent again for a list it holds, and gives each run the
// kept tools forwarding under that run.
func TestWorkerToolLists(t *testing.T) {
	ws := &workerServer{eng: boundsEngine{}}
	var c listCache
	w := &Worker{}
	lists := make([]*toolList, 6)
	for i := range lists {
		lists[i] = c.get(testNS(i + 1))
	}
	run := func(l *toolList) (*workerList, error) {
		var req RunRequest
		w.setTools(&req, l)
		return ws.toolList(&req)
	}
	for round := range 3 {
		for i, l := range lists {
			wl, err := run(l)
			require.NoError(t, err, "round %d list %d", round, i)
			assert.Len(t, wl.ns, i+1)
			var keys []string
			for _, k := range ws.lists {
				keys = append(keys, k.key)
			}
			assert.Equal(t, w.lists, keys, "the host's view is the worker's")
		}
	}
	// Held: the same tools, not sent.
	var req RunRequest
	w.setTools(&req, lists[5])
	assert.Empty(t, req.Tools)
	kept, err := ws.toolList(&req)
	require.NoError(t, err)

	// A key without its tools that the worker does not hold.
	_, err = ws.toolList(&RunRequest{ToolsKey: "0123"})
	require.ErrorIs(t, err, errNoToolList)

	// Tools sent for a key held replace the list.
	again, err := ws.toolList(&RunRequest{ToolsKey: lists[5].key, Tools: lists[5].specs})
	require.NoError(t, err)
	assert.NotSame(t, kept, again)
	assert.Len(t, again.ns, 6)

	// Each run's tools forward under that run.
	ns1, log1, err := ws.namespace(&RunRequest{ToolsKey: lists[5].key}, 7)
	require.NoError(t, err)
	rt := ns1["tool_0"].(*remoteTool)
	assert.Equal(t, uint64(7), rt.rs.run)
	assert.Same(t, log1, rt.rs.log)
	ns2, log2, err := ws.namespace(&RunRequest{ToolsKey: lists[5].key}, 8)
	require.NoError(t, err)
	assert.Equal(t, uint64(8), ns2["tool_0"].(*remoteTool).rs.run)
	assert.NotSame(t, log1, log2, "each run has its own log")
}
