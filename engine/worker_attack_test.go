package engine_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

// TestWorkerAttack_AfterBadRuns: an isolated worker runs its scripts in
// turn on one goroutine, with the tools of a kept list forwarding under
// the run in progress. A script that ends badly (a panic while a
// goroutine keeps calling a tool, a goroutine left in a tool call, a
// deadlock, os.Exit, a timeout, a recovered panic in a goroutine) leaves
// nothing the next one sees: the next run's output, trace and value are
// its own, on the same namespace map, in both runtimes.
func TestWorkerAttack_AfterBadRuns(t *testing.T) {
	var calls atomic.Int64
	ns := map[string]projection.ToolProjection{
		"a": projection.MustDirect("a", func(_ context.Context, args map[string]any) (any, error) {
			calls.Add(1)
			return fmt.Sprint("a", args["tag"]), nil
		}, "Echo a tag."),
		"block": projection.MustDirect("block", func(ctx context.Context, _ map[string]any) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}, "Block until cancelled."),
	}
	// isolatedOnly: in process, the goroutines blocked in a native sync
	// call stay blocked after the execution (adversarial deadlock_mutex).
	bad := []struct {
		name, code   string
		isolatedOnly bool
	}{
		{"panic while a goroutine calls", "go func() {\n\tfor {\n\t\ttools.A(map[string]any{\"tag\": \"stale\"})\n\t}\n}()\ntools.A(map[string]any{\"tag\": \"stale\"})\npanic(\"boom\")", false},
		{"goroutine in a tool call", "go tools.Block(nil)\ngo func() { tools.Block(nil) }()\nfmt.Println(\"bye\")", false},
		{"deadlock", "var mu sync.Mutex\nmu.Lock()\ngo func() { tools.A(map[string]any{\"tag\": \"stale\"}); mu.Lock() }()\nmu.Lock()", true},
		{"os.Exit", "go func() {\n\tfor {\n\t\ttools.A(map[string]any{\"tag\": \"stale\"})\n\t}\n}()\nos.Exit(3)", false},
		{"timeout", "go func() {\n\tfor {\n\t\ttools.A(map[string]any{\"tag\": \"stale\"})\n\t}\n}()\nfor {\n}", false},
		{"recovered panic in a goroutine", "done := make(chan bool)\ngo func() {\n\tdefer func() { done <- recover() != nil }()\n\tvar m map[string]int\n\tm[\"x\"] = 1\n}()\nfmt.Println(<-done)", false},
	}
	for name, rt := range map[string]engine.CodeRuntime{
		"in-process": engine.New(engine.Config{}),
		"isolated":   newIsolated(t, engine.IsolatedConfig{Workers: 1}),
	} {
		t.Run(name, func(t *testing.T) {
			for i, b := range bad {
				if b.isolatedOnly && name != "isolated" {
					continue
				}
				res, err := rt.Execute(context.Background(), b.code, ns, engine.WithTimeout(500*time.Millisecond))
				require.NoError(t, err, b.name)
				require.NotEmpty(t, res.ReturnCode+len(res.Stdout), b.name)
				tag := fmt.Sprint(i)
				good := fmt.Sprintf("r, err := tools.A(map[string]any{\"tag\": %q})\nfmt.Println(r, err)\nresult(r)", tag)
				res, err = rt.Execute(context.Background(), good, ns, engine.WithTimeout(20*time.Second))
				require.NoError(t, err, b.name)
				require.Equal(t, engine.CodeOK, res.ReturnCode, b.name+": "+res.Error)
				assert.Equal(t, "a"+tag+" <nil>\n", res.Stdout, b.name)
				assert.Equal(t, "a"+tag, res.Value, b.name)
				require.Len(t, res.ToolCalls, 1, b.name)
				assert.Equal(t, map[string]any{"tag": tag}, res.ToolCalls[0].Args, b.name)
			}
		})
	}
}
