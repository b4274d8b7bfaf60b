package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

// enumNS is a package "track" whose tool takes and returns a string
// enum, alone and in a list, and records its arguments in got.
func enumNS(got *[]map[string]any) map[string]projection.ToolProjection {
	p := projection.MustDirect("track-set", func(_ context.Context, a map[string]any) (any, error) {
		if got != nil {
			*got = append(*got, a)
		}
		return map[string]any{"state": "open", "history": []any{"new", "open"}}, nil
	}, "Set a state.", projection.WithSchema([]byte(`{"type":"object","properties":{
		"state":{"type":"string","enum":["new","open","done"],"title":"State"},
		"also":{"type":"array","items":{"type":"string","enum":["new","open","done"],"title":"State"}},
		"note":{}},
		"required":["state"]}`)),
		projection.WithOutputSchema([]byte(`{"type":"object","title":"Ticket","properties":{
		"state":{"type":"string","enum":["new","open","done"],"title":"State"},
		"history":{"type":"array","items":{"type":"string","enum":["new","open","done"],"title":"State"}}}}`)))
	return map[string]projection.ToolProjection{p.Name(): p}
}

// TestTyped_EnumIsItsOwnType: a typed tool's string enum is a type of
// its own, as Describe declares it: distinct from string in interfaces,
// its constants typed, %T naming it; its values reach tools, and the
// host, as strings. Both runtimes print the same.
func TestTyped_EnumIsItsOwnType(t *testing.T) {
	code := `
tk, err := track.Set(track.SetArgs{State: track.StateOpen, Also: []track.State{track.StateNew}, Note: track.StateDone})
if err != nil {
	panic(err)
}
var x any = tk.State
switch x.(type) {
case string:
	fmt.Println("string")
case track.State:
	fmt.Println("track.State")
}
_, isString := x.(string)
fmt.Println(isString, x == "open", x == any(track.StateOpen), tk.State == "open")
s := track.StateDone
const c = track.StateNew
fmt.Printf("%T %T %T %T %v\n", s, c, x, tk.History, tk.History)
var h any = tk.History
fmt.Printf("%T %#v %#v\n", h, s, string(s))
counts := map[track.State]int{}
for _, st := range tk.History {
	counts[st]++
}
fmt.Println(counts, len(counts))
_, err = track.Set(map[string]any{"state": track.StateDone, "also": []track.State{s, c}})
fmt.Println(err)
result([]any{s, tk.History})
`
	want := "track.State\nfalse false true true\n" +
		"track.State track.State track.State []track.State [new open]\n" +
		"[]track.State \"done\" \"done\"\n" +
		"map[new:1 open:1] 2\n<nil>\n"
	var outs []string
	for name, run := range runtimes(t) {
		t.Run(name, func(t *testing.T) {
			var got []map[string]any
			res := run(code, enumNS(&got))
			require.Empty(t, res.Error)
			assert.Equal(t, want, res.Stdout)
			outs = append(outs, res.Stdout)
			require.Len(t, res.ToolCalls, 2)
			assert.Equal(t, map[string]any{"state": "open", "also": []string{"new"}, "note": "done"}, res.ToolCalls[0].Args,
				"a typed call's enums are strings")
			assert.Equal(t, map[string]any{"state": "done", "also": []string{"done", "new"}}, res.ToolCalls[1].Args,
				"a map-form call's enums are strings")
			assert.Equal(t, []any{"done", []string{"new", "open"}}, res.Value, "the result's enums are strings")
		})
	}
	require.Len(t, outs, 2)
	assert.Equal(t, outs[0], outs[1])
}

// TestTyped_EnumErrors: a %#v that would print the host's name of an
// enum type fails naming the enum; a string where Go wants the enum is
// a compile error.
func TestTyped_EnumErrors(t *testing.T) {
	for _, tc := range []struct{ name, code, want string }{
		{"gosyntax of a slice", `tk, _ := track.Set(track.SetArgs{State: track.StateNew}); fmt.Printf("%#v\n", any(tk.History))`,
			"%#v of a value made of type track.State is not supported"},
		{"string for the enum", `var s string = "open"; _, _ = track.Set(track.SetArgs{State: s})`, "line 1"},
		{"enum for a string", `var s string = track.StateOpen; fmt.Println(s)`, "line 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := engine.Execute(context.Background(), tc.code, enumNS(nil))
			require.NoError(t, err)
			assert.Contains(t, res.Error, tc.want)
		})
	}
}
