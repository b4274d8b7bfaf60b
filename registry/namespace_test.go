package registry_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/registry"
)

// TestScriptNamespace_SameProjections: ScriptNamespace gives a new map
// each time (the caller may change it), holding the same projection
// values while a tool and its permission stay as they are, so that the
// engine finds the namespace's surface cached; a changed permission or a
// tool registered again gets a new value, and scripts see the change.
func TestScriptNamespace_SameProjections(t *testing.T) {
	r := registry.New("shop")
	t.Cleanup(func() { r.Close() })
	require.NoError(t, r.Register(func(sku string) int { return len(sku) },
		registry.WithNamespace("inventory"), registry.WithName("stock"), registry.WithParams("sku")))
	require.NoError(t, r.Register(func() string { return "hi" }, registry.WithNamespace("greet"), registry.WithName("hello")))

	a, b := r.ScriptNamespace(), r.ScriptNamespace()
	require.Len(t, b, len(a))
	for name, p := range a {
		assert.Same(t, p, b[name], name)
	}
	delete(b, "inventory-stock") // the caller's own map
	assert.Contains(t, r.ScriptNamespace(), "inventory-stock")

	require.NoError(t, r.SetPermission("greet-*", registry.PermissionDeny))
	c := r.ScriptNamespace()
	assert.NotSame(t, a["greet-hello"], c["greet-hello"], "a changed permission keeps the old projection")
	assert.Same(t, a["inventory-stock"], c["inventory-stock"])

	e := engine.New(engine.Config{})
	res, err := e.Execute(context.Background(), `_, err := tools.Call("greet-hello", nil); fmt.Println(err != nil)`, c)
	require.NoError(t, err)
	assert.Equal(t, "true\n", res.Stdout, res.Error)

	require.NoError(t, r.Unregister("inventory-stock"))
	require.NoError(t, r.Register(func(sku string) int { return 100 + len(sku) },
		registry.WithNamespace("inventory"), registry.WithName("stock"), registry.WithParams("sku")))
	d := r.ScriptNamespace()
	assert.NotSame(t, a["inventory-stock"], d["inventory-stock"], "a tool registered again keeps the old projection")
	res, err = e.Execute(context.Background(), `n, _ := inventory.Stock(map[string]any{"sku": "tea"}); fmt.Println(n)`, d)
	require.NoError(t, err)
	assert.Equal(t, "103\n", res.Stdout, res.Error)
}
