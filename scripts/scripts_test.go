package scripts_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
	"github.com/toolscript/toolscript/scripts"
)

// TestCorpus runs every script against a fresh demo store and checks its
// stdout, return code and error; then again on the same tools, the store
// reset (a script that ran cleanly is run again by the interpreter that
// ran it, engine's progcache.go); then twice more at once, each against
// a store of its own: a script run again is compiled from the first
// run's normalisation and parse (engine's normcache.go), which the two
// share, and must run exactly as the first did (under -race, neither
// may write to what they share).
func TestCorpus(t *testing.T) {
	all, err := scripts.All()
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(all), 30, "the corpus must hold at least 30 scripts")
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			check := func(run string, ns map[string]projection.ToolProjection) {
				res, err := engine.Execute(context.Background(), s.Code, ns, engine.WithTimeout(20*time.Second))
				require.NoError(t, err)
				assert.Equal(t, s.ReturnCode, res.ReturnCode, "%s: return code; error: %s", run, res.Error)
				if s.Error == "" {
					assert.Empty(t, res.Error, run)
				} else {
					assert.Contains(t, res.Error, s.Error, run)
				}
				assert.Equal(t, s.Output, res.Stdout, run)
			}
			store := demo.NewStore()
			ns := store.Namespace()
			check("first run", ns)
			store.Reset()
			check("run again on the same tools", ns)
			var wg sync.WaitGroup
			for _, run := range []string{"third run", "fourth run"} {
				wg.Go(func() { check(run, demo.Namespace()) })
			}
			wg.Wait()
		})
	}
}

func TestParse(t *testing.T) {
	s, err := scripts.Parse("x", "fmt.Println(1)\n// ReturnCode: 1\n// Error: boom\n// Gap: none\n// Output:\n// a\n//\n// b\n")
	require.NoError(t, err)
	assert.Equal(t, 1, s.ReturnCode)
	assert.Equal(t, "boom", s.Error)
	assert.Equal(t, "none", s.Gap)
	assert.Equal(t, "a\n\nb\n", s.Output)

	s, err = scripts.Parse("y", "fmt.Print()\n// Output:\n")
	require.NoError(t, err)
	assert.Equal(t, "", s.Output)

	_, err = scripts.Parse("z", "fmt.Println(1)\n")
	require.Error(t, err)
}
