package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

func TestMain(m *testing.M) {
	engine.MaybeServeWorker()
	goleak.VerifyTestMain(m)
}

// mathNS is a namespace with a namespaced tool, a bare tool and a tool
// that fails, panics or waits, for the tests.
func mathNS(t testing.TB) map[string]projection.ToolProjection {
	t.Helper()
	list := []projection.ToolProjection{
		projection.MustDirect("math_ops-multiply", func(a, b float64) float64 { return a * b }, "Multiply a and b.", projection.WithParams("a", "b")),
		projection.MustDirect("math_ops.add", func(a, b int) int { return a + b }, "Add a and b.", projection.WithParams("a", "b")),
		projection.MustDirect("greet", func(in struct {
			Name string `json:"name"`
		}) string {
			return "hello " + in.Name
		}, "Greet."),
		projection.MustDirect("fail", func(map[string]any) (any, error) { return nil, errors.New("the tool's own error") }, "Always fails."),
		projection.MustDirect("boom", func(map[string]any) (any, error) { panic("tool exploded") }, "Panics."),
		projection.MustDirect("wait", func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }, "Blocks until cancelled."),
	}
	ns := map[string]projection.ToolProjection{}
	for _, p := range list {
		ns[p.Name()] = p
	}
	return ns
}

func exec(t testing.TB, code string, ns map[string]projection.ToolProjection, opts ...engine.Option) engine.CodeResult {
	t.Helper()
	if ns == nil {
		ns = mathNS(t)
	}
	res, err := engine.Execute(context.Background(), code, ns, opts...)
	require.NoError(t, err)
	return res
}

func TestExecute_ScriptContract(t *testing.T) {
	tests := []struct {
		name  string
		code  string
		out   string
		value any
	}{
		{"bare statements", `fmt.Println("hi", 1+1)`, "hi 2\n", nil},
		{"full program", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"full\")\n}\n", "full\n", nil},
		{"full program without imports", "package main\n\nfunc main() {\n\tfmt.Println(strings.ToUpper(\"auto\"))\n}\n", "AUTO\n", nil},
		{"namespaced tool", `r, err := math_ops.Multiply(map[string]any{"a": 6, "b": 7})
if err != nil { panic(err) }
fmt.Println(r)`, "42\n", nil},
		{"dot separator", `r, _ := math_ops.Add(map[string]any{"a": 2, "b": 3})
fmt.Println(r.(int) + 1)`, "6\n", nil},
		{"tool without namespace", `r, _ := tools.Greet(map[string]any{"name": "Ada"})
fmt.Println(r)`, "hello Ada\n", nil},
		{"dynamic call", `r, err := tools.Call("math_ops-multiply", map[string]any{"a": 2, "b": 2.5})
fmt.Println(r, err)`, "5 <nil>\n", nil},
		{"tools.Names", `fmt.Println(len(tools.Names()), tools.Names()[0])`, "6 boom\n", nil},
		{"tool error is an ordinary error", `_, err := tools.Fail(nil)
fmt.Println(err)`, "the tool's own error\n", nil},
		{"final expression is the value", "x := 20\nx * 2 + 2", "", 42},
		{"a final call of a builtin with a value is the value", "xs := []string{\"a\", \"b\"}\nlen(xs)", "", 2},
		{"result helper", `result(map[string]any{"ok": true})`, "", map[string]any{"ok": true}},
		{"result in full program", "package main\nfunc main() { result([]int{1, 2}) }", "", []int{1, 2}},
		{"print builtin and log go to the result", "println(\"x\")\nfmt.Print(\"y\\n\")", "x\ny\n", nil},
		{"os.Stdout is the result", `fmt.Fprintln(os.Stdout, "via os")`, "via os\n", nil},
		{"modern go", "s := 0\nfor i := range 4 { s += i }\nm := map[int]int{1: 1}\nclear(m)\nfmt.Println(s, min(3, 1), max(2, 5), len(m))", "6 1 5 0\n", nil},
		{"generics", "func Sum[T int | float64](xs []T) T { var s T; for _, x := range xs { s += x }; return s }\nfmt.Println(Sum([]int{1, 2, 3}), Sum([]float64{0.5, 0.25}))", "6 0.75\n", nil},
		{"slices and maps", "m := map[string]int{\"b\": 2, \"a\": 1}\nks := slices.Sorted(maps.Keys(m))\nfmt.Println(ks, slices.Contains(ks, \"b\"), slices.Max([]int{3, 9, 2}))", "[a b] true 9\n", nil},
		{"errors.As on script types", "type E struct{ code int }\nfunc (e *E) Error() string { return fmt.Sprint(\"code \", e.code) }\nerr := fmt.Errorf(\"wrapped: %w\", &E{7})\nvar e *E\nfmt.Println(errors.As(err, &e), e.code, err)", "true 7 wrapped: code 7\n", nil},
		{"switch on interface value", "var v any = \"b\"\nswitch v {\ncase \"a\":\n\tfmt.Println(\"A\")\ncase \"b\", \"c\":\n\tfmt.Println(\"B or C\")\n}", "B or C\n", nil},
		{"goroutines and waitgroup", "var wg sync.WaitGroup\nvar mu sync.Mutex\ntotal := 0.0\nfor i := range 5 {\n\twg.Add(1)\n\tgo func() {\n\t\tdefer wg.Done()\n\t\tr, _ := math_ops.Multiply(map[string]any{\"a\": i, \"b\": 2})\n\t\tmu.Lock()\n\t\ttotal += r.(float64)\n\t\tmu.Unlock()\n\t}()\n}\nwg.Wait()\nfmt.Println(total)", "20\n", nil},
		{"json", "b, _ := json.Marshal(map[string]any{\"a\": 1})\nfmt.Println(string(b))", "{\"a\":1}\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := exec(t, tt.code, nil)
			require.Equal(t, engine.CodeOK, res.ReturnCode, "error: %s", res.Error)
			assert.Empty(t, res.Error)
			assert.NoError(t, res.Err)
			assert.Equal(t, tt.out, res.Stdout)
			assert.Equal(t, tt.value, res.Value)
		})
	}
}

