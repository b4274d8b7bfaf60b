package engine_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

// TestTyped_EachNamespaceCallsItsOwnTools: the typed surface is cached
// across namespaces whose tools have the same names and schemas, but a
// call always reaches the projection of the execution's own namespace
// (the cache once called the first namespace's tool for every later one),
// in both call styles and both runtimes.
func TestTyped_EachNamespaceCallsItsOwnTools(t *testing.T) {
	type echoIn struct {
		N int `json:"n"`
	}
	namespace := func(tag string) map[string]projection.ToolProjection {
		p := projection.MustDirect("shop-echo", func(_ context.Context, in echoIn) (string, error) {
			return fmt.Sprintf("%s%d", tag, in.N), nil
		}, "Echo n with a tag.")
		return map[string]projection.ToolProjection{p.Name(): p}
	}
	code := "a, err := shop.Echo(shop.EchoArgs{N: 1})\nif err != nil {\n\tpanic(err)\n}\nb, err := shop.Echo(map[string]any{\"n\": 2})\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(a, b)"
	for name, rt := range bothRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			for _, tag := range []string{"first", "second", "third"} {
				res, err := rt.Execute(context.Background(), code, namespace(tag))
				require.NoError(t, err)
				require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
				assert.Equal(t, tag+"1 "+tag+"2\n", res.Stdout)
			}
		})
	}
}
