package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

// newIsolated starts an isolated runtime for a test and closes it at the
// end, checking that no worker process outlives Close.
func newIsolated(t testing.TB, cfg engine.IsolatedConfig) *engine.Isolated {
	t.Helper()
	if cfg.Workers == 0 {
		cfg.Workers = 2
	}
	iso, err := engine.NewIsolated(cfg)
	require.NoError(t, err)
	t.Cleanup(func() {
		pids := iso.WorkerPIDs()
		require.NoError(t, iso.Close())
		for _, pid := range pids {
			assert.False(t, processExists(pid), "worker %d outlived Close", pid)
		}
		assert.Empty(t, iso.WorkerPIDs())
	})
	return iso
}

// processExists reports whether pid is a live (not zombie) process.
func processExists(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	// Field 3 is the state; Z is a zombie that nobody reaped.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "X"
}

// comparable is the part of a CodeResult both runtimes must agree on.
type comparable struct {
	Stdout, Stderr   string
	ReturnCode       int
	Error            string
	Value            any
	ErrType          string
	Calls            []string
	OutTrunc, ErTrun bool
}

func summary(r engine.CodeResult) comparable {
	c := comparable{Stdout: r.Stdout, Stderr: r.Stderr, ReturnCode: r.ReturnCode, Error: r.Error, Value: r.Value,
		OutTrunc: r.StdoutTruncated, ErTrun: r.StderrTruncated}
	if r.Err != nil {
		c.ErrType = fmt.Sprintf("%T", r.Err)
	}
	for _, tc := range r.ToolCalls {
		args, _ := json.Marshal(tc.Args)
		msg := tc.Error
		if msg == "engine: the execution ended during the call" {
			// A call cut by the deadline ends either way, racing the
			// end of the execution, in both runtimes.
			msg = context.DeadlineExceeded.Error()
		}
		c.Calls = append(c.Calls, fmt.Sprintf("%s %s %q %T", tc.Name, args, msg, tc.Args))
	}
	sort.Strings(c.Calls) // calls from goroutines finish in any order
	return c
}

