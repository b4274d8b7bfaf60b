package scripts_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/scripts"
)

// TestCorpus_TypedIsolated runs the corpus scripts that call the demo
// tools the typed way (typed_*) in the isolated runtime too: TestCorpus
// runs them in process, and the outputs must be the same.
func TestCorpus_TypedIsolated(t *testing.T) {
	all, err := scripts.All()
	require.NoError(t, err)
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
	require.NoError(t, err)
	defer func() { require.NoError(t, iso.Close()) }()
	n := 0
	for _, s := range all {
		if !strings.HasPrefix(s.Name, "typed_") {
			continue
		}
		n++
		t.Run(s.Name, func(t *testing.T) {
			res, err := iso.Execute(context.Background(), s.Code, demo.Namespace(), engine.WithTimeout(20*time.Second))
			require.NoError(t, err)
			assert.Equal(t, s.ReturnCode, res.ReturnCode, "return code; error: %s", res.Error)
			if s.Error == "" {
				assert.Empty(t, res.Error)
			} else {
				assert.Contains(t, res.Error, s.Error)
			}
			assert.Equal(t, s.Output, res.Stdout)
		})
	}
	assert.GreaterOrEqual(t, n, 5, "typed_ scripts")
}
