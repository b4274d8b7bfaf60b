package engine_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

// Attacks on what the namespace caches share between executions (the
// surface per namespace map, the typed surface, the isolated runtime's
// tool lists): each execution must see its namespace as it is now.

// TestNamespaceAttack_RawStringDotImport: a tool package dot-imported
// with a raw string import path (Go takes one) is bound whole, as with a
// quoted path (binding only the names after a "." left Get undefined).
func TestNamespaceAttack_RawStringDotImport(t *testing.T) {
	ns := map[string]projection.ToolProjection{"shop-get": echoTool("shop-get", "got"), "shop-put": echoTool("shop-put", "put")}
	for name, rt := range bothRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			for _, imp := range []string{"`shop`", `"shop"`, "/* c */ `shop`"} {
				code := "package main\n\nimport (\n\t\"fmt\"\n\t. " + imp + "\n)\n\nfunc main() {\n\tr, err := Get(nil)\n\tfmt.Println(r, err)\n}\n"
				res, err := rt.Execute(context.Background(), code, ns)
				require.NoError(t, err)
				require.Equal(t, engine.CodeOK, res.ReturnCode, imp+": "+res.Error)
				assert.Equal(t, "got <nil>\n", res.Stdout, imp)
			}
		})
	}
}

// TestNamespaceAttack_TypedReplacedSameName: a typed tool replaced in the
// same map by one of the same name with other argument and result types
// is seen with its new types by the next execution (in both runtimes),
// and the old one's are gone.
func TestNamespaceAttack_TypedReplacedSameName(t *testing.T) {
	type inA struct {
		N int `json:"n"`
	}
	type inB struct {
		Word string `json:"word"`
	}
	toolA := func() projection.ToolProjection {
		return projection.MustDirect("shop-echo", func(_ context.Context, in inA) (int, error) { return in.N * 2, nil }, "Double n.")
	}
	toolB := func() projection.ToolProjection {
		return projection.MustDirect("shop-echo", func(_ context.Context, in inB) (string, error) { return in.Word + "!", nil }, "Shout a word.")
	}
	codeA := "r, err := shop.Echo(shop.EchoArgs{N: 21})\nfmt.Printf(\"%v %T %v\\n\", r, r, err)"
	codeB := "r, err := shop.Echo(shop.EchoArgs{Word: \"hi\"})\nfmt.Printf(\"%v %T %v\\n\", r, r, err)"
	for name, rt := range bothRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			ns := map[string]projection.ToolProjection{"shop-echo": toolA()}
			for round := 0; round < 3; round++ {
				ns["shop-echo"] = toolA()
				res, err := rt.Execute(context.Background(), codeA, ns)
				require.NoError(t, err)
				require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
				assert.Equal(t, "42 int <nil>\n", res.Stdout)
				res, err = rt.Execute(context.Background(), codeB, ns)
				require.NoError(t, err)
				assert.Equal(t, engine.CodeError, res.ReturnCode, "the old tool's types are gone: "+res.Stdout)
				assert.Contains(t, res.Error, "Word")

				ns["shop-echo"] = toolB()
				res, err = rt.Execute(context.Background(), codeB, ns)
				require.NoError(t, err)
				require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
				assert.Equal(t, "hi! string <nil>\n", res.Stdout)
				res, err = rt.Execute(context.Background(), codeA, ns)
				require.NoError(t, err)
				assert.Equal(t, engine.CodeError, res.ReturnCode, "the old tool's types are gone: "+res.Stdout)
			}
		})
	}
}

// TestNamespaceAttack_ManyNamespacesSameNames: more namespaces than any
// cache keeps (surfaces, typed surfaces, a worker's tool lists), all
// with the same tool names and schemas but their own tools, used in turn
// twice over: every execution calls its own namespace's tools.
func TestNamespaceAttack_ManyNamespacesSameNames(t *testing.T) {
	type in struct {
		N int `json:"n"`
	}
	const count = 20 // > maxSurfaces (16), > the kept tool lists (4)
	nss := make([]map[string]projection.ToolProjection, count)
	for i := range nss {
		tag := fmt.Sprintf("ns%d", i)
		typed := projection.MustDirect("shop-typed", func(_ context.Context, a in) (string, error) { return fmt.Sprint(tag, a.N), nil }, "Typed.")
		nss[i] = map[string]projection.ToolProjection{"shop-plain": echoTool("shop-plain", tag), typed.Name(): typed}
	}
	code := "a, err := shop.Plain(nil)\nif err != nil {\n\tpanic(err)\n}\nb, err := shop.Typed(shop.TypedArgs{N: 7})\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(a, b)"
	for name, rt := range bothRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			for round := 0; round < 2; round++ {
				for i, ns := range nss {
					res, err := rt.Execute(context.Background(), code, ns)
					require.NoError(t, err)
					require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
					assert.Equal(t, fmt.Sprintf("ns%d ns%d7\n", i, i), res.Stdout, "round %d", round)
				}
			}
		})
	}
}