// TestRuntimes_SameResult runs one table of ordinary scripts on both
// runtimes and requires the same CodeResult.
func TestRuntimes_SameResult(t *testing.T) {
	// A long grace: a worker late to report after a failed script on a
	// loaded machine is killed, which the result would then say.
	iso := newIsolated(t, engine.IsolatedConfig{Grace: 5 * time.Second})
	runtimes := []struct {
		name string
		rt   engine.CodeRuntime
	}{
		{"in-process", engine.New(engine.Config{})},
		{"isolated", iso},
		// The pipes, where shared memory carries the frames by default.
		{"isolated over pipes", newIsolated(t, engine.IsolatedConfig{Grace: 5 * time.Second, PipeTransport: true})},
	}
	for _, extra := range extraRuntimes {
		name, rt := extra(t)
		runtimes = append(runtimes, struct {
			name string
			rt   engine.CodeRuntime
		}{name, rt})
	}
	// A timeout on purpose, long enough that the script reaches what it
	// blocks in (after its output and tool call) on a loaded machine.
	short := engine.WithTimeout(time.Second)
	tests := []struct {
		name  string
		code  string
		opts  []engine.Option
		rc    int
		errIs error
	}{
		{name: "print", code: `fmt.Println("hi", 1+1, 2.5, []int{1, 2}, map[string]int{"a": 1})`},
		{name: "stderr", code: `fmt.Fprintln(os.Stderr, "to stderr"); print("builtin\n")`},
		{name: "namespaced tool", code: "r, err := math_ops.Multiply(map[string]any{\"a\": 6, \"b\": 7})\nfmt.Printf(\"%v %T %v\\n\", r, r, err)"},
		{name: "int tool result stays int", code: "r, _ := math_ops.Add(map[string]any{\"a\": 2, \"b\": 3})\nfmt.Printf(\"%v %T\\n\", r, r)\nresult(r.(int) + 1)"},
		{name: "struct-argument tool", code: `r, _ := tools.Greet(map[string]any{"name": "Ada"}); fmt.Println(r)`},
		{name: "dynamic call", code: `r, err := tools.Call("math_ops-multiply", map[string]any{"a": 2, "b": 2.5}); fmt.Println(r, err)`},
		{name: "tools.Names", code: `fmt.Println(tools.Names())`},
		{name: "tool error", code: "_, err := tools.Fail(nil)\nfmt.Println(err)"},
		{name: "tool panic", code: "_, err := tools.Boom(nil)\nfmt.Println(err)"},
		{name: "nil args", code: "tools.Fail(nil)\ntools.Greet(map[string]any{})"},
		{name: "value int", code: "x := 20\nx * 2 + 2"},
		{name: "value float", code: "result(1.5)"},
		{name: "value map", code: `result(map[string]any{"ok": true, "n": 1, "f": 2.0, "s": "x", "l": []any{1, "a", nil}})`},
		{name: "value []map", code: `result([]map[string]any{{"id": 1}, {"id": 2}})`},
		{name: "value []int", code: `result([]int{1, 2})`},
		{name: "value string", code: `result("s")`},
		{name: "value bool", code: `result(false)`},
		{name: "value nil", code: `result(nil)`},
		{name: "value struct", code: "type P struct{ X int `json:\"x\"` }\nresult(map[string]any{\"p\": 1})"},
		{name: "goroutines and tools", code: "var wg sync.WaitGroup\nvar mu sync.Mutex\ntotal := 0.0\nfor i := range 5 {\n\twg.Add(1)\n\tgo func() {\n\t\tdefer wg.Done()\n\t\tr, _ := math_ops.Multiply(map[string]any{\"a\": i, \"b\": 2})\n\t\tmu.Lock()\n\t\ttotal += r.(float64)\n\t\tmu.Unlock()\n\t}()\n}\nwg.Wait()\nfmt.Println(total)"},
		// The trace shows argument maps as they are at the end, in both
		// runtimes: the isolated one must notice the maps changed since
		// their call frames, reused maps, and maps shared by goroutines.
		{name: "reused and changed args", code: "m := map[string]any{\"a\": 1, \"b\": 2}\nfor i := range 3 {\n\tm[\"a\"] = i\n\tmath_ops.Add(m)\n}\nmath_ops.Add(m)\nm[\"b\"] = 7\nn := map[string]any{\"a\": 1, \"b\": 2}\nmath_ops.Add(n)\nmath_ops.Add(n)"},
		{name: "nested args changed", code: "in := map[string]any{\"k\": 1}\nm := map[string]any{\"a\": 1, \"b\": 2, \"x\": in}\ntools.Call(\"math_ops.add\", m)\nin[\"k\"] = 2.5\ndelete(m, \"b\")\ntools.Call(\"math_ops.add\", map[string]any{\"a\": 1, \"b\": 2, \"x\": map[string]any{\"p\": 1, \"q\": []any{1}}})"},
		{name: "args shared by goroutines", code: "m := map[string]any{\"a\": 3, \"b\": 2}\nvar wg sync.WaitGroup\nfor range 5 {\n\twg.Add(1)\n\tgo func() {\n\t\tdefer wg.Done()\n\t\tmath_ops.Multiply(m)\n\t}()\n}\nwg.Wait()\nmath_ops.Multiply(m)\nm[\"a\"] = 4"},
		{name: "compile error", code: "x := 1\ny := undefinedThing(x)\nfmt.Println(y)", rc: engine.CodeError},
		{name: "panic with line", code: "fmt.Println(\"before\")\n\npanic(\"boom\")", rc: engine.CodeError},
		{name: "panic with map", code: `panic(map[string]any{"a": 1})`, rc: engine.CodeError},
		{name: "panic with tool error", code: "_, err := tools.Fail(nil)\nif err != nil {\n\tpanic(err)\n}", rc: engine.CodeError},
		{name: "runtime error", code: "var s []int\n_ = s[3]", rc: engine.CodeError},
		{name: "os.Exit", code: "fmt.Println(\"bye\")\nos.Exit(3)", rc: 3},
		{name: "import not allowed", code: "import \"os/exec\"\nexec.Command(\"ls\").Run()", rc: engine.CodeError, errIs: engine.ErrImportNotAllowed},
		{name: "unknown tool", code: "_, err := tools.Call(\"nope\", nil)\npanic(err)", rc: engine.CodeError, errIs: engine.ErrUnknownTool},
		{name: "wrong argument type", code: "_, err := math_ops.Multiply(map[string]any{\"a\": \"two\", \"b\": 3})\npanic(err)", rc: engine.CodeError, errIs: projection.ErrBadArgument},
		{name: "infinite loop", code: "fmt.Println(\"start\")\nfor {}", opts: []engine.Option{short}, rc: engine.CodeTimeout, errIs: context.DeadlineExceeded},
		{name: "blocked tool gets the deadline", code: "fmt.Println(\"start\")\ntools.Wait(nil)\nselect {}", opts: []engine.Option{short}, rc: engine.CodeTimeout, errIs: context.DeadlineExceeded},
		{name: "sleep is cut short", code: "time.Sleep(time.Hour)", opts: []engine.Option{short}, rc: engine.CodeTimeout, errIs: context.DeadlineExceeded},
		// A tripped limit ends the execution at once: nothing the script
		// would print after it is part of the result.
		{name: "tool call limit", code: "for i := 0; ; i++ {\n\tif _, err := math_ops.Add(map[string]any{\"a\": i, \"b\": 1}); err != nil {\n\t\tbreak\n\t}\n}",
			opts: []engine.Option{engine.WithLimits(engine.Limits{MaxToolCalls: 5})}, rc: engine.CodeLimit, errIs: engine.ErrLimitExceeded},
		{name: "output flood", code: "for {\n\tfmt.Println(strings.Repeat(\"x\", 1000))\n}", opts: []engine.Option{engine.WithLimits(engine.Limits{MaxOutputBytes: 10_000})}, rc: engine.CodeLimit, errIs: engine.ErrLimitExceeded},
		{name: "extra globals", code: "fmt.Println(userID, Greeting, Tags)", opts: []engine.Option{engine.WithExtraGlobals(map[string]any{"userID": 7, "Greeting": "hi", "Tags": []string{"a"}})}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []engine.CodeResult
			for _, rt := range runtimes {
				res, err := rt.rt.Execute(context.Background(), tt.code, mathNS(t), tt.opts...)
				require.NoError(t, err, rt.name)
				require.Equal(t, tt.rc, res.ReturnCode, "%s: %s", rt.name, res.Error)
				if tt.errIs != nil {
					assert.ErrorIs(t, res.Err, tt.errIs, rt.name)
				}
				if res.ReturnCode != engine.CodeOK {
					require.Error(t, res.Err, rt.name)
					assert.Equal(t, res.Error, res.Err.Error(), rt.name)
				}
				for _, c := range res.ToolCalls {
					assert.Positive(t, c.Duration, rt.name)
				}
				got = append(got, res)
			}
			for i := 1; i < len(got); i++ {
				assert.Equal(t, summary(got[0]), summary(got[i]), "in-process vs %s", runtimes[i].name)
			}
		})
	}
}

