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