func TestExecute_Failures(t *testing.T) {
	tests := []struct {
		name    string
		code    string
		opts    []engine.Option
		rc      int
		msg     []string
		errIs   error
		errAs   any
		stdout  string
		ncalls  int
		maxTime time.Duration
	}{
		{name: "compile error with position", code: "x := 1\ny := undefinedThing(x)\nfmt.Println(y)", rc: engine.CodeError,
			msg: []string{"line 2:6: undefined: undefinedThing", "y := undefinedThing(x)", "^"}, errAs: new(*engine.ScriptError)},
		{name: "syntax error", code: "fmt.Println(\"a\"\nfmt.Println(2)", rc: engine.CodeError, msg: []string{"line 1:", "syntax error"}, errAs: new(*engine.ScriptError)},
		{name: "full program without main", code: "package main\nfunc helper() {}", rc: engine.CodeError, msg: []string{"needs func main"}},
		{name: "panic with line", code: "fmt.Println(\"before\")\n\npanic(\"boom\")", rc: engine.CodeError, msg: []string{"line 3:1: panic: boom"}, stdout: "before\n", errAs: new(*engine.PanicError)},
		{name: "panic with tool error keeps its message", code: "_, err := tools.Fail(nil)\nif err != nil {\n\tpanic(err)\n}", rc: engine.CodeError, msg: []string{"line 3:2: panic: the tool's own error"}, ncalls: 1},
		{name: "runtime error", code: "var m map[string]int\nm[\"a\"] = 1", rc: engine.CodeError, msg: []string{"panic: assignment to entry in nil map"}},
		{name: "os.Exit", code: "fmt.Println(\"bye\")\nos.Exit(3)", rc: 3, msg: []string{"exit status 3"}, stdout: "bye\n", errAs: new(*engine.ExitError)},
		{name: "os.Exit(0) is success", code: "fmt.Println(\"ok\")\nos.Exit(0)\nfmt.Println(\"not reached\")", rc: engine.CodeOK, stdout: "ok\n"},
		{name: "log.Fatal", code: "log.Fatal(\"fatal thing\")", rc: 1, msg: []string{"exit status 1"}},
		{name: "import os/exec", code: "import \"os/exec\"\nexec.Command(\"ls\").Run()", rc: engine.CodeError, msg: []string{"line 1:8", `"os/exec" is not available`}, errIs: engine.ErrImportNotAllowed},
		{name: "import unsafe", code: "package main\nimport \"unsafe\"\nfunc main() { _ = unsafe.Pointer(nil) }", rc: engine.CodeError, msg: []string{"line 2:8", `"unsafe" is not available`}, errIs: engine.ErrImportNotAllowed},
		{name: "import net", code: "import \"net\"\nnet.Dial(\"tcp\", \"x:1\")", rc: engine.CodeError, errIs: engine.ErrImportNotAllowed},
		{name: "relative import", code: "import \"./secrets\"\nsecrets.X()", rc: engine.CodeError, errIs: engine.ErrImportNotAllowed},
		{name: "reserved name", code: "__ts := 1\nfmt.Println(__ts)", rc: engine.CodeError, msg: []string{"__ts is reserved"}},
		{name: "unknown tool", code: "_, err := tools.Call(\"nope\", nil)\nfmt.Println(err)\npanic(err)", rc: engine.CodeError, msg: []string{`tool "nope"`, "unknown tool"}, errIs: engine.ErrUnknownTool},
		{name: "unknown tool function", code: "math_ops.Divide(map[string]any{})", rc: engine.CodeError, msg: []string{"line 1:10: undefined: math_ops.Divide (package math_ops has Add, Multiply)"}},
		{name: "wrong type assertion", code: "r, _ := tools.Greet(map[string]any{\"name\": \"x\"})\nn := r.([]any)\nfmt.Println(n)", rc: engine.CodeError,
			msg: []string{"line 2:6: panic: interface conversion: interface {} is string, not []interface {}"}, ncalls: 1},
		{name: "wrong argument type", code: "_, err := math_ops.Multiply(map[string]any{\"a\": \"two\", \"b\": 3})\npanic(err)", rc: engine.CodeError,
			msg: []string{`tool "math_ops-multiply"`, `argument "a"`, "cannot use string"}, errIs: projection.ErrBadArgument, ncalls: 1},
		{name: "tool panic", code: "_, err := tools.Boom(nil)\nfmt.Println(err)", rc: engine.CodeOK, stdout: "tool \"boom\": panic: tool exploded\n", ncalls: 1},
		{name: "infinite loop", code: "for {}", opts: []engine.Option{engine.WithTimeout(100 * time.Millisecond)}, rc: engine.CodeTimeout,
			msg: []string{"timeout", "100ms"}, errIs: context.DeadlineExceeded, maxTime: 5 * time.Second},
		// A deadlock is reported at once, as Go's runtime does, long
		// before the timeout.
		{name: "select forever", code: "select {}", opts: []engine.Option{engine.WithTimeout(time.Minute)}, rc: engine.CodeDeadlock, msg: []string{"fatal error: all goroutines are asleep - deadlock!", "goroutine [select (no cases)]:\n\tline 1\n"}, errAs: new(*engine.DeadlockError), maxTime: 10 * time.Second},
		{name: "blocked channel", code: "ch := make(chan int)\n<-ch", opts: []engine.Option{engine.WithTimeout(time.Minute)}, rc: engine.CodeDeadlock, msg: []string{"goroutine [chan receive]:\n\tline 2\n"}, errAs: new(*engine.DeadlockError), maxTime: 10 * time.Second},
		{name: "sleep is cut short", code: "time.Sleep(time.Hour)", opts: []engine.Option{engine.WithTimeout(50 * time.Millisecond)}, rc: engine.CodeTimeout, errIs: context.DeadlineExceeded, maxTime: 5 * time.Second},
		// The deadline (set-up included) leaves the script time to print
		// and call the tool on a loaded machine.
		{name: "blocked tool gets the deadline", code: "fmt.Println(\"start\")\ntools.Wait(nil)", opts: []engine.Option{engine.WithTimeout(time.Second)}, rc: engine.CodeTimeout,
			errIs: context.DeadlineExceeded, stdout: "start\n", ncalls: 1, maxTime: 5 * time.Second},
		{name: "tool call limit", code: "for i := 0; ; i++ {\n\tif _, err := math_ops.Add(map[string]any{\"a\": i, \"b\": 1}); err != nil {\n\t\tfmt.Println(\"stopped at\", i)\n\t\tbreak\n\t}\n}",
			opts: []engine.Option{engine.WithLimits(engine.Limits{MaxToolCalls: 5})}, rc: engine.CodeLimit, msg: []string{"MaxToolCalls (5)"}, errIs: engine.ErrLimitExceeded, errAs: new(*engine.LimitError), ncalls: 5},
		{name: "unbounded recursion", code: "func f(n int) int { return f(n+1) + 1 }\nfmt.Println(f(0))", rc: engine.CodeLimit,
			msg: []string{"MaxCallDepth (10000)", "in function f"}, errIs: engine.ErrLimitExceeded, maxTime: 20 * time.Second},
		{name: "mutual recursion", code: "func ping(n int) int { return pong(n) + 1 }\nfunc pong(n int) int { return ping(n) }\nping(1)", opts: []engine.Option{engine.WithLimits(engine.Limits{MaxCallDepth: 100})},
			rc: engine.CodeLimit, msg: []string{"MaxCallDepth (100)"}, maxTime: 20 * time.Second},
		{name: "recursive closure", code: "var f func(int) int\nf = func(n int) int { return f(n+1) }\nf(0)", opts: []engine.Option{engine.WithLimits(engine.Limits{MaxCallDepth: 50})},
			rc: engine.CodeLimit, msg: []string{"MaxCallDepth (50) in function f"}, maxTime: 20 * time.Second},
		{name: "huge make", code: "b := make([]byte, 1<<40)\nfmt.Println(len(b))", rc: engine.CodeLimit, msg: []string{"MaxAllocLen", "make of length 1099511627776"}},
		{name: "huge make from a variable", code: "n := 1 << 40\nm := make(map[int]int, n)\nfmt.Println(len(m))", rc: engine.CodeLimit, msg: []string{"MaxAllocLen"}},
		{name: "huge repeat", code: "fmt.Println(len(strings.Repeat(\"ab\", 1<<40)))", rc: engine.CodeLimit, msg: []string{"MaxAllocLen", "Repeat"}},
		{name: "memory growth", code: "s := \"x\"\nfor { s += s }", opts: []engine.Option{engine.WithLimits(engine.Limits{MaxMemoryBytes: 64 << 20})},
			rc: engine.CodeLimit, msg: []string{"MaxMemoryBytes (67108864)", "heap grew"}, maxTime: 20 * time.Second},
		{name: "panic in a goroutine", code: "go func() {\n\tpanic(\"in goroutine\")\n}()\ntime.Sleep(time.Hour)", rc: engine.CodeError,
			msg: []string{"panic: in goroutine", "goroutine"}, errAs: new(*engine.PanicError), maxTime: 20 * time.Second},
		{name: "runtime error in a goroutine", code: "done := make(chan bool)\ngo func() {\n\tvar m map[string]int\n\tm[\"x\"] = 1\n\tdone <- true\n}()\n<-done", rc: engine.CodeError,
			msg: []string{"nil map"}, maxTime: 20 * time.Second},
		{name: "goroutine bomb", code: "for {\n\tgo func() { time.Sleep(time.Hour) }()\n}", rc: engine.CodeLimit, msg: []string{"MaxGoroutines (1000)"}, maxTime: 20 * time.Second},
		{name: "goroutines of a named function", code: "var wg sync.WaitGroup\nout := make([]int, 4)\nsq := func(i int, o []int) { defer wg.Done(); o[i] = i * i }\nfor i := range 4 {\n\twg.Add(1)\n\tgo sq(i, out)\n}\nwg.Wait()\nfmt.Println(out)",
			rc: engine.CodeOK, stdout: "[0 1 4 9]\n"},
		{name: "output flood", code: "for {\n\tfmt.Println(strings.Repeat(\"x\", 1000))\n}", opts: []engine.Option{engine.WithLimits(engine.Limits{MaxOutputBytes: 10_000})},
			rc: engine.CodeLimit, msg: []string{"MaxOutputBytes (10000)"}, errIs: engine.ErrLimitExceeded, maxTime: 20 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			res := exec(t, tt.code, nil, tt.opts...)
			if tt.maxTime > 0 {
				assert.Less(t, time.Since(start), tt.maxTime, "the execution must end within its bound")
			}
			require.Equal(t, tt.rc, res.ReturnCode, "error: %s", res.Error)
			for _, m := range tt.msg {
				assert.Contains(t, res.Error, m)
			}
			if tt.rc != engine.CodeOK {
				require.Error(t, res.Err)
				assert.Equal(t, res.Err.Error(), res.Error)
			}
			if tt.errIs != nil {
				assert.ErrorIs(t, res.Err, tt.errIs)
			}
			if tt.errAs != nil {
				assert.ErrorAs(t, res.Err, tt.errAs)
			}
			if tt.stdout != "" {
				assert.Equal(t, tt.stdout, res.Stdout)
			}
			assert.Len(t, res.ToolCalls, tt.ncalls)
			// The next execution works.
			next := exec(t, `fmt.Println("next")`, nil)
			assert.Equal(t, "next\n", next.Stdout)
		})
	}
}