func TestIsolated_Misuse(t *testing.T) {
	iso := newIsolated(t, engine.IsolatedConfig{Workers: 1})
	p := projection.MustDirect("x", func() {}, "")
	_, err := iso.Execute(context.Background(), "1", map[string]projection.ToolProjection{"y": p})
	require.ErrorIs(t, err, projection.ErrNamespaceMismatch)
	_, err = iso.Execute(context.Background(), "1", nil, engine.WithExtraGlobals(map[string]any{"f": func() {}}))
	require.Error(t, err, "a function cannot cross to a worker")
	assert.Panics(t, func() {
		_, _ = iso.Execute(nil, "1", nil) //nolint:staticcheck // testing the nil-context contract
	})

	closed, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
	require.NoError(t, err)
	require.NoError(t, closed.Close())
	_, err = closed.Execute(context.Background(), "1", nil)
	require.ErrorIs(t, err, engine.ErrClosed)
}

// noGuards disables the in-process guards the lead engine may apply
// (MaxCallDepth, MaxAllocLen, MaxMemoryBytes), so that the worker's OS
// limits are what stops the script. Built from JSON so that it compiles
// whichever of those fields exist.
func noGuards(t testing.TB) engine.Option {
	var l engine.Limits
	require.NoError(t, json.Unmarshal([]byte(`{"MaxCallDepth":-1,"MaxAllocLen":-1,"MaxAllocBytes":-1,"MaxMemoryBytes":-1}`), &l))
	return engine.WithLimits(l)
}

