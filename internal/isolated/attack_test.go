package isolated

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/projection"
)

// TestListCache_Attack: changes to a namespace map that keep its size
// and its names are seen, and executions at once on alternating maps
// each get their own map's list.
func TestListCache_Attack(t *testing.T) {
	var c listCache
	t.Run("tools swapped between names", func(t *testing.T) {
		a, b := testTool("a", "Doc A."), testTool("b", "Doc B.")
		m := map[string]projection.ToolProjection{"a": a, "b": b}
		before := c.get(m)
		m["a"], m["b"] = b, a
		after := c.get(m)
		require.NotSame(t, before, after)
		assert.Equal(t, "Doc B.", after.specs[0].Doc, "a now holds b's tool")
		m["a"], m["b"] = a, b
		back := c.get(m)
		assert.Equal(t, before.key, back.key)
		assert.Equal(t, "Doc A.", back.specs[0].Doc)
	})
	t.Run("cleared and refilled", func(t *testing.T) {
		m := testNS(3)
		before := c.get(m)
		clear(m)
		for k, v := range testNS(3) {
			m[k] = v
		}
		after := c.get(m)
		assert.NotSame(t, before, after, "new tools, though of the same names and docs")
		assert.Equal(t, before.key, after.key, "the same list for the workers")
		assert.Same(t, after.ref[0], m[after.ref[0].Name()], "the list keeps the tools it was built from")
	})
	t.Run("emptied", func(t *testing.T) {
		m := testNS(2)
		require.NotEmpty(t, c.get(m).key)
		clear(m)
		l := c.get(m)
		assert.Empty(t, l.key)
		assert.Empty(t, l.specs)
	})
	t.Run("alternating at once", func(t *testing.T) {
		maps := []map[string]projection.ToolProjection{testNS(1), testNS(2), testNS(3), testNS(4)}
		var wg sync.WaitGroup
		errs := make(chan string, 8*200)
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 200 {
					m := maps[(g+i)%len(maps)]
					if l := c.get(m); len(l.specs) != len(m) {
						errs <- "a list of another map"
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
	})
}

// TestWorkerToolLists_Attack: a worker whose host sends a key without
// the tools after the worker evicted it answers errNoToolList (the host
// then retires it), and lists of the same key sent again are rebuilt,
// never mixed with another key's.
func TestWorkerToolLists_Attack(t *testing.T) {
	ws := &workerServer{eng: boundsEngine{}}
	var c listCache
	lists := make([]*toolList, workerLists+1)
	for i := range lists {
		lists[i] = c.get(testNS(i + 1))
		_, err := ws.toolList(&RunRequest{ToolsKey: lists[i].key, Tools: lists[i].specs})
		require.NoError(t, err)
	}
	_, err := ws.toolList(&RunRequest{ToolsKey: lists[0].key})
	require.ErrorIs(t, err, errNoToolList, "the first list was evicted")
	for i := 1; i < len(lists); i++ {
		wl, err := ws.toolList(&RunRequest{ToolsKey: lists[i].key})
		require.NoError(t, err)
		assert.Len(t, wl.ns, i+1, "list %d is its own", i)
	}
}

// TestWorkerSessionTools_Attack: the inputs of a session after its first
// carry no tools (ToolsHeld); a worker that does not hold that session's
// tools (none, or another session's) refuses such an input instead of
// running it with no tools or another session's, and an input of the
// session it holds keeps the tools of the session's first input whatever
// the later input carries.
func TestWorkerSessionTools_Attack(t *testing.T) {
	ws := &workerServer{eng: boundsEngine{}}
	specs := toolSpecs(testNS(3))
	held := func(id uint64) *RunRequest {
		return &RunRequest{session: &SessionRequest{Session: id, ToolsHeld: true}}
	}
	_, _, err := ws.namespace(held(1), 10)
	require.ErrorIs(t, err, errSessionTools, "no session held")

	first := &RunRequest{Tools: specs}
	first.session = &SessionRequest{Session: 1}
	ns, _, err := ws.namespace(first, 11)
	require.NoError(t, err)
	require.Len(t, ns, 3)

	ns2, _, err := ws.namespace(held(1), 12)
	require.NoError(t, err)
	assert.Equal(t, ns, ns2, "the session's own tools")
	later := &RunRequest{Tools: toolSpecs(testNS(1))}
	later.session = &SessionRequest{Session: 1}
	ns3, _, err := ws.namespace(later, 13)
	require.NoError(t, err)
	assert.Len(t, ns3, 3, "the first input's tools stay the session's")

	_, _, err = ws.namespace(held(2), 14)
	require.ErrorIs(t, err, errSessionTools, "another session's input without its tools")
}