func TestExecute_MaxParallelTools(t *testing.T) {
	var mu sync.Mutex
	cur, peak, closed := 0, 0, false
	// Every call waits until three have run at once (or, if they cannot,
	// for 10 s), so the calls overlap however the goroutines are scheduled.
	full := make(chan struct{})
	slow := projection.MustDirect("slow", func(map[string]any) (any, error) {
		mu.Lock()
		cur++
		peak = max(peak, cur)
		if cur == 3 && peak == 3 && !closed {
			close(full) // once: later calls may bring cur to 3 again
			closed = true
		}
		mu.Unlock()
		select {
		case <-full:
		case <-time.After(10 * time.Second):
		}
		mu.Lock()
		cur--
		mu.Unlock()
		return nil, nil
	}, "")
	ns := map[string]projection.ToolProjection{"slow": slow}
	code := "var wg sync.WaitGroup\nfor range 12 {\n\twg.Add(1)\n\tgo func() { defer wg.Done(); tools.Slow(nil) }()\n}\nwg.Wait()"
	res := exec(t, code, ns, engine.WithLimits(engine.Limits{MaxParallelTools: 3}))
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Len(t, res.ToolCalls, 12)
	assert.Equal(t, 3, peak, "calls run in parallel up to the limit, not past it")
}