// TestIsolated_WorkerFailures runs the scripts that kill an in-process
// host: each must give its error class, keep the output and tool calls
// made so far, and leave the runtime working.
func TestIsolated_WorkerFailures(t *testing.T) {
	iso := newIsolated(t, engine.IsolatedConfig{
		Workers: 2,
		Grace:   300 * time.Millisecond,
		OS:      engine.WorkerLimits{MemoryBytes: 256 << 20, MaxStack: 16 << 20},
	})
	prefix := "r, _ := math_ops.Add(map[string]any{\"a\": 1, \"b\": 2})\nfmt.Println(\"before\", r)\n"
	tests := []struct {
		name    string
		code    string
		timeout time.Duration
		rc      []int    // accepted return codes
		msg     []string // one of them must be in Error
		errIs   error
	}{
		{name: "unbounded recursion", code: prefix + "func f(n int) int { return f(n+1) + 1 }\nfmt.Println(f(0))",
			// Under -race, the detector's shadow of the stack may hit the
			// memory limit first.
			rc: []int{engine.CodeCrash}, msg: []string{"stack overflow", "memory limit"}, errIs: engine.ErrWorkerKilled},
		{name: "huge allocation", code: prefix + "b := make([]byte, 1<<40)\nfmt.Println(len(b))",
			rc: []int{engine.CodeCrash}, msg: []string{"memory limit"}, errIs: engine.ErrWorkerKilled},
		{name: "string doubling", code: prefix + "s := \"x\"\nfor {\n\ts += s\n}",
			rc: []int{engine.CodeCrash}, msg: []string{"memory limit"}, errIs: engine.ErrWorkerKilled},
		{name: "panic in a script goroutine", code: prefix + "done := make(chan bool)\ngo func() { panic(\"in goroutine\") }()\n<-done",
			// CodeError where the engine's goroutine guard catches it.
			rc: []int{engine.CodeCrash, engine.CodeError}, msg: []string{"in goroutine"}},
		{name: "concurrent map writes", code: prefix + "m := map[int]int{}\nvar wg sync.WaitGroup\nfor g := range 4 {\n\twg.Add(1)\n\tgo func() {\n\t\tdefer wg.Done()\n\t\tfor i := range 1000000 {\n\t\t\tm[i%100+g] = i\n\t\t}\n\t}()\n}\nwg.Wait()",
			// The Go runtime's check is best effort; under -race the
			// detector may report the race and end the worker first.
			rc: []int{engine.CodeCrash}, msg: []string{"concurrent map", "race", "exit status"}, errIs: engine.ErrWorkerKilled},
		{name: "long native call ignores the deadline", code: prefix + "s := strings.Repeat(\"a\", 50<<20)\nre := regexp.MustCompile(`(?:a{1,8}|b){1,8}c`)\nfmt.Println(re.MatchString(s))",
			// The deadline must fall inside MatchString, not before it,
			// even on a loaded machine: what comes before it takes well
			// under a second under -race, and MatchString minutes of
			// native work: the worker is killed long before it ends
			// (whichever way the engine words why).
			timeout: 5 * time.Second, rc: []int{engine.CodeTimeout}, msg: []string{"worker killed: "}, errIs: context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := iso.WorkerPIDs()
			opts := []engine.Option{noGuards(t)}
			if tt.timeout > 0 {
				opts = append(opts, engine.WithTimeout(tt.timeout))
			} else {
				opts = append(opts, engine.WithTimeout(20*time.Second))
			}
			start := time.Now()
			res, err := iso.Execute(context.Background(), tt.code, mathNS(t), opts...)
			require.NoError(t, err)
			t.Logf("%v: rc %d: %s", time.Since(start), res.ReturnCode, res.Error)
			assert.Contains(t, tt.rc, res.ReturnCode, res.Error)
			found := false
			for _, m := range tt.msg {
				found = found || strings.Contains(res.Error, m)
			}
			assert.True(t, found, "error %q should name one of %q", res.Error, tt.msg)
			if tt.errIs != nil {
				assert.ErrorIs(t, res.Err, tt.errIs)
			}
			assert.Equal(t, "before 3\n", res.Stdout, "output written before the crash is kept")
			require.Len(t, res.ToolCalls, 1, "the tool call made before the crash is kept")
			assert.Equal(t, map[string]any{"a": 1, "b": 2}, res.ToolCalls[0].Args)

			next, err := iso.Execute(context.Background(), "r, _ := math_ops.Add(map[string]any{\"a\": 40, \"b\": 2})\nresult(r)", mathNS(t))
			require.NoError(t, err)
			require.Equal(t, engine.CodeOK, next.ReturnCode, next.Error)
			assert.Equal(t, 42, next.Value)
			if res.ReturnCode == engine.CodeCrash {
				for _, pid := range before {
					if !contains(iso.WorkerPIDs(), pid) {
						assert.Eventually(t, func() bool { return !processExists(pid) }, 30*time.Second, 10*time.Millisecond, "killed worker %d is gone", pid)
					}
				}
			}
		})
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestIsolated_CallerCancel(t *testing.T) {
	iso := newIsolated(t, engine.IsolatedConfig{Workers: 1})
	ctx, cancel := context.WithCancel(context.Background())
	// The script cancels through a tool, so the cancellation comes while
	// it runs.
	ns := map[string]projection.ToolProjection{"cancel": projection.MustDirect("cancel", func(map[string]any) (any, error) { cancel(); return nil, nil }, "")}
	res, err := iso.Execute(ctx, "tools.Cancel(nil)\nfor {}", ns)
	require.NoError(t, err)
	assert.Equal(t, engine.CodeTimeout, res.ReturnCode)
	assert.ErrorIs(t, res.Err, context.Canceled)
	res, err = iso.Execute(context.Background(), "1+1", nil)
	require.NoError(t, err)
	assert.Equal(t, 2, res.Value)
}

func TestIsolated_OutputStreams(t *testing.T) {
	iso := newIsolated(t, engine.IsolatedConfig{Workers: 1})
	var out strings.Builder
	var mu sync.Mutex
	w := writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return out.Write(p) })
	res, err := iso.Execute(context.Background(), "for i := range 3 { fmt.Println(i) }", nil, engine.WithStdout(w))
	require.NoError(t, err)
	assert.Equal(t, "0\n1\n2\n", res.Stdout)
	mu.Lock()
	assert.Equal(t, "0\n1\n2\n", out.String())
	mu.Unlock()
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestIsolated_Concurrent runs more executions than workers, some timing
// out, at once.
func TestIsolated_Concurrent(t *testing.T) {
	iso := newIsolated(t, engine.IsolatedConfig{Workers: 2})
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			code := fmt.Sprintf("r, _ := math_ops.Add(map[string]any{\"a\": %d, \"b\": 1})\nfmt.Println(r)", i)
			timeout := time.Minute // not missed on a loaded machine
			if i%5 == 0 {
				code, timeout = "for {}", time.Second
			}
			res, err := iso.Execute(context.Background(), code, mathNS(t), engine.WithTimeout(timeout))
			assert.NoError(t, err)
			if i%5 == 0 {
				assert.Equal(t, engine.CodeTimeout, res.ReturnCode)
				return
			}
			assert.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
			assert.Equal(t, fmt.Sprintf("%d\n", i+1), res.Stdout)
		})
	}
	wg.Wait()
}

