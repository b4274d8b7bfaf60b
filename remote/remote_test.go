package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

func TestMain(m *testing.M) {
	engine.MaybeServeWorker()
	os.Exit(m.Run())
}

// startServer starts an embedded NATS server on a random loopback port.
func startServer(t testing.TB) *server.Server {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	require.NoError(t, err)
	go s.Start()
	require.True(t, s.ReadyForConnections(10*time.Second), "the NATS server did not start")
	t.Cleanup(func() {
		s.Shutdown()
		s.WaitForShutdown()
	})
	return s
}

func connect(t testing.TB, s *server.Server) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(s.ClientURL())
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	return nc
}

// testWorker is a worker on its own connection, with its own isolated
// runtime (one worker process).
type testWorker struct {
	*Worker
	nc  *nats.Conn
	iso *engine.Isolated
}

// kill ends the worker as a crash would: its connection drops at once and
// its running executions stop without reporting.
func (w *testWorker) kill() {
	w.nc.Close()
	w.cancel()
	w.runs.Wait()
}

func startWorker(t testing.TB, s *server.Server, cfg WorkerConfig) *testWorker {
	t.Helper()
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: max(cfg.Concurrency, 1)})
	require.NoError(t, err)
	nc := connect(t, s)
	cfg.Runtime = iso
	w, err := NewWorker(nc, cfg)
	require.NoError(t, err)
	tw := &testWorker{Worker: w, nc: nc, iso: iso}
	t.Cleanup(func() {
		_ = w.Close()
		nc.Close()
		pids := iso.WorkerPIDs()
		require.NoError(t, iso.Close())
		for _, pid := range pids {
			assert.Error(t, syscall.Kill(pid, 0), "worker process %d outlived Close", pid)
		}
	})
	return tw
}

// fastHost is a host with short heartbeats, so that a lost worker is
// noticed within about 3s (a loaded machine may delay a beat by a
// second, which must not look like a lost worker).
func fastHost(t testing.TB, s *server.Server) *Runtime {
	return New(connect(t, s), Config{DispatchTimeout: 500 * time.Millisecond, Heartbeat: 100 * time.Millisecond, MissedHeartbeats: 30})
}

func tool(name string, fn any, params ...string) projection.ToolProjection {
	var opts []projection.DirectOption
	if len(params) > 0 {
		opts = append(opts, projection.WithParams(params...))
	}
	return projection.MustDirect(name, fn, name+".", opts...)
}

func nsOf(ps ...projection.ToolProjection) map[string]projection.ToolProjection {
	ns := map[string]projection.ToolProjection{}
	for _, p := range ps {
		ns[p.Name()] = p
	}
	return ns
}

func mathNS() map[string]projection.ToolProjection {
	return nsOf(
		tool("math_ops-multiply", func(a, b float64) float64 { return a * b }, "a", "b"),
		tool("math_ops.add", func(a, b int) int { return a + b }, "a", "b"),
		projection.MustDirect("greet", func(in struct {
			Name string `json:"name"`
		}) string {
			return "hello " + in.Name
		}, "Greet."),
		tool("fail", func(map[string]any) (any, error) { return nil, errors.New("the tool's own error") }),
		tool("boom", func(map[string]any) (any, error) { panic("tool exploded") }),
		tool("wait", func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }),
	)
}