func TestLimits_Unlimited(t *testing.T) {
	res := exec(t, "for i := 0; i < 30; i++ { tools.Greet(map[string]any{\"name\": \"x\"}) }\nfmt.Println(strings.Repeat(\"z\", 20))", nil,
		engine.WithLimits(engine.Limits{MaxToolCalls: engine.Unlimited, MaxOutputBytes: engine.Unlimited, MaxAllocLen: engine.Unlimited, MaxCallDepth: engine.Unlimited, MaxGoroutines: engine.Unlimited, MaxParallelTools: engine.Unlimited, MaxMemoryBytes: engine.Unlimited}))
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Len(t, res.ToolCalls, 30)
	// And small limits trip.
	res = exec(t, "fmt.Println(strings.Repeat(\"z\", 20))", nil, engine.WithLimits(engine.Limits{MaxAllocLen: 10}))
	assert.Equal(t, engine.CodeLimit, res.ReturnCode)
}

func TestExecute_OutputFloodIsTruncated(t *testing.T) {
	// 100 MB requested; the default limit keeps 1 MiB and stops the script.
	res := exec(t, "chunk := strings.Repeat(\"y\", 1<<20)\nfor i := 0; i < 100; i++ { fmt.Print(chunk) }", nil)
	require.Equal(t, engine.CodeLimit, res.ReturnCode)
	assert.True(t, res.StdoutTruncated)
	assert.Len(t, res.Stdout, engine.DefaultMaxOutputBytes)
	assert.Contains(t, res.Error, "MaxOutputBytes")
}

