package registry_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/registry"
)

func ptcRegistry(t *testing.T, rt engine.CodeRuntime) *registry.Registry {
	t.Helper()
	r := registry.New("shop")
	t.Cleanup(func() { r.Close() })
	stock := map[string]int{"tea": 12, "cup": 0, "pot": 3}
	require.NoError(t, r.Register(func(sku string) int { return stock[sku] },
		registry.WithNamespace("inventory"), registry.WithName("stock"), registry.WithParams("sku"),
		registry.WithDescription("Units in stock of a product.")))
	require.NoError(t, r.EnablePTC(engine.CodeRunner(rt)))
	return r
}

func ptcCall(t *testing.T, r *registry.Registry, args map[string]any) map[string]any {
	t.Helper()
	b, err := json.Marshal(args)
	require.NoError(t, err)
	res, err := r.ExecuteToolCalls(context.Background(), []registry.Call{{ID: "1", Name: registry.PTCToolName, Arguments: b}})
	require.NoError(t, err)
	require.NoError(t, res[0].Err)
	out, ok := res[0].Value.(map[string]any)
	require.True(t, ok, "%T", res[0].Value)
	return out
}

// TestPTC_Schemas: the PTC tool is declared in all four formats, with the
// Go surface of the other tools in its description.
func TestPTC_Schemas(t *testing.T) {
	r := ptcRegistry(t, engine.New(engine.Config{}))
	for _, f := range []registry.Format{registry.OpenAIChat, registry.OpenAIResponses, registry.Anthropic, registry.Gemini} {
		decls, err := r.Schemas(f)
		require.NoError(t, err)
		s := string(decls)
		assert.Contains(t, s, `"programmatic_tool_call"`, f)
		assert.Contains(t, s, `inventory.Stock(args map[string]any) (any, error) // args: sku string`, f)
		assert.Contains(t, s, `timeout_seconds`, f)
	}
	_, inProjections := r.Projections()[registry.PTCToolName]
	assert.False(t, inProjections, "no script can call the PTC tool")
	// A tool registered later is in the next description.
	require.NoError(t, r.Register(func() string { return "hi" }, registry.WithNamespace("greet"), registry.WithName("hello")))
	decls, err := r.Schemas(registry.Anthropic)
	require.NoError(t, err)
	assert.Contains(t, string(decls), "greet.Hello(")
}

// TestPTC_Execute runs the PTC tool through ExecuteToolCalls in both
// runtimes: stdout, value, the error with its line, the timeout argument,
// and a script that tries to call the PTC tool.
func TestPTC_Execute(t *testing.T) {
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
	require.NoError(t, err)
	defer iso.Close()
	for name, rt := range map[string]engine.CodeRuntime{"in-process": engine.New(engine.Config{}), "isolated": iso} {
		t.Run(name, func(t *testing.T) {
			r := ptcRegistry(t, rt)
			out := ptcCall(t, r, map[string]any{"code": `
for _, sku := range []string{"tea", "cup", "pot"} {
	n, _ := inventory.Stock(map[string]any{"sku": sku})
	if n.(int) == 0 {
		fmt.Println(sku)
	}
}
42`})
			assert.Equal(t, "cup\n", out["stdout"])
			assert.Nil(t, out["error"])
			assert.EqualValues(t, 42, out["value"])
			assert.EqualValues(t, 3, out["tool_calls"])

			out = ptcCall(t, r, map[string]any{"code": "x := 1\nundefinedThing(x)"})
			assert.Contains(t, out["error"], "line 2:")

			out = ptcCall(t, r, map[string]any{"code": `_, err := tools.Call("programmatic_tool_call", map[string]any{"code": "1"})
fmt.Println(err)`})
			assert.Contains(t, out["stdout"], "unknown tool")

			start := time.Now()
			out = ptcCall(t, r, map[string]any{"code": "for {}", "timeout_seconds": 0.2})
			assert.Contains(t, out["error"], "timeout")
			assert.Less(t, time.Since(start), 20*time.Second)
		})
	}
}

// TestPTC_ManyTools: past the describe bound, the description points to
// tools.Search, which a script uses to find and call a tool.
func TestPTC_ManyTools(t *testing.T) {
	r := loadCatalogue(t)
	defer r.Close()
	require.NoError(t, r.EnablePTC(engine.CodeRunner(engine.New(engine.Config{}))))
	decls, err := r.Schemas(registry.OpenAIChat)
	require.NoError(t, err)
	var list []struct {
		Function struct{ Name, Description string }
	}
	require.NoError(t, json.Unmarshal(decls, &list))
	var desc string
	for _, d := range list {
		if d.Function.Name == registry.PTCToolName {
			desc = d.Function.Description
		}
	}
	assert.Contains(t, desc, "247 tools, too many to list")
	assert.Contains(t, desc, "tools.Search(query string)")
	assert.Less(t, len(desc), 2000)
	assert.False(t, strings.Contains(desc, "RefundPayment"))

	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
	require.NoError(t, err)
	defer iso.Close()
	for name, rt := range map[string]engine.CodeRuntime{"in-process": engine.New(engine.Config{}), "isolated": iso} {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, r.EnablePTC(engine.CodeRunner(rt)))
			out := ptcCall(t, r, map[string]any{"code": `
hits, err := tools.Search("refund a payment")
if err != nil {
	panic(err)
}
fmt.Println(len(hits), hits[0].Name)
fmt.Println(hits[0].Signature)
v, err := tools.Call(hits[0].Name, map[string]any{"payment_id": "p1"})
fmt.Println(v, err)
`})
			assert.Nil(t, out["error"])
			assert.Equal(t, "10 payments-refund_payment\npayments.RefundPayment(args map[string]any) (any, error) // args: payment_id string, amount_cents? int\nrefund_payment <nil>\n", out["stdout"])
		})
	}
}
