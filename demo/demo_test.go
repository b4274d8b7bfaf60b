package demo_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/projection"
)

func call(t *testing.T, ns map[string]projection.ToolProjection, name string, args map[string]any) (any, error) {
	t.Helper()
	p, ok := ns[name]
	require.True(t, ok, "tool %q", name)
	return p.Call(context.Background(), args)
}

func TestNamespace_IsValidAndDocumented(t *testing.T) {
	ns := demo.Namespace()
	require.NoError(t, projection.ValidateNamespace(ns))
	assert.Len(t, ns, 16)
	for name, p := range ns {
		assert.NotEmpty(t, p.Doc(), name)
	}
}

func TestStore_Deterministic(t *testing.T) {
	a, err := call(t, demo.Namespace(), "orders-list", nil)
	require.NoError(t, err)
	b, err := call(t, demo.Namespace(), "orders-list", nil)
	require.NoError(t, err)
	assert.Equal(t, a, b, "every store holds the same data")
	assert.Len(t, a, 60)

	cs, err := call(t, demo.Namespace(), "customers-list", nil)
	require.NoError(t, err)
	names := map[string]bool{}
	for _, c := range cs.([]map[string]any) {
		names[c["name"].(string)] = true
	}
	assert.Len(t, names, 20, "customer names are unique")
}

func TestTools(t *testing.T) {
	ns := demo.Namespace()
	c, err := call(t, ns, "customers-get", map[string]any{"id": 1})
	require.NoError(t, err)
	assert.Equal(t, "Ada Thompson", c.(map[string]any)["name"])

	_, err = call(t, ns, "customers-get", map[string]any{"id": 99})
	require.ErrorIs(t, err, demo.ErrNotFound)
	assert.EqualError(t, err, "customer 99: not found")

	ps, err := call(t, ns, "products-list", map[string]any{"category": "books", "max_price": 50.0})
	require.NoError(t, err)
	for _, p := range ps.([]map[string]any) {
		assert.Equal(t, "books", p["category"])
		assert.LessOrEqual(t, p["price"].(float64), 50.0)
	}

	// A status change sticks in its own store only.
	pending, err := call(t, ns, "orders-list", map[string]any{"status": "pending"})
	require.NoError(t, err)
	id := pending.([]map[string]any)[0]["id"].(int)
	o, err := call(t, ns, "orders-update_status", map[string]any{"id": id, "status": "paid"})
	require.NoError(t, err)
	assert.Equal(t, "paid", o.(map[string]any)["status"])
	fresh, err := call(t, demo.Namespace(), "orders-get", map[string]any{"id": id})
	require.NoError(t, err)
	assert.Equal(t, "pending", fresh.(map[string]any)["status"])

	_, err = call(t, ns, "orders-update_status", map[string]any{"id": id, "status": "lost"})
	assert.ErrorContains(t, err, `unknown status "lost"`)

	s, err := call(t, ns, "text-slugify", map[string]any{"text": "Hello, World!  Go"})
	require.NoError(t, err)
	assert.Equal(t, "hello-world-go", s)

	_, err = call(t, ns, "text-truncate", map[string]any{"text": "x", "length": 0})
	assert.ErrorContains(t, err, "length must be at least 1")

	st, err := call(t, ns, "math_ops-stats", map[string]any{"values": []any{1, 2, 3, 4}})
	require.NoError(t, err)
	assert.Equal(t, 2.5, st.(map[string]any)["median"])
	_, err = call(t, ns, "math_ops-stats", map[string]any{"values": []any{}})
	assert.True(t, err != nil && !errors.Is(err, projection.ErrBadArgument))
}

func TestStore_Reset(t *testing.T) {
	s := demo.NewStore()
	ns := s.Namespace()
	pending, err := call(t, ns, "orders-list", map[string]any{"status": "pending"})
	require.NoError(t, err)
	id := pending.([]map[string]any)[0]["id"].(int)
	before, err := call(t, ns, "orders-get", map[string]any{"id": id})
	require.NoError(t, err)
	_, err = call(t, ns, "orders-update_status", map[string]any{"id": id, "status": "paid"})
	require.NoError(t, err)
	changed, err := call(t, ns, "orders-get", map[string]any{"id": id})
	require.NoError(t, err)
	require.Equal(t, "paid", changed.(map[string]any)["status"])

	s.Reset()
	after, err := call(t, ns, "orders-get", map[string]any{"id": id})
	require.NoError(t, err)
	assert.Equal(t, before, after, "the same tools see the initial data again")
}