// TestSameResult runs a table of ordinary scripts in process and on the
// fleet and requires the same CodeResult.
func TestSameResult(t *testing.T) {
	s := startServer(t)
	startWorker(t, s, WorkerConfig{Concurrency: 2})
	rt := New(connect(t, s), Config{})
	local := engine.New(engine.Config{})
	short := engine.WithTimeout(time.Second)
	tests := []struct {
		name string
		code string
		opts []engine.Option
		rc   int
	}{
		{name: "print", code: `fmt.Println("hi", 1+1, 2.5, []int{1, 2}, map[string]int{"a": 1})`},
		{name: "stderr", code: `fmt.Fprintln(os.Stderr, "to stderr"); print("builtin\n")`},
		{name: "namespaced tool", code: "r, err := math_ops.Multiply(map[string]any{\"a\": 6, \"b\": 7})\nfmt.Printf(\"%v %T %v\\n\", r, r, err)"},
		{name: "int tool result stays int", code: "r, _ := math_ops.Add(map[string]any{\"a\": 2, \"b\": 3})\nfmt.Printf(\"%v %T\\n\", r, r)\nresult(r.(int) + 1)"},
		{name: "struct-argument tool", code: `r, _ := tools.Greet(map[string]any{"name": "Ada"}); fmt.Println(r)`},
		{name: "tools.Names", code: `fmt.Println(tools.Names())`},
		{name: "tool error", code: "_, err := tools.Fail(nil)\nfmt.Println(err)"},
		{name: "tool panic", code: "_, err := tools.Boom(nil)\nfmt.Println(err)"},
		{name: "value map", code: `result(map[string]any{"ok": true, "n": 1, "f": 2.0, "s": "x", "l": []any{1, "a", nil}})`},
		{name: "value []int", code: `result([]int{1, 2})`},
		{name: "goroutines and tools", code: "var wg sync.WaitGroup\nvar mu sync.Mutex\ntotal := 0.0\nfor i := range 5 {\n\twg.Add(1)\n\tgo func() {\n\t\tdefer wg.Done()\n\t\tr, _ := math_ops.Multiply(map[string]any{\"a\": i, \"b\": 2})\n\t\tmu.Lock()\n\t\ttotal += r.(float64)\n\t\tmu.Unlock()\n\t}()\n}\nwg.Wait()\nfmt.Println(total)"},
		{name: "compile error", code: "x := 1\ny := undefinedThing(x)\nfmt.Println(y)", rc: engine.CodeError},
		{name: "panic with line", code: "fmt.Println(\"before\")\n\npanic(\"boom\")", rc: engine.CodeError},
		{name: "panic with tool error", code: "_, err := tools.Fail(nil)\nif err != nil {\n\tpanic(err)\n}", rc: engine.CodeError},
		{name: "os.Exit", code: "fmt.Println(\"bye\")\nos.Exit(3)", rc: 3},
		{name: "import not allowed", code: "import \"os/exec\"\nexec.Command(\"ls\").Run()", rc: engine.CodeError},
		{name: "wrong argument type", code: "_, err := math_ops.Multiply(map[string]any{\"a\": \"two\", \"b\": 3})\npanic(err)", rc: engine.CodeError},
		{name: "blocked tool gets the deadline", code: "fmt.Println(\"start\")\ntools.Wait(nil)\nselect {}", opts: []engine.Option{short}, rc: engine.CodeTimeout},
		{name: "tool call limit", code: "for i := 0; ; i++ {\n\tif _, err := math_ops.Add(map[string]any{\"a\": i, \"b\": 1}); err != nil {\n\t\tbreak\n\t}\n}",
			opts: []engine.Option{engine.WithLimits(engine.Limits{MaxToolCalls: 5})}, rc: engine.CodeLimit},
		{name: "extra globals", code: "fmt.Println(userID, Greeting, Tags)", opts: []engine.Option{engine.WithExtraGlobals(map[string]any{"userID": 7, "Greeting": "hi", "Tags": []string{"a"}})}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := local.Execute(context.Background(), tt.code, mathNS(), tt.opts...)
			require.NoError(t, err)
			got, err := rt.Execute(context.Background(), tt.code, mathNS(), tt.opts...)
			require.NoError(t, err)
			require.Equal(t, tt.rc, got.ReturnCode, got.Error)
			assert.Equal(t, summary(want), summary(got))
			if want.Err != nil {
				assert.IsType(t, want.Err, got.Err)
			}
		})
	}
}

type comparable struct {
	Stdout, Stderr string
	ReturnCode     int
	Error          string
	Value          any
	Calls          []string
}