// TestIsolated_BlockingToolHandsOff checks that a tool call answered on
// the host's reading goroutine does not stall the frames after it: a
// call that waits for a second call, made while the first runs, and a
// cancellation during a call that ignores it until its context ends.
func TestIsolated_BlockingToolHandsOff(t *testing.T) {
	iso := newIsolated(t, engine.IsolatedConfig{Workers: 1})
	// Release answers only once Wait runs, so the script's two calls are
	// in flight together whichever it makes first.
	waiting, release := make(chan struct{}), make(chan struct{})
	var waitOnce sync.Once
	wait := projection.MustDirect("sync_ops-wait", func(ctx context.Context, _ map[string]any) (any, error) {
		waitOnce.Do(func() { close(waiting) })
		select {
		case <-release:
			return "released", nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}, "Waits for release.")
	var once sync.Once
	rel := projection.MustDirect("sync_ops-release", func(ctx context.Context, _ map[string]any) (any, error) {
		select {
		case <-waiting:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		once.Do(func() { close(release) })
		return "ok", nil
	}, "Releases wait once it runs.")
	ns := map[string]projection.ToolProjection{wait.Name(): wait, rel.Name(): rel}
	code := "done := make(chan any)\ngo func() { r, _ := sync_ops.Wait(map[string]any{}); done <- r }()\n" +
		"sync_ops.Release(map[string]any{})\nresult(<-done)"
	start := time.Now()
	res, err := iso.Execute(context.Background(), code, ns, engine.WithTimeout(10*time.Second))
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Equal(t, "released", res.Value)
	assert.Less(t, time.Since(start), 5*time.Second)

	// A tool that blocks until the caller cancels (here the tool cancels,
	// so the cancellation comes during the call): the cancellation still
	// reaches the worker, which ends within its grace period.
	ctx, cancel := context.WithCancel(context.Background())
	block := projection.MustDirect("sync_ops-block", func(ctx context.Context, _ map[string]any) (any, error) {
		cancel()
		<-ctx.Done()
		return nil, ctx.Err()
	}, "Blocks until cancelled.")
	res, err = iso.Execute(ctx, "sync_ops.Block(map[string]any{})\nfor {}", map[string]projection.ToolProjection{block.Name(): block})
	require.NoError(t, err)
	assert.Equal(t, engine.CodeTimeout, res.ReturnCode)
	assert.ErrorIs(t, res.Err, context.Canceled)
	assert.NotErrorIs(t, res.Err, engine.ErrWorkerKilled, "the worker stopped by itself")
	res, err = iso.Execute(context.Background(), "1+1", nil)
	require.NoError(t, err)
	assert.Equal(t, 2, res.Value)
}

// TestIsolated_ToolListCache: a worker receives a namespace's tool list
// once, and every change to the namespace between executions reaches
// the next one (a tool added, removed, replaced); what
// one execution does cannot change what the next sees: its script gets
// its own tool calls, results and trace on the kept tools.
func TestIsolated_ToolListCache(t *testing.T) {
	iso := newIsolated(t, engine.IsolatedConfig{Workers: 1})
	ctx := context.Background()
	tool := func(name, doc string, v any) projection.ToolProjection {
		return projection.MustDirect(name, func(context.Context, map[string]any) (any, error) { return v, nil }, doc)
	}
	ns := map[string]projection.ToolProjection{"a": tool("a", "A.", 1), "b": tool("b", "B.", 2)}
	run := func(code string) engine.CodeResult {
		t.Helper()
		res, err := iso.Execute(ctx, code, ns)
		require.NoError(t, err)
		return res
	}
	for i := range 3 {
		res := run(fmt.Sprintf(`x, _ := tools.A(map[string]any{"n": %d}); y, _ := tools.B(nil); fmt.Println(x, y)`, i))
		require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
		assert.Equal(t, "1 2\n", res.Stdout)
		require.Len(t, res.ToolCalls, 2, "each run its own trace")
		assert.Equal(t, map[string]any{"n": i}, res.ToolCalls[0].Args)
	}

	ns["c"] = tool("c", "C.", "new")
	res := run(`x, _ := tools.C(nil); fmt.Println(x)`)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Equal(t, "new\n", res.Stdout)

	delete(ns, "a")
	res = run(`x, _ := tools.A(nil); fmt.Println(x)`)
	assert.NotEqual(t, engine.CodeOK, res.ReturnCode, "a removed tool is gone: %s", res.Stdout)

	ns["b"] = tool("b", "B replaced.", 20)
	res = run(`x, _ := tools.B(nil); fmt.Println(x, tools.Names())`)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Equal(t, "20 [b c]\n", res.Stdout)

	// An empty namespace, then the full one again.
	res, err := iso.Execute(ctx, `fmt.Println("none")`, nil)
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	res = run(`x, _ := tools.C(nil); fmt.Println(x)`)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Equal(t, "new\n", res.Stdout)
}
