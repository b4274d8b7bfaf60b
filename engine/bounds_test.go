package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

// bothRuntimes returns the in-process and the isolated runtime.
func bothRuntimes(t *testing.T) map[string]engine.CodeRuntime {
	t.Helper()
	return map[string]engine.CodeRuntime{
		"in-process": engine.New(engine.Config{}),
		"isolated":   newIsolated(t, engine.IsolatedConfig{Workers: 1}),
	}
}

// TestCodeResult_Bounds checks that every part of a CodeResult is bounded
// and says when it was cut, in both runtimes, and that the result encodes
// as JSON.
func TestCodeResult_Bounds(t *testing.T) {
	tests := []struct {
		name    string
		code    string
		rc      int
		errHas  []string
		errCut  bool
		noValue bool
	}{
		{name: "huge panic string", code: `panic(strings.Repeat("x", 50<<20))`, rc: 1, errHas: []string{"line 1:1: panic: xxx"}, errCut: true},
		{name: "huge errors.New", code: `panic(errors.New(strings.Repeat("y", 20<<20)))`, rc: 1, errHas: []string{"panic: yyy"}, errCut: true},
		{name: "huge fmt.Errorf", code: "err := fmt.Errorf(\"bad: %s\", strings.Repeat(\"z\", 20<<20))\npanic(err)", rc: 1, errHas: []string{"panic: bad: zzz"}, errCut: true},
		{name: "deep value", code: "v := any(nil)\nfor range 1000000 { v = []any{v} }\nresult(v)", rc: 1,
			errHas: []string{"line 3:1: result(): the value is nested deeper than 1000 levels (MaxValueDepth)", "result(v)"}, noValue: true},
		{name: "cyclic map", code: "m := map[string]any{}\nm[\"self\"] = m\nresult(m)", rc: 1,
			errHas: []string{"line 3:1: result(): the value contains itself"}, noValue: true},
		{name: "cyclic slice", code: "s := []any{nil}\ns[0] = s\nresult(s)", rc: 1, errHas: []string{"result(): the value contains itself"}, noValue: true},
		{name: "cyclic final expression", code: "m := map[string]any{}\nm[\"self\"] = m\nm", rc: 1,
			errHas: []string{"line 3:1: the final expression: the value contains itself"}, noValue: true},
		{name: "huge value", code: `result(strings.Repeat("v", 2<<20))`, rc: 125,
			errHas: []string{"MaxOutputBytes (1048576)", "result() at line 1"}, noValue: true},
		{name: "cyclic panic value", code: "m := map[string]any{}\nm[\"self\"] = m\npanic(m)", rc: 1,
			errHas: []string{"line 3:1: panic: (a map[string]interface {} value that contains itself"}},
	}
	for rtName, rt := range bothRuntimes(t) {
		for _, tt := range tests {
			t.Run(rtName+"/"+tt.name, func(t *testing.T) {
				res, err := rt.Execute(context.Background(), tt.code, nil)
				require.NoError(t, err)
				assert.Equal(t, tt.rc, res.ReturnCode, res.Error[:min(len(res.Error), 300)])
				for _, s := range tt.errHas {
					assert.Contains(t, res.Error, s)
				}
				assert.LessOrEqual(t, len(res.Error), engine.MaxErrorBytes)
				assert.Equal(t, tt.errCut, res.ErrorTruncated)
				if tt.noValue {
					assert.Nil(t, res.Value)
				}
				b, err := json.Marshal(res)
				require.NoError(t, err)
				assert.Less(t, len(b), 1<<20)
			})
		}
	}
}

// TestResult_ValueCopied checks that result(v) keeps v as it was when
// set.
func TestResult_ValueCopied(t *testing.T) {
	code := `m := map[string]any{"list": []any{1, 2}, "n": map[string]any{"k": "v"}, "ints": []int{1}}
result(m)
m["list"].([]any)[0] = 99
m["n"].(map[string]any)["k"] = "changed"
m["ints"].([]int)[0] = 7
m["extra"] = true`
	want := map[string]any{"list": []any{1, 2}, "n": map[string]any{"k": "v"}, "ints": []int{1}}
	for rtName, rt := range bothRuntimes(t) {
		t.Run(rtName, func(t *testing.T) {
			res, err := rt.Execute(context.Background(), code, nil)
			require.NoError(t, err)
			require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
			assert.Equal(t, want, res.Value)
		})
	}
}

