package registry_test

import (
	"context"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/registry"
)

// TestRegistry_Hammer uses one registry from many goroutines at once, for
// the race detector, and merges two registries into each other
// concurrently, which must not deadlock.
func TestRegistry_Hammer(t *testing.T) {
	r := registry.New("hammer")
	defer r.Close()
	require.NoError(t, r.Register(multiply, registry.WithParams("a", "b"), registry.WithNamespace("math_ops")))
	require.NoError(t, r.Register(calculateTotal, registry.WithName("flip"), registry.WithNamespace("math_ops")))
	other := registry.New("other")
	require.NoError(t, other.Register(calculateTotal))

	calls := []registry.Call{{Name: "math_ops-multiply", Args: map[string]any{"a": 2.0, "b": 3.0}}}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				switch (g + i) % 6 {
				case 0:
					res, err := r.ExecuteToolCalls(context.Background(), calls)
					if assert.NoError(t, err) {
						assert.Equal(t, 6.0, res[0].Value)
					}
				case 1:
					p := r.Projections()["math_ops-multiply"]
					if assert.NotNil(t, p) {
						v, err := p.Call(context.Background(), map[string]any{"a": 1, "b": 1})
						assert.NoError(t, err)
						assert.Equal(t, 1.0, v)
					}
				case 2:
					_ = r.Register(calculateTotal, registry.WithName("t"+strconv.Itoa(g*100+i)), registry.WithNamespace("extra"))
				case 3:
					assert.NoError(t, r.Merge(other, false, true))
				case 4:
					assert.NoError(t, other.Merge(r, false, true))
				case 5:
					_ = r.Names()
					_, _ = r.Schemas(registry.Gemini)
					assert.NoError(t, r.Disable("math_ops-flip", "flip"))
					assert.NoError(t, r.Enable("math_ops-flip"))
				}
			}
		})
	}
	wg.Wait()
	_, ok := r.Get("math_ops-multiply")
	assert.True(t, ok)
}