func TestExecute_ToolCallTrace(t *testing.T) {
	res := exec(t, "math_ops.Multiply(map[string]any{\"a\": 2, \"b\": 3})\ntools.Fail(nil)\ntools.Greet(map[string]any{\"name\": \"x\"})", nil)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	require.Len(t, res.ToolCalls, 3)
	assert.Equal(t, "math_ops-multiply", res.ToolCalls[0].Name)
	assert.Equal(t, map[string]any{"a": 2, "b": 3}, res.ToolCalls[0].Args)
	assert.Empty(t, res.ToolCalls[0].Error)
	assert.Equal(t, "fail", res.ToolCalls[1].Name)
	assert.Equal(t, "the tool's own error", res.ToolCalls[1].Error)
	assert.Equal(t, "greet", res.ToolCalls[2].Name)
	for _, c := range res.ToolCalls {
		assert.Positive(t, c.Duration)
	}
	assert.Positive(t, res.Duration)
}

func TestExecute_ResultsOfToolsThatRanAreKept(t *testing.T) {
	res := exec(t, "r, _ := math_ops.Multiply(map[string]any{\"a\": 2, \"b\": 3})\nfmt.Println(r)\nresult(r)\nvar s []int\n_ = s[3]", nil)
	require.Equal(t, engine.CodeError, res.ReturnCode)
	assert.Equal(t, "6\n", res.Stdout)
	assert.Equal(t, 6.0, res.Value)
	assert.Len(t, res.ToolCalls, 1)
}