// TestToolCalls_ArgsAtCallTime is the forged-trace attack: the
// trace records what the tool received, not what the script made of its
// map afterwards, in both runtimes alike.
func TestToolCalls_ArgsAtCallTime(t *testing.T) {
	ns := nsOf(projection.MustDirect("get", func(args map[string]any) (any, error) { return args["id"], nil }, "Get."))
	code := `m := map[string]any{"id": 1, "tags": []any{"a"}, "opts": map[string]any{"deep": true}}
tools.Get(m)
m["id"] = 999
m["tags"].([]any)[0] = "forged"
m["opts"].(map[string]any)["deep"] = false
tools.Get(m)`
	var traces [][]engine.ToolCall
	for rtName, rt := range bothRuntimes(t) {
		t.Run(rtName, func(t *testing.T) {
			res, err := rt.Execute(context.Background(), code, ns)
			require.NoError(t, err)
			require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
			require.Len(t, res.ToolCalls, 2)
			assert.Equal(t, map[string]any{"id": 1, "tags": []any{"a"}, "opts": map[string]any{"deep": true}}, res.ToolCalls[0].Args)
			assert.Equal(t, map[string]any{"id": 999, "tags": []any{"forged"}, "opts": map[string]any{"deep": false}}, res.ToolCalls[1].Args)
			for i := range res.ToolCalls {
				res.ToolCalls[i].Duration = 0
			}
			traces = append(traces, res.ToolCalls)
		})
	}
	require.Len(t, traces, 2)
	assert.Equal(t, traces[0], traces[1], "both runtimes give the same trace")
}

// TestToolCalls_ToolSeesCopy checks that a tool never sees the script
// change its arguments while it runs: a goroutine of the script rewrites
// the map during the call.
func TestToolCalls_ToolSeesCopy(t *testing.T) {
	for rtName, rt := range bothRuntimes(t) {
		t.Run(rtName, func(t *testing.T) {
			entered, release := make(chan struct{}), make(chan struct{})
			var once sync.Once
			ns := nsOf(projection.MustDirect("hold", func(args map[string]any) (any, error) {
				close(entered)
				<-release
				return args["id"], nil
			}, "Waits for release, then returns its id."))
			ns.Add(projection.MustDirect("entered", func(map[string]any) (any, error) { <-entered; return nil, nil }, "Waits until hold runs."))
			ns.Add(projection.MustDirect("release", func(map[string]any) (any, error) { once.Do(func() { close(release) }); return nil, nil }, "Releases hold."))
			code := `m := map[string]any{"id": 1}
got := make(chan any)
go func() { r, _ := tools.Hold(m); got <- r }()
tools.Entered(nil)
m["id"] = 999
tools.Release(nil)
fmt.Println(<-got)`
			res, err := rt.Execute(context.Background(), code, ns)
			require.NoError(t, err)
			require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
			assert.Equal(t, "1\n", res.Stdout, "the tool saw the script's later write")
			for _, c := range res.ToolCalls {
				if c.Name == "hold" {
					assert.Equal(t, map[string]any{"id": 1}, c.Args)
				}
			}
		})
	}
}