func summary(r engine.CodeResult) comparable {
	c := comparable{Stdout: r.Stdout, Stderr: r.Stderr, ReturnCode: r.ReturnCode, Error: r.Error, Value: r.Value}
	for _, tc := range r.ToolCalls {
		args, _ := json.Marshal(tc.Args)
		msg := tc.Error
		if msg == engine.ErrCallUnfinished.Error() {
			msg = context.DeadlineExceeded.Error()
		}
		c.Calls = append(c.Calls, fmt.Sprintf("%s %s %q", tc.Name, args, msg))
	}
	sortStrings(c.Calls)
	return c
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// TestSpread: executions spread over the workers, each counted.
func TestSpread(t *testing.T) {
	before := goleak.IgnoreCurrent()
	func() {
		s := startServer(t)
		var ws []*testWorker
		for range 3 {
			ws = append(ws, startWorker(t, s, WorkerConfig{Concurrency: 1}))
		}
		rt := New(connect(t, s), Config{})
		var calls atomic.Int64
		ns := nsOf(tool("step", func() int { return int(calls.Add(1)) }))
		const n = 24
		var wg sync.WaitGroup
		results := make([]engine.CodeResult, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := rt.Execute(context.Background(), fmt.Sprintf("v, _ := tools.Step()\nfmt.Println(%d)\nresult(v)", i), ns)
				assert.NoError(t, err)
				results[i] = res
			}()
		}
		wg.Wait()
		for i, r := range results {
			require.Equal(t, engine.CodeOK, r.ReturnCode, r.Error)
			assert.Equal(t, fmt.Sprintf("%d\n", i), r.Stdout)
			require.Len(t, r.ToolCalls, 1)
		}
		assert.EqualValues(t, n, calls.Load(), "every tool call ran once")
		var total int64
		for i, w := range ws {
			c := w.Stats().Completed
			t.Logf("worker %d ran %d executions", i, c)
			assert.Positive(t, c, "worker %d took none", i)
			total += c
		}
		assert.EqualValues(t, n, total, "each execution ran once")
		for _, w := range ws {
			require.NoError(t, w.Close())
		}
	}()
	// The cleanups above (server, connections, isolated pools) run at
	// the end of the test; leaks are checked by TestNoLeak.
	_ = before
}

// TestNoLeak: a fleet started and stopped leaves no goroutine behind.
func TestNoLeak(t *testing.T) {
	before := goleak.IgnoreCurrent()
	t.Run("fleet", func(t *testing.T) {
		s := startServer(t)
		startWorker(t, s, WorkerConfig{Concurrency: 2})
		rt := New(connect(t, s), Config{})
		res, err := rt.Execute(context.Background(), `r, _ := math_ops.Add(map[string]any{"a": 1, "b": 2}); r`, mathNS())
		require.NoError(t, err)
		require.Equal(t, 3, res.Value)
	})
	goleak.VerifyNone(t, before)
}

// TestWorkerKilled_MidExecution: a worker that dies after a tool call ran
// gives a clear error and the trace of the calls that ran, none twice.
func TestWorkerKilled_MidExecution(t *testing.T) {
	s := startServer(t)
	w := startWorker(t, s, WorkerConfig{})
	rt := fastHost(t, s)
	var steps atomic.Int64
	blocked := make(chan struct{})
	ns := nsOf(
		tool("step", func() int { return int(steps.Add(1)) }),
		tool("block", func(ctx context.Context) error { close(blocked); <-ctx.Done(); return ctx.Err() }),
	)
	go func() {
		<-blocked
		w.kill()
	}()
	start := time.Now()
	res, err := rt.Execute(context.Background(), "tools.Step()\ntools.Block()\nfmt.Println(\"never\")", ns, engine.WithTimeout(time.Minute))
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 30*time.Second)
	assert.Equal(t, engine.CodeCrash, res.ReturnCode)
	assert.ErrorIs(t, res.Err, ErrWorkerLost)
	assert.Contains(t, res.Error, "2 tool calls ran")
	require.Len(t, res.ToolCalls, 2)
	assert.Equal(t, "step", res.ToolCalls[0].Name)
	assert.Empty(t, res.ToolCalls[0].Error)
	assert.Equal(t, "block", res.ToolCalls[1].Name)
	assert.EqualValues(t, 1, steps.Load(), "no tool call ran twice")
}

// TestWorkerKilled_BeforeStart: a worker that dies after it received an
// execution but before it claimed it: the execution runs on another.
func TestWorkerKilled_BeforeStart(t *testing.T) {
	s := startServer(t)
	got := make(chan struct{})
	var a *testWorker
	a = startWorker(t, s, WorkerConfig{beforeClaim: func() bool {
		a.nc.Close()
		close(got)
		return false
	}})
	rt := fastHost(t, s)
	var steps atomic.Int64
	ns := nsOf(tool("step", func() int { return int(steps.Add(1)) }))
	bc := make(chan *testWorker, 1)
	go func() {
		<-got
		bc <- startWorker(t, s, WorkerConfig{})
	}()
	res, err := rt.Execute(context.Background(), "tools.Step()\nfmt.Println(\"ran\")", ns)
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Equal(t, "ran\n", res.Stdout)
	assert.EqualValues(t, 1, steps.Load())
	assert.EqualValues(t, 0, a.Stats().Completed)
	assert.EqualValues(t, 1, (<-bc).Stats().Completed, "retried on the other worker")
}