// TestNamespaceAttack_NamesNotShared: a script that writes into the slice
// tools.Names returns, or sorts it backwards, changes nothing the next
// execution on the same map sees.
func TestNamespaceAttack_NamesNotShared(t *testing.T) {
	ns := map[string]projection.ToolProjection{"a": echoTool("a", "a"), "b": echoTool("b", "b"), "c": echoTool("c", "c")}
	e := engine.New(engine.Config{})
	res, err := e.Execute(context.Background(), "n := tools.Names()\nn[0] = \"zzz\"\nslices.Reverse(n)\nn = append(n[:1], \"x\")\nfmt.Println(n)", ns)
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	require.Equal(t, "[c x]\n", res.Stdout)
	res, err = e.Execute(context.Background(), "fmt.Println(tools.Names())", ns)
	require.NoError(t, err)
	assert.Equal(t, "[a b c]\n", res.Stdout, res.Error)
}

// TestNamespaceAttack_ToolListsEvicted: namespaces whose tool lists
// differ (each tool's doc and argument schema), more of them than a
// worker keeps, used in turn twice over on one worker, in an order that
// brings back evicted lists: each execution sees its own namespace's
// types and calls its own tools (both runtimes).
func TestNamespaceAttack_ToolListsEvicted(t *testing.T) {
	type inA struct {
		N int `json:"n"`
	}
	type inB struct {
		M int `json:"m"`
	}
	const count = 7 // > the 4 lists a worker keeps
	nss := make([]map[string]projection.ToolProjection, count)
	codes := make([]string, count)
	for i := range nss {
		tag := fmt.Sprintf("ns%d", i)
		var p projection.ToolProjection
		if i%2 == 0 {
			p = projection.MustDirect("shop-echo", func(_ context.Context, a inA) (string, error) { return fmt.Sprint(tag, a.N), nil }, "Echo "+tag+".")
			codes[i] = "r, err := shop.Echo(shop.EchoArgs{N: 5})\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(r)"
		} else {
			p = projection.MustDirect("shop-echo", func(_ context.Context, a inB) (string, error) { return fmt.Sprint(tag, a.M), nil }, "Echo "+tag+".")
			codes[i] = "r, err := shop.Echo(shop.EchoArgs{M: 5})\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(r)"
		}
		nss[i] = map[string]projection.ToolProjection{p.Name(): p}
	}
	order := []int{0, 1, 2, 3, 4, 5, 6, 0, 6, 1, 5, 2, 4, 3, 3, 0}
	for name, rt := range bothRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			for _, i := range order {
				res, err := rt.Execute(context.Background(), codes[i], nss[i])
				require.NoError(t, err)
				require.Equal(t, engine.CodeOK, res.ReturnCode, "ns%d: %s", i, res.Error)
				assert.Equal(t, fmt.Sprintf("ns%d5\n", i), res.Stdout)
				// The other schema's field is not this namespace's.
				res, err = rt.Execute(context.Background(), codes[(i+1)%2], nss[i])
				require.NoError(t, err)
				assert.Equal(t, engine.CodeError, res.ReturnCode, "ns%d: %s", i, res.Stdout)
			}
		})
	}
}