// TestToolCalls_TraceBounds checks the trace's bounds: large arguments are
// omitted from their entry (the tool still gets them), and a trace past
// MaxTraceBytes stops growing and says so.
func TestToolCalls_TraceBounds(t *testing.T) {
	ns := nsOf(projection.MustDirect("size", func(args map[string]any) (any, error) { return len(args["s"].(string)), nil }, "Length of s."))
	ns.Add(projection.MustDirect("fail", func(args map[string]any) (any, error) {
		return nil, errorString(strings.Repeat("e", 1<<20))
	}, "Fails with a huge message."))
	code := `big := strings.Repeat("x", engine_MaxTraceArgBytes+1)
n, _ := tools.Size(map[string]any{"s": big})
fmt.Println(n)
tools.Fail(nil)
mid := strings.Repeat("y", 60<<10)
for range 200 { tools.Size(map[string]any{"s": mid}) }`
	code = strings.ReplaceAll(code, "engine_MaxTraceArgBytes", "65536")
	for rtName, rt := range bothRuntimes(t) {
		t.Run(rtName, func(t *testing.T) {
			res, err := rt.Execute(context.Background(), code, ns)
			require.NoError(t, err)
			require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
			assert.Equal(t, "65537\n", res.Stdout, "the tool got the whole arguments")
			require.Greater(t, len(res.ToolCalls), 2)
			assert.True(t, res.ToolCalls[0].ArgsOmitted)
			assert.Nil(t, res.ToolCalls[0].Args)
			assert.LessOrEqual(t, len(res.ToolCalls[1].Error), engine.MaxTraceErrorBytes)
			assert.True(t, strings.HasPrefix(res.ToolCalls[1].Error, "eee"))
			assert.False(t, res.ToolCalls[2].ArgsOmitted)
			assert.True(t, res.ToolCallsTruncated)
			assert.Less(t, len(res.ToolCalls), 202)
			b, err := json.Marshal(res)
			require.NoError(t, err)
			assert.Less(t, len(b), 2*engine.MaxTraceBytes)
		})
	}
}

// toolSet is a namespace built in a test.
type toolSet map[string]projection.ToolProjection

func (s toolSet) Add(p projection.ToolProjection) { s[p.Name()] = p }

func nsOf(ps ...projection.ToolProjection) toolSet {
	s := toolSet{}
	for _, p := range ps {
		s.Add(p)
	}
	return s
}

type errorString string

func (e errorString) Error() string { return string(e) }

// TestIsolated_FrameLimit checks that what cannot fit in a frame of the
// isolated runtime's pipe is reported as such, not as a killed worker.
func TestIsolated_FrameLimit(t *testing.T) {
	ns := nsOf(projection.MustDirect("huge", func(map[string]any) (any, error) { return strings.Repeat("h", engine.MaxFrameBytes), nil }, "A huge result."))
	ns.Add(projection.MustDirect("take", func(map[string]any) (any, error) { return nil, nil }, "Takes anything."))
	// Room for the large values (and the race detector) under the
	// worker's OS memory limit: the frame limit must be what stops them.
	iso := newIsolated(t, engine.IsolatedConfig{Workers: 1, OS: engine.WorkerLimits{MemoryBytes: 4 << 30}})
	tests := []struct {
		name, code string
		limits     engine.Limits
		want       string
	}{
		{"tool result", "_, err := tools.Huge(nil)\nfmt.Println(err)", engine.Limits{}, "the tool result message is"},
		{"tool arguments", "_, err := tools.Take(map[string]any{\"s\": strings.Repeat(\"a\", 65<<20)})\nfmt.Println(err)", engine.Limits{MaxAllocLen: engine.Unlimited, MaxMemoryBytes: 2 << 30}, "the tool call message is"},
		{"result value", `result(strings.Repeat("r", 65<<20))`, engine.Limits{MaxOutputBytes: engine.Unlimited, MaxAllocLen: engine.Unlimited, MaxMemoryBytes: 2 << 30}, "the result message is"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := iso.Execute(context.Background(), tt.code, ns, engine.WithLimits(tt.limits))
			require.NoError(t, err)
			assert.NotContains(t, res.Error+res.Stdout, "worker killed")
			assert.Contains(t, res.Error+res.Stdout, tt.want)
			assert.Contains(t, res.Error+res.Stdout, "frame limit of 67108864 bytes")
		})
	}
	// A print larger than a frame crosses in pieces.
	res, err := iso.Execute(context.Background(), `fmt.Print(strings.Repeat("p", 65<<20))`, nil,
		engine.WithLimits(engine.Limits{MaxOutputBytes: engine.Unlimited, MaxAllocLen: engine.Unlimited, MaxMemoryBytes: 2 << 30}))
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Len(t, res.Stdout, 65<<20)
}