func TestExecute_ExtraGlobals(t *testing.T) {
	res := exec(t, "fmt.Println(userID, Greeting)", nil, engine.WithExtraGlobals(map[string]any{"userID": 7, "Greeting": "hi", "math_ops": "shadowed"}))
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Equal(t, "7 hi\n", res.Stdout)
	// A tool wins a clash: math_ops is still the tool package.
	res = exec(t, "r, _ := math_ops.Multiply(map[string]any{\"a\": 2, \"b\": 2})\nfmt.Println(r)", nil, engine.WithExtraGlobals(map[string]any{"math_ops": "shadowed"}))
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Equal(t, "4\n", res.Stdout)

	_, err := engine.Execute(context.Background(), "1", nil, engine.WithExtraGlobals(map[string]any{"not an ident": 1}))
	require.Error(t, err)
}

func TestExecute_PackageVariablesAreReadOnly(t *testing.T) {
	before := time.Local
	for _, code := range []string{"time.Local = time.UTC", "errors.ErrUnsupported = nil", "p := &unicode.Upper\n_ = p"} {
		res := exec(t, code, nil)
		require.Equal(t, engine.CodeError, res.ReturnCode, code)
		assert.Contains(t, res.Error, "package variables are read-only", code)
		assert.Contains(t, res.Error, "line 1:", code)
	}
	assert.Same(t, before, time.Local, "the host's time.Local must not change")
	assert.NotNil(t, errors.ErrUnsupported)
	// Reading them works.
	res := exec(t, "fmt.Println(time.UTC.String(), errors.ErrUnsupported)", nil)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Equal(t, "UTC unsupported operation\n", res.Stdout)
}

func TestExecute_Misuse(t *testing.T) {
	p := projection.MustDirect("x", func() {}, "")
	_, err := engine.Execute(context.Background(), "1", map[string]projection.ToolProjection{"y": p})
	require.ErrorIs(t, err, projection.ErrNamespaceMismatch)

	e := engine.New(engine.Config{})
	require.NoError(t, e.Close())
	_, err = e.Execute(context.Background(), "1", nil)
	require.ErrorIs(t, err, engine.ErrClosed)

	assert.Panics(t, func() {
		//nolint:staticcheck // testing the nil-context contract
		_, _ = engine.Execute(nil, "1", nil) //lint:ignore SA1012 tested on purpose
	})
}

func TestExecute_CallerCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	// The script cancels through a tool, so the cancellation comes while
	// it runs.
	ns := map[string]projection.ToolProjection{"cancel": projection.MustDirect("cancel", func(map[string]any) (any, error) { cancel(); return nil, nil }, "")}
	res, err := engine.Execute(ctx, "tools.Cancel(nil)\nfor {}", ns)
	require.NoError(t, err)
	assert.Equal(t, engine.CodeTimeout, res.ReturnCode)
	assert.ErrorIs(t, res.Err, context.Canceled)
}