// TestCancel: a host cancelling its context stops the script on the
// worker within the grace period.
func TestCancel(t *testing.T) {
	s := startServer(t)
	w := startWorker(t, s, WorkerConfig{})
	rt := New(connect(t, s), Config{})
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	ns := nsOf(tool("started", func() { close(started) }))
	go func() {
		<-started
		cancel()
	}()
	start := time.Now()
	res, err := rt.Execute(ctx, "tools.Started()\nfor {}", ns, engine.WithTimeout(time.Minute))
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 20*time.Second)
	assert.Equal(t, engine.CodeTimeout, res.ReturnCode, res.Error)
	assert.ErrorIs(t, res.Err, context.Canceled)
	require.Eventually(t, func() bool { return w.Stats().Running == 0 }, 10*time.Second, 10*time.Millisecond)
}

// TestDeadline: the timeout travels with the request.
func TestDeadline(t *testing.T) {
	s := startServer(t)
	startWorker(t, s, WorkerConfig{})
	rt := New(connect(t, s), Config{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	res, err := rt.Execute(ctx, "for {}", nil, engine.WithTimeout(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, engine.CodeTimeout, res.ReturnCode, res.Error)
	assert.ErrorIs(t, res.Err, context.DeadlineExceeded)
}

// TestSlowTool: a tool slower than the heartbeats does not look like a
// lost worker.
func TestSlowTool(t *testing.T) {
	s := startServer(t)
	startWorker(t, s, WorkerConfig{})
	rt := fastHost(t, s)
	ns := nsOf(tool("slow", func() string { time.Sleep(1500 * time.Millisecond); return "done" }))
	res, err := rt.Execute(context.Background(), "r, _ := tools.Slow()\nresult(r)", ns)
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Equal(t, "done", res.Value)
	require.Len(t, res.ToolCalls, 1)
	assert.GreaterOrEqual(t, res.ToolCalls[0].Duration, 1500*time.Millisecond)
}

// TestFlood: more executions than the fleet runs at once wait in their
// hosts; all run, once each.
func TestFlood(t *testing.T) {
	s := startServer(t)
	w1 := startWorker(t, s, WorkerConfig{Concurrency: 1})
	w2 := startWorker(t, s, WorkerConfig{Concurrency: 1})
	rt := New(connect(t, s), Config{})
	var calls atomic.Int64
	ns := nsOf(tool("slow", func() int { time.Sleep(20 * time.Millisecond); return int(calls.Add(1)) }))
	const n = 16
	var wg sync.WaitGroup
	var ok atomic.Int64
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := rt.Execute(context.Background(), "tools.Slow()", ns)
			if assert.NoError(t, err) && assert.Equal(t, engine.CodeOK, res.ReturnCode, res.Error) {
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	assert.EqualValues(t, n, ok.Load())
	assert.EqualValues(t, n, calls.Load())
	assert.EqualValues(t, n, w1.Stats().Completed+w2.Stats().Completed)
	assert.Positive(t, w1.Stats().Busy+w2.Stats().Busy, "the fleet was full at some point")
}

// TestDrain: a draining worker finishes what it runs and takes nothing new.
func TestDrain(t *testing.T) {
	s := startServer(t)
	a := startWorker(t, s, WorkerConfig{})
	rt := New(connect(t, s), Config{})
	entered, release := make(chan struct{}), make(chan struct{})
	ns := nsOf(tool("hold", func() string { close(entered); <-release; return "held" }), tool("quick", func() int { return 1 }))
	first := make(chan engine.CodeResult, 1)
	go func() {
		res, _ := rt.Execute(context.Background(), "r, _ := tools.Hold()\nresult(r)", ns)
		first <- res
	}()
	<-entered
	drained := make(chan error, 1)
	go func() { drained <- a.Drain(context.Background()) }()
	require.Eventually(t, func() bool { return a.Stats().Draining }, 10*time.Second, time.Millisecond)
	b := startWorker(t, s, WorkerConfig{})
	res, err := rt.Execute(context.Background(), "tools.Quick()", ns)
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.EqualValues(t, 1, b.Stats().Completed)
	select {
	case err := <-drained:
		t.Fatalf("Drain returned (%v) while an execution ran", err)
	default:
	}
	close(release)
	r1 := <-first
	require.Equal(t, engine.CodeOK, r1.ReturnCode, r1.Error)
	assert.Equal(t, "held", r1.Value)
	require.NoError(t, <-drained)
	assert.EqualValues(t, 1, a.Stats().Completed)
}

// TestHostLost: a worker abandons the executions of a host that is gone.
func TestHostLost(t *testing.T) {
	s := startServer(t)
	w := startWorker(t, s, WorkerConfig{})
	hnc := connect(t, s)
	rt := New(hnc, Config{Heartbeat: 100 * time.Millisecond, MissedHeartbeats: 5})
	started := make(chan struct{})
	ns := nsOf(tool("started", func() { close(started) }))
	done := make(chan engine.CodeResult, 1)
	go func() {
		res, _ := rt.Execute(context.Background(), "tools.Started()\nfor {}", ns, engine.WithTimeout(time.Hour))
		done <- res
	}()
	<-started
	hnc.Close()
	require.Eventually(t, func() bool { return w.Stats().Running == 0 }, 20*time.Second, 10*time.Millisecond, "the worker kept the execution")
	res := <-done
	assert.NotEqual(t, engine.CodeOK, res.ReturnCode)
}

// TestTooLarge: a tool result above max_payload is an error in the
// script that names the limit, not a cut value; a result above it (a
// large output) comes in parts, whole.
func TestTooLarge(t *testing.T) {
	s := startServer(t)
	startWorker(t, s, WorkerConfig{})
	rt := New(connect(t, s), Config{})
	max := int(rt.nc.MaxPayload())
	ns := nsOf(tool("big", func() string { return strings.Repeat("x", max+1) }))
	res, err := rt.Execute(context.Background(), "_, err := tools.Big()\nfmt.Println(err)", ns)
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.Contains(t, res.Stdout, "max_payload")
	assert.Contains(t, res.Stdout, fmt.Sprintf("the tool's result is %d bytes, max_payload is %d", max+1+len(`{"v":""}`), max))
	for _, size := range []int{max - 1000, max, 3*max + 7} {
		res, err = rt.Execute(context.Background(), fmt.Sprintf("fmt.Print(strings.Repeat(\"y\", %d))\nfmt.Fprint(os.Stderr, \"e\")\nresult(42)", size), nil,
			engine.WithLimits(engine.Limits{MaxOutputBytes: 4 * max}))
		require.NoError(t, err)
		require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
		assert.Len(t, res.Stdout, size)
		assert.Equal(t, strings.Repeat("y", size), res.Stdout)
		assert.Equal(t, "e", res.Stderr)
		assert.Equal(t, 42, res.Value)
	}
}

// TestResultParts: parts out of order make an error that says the result
// did not arrive whole, never a cut result.
func TestResultParts(t *testing.T) {
	var r resultParts
	r.add(0, []byte("abc"))
	r.add(3, []byte("de"))
	b, err := r.result(5)
	require.NoError(t, err)
	assert.Equal(t, "abcde", string(b))
	r = resultParts{}
	r.add(0, []byte("abc"))
	r.add(5, []byte("fg"))
	_, err = r.result(7)
	assert.ErrorContains(t, err, "did not arrive whole")
	r = resultParts{}
	r.add(0, []byte("abc"))
	_, err = r.result(7)
	assert.ErrorContains(t, err, "did not arrive whole")
}

// TestDuplicateCall: the host answers a tool call id it has seen with an
// error, without running the tool again.
func TestDuplicateCall(t *testing.T) {
	s := startServer(t)
	nc := connect(t, s)
	rt := New(nc, Config{})
	var calls atomic.Int64
	x := &run{rt: rt, ns: nsOf(tool("step", func() int { return int(calls.Add(1)) })), ctx: context.Background(),
		claimed: make(chan struct{}), result: make(chan []byte, 1), calls: map[uint64]*hostCall{}}
	base := baseSubject(DefaultPrefix, "dup")
	sub, err := nc.Subscribe(base+".*", func(m *nats.Msg) { x.serve(base, m) })
	require.NoError(t, err)
	defer sub.Unsubscribe()
	require.NoError(t, nc.Flush())
	other := connect(t, s)
	send := func() callReply {
		msg := nats.NewMsg(base + ".call")
		msg.Header.Set(callIDHeader, "7")
		msg.Data, _ = json.Marshal(callRequest{Name: "step"})
		m, err := other.RequestMsg(msg, 10*time.Second)
		require.NoError(t, err)
		var rep callReply
		require.NoError(t, json.Unmarshal(m.Data, &rep))
		return rep
	}
	first := send()
	assert.Empty(t, first.Err)
	second := send()
	e, err := engine.UnmarshalError(second.Err)
	require.NoError(t, err)
	assert.ErrorContains(t, e, ErrDuplicateCall.Error())
	x.wg.Wait()
	assert.EqualValues(t, 1, calls.Load())
}

// TestMicroService: workers answer $SRV.PING and $SRV.STATS.
func TestMicroService(t *testing.T) {
	s := startServer(t)
	startWorker(t, s, WorkerConfig{Concurrency: 3, Name: "w-one"})
	nc := connect(t, s)
	m, err := nc.Request("$SRV.STATS."+ServiceName, nil, 10*time.Second)
	require.NoError(t, err)
	var st struct {
		Name      string `json:"name"`
		Endpoints []struct {
			Subject string      `json:"subject"`
			Data    WorkerStats `json:"data"`
		} `json:"endpoints"`
	}
	require.NoError(t, json.Unmarshal(m.Data, &st))
	assert.Equal(t, ServiceName, st.Name)
	require.Len(t, st.Endpoints, 1)
	assert.Equal(t, "toolscript.exec", st.Endpoints[0].Subject)
	assert.Equal(t, "w-one", st.Endpoints[0].Data.Name)
	assert.Equal(t, 3, st.Endpoints[0].Data.Concurrency)
	_, err = nc.Request("$SRV.PING."+ServiceName, nil, 10*time.Second)
	require.NoError(t, err)
}

// signalWriter collects what it is written and closes seen once it holds
// want.
type signalWriter struct {
	mu   sync.Mutex
	buf  strings.Builder
	want string
	seen chan struct{}
	once sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestStreaming: WithStdout and WithStderr get the output while the
// script runs (a tool waits until the host has seen what the script
// printed before calling it), and every byte once, in order, also for an
// output of many chunks.
func TestStreaming(t *testing.T) {
	s := startServer(t)
	startWorker(t, s, WorkerConfig{})
	rt := New(connect(t, s), Config{})
	stdout := &signalWriter{want: "first\n", seen: make(chan struct{})}
	stderr := &signalWriter{want: "to stderr\n", seen: make(chan struct{})}
	// Far above the streaming delay (20 ms): a loaded machine does not
	// fail the test, and without streaming it fails at the bound.
	const bound = 20 * time.Second
	ns := nsOf(tool("seen", func() string {
		for _, w := range []*signalWriter{stdout, stderr} {
			select {
			case <-w.seen:
			case <-time.After(bound):
				return "not streamed"
			}
		}
		return "streamed"
	}))
	code := `fmt.Println("first")
fmt.Fprintln(os.Stderr, "to stderr")
r, _ := tools.Seen()
fmt.Println(r)
for i := range 20000 {
	fmt.Println("line", i, strings.Repeat("z", 20))
}`
	res, err := rt.Execute(context.Background(), code, ns, engine.WithStdout(stdout), engine.WithStderr(stderr))
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.True(t, strings.HasPrefix(res.Stdout, "first\nstreamed\nline 0 "), res.Stdout[:40])
	assert.Greater(t, len(res.Stdout), 8*streamChunk, "many chunks")
	assert.Equal(t, res.Stdout, stdout.String(), "each byte once, in order")
	assert.Equal(t, "to stderr\n", stderr.String())

	// Not asked for, not streamed: the result alone has the output.
	res, err = rt.Execute(context.Background(), `fmt.Println("quiet")`, nil)
	require.NoError(t, err)
	assert.Equal(t, "quiet\n", res.Stdout)
}

// TestStreaming_LostChunk: a chunk that does not come in order stops the
// stream's chunks; the rest comes from the result, each byte once.
func TestStreaming_LostChunk(t *testing.T) {
	var w strings.Builder
	h := hostStream{w: &w}
	h.chunk(0, []byte("abc"))
	h.chunk(5, []byte("fg")) // "de" was lost
	h.chunk(7, []byte("hi"))
	h.finish("abcdefghij")
	assert.Equal(t, "abcdefghij", w.String())
	var none strings.Builder
	h = hostStream{w: &none}
	h.finish("all of it")
	assert.Equal(t, "all of it", none.String())
}