// TestToolCalls_LiteralArgsOwned checks the calls whose map of arguments
// is a literal written in the call (the tool gets that map, not a copy):
// containers the script still holds are copied all the same, so the trace
// keeps what the tool received, in both call forms and both runtimes.
func TestToolCalls_LiteralArgsOwned(t *testing.T) {
	var seen []map[string]any
	var mu sync.Mutex
	ns := nsOf(projection.MustDirect("get", func(args map[string]any) (any, error) {
		mu.Lock()
		seen = append(seen, args)
		mu.Unlock()
		return args["id"], nil
	}, "Get."))
	code := `tags := []any{"a"}
opts := map[string]any{"deep": true}
tools.Get(map[string]any{"id": 1, "tags": tags, "opts": opts})
r, err := tools.Get(map[string]any{"id": 2, "tags": tags})
tags[0] = "forged"
opts["deep"] = false
fmt.Println(r, err)`
	for rtName, rt := range bothRuntimes(t) {
		t.Run(rtName, func(t *testing.T) {
			mu.Lock()
			seen = nil
			mu.Unlock()
			res, err := rt.Execute(context.Background(), code, ns)
			require.NoError(t, err)
			require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
			assert.Equal(t, "2 <nil>\n", res.Stdout)
			require.Len(t, res.ToolCalls, 2)
			assert.Equal(t, map[string]any{"id": 1, "tags": []any{"a"}, "opts": map[string]any{"deep": true}}, res.ToolCalls[0].Args)
			assert.Equal(t, map[string]any{"id": 2, "tags": []any{"a"}}, res.ToolCalls[1].Args)
			mu.Lock()
			defer mu.Unlock()
			require.Len(t, seen, 2)
			assert.Equal(t, []any{"a"}, seen[0]["tags"], "the tool's arguments are not the script's")
			assert.Equal(t, map[string]any{"deep": true}, seen[0]["opts"])
		})
	}
}

// TestResult_LocalFunctionNamedResult checks that a script's own function
// named result, in any scope, is called as written: the normaliser's
// position recording of result() is for the generated one only.
func TestResult_LocalFunctionNamedResult(t *testing.T) {
	tests := []struct{ name, code, out string }{
		{"local closure", "result := func(v int) int { return v + 1 }\nn := result(3)\nfmt.Println(n)", "4\n"},
		{"parameter", "apply := func(result func(int) int) int { return result(2) }\nfmt.Println(apply(func(v int) int { return v * 10 }))", "20\n"},
		{"package func", "func result(v int) int { return -v }\nfmt.Println(result(5))", "-5\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := engine.Execute(context.Background(), tt.code, nil)
			require.NoError(t, err)
			require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
			assert.Equal(t, tt.out, res.Stdout)
		})
	}
}

// TestToolCalls_LiteralArgsOwnedSiteKeys checks the calls of one call site
// whose literal's keys change from call to call (the engine reads a
// site's maps by the keys it last saw): each call's arguments are what
// the script wrote, containers copied, however the keys change.
func TestToolCalls_LiteralArgsOwnedSiteKeys(t *testing.T) {
	var seen []map[string]any
	ns := nsOf(projection.MustDirect("get", func(args map[string]any) (any, error) {
		seen = append(seen, args)
		return len(args), nil
	}, "Get."))
	code := `tags := []any{"a"}
keys := []string{"x", "x", "y", "x", "z", "z", "x", "y", "w", "x", "x"}
for i, k := range keys {
	tools.Get(map[string]any{k: i, "tags": tags})
	tags[0] = k
}`
	res, err := engine.Execute(context.Background(), code, ns)
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	keys := []string{"x", "x", "y", "x", "z", "z", "x", "y", "w", "x", "x"}
	require.Len(t, res.ToolCalls, len(keys))
	require.Len(t, seen, len(keys))
	prev := "a"
	for i, k := range keys {
		want := map[string]any{k: i, "tags": []any{prev}}
		assert.Equal(t, want, res.ToolCalls[i].Args, "call %d", i)
		assert.Equal(t, want, seen[i], "call %d", i)
		prev = k
	}
}
