package engine_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

// A value of a script type with methods that the script holds in an
// interface is the interpreter's record of it; a tool receives the value
// itself, also inside the []any and map[string]any of its arguments, in
// both runtimes. Before, the tool saw the record ("cannot use
// interp.valueInterface ... as string").
func TestToolArgs_ScriptValuesInInterfaces(t *testing.T) {
	var got []string
	capture := projection.MustDirect("capture", func(_ context.Context, args map[string]any) (any, error) {
		b, err := json.Marshal(args)
		if err != nil {
			return nil, err
		}
		got = append(got, string(b))
		return "ok", nil
	}, "Records its arguments.")
	ns := map[string]projection.ToolProjection{"capture": capture}
	const code = `type Label string
func (l Label) String() string { return "label " + string(l) }
type Item struct{ Name string; N int }
func (i Item) Total() int { return i.N }
var held any = Item{"b", 2}
r, err := tools.Capture(map[string]any{"label": Label("x"), "item": Item{"a", 1}, "list": []any{held, Label("y")}, "nested": map[string]any{"held": held}})
fmt.Println(r, err)`
	const want = `{"item":{"Name":"a","N":1},"label":"x","list":[{"Name":"b","N":2},"y"],"nested":{"held":{"Name":"b","N":2}}}`

	e := engine.New(engine.Config{})
	res, err := e.Execute(context.Background(), code, ns)
	require.NoError(t, err)
	require.Equal(t, "ok <nil>\n", res.Stdout, res.Error)
	require.Len(t, got, 1)
	assert.JSONEq(t, want, got[0])

	iso := newIsolated(t, engine.IsolatedConfig{Workers: 1})
	got = nil
	res, err = iso.Execute(context.Background(), code, ns)
	require.NoError(t, err)
	require.Equal(t, "ok <nil>\n", res.Stdout, res.Error)
	require.Len(t, got, 1)
	assert.JSONEq(t, want, got[0])
}

// A value of a named script type without methods held in an interface is
// the interpreter's record of it too (interp patch 118): a tool receives
// the value itself, a string for type Status string, and so does the
// host in the result; the script's assertions on a tool's plain strings
// are not ambiguous.
func TestToolArgs_MethodlessValuesInInterfaces(t *testing.T) {
	var got []any
	capture := projection.MustDirect("capture", func(_ context.Context, args map[string]any) (any, error) {
		got = append(got, args["status"], args["list"].([]any)[0], args["row"])
		return map[string]any{"name": "Ann"}, nil
	}, "Records its arguments.")
	ns := map[string]projection.ToolProjection{"capture": capture}
	const code = `type Status string
type Row struct{ Name string }
rows := []map[string]any{{"status": Status("open")}}
r, err := tools.Capture(map[string]any{"status": Status("x"), "list": []any{rows[0]["status"]}, "row": Row{"a"}})
if err != nil {
	fmt.Println(err)
	return
}
name := r.(map[string]any)["name"].(string)
_, isStatus := rows[0]["status"].(Status)
fmt.Println(name, isStatus)
result(map[string]any{"s": Status("v"), "rows": []any{Row{"b"}}})`
	for _, rt := range []struct {
		name string
		run  func(context.Context, string, map[string]projection.ToolProjection, ...engine.Option) (engine.CodeResult, error)
	}{
		{"in-process", engine.New(engine.Config{}).Execute},
		{"isolated", newIsolated(t, engine.IsolatedConfig{Workers: 1}).Execute},
	} {
		t.Run(rt.name, func(t *testing.T) {
			got = nil
			res, err := rt.run(context.Background(), code, ns)
			require.NoError(t, err)
			require.Equal(t, "Ann true\n", res.Stdout, res.Error)
			require.Len(t, got, 3)
			assert.Equal(t, "x", got[0])
			assert.Equal(t, "open", got[1])
			b, err := json.Marshal(got[2])
			require.NoError(t, err)
			assert.JSONEq(t, `{"Name":"a"}`, string(b))
			b, err = json.Marshal(res.Value)
			require.NoError(t, err)
			assert.JSONEq(t, `{"s":"v","rows":[{"Name":"b"}]}`, string(b))
		})
	}
}