// TestNamespaceAttack_DescribeSeesChanges: Describe of a map changed
// since it was last described or executed (a tool replaced by one of the
// same name with another doc and types, a tool added) shows the map as
// it is now.
func TestNamespaceAttack_DescribeSeesChanges(t *testing.T) {
	type inA struct {
		N int `json:"n"`
	}
	type inB struct {
		Word string `json:"word"`
	}
	ns := map[string]projection.ToolProjection{
		"shop-echo": projection.MustDirect("shop-echo", func(_ context.Context, in inA) (int, error) { return in.N, nil }, "First doc."),
	}
	e := engine.New(engine.Config{})
	res, err := e.Execute(context.Background(), "r, err := shop.Echo(shop.EchoArgs{N: 1})\nfmt.Println(r, err)", ns)
	require.NoError(t, err)
	require.Equal(t, "1 <nil>\n", res.Stdout, res.Error)
	d := engine.Describe(ns)
	assert.Contains(t, d, "First doc.")
	assert.Contains(t, d, "N int")
	ns["shop-echo"] = projection.MustDirect("shop-echo", func(_ context.Context, in inB) (string, error) { return in.Word, nil }, "Second doc.")
	ns["shop-more"] = echoTool("shop-more", "more")
	d = engine.Describe(ns)
	assert.Contains(t, d, "Second doc.")
	assert.Contains(t, d, "Word string")
	assert.Contains(t, d, "More")
	assert.NotContains(t, d, "First doc.")
	assert.NotContains(t, d, "N int")
}

// TestNamespaceAttack_ConcurrentNamespaces: executions at once on
// namespaces of the same tool name with their own docs and schemas, on
// two isolated workers and in process: each calls its own namespace's
// tool with its own types.
func TestNamespaceAttack_ConcurrentNamespaces(t *testing.T) {
	type inA struct {
		N int `json:"n"`
	}
	type inB struct {
		M int `json:"m"`
	}
	const count = 3
	nss := make([]map[string]projection.ToolProjection, count)
	codes := make([]string, count)
	for i := range nss {
		tag := fmt.Sprintf("ns%d", i)
		var p projection.ToolProjection
		if i%2 == 0 {
			p = projection.MustDirect("shop-echo", func(_ context.Context, a inA) (string, error) { return fmt.Sprint(tag, a.N), nil }, "Echo "+tag+".")
			codes[i] = "r, err := shop.Echo(shop.EchoArgs{N: 5})\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(r)"
		} else {
			p = projection.MustDirect("shop-echo", func(_ context.Context, a inB) (string, error) { return fmt.Sprint(tag, a.M), nil }, "Echo "+tag+".")
			codes[i] = "r, err := shop.Echo(shop.EchoArgs{M: 5})\nif err != nil {\n\tpanic(err)\n}\nfmt.Println(r)"
		}
		nss[i] = map[string]projection.ToolProjection{p.Name(): p}
	}
	for name, rt := range map[string]engine.CodeRuntime{
		"in-process": engine.New(engine.Config{}),
		"isolated":   newIsolated(t, engine.IsolatedConfig{Workers: 2}),
	} {
		t.Run(name, func(t *testing.T) {
			var wg sync.WaitGroup
			errs := make(chan string, 4*10)
			for g := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for k := range 10 {
						i := (g + k) % count
						res, err := rt.Execute(context.Background(), codes[i], nss[i])
						if err != nil || res.ReturnCode != engine.CodeOK || res.Stdout != fmt.Sprintf("ns%d5\n", i) {
							errs <- fmt.Sprintf("ns%d: %v %d %q %s", i, err, res.ReturnCode, res.Stdout, res.Error)
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Error(e)
			}
		})
	}
}

// TestNamespaceAttack_SessionKeepsItsNamespace: a session's namespace is
// the map as NewSession saw it, in both runtimes: a tool the host
// replaces or adds in that map later is not what the session calls (the
// isolated session called the new tool through types of the old one).
func TestNamespaceAttack_SessionKeepsItsNamespace(t *testing.T) {
	for name, rt := range bothRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			ns := map[string]projection.ToolProjection{"a": echoTool("a", "old")}
			s, err := engine.NewSession(rt, ns)
			require.NoError(t, err)
			defer s.Close()
			ns["a"] = echoTool("a", "replaced before the first input")
			res, err := s.Execute(context.Background(), "r, _ := tools.A(nil)\nfmt.Println(r)")
			require.NoError(t, err)
			require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
			assert.Equal(t, "old\n", res.Stdout)
			ns["a"] = echoTool("a", "new")
			ns["b"] = echoTool("b", "b")
			res, err = s.Execute(context.Background(), "r, _ := tools.A(nil)\nfmt.Println(r, tools.Names())")
			require.NoError(t, err)
			require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
			assert.Equal(t, "old [a]\n", res.Stdout)
			require.NoError(t, s.Reset())
			res, err = s.Execute(context.Background(), "r, _ := tools.A(nil)\nfmt.Println(r)")
			require.NoError(t, err)
			assert.Equal(t, "old\n", res.Stdout, res.Error)
		})
	}
}