func TestExecute_GoroutinesAreStoppedAtTheEnd(t *testing.T) {
	before := goleak.IgnoreCurrent()
	res := exec(t, "go func() { for { } }()\nch := make(chan int)\ngo func() { <-ch }()\ngo func() { time.Sleep(time.Hour) }()\nfmt.Println(\"done\")", nil)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Equal(t, "done\n", res.Stdout)
	var leak error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if leak = goleak.Find(before); leak == nil {
			break
		}
	}
	require.NoError(t, leak, "the script's goroutines must end with the execution")
}

func TestExecute_MaxConcurrent(t *testing.T) {
	e := engine.New(engine.Config{MaxConcurrent: 1})
	started, release := make(chan struct{}), make(chan struct{})
	hold := projection.MustDirect("hold", func(ctx context.Context) error {
		close(started)
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil
	}, "")
	ns := map[string]projection.ToolProjection{"hold": hold}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		res, _ := e.Execute(context.Background(), "tools.Hold(nil)", ns)
		assert.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	}()
	<-started // the only slot is taken
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	res, err := e.Execute(ctx, "1", nil)
	require.NoError(t, err)
	assert.Equal(t, engine.CodeTimeout, res.ReturnCode)
	assert.Contains(t, res.Error, "slot")
	close(release)
	wg.Wait()
	// The slot is free again.
	res, err = e.Execute(context.Background(), "1", nil)
	require.NoError(t, err)
	assert.Equal(t, engine.CodeOK, res.ReturnCode)
}

// TestEngine_Hammer runs many executions at once on one engine and one
// namespace; run it with -race.
func TestEngine_Hammer(t *testing.T) {
	e := engine.New(engine.Config{})
	ns := demo.Namespace()
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code := fmt.Sprintf("c, err := customers.Get(map[string]any{\"id\": %d})\nif err != nil { panic(err) }\nfmt.Println(c.(map[string]any)[\"id\"])\nr, _ := math_ops.Multiply(map[string]any{\"a\": %d, \"b\": 2})\nresult(r)", i%20+1, i)
			// Some time out on purpose; the others get a deadline that
			// 40 executions at once on a loaded machine cannot miss.
			timeout := time.Minute
			if i%7 == 0 {
				code, timeout = "for {}", 500*time.Millisecond
			}
			res, err := e.Execute(context.Background(), code, ns, engine.WithTimeout(timeout))
			assert.NoError(t, err)
			if i%7 == 0 {
				assert.Equal(t, engine.CodeTimeout, res.ReturnCode)
				return
			}
			assert.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
			assert.Equal(t, fmt.Sprintf("%d\n", i%20+1), res.Stdout)
			assert.Equal(t, float64(i*2), res.Value)
			assert.Len(t, res.ToolCalls, 2)
		}()
	}
	wg.Wait()
}

func TestDescribe(t *testing.T) {
	d := engine.Describe(mathNS(t))
	for _, want := range []string{"package math_ops", "func Multiply(args MultiplyArgs) (float64, error)", "Multiply a and b.", "package tools", "func Greet(", "func Call(name string, args map[string]any) (any, error)"} {
		assert.Contains(t, d, want)
	}
	assert.Less(t, strings.Index(d, "package math_ops"), strings.Index(d, "package tools"))
}

func TestNames(t *testing.T) {
	tests := []struct{ in, pkg, fn string }{
		{"math_ops", "math_ops", ""},
		{"", "tools", ""},
		{"My-Service.v2", "my_service_v2", ""},
		{"2fa", "_2fa", ""},
		{"func", "func_", ""},
		{"_", "ns_", ""},
		{"_decorator", "_decorator", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.pkg, engine.PackageName(tt.in), tt.in)
	}
	for in, want := range map[string]string{"multiply": "Multiply", "get_user_info": "GetUserInfo", "getUser": "GetUser", "list-all": "ListAll", "3d": "T3d", "": "Tool"} {
		assert.Equal(t, want, engine.FuncName(in), in)
	}
}
