package engine_test

import (
	"context"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/toolscript/toolscript/engine"
)

// sessionRuntimes are the runtimes a session test runs on.
func sessionRuntimes(t *testing.T) map[string]engine.CodeRuntime {
	return map[string]engine.CodeRuntime{
		"inprocess": engine.New(engine.Config{}),
		"isolated":  newIsolated(t, engine.IsolatedConfig{Workers: 1}),
	}
}

// newSession starts a session on rt with mathNS, closed at the end.
func newSession(t *testing.T, rt engine.CodeRuntime, opts ...engine.SessionOption) *engine.Session {
	t.Helper()
	s, err := engine.NewSession(rt, mathNS(t), opts...)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, s.Close()) })
	return s
}

// step is one input of a session and what it must give.
type step struct {
	code   string
	stdout string
	value  any
	code_  int    // ReturnCode
	errHas string // in Error
}

func runSteps(t *testing.T, s *engine.Session, steps []step, opts ...engine.Option) {
	t.Helper()
	for i, st := range steps {
		res, err := s.Execute(context.Background(), st.code, opts...)
		require.NoError(t, err, "input %d", i)
		assert.Equal(t, st.code_, res.ReturnCode, "input %d: %q: %s", i, st.code, res.Error)
		if st.errHas != "" {
			assert.Contains(t, res.Error, st.errHas, "input %d", i)
		}
		assert.Equal(t, st.stdout, res.Stdout, "input %d: %q", i, st.code)
		if st.value != nil {
			assert.Equal(t, st.value, res.Value, "input %d", i)
		}
	}
}

func TestSession_StateKept(t *testing.T) {
	for name, rt := range sessionRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			s := newSession(t, rt)
			runSteps(t, s, []step{
				{code: "x := 20"},
				{code: "func double(n int) int { return 2 * n }"},
				{code: "type point struct{ X, Y int }\nfunc (p point) sum() int { return p.X + p.Y }"},
				{code: `import "strings"`},
				{code: "p := point{X: x, Y: double(x)}\nfmt.Println(strings.ToUpper(\"ok\"), p.sum())", stdout: "OK 60\n"},
				{code: "x++\nx", value: 21},
				{code: "r, _ := math_ops.Add(map[string]any{\"a\": x, \"b\": 1})\nr", value: 22},
				{code: "m := map[string][]int{}\nm[\"a\"] = append(m[\"a\"], 1)"},
				{code: "m[\"a\"] = append(m[\"a\"], 2)\nn := len(m[\"a\"])\nn", value: 2},
				{code: "counter := func() func() int { n := 0; return func() int { n++; return n } }()\nresult(counter())", value: 1},
				{code: "result(counter())", value: 2},
				{code: "result(strings.Repeat(\"a\", 3))", value: "aaa"},
				{code: "v, ok := m[\"a\"]\n_, missing := m[\"zz\"]\nvar i any = x\nn, isInt := i.(int)\nfmt.Println(len(v), ok, missing, n, isInt)", stdout: "2 true false 21 true\n"},
				{code: "ch := make(chan int, 1)\nch <- 5\nclose(ch)\nr, open := <-ch\n_, open2 := <-ch\nfmt.Println(r, open, open2, ok)", stdout: "5 true false true\n"},
			})
		})
	}
}

func TestSession_FailureKeepsState(t *testing.T) {
	for name, rt := range sessionRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			s := newSession(t, rt)
			runSteps(t, s, []step{
				{code: "x := 1\nm := map[string]int{\"a\": 1}\nitems := []int{1, 2}\nfunc f() int { return 1 }\ntype T struct{ A int }"},
				// A timeout after changes: all of them are undone.
				{code: "x = 2\nm[\"a\"] = 2\nm[\"b\"] = 3\nitems[0] = 9\ny := 5\nfunc f() int { return 2 }\nfunc g() int { return 3 }\ntype T struct{ B string }\nfor {}",
					code_: engine.CodeTimeout, errHas: "timeout"},
				{code: "fmt.Println(x, m, items, f(), T{A: 1})", stdout: "1 map[a:1] [1 2] 1 {1}\n"},
				{code: "y", code_: engine.CodeError, errHas: "undefined: y"},
				{code: "g()", code_: engine.CodeError, errHas: "undefined: g"},
				// A panic, os.Exit and a compile error undo too.
				{code: "x = 3\npanic(\"boom\")", code_: engine.CodeError, errHas: "boom"},
				{code: "x = 4\nos.Exit(3)", code_: 3},
				{code: "x = 5\nundefinedThing()", code_: engine.CodeError, errHas: "undefined"},
				{code: "x = 6\nvar s []int\n_ = s[5]", code_: engine.CodeError, errHas: "index out of range"},
				{code: "x", value: 1},
			}, engine.WithTimeout(300*time.Millisecond))
		})
	}
}

// signalWriter closes started at the first write: the input is running.
type signalWriter struct {
	once    sync.Once
	started chan struct{}
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.started) })
	return len(p), nil
}

func TestSession_Concurrent(t *testing.T) {
	for name, rt := range sessionRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			s := newSession(t, rt)
			runSteps(t, s, []step{{code: "x := 1"}})
			w := &signalWriter{started: make(chan struct{})}
			done := make(chan engine.CodeResult)
			go func() {
				res, err := s.Execute(context.Background(), "x = 2\nfmt.Println(\"running\")\nfor {}", engine.WithStdout(w), engine.WithTimeout(time.Minute))
				assert.NoError(t, err)
				done <- res
			}()
			<-w.started
			// One input at a time: the others are refused, not queued.
			_, err := s.Execute(context.Background(), "x")
			assert.ErrorIs(t, err, engine.ErrSessionBusy)
			assert.ErrorIs(t, s.Reset(), engine.ErrSessionBusy)
			var wg sync.WaitGroup
			for i := 0; i < 4; i++ {
				wg.Go(func() {
					_, err := s.Execute(context.Background(), "x")
					assert.ErrorIs(t, err, engine.ErrSessionBusy)
				})
			}
			wg.Wait()
			// Close cancels the running input and waits for it.
			require.NoError(t, s.Close())
			res := <-done
			assert.Equal(t, engine.CodeTimeout, res.ReturnCode, res.Error)
			_, err = s.Execute(context.Background(), "x")
			assert.ErrorIs(t, err, engine.ErrSessionClosed)
			assert.ErrorIs(t, s.Reset(), engine.ErrSessionClosed)
			require.NoError(t, s.Close(), "Close is idempotent")
		})
	}
}

func TestSession_Reset(t *testing.T) {
	for name, rt := range sessionRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			s := newSession(t, rt)
			runSteps(t, s, []step{{code: "x := 1\nfunc f() int { return 2 }"}, {code: "x + f()", value: 3}})
			require.NoError(t, s.Reset())
			runSteps(t, s, []step{
				{code: "x", code_: engine.CodeError, errHas: "undefined: x"},
				{code: "x := \"fresh\"\nx", value: "fresh"},
			})
		})
	}
}

func TestSession_Limits(t *testing.T) {
	for name, rt := range sessionRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			t.Run("idle", func(t *testing.T) {
				s := newSession(t, rt, engine.WithSessionLimits(engine.SessionLimits{IdleTimeout: 100 * time.Millisecond}))
				runSteps(t, s, []step{{code: "x := 1"}})
				// Idle for ten times the timeout (an input restarts the clock).
				var err error
				for i := 0; i < 10 && err == nil; i++ {
					time.Sleep(time.Second)
					_, err = s.Execute(context.Background(), "x")
				}
				assert.ErrorIs(t, err, engine.ErrSessionExpired)
				assert.ErrorIs(t, err, engine.ErrSessionClosed)
			})
			t.Run("age", func(t *testing.T) {
				s := newSession(t, rt, engine.WithSessionLimits(engine.SessionLimits{MaxAge: 500 * time.Millisecond}))
				runSteps(t, s, []step{{code: "x := 1"}})
				// An input running at MaxAge is cut short.
				res, err := s.Execute(context.Background(), "for {}", engine.WithTimeout(engine.Unlimited))
				require.NoError(t, err)
				assert.Equal(t, engine.CodeTimeout, res.ReturnCode, res.Error)
				_, err = s.Execute(context.Background(), "x")
				assert.ErrorIs(t, err, engine.ErrSessionExpired)
			})
			t.Run("memory", func(t *testing.T) {
				s := newSession(t, rt, engine.WithSessionLimits(engine.SessionLimits{MaxMemoryBytes: 1 << 20}))
				runSteps(t, s, []step{
					{code: "small := make([]byte, 1000)\nn := len(small)\nn", value: 1000},
					{code: "big := make([]byte, 4<<20)\nsmall[0] = 1", code_: engine.CodeLimit, errHas: "SessionLimits.MaxMemoryBytes"},
					// The input that would have grown the state is undone.
					{code: "big", code_: engine.CodeError, errHas: "undefined: big"},
					{code: "v := small[0]\nv", value: byte(0)},
				})
			})
		})
	}
}

func TestSession_IsolatedWorkerDies(t *testing.T) {
	iso := newIsolated(t, engine.IsolatedConfig{Workers: 1})
	s := newSession(t, iso)
	runSteps(t, s, []step{{code: "x := 1"}})
	pid := engine.SessionWorkerPID(s)
	require.NotZero(t, pid)
	w := &signalWriter{started: make(chan struct{})}
	done := make(chan engine.CodeResult)
	go func() {
		res, err := s.Execute(context.Background(), "fmt.Println(\"running\")\nfor {}", engine.WithStdout(w), engine.WithTimeout(time.Minute))
		assert.NoError(t, err)
		done <- res
	}()
	<-w.started
	require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
	res := <-done
	assert.Equal(t, engine.CodeCrash, res.ReturnCode, res.Error)
	assert.ErrorIs(t, res.Err, engine.ErrSessionLost)
	assert.ErrorIs(t, res.Err, engine.ErrWorkerKilled)
	assert.Contains(t, res.Error, "session's state is lost")
	// The next input does not run against missing state.
	_, err := s.Execute(context.Background(), "x")
	assert.ErrorIs(t, err, engine.ErrSessionLost)
	// Reset starts afresh, in another worker.
	require.NoError(t, s.Reset())
	runSteps(t, s, []step{{code: "x", code_: engine.CodeError, errHas: "undefined: x"}, {code: "y := 2\ny", value: 2}})
	assert.NotEqual(t, pid, engine.SessionWorkerPID(s))
}

func TestSession_NoLeak(t *testing.T) {
	before := goleak.IgnoreCurrent()
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
	require.NoError(t, err)
	var pids []int
	for _, rt := range []engine.CodeRuntime{engine.New(engine.Config{}), iso} {
		s, err := engine.NewSession(rt, mathNS(t))
		require.NoError(t, err)
		runSteps(t, s, []step{
			{code: "x := 1\ngo func() { for { x++ } }()\nch := make(chan int)\ngo func() { <-ch }()\ntime.AfterFunc(time.Hour, func() {})\ngo func() { time.Sleep(time.Hour) }()"},
			{code: "r, _ := math_ops.Add(map[string]any{\"a\": 1, \"b\": 2})\nr", value: 3},
		})
		if pid := engine.SessionWorkerPID(s); pid != 0 {
			pids = append(pids, pid)
		}
		require.NoError(t, s.Close())
	}
	require.Len(t, pids, 1)
	for deadline := time.Now().Add(30 * time.Second); processExists(pids[0]) && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
	}
	assert.False(t, processExists(pids[0]), "the session's worker outlived Close")
	require.NoError(t, iso.Close())
	var leak error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if leak = goleak.Find(before); leak == nil {
			break
		}
	}
	require.NoError(t, leak, "a closed session leaves no goroutine")
}

// TestSession_Adversarial runs inputs that try to break a session: each
// either works or fails with a clear error, the next input still works,
// and the host survives.
func TestSession_Adversarial(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
	}{
		{"redefine a function and a type", []step{
			{code: "type T struct{ A int }\nfunc f() int { return 1 }\nt := T{A: 1}"},
			{code: "type T struct{ B string }\nfunc f() string { return \"two\" }\nu := T{B: \"b\"}\nfmt.Println(f(), u.B, t.A)", stdout: "two b 1\n"},
		}},
		{"shadow a tool package", []step{
			{code: "math_ops := 5\nmath_ops", value: 5},
			{code: "math_ops.Add(map[string]any{\"a\": 1, \"b\": 2})", code_: engine.CodeError, errHas: "math_ops"},
			{code: "math_ops + 1", value: 6},
		}},
		{"a closure that keeps goroutines running", []step{
			{code: "n := 0\nstart := func() { go func() { for { n++; time.Sleep(time.Millisecond) } }() }\nstart()\ntime.Sleep(20 * time.Millisecond)"},
			{code: "a := n\ntime.Sleep(20 * time.Millisecond)\nb := n\na == b", value: true},
			{code: "start()\nok := true\nok", value: true},
		}},
		{"os.Exit", []step{
			{code: "x := 1"},
			{code: "x = 2\nos.Exit(0)"},
			{code: "x = 3\nos.Exit(4)", code_: 4},
			{code: "x", value: 2},
		}},
		{"a panic in a goroutine", []step{
			{code: "x := 1"},
			{code: "x = 2\ngo func() { panic(\"in a goroutine\") }()\ntime.Sleep(time.Second)", code_: engine.CodeError, errHas: "in a goroutine"},
			{code: "x", value: 1},
		}},
		{"a timer left armed", []step{
			{code: "x := 1\ntime.AfterFunc(30*time.Millisecond, func() { x = 99 })"},
			{code: "time.Sleep(100 * time.Millisecond)\nx", value: 1},
		}},
		{"top-level return and defer", []step{
			// A return ends the input, as it ends a script's main.
			{code: "x := 1\nfor i := 0; i < 3; i++ {\n\tif i == 1 {\n\t\tfmt.Println(\"done\")\n\t\treturn\n\t}\n}\nx = 2", stdout: "done\n"},
			{code: "x", value: 1},
			{code: "return 5", code_: engine.CodeError, errHas: "too many return values"},
			{code: "defer fmt.Println(1)", code_: engine.CodeError, errHas: "cannot defer"},
			{code: "func main() {}", code_: engine.CodeError, errHas: "func main"},
			{code: "package main\nfunc main() {}", code_: engine.CodeError, errHas: "package clause"},
			{code: "x", value: 1},
		}},
		{"a generic call in a top-level definition", []step{
			{code: "s := []int{3, 1, 2}\nm := slices.Max(s)\nm", value: 3},
			{code: "cf := cmp.Compare[int]\n_, ok := errors.AsType[*strconv.NumError](errors.New(\"x\"))\nfmt.Println(cf(m, 1), ok)", stdout: "1 false\n"},
			{code: "var n int\nn = slices.Max(s)\nn", value: 3},
		}},
		{"a variable that holds itself", []step{
			{code: "m := map[string]any{}\nm[\"self\"] = m\ns := []any{nil}\ns[0] = s"},
			{code: "_, ok := m[\"self\"].(map[string]any)\nok", value: true},
			{code: "m[\"x\"] = 1\npanic(\"undo\")", code_: engine.CodeError, errHas: "undo"},
			{code: "n := len(m)\nn", value: 1},
		}},
		{"state shared by two variables", []step{
			{code: "a := []int{1, 2, 3}\nb := a\np := &struct{ N int }{1}\nq := p"},
			{code: "a[0] = 9\nq.N = 5\npanic(\"undo\")", code_: engine.CodeError},
			{code: "b[1] = 7\np.N++\nfmt.Println(a, b, p.N, q.N)", stdout: "[1 7 3] [1 7 3] 2 2\n"},
		}},
	}
	for name, rt := range sessionRuntimes(t) {
		t.Run(name, func(t *testing.T) {
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					s := newSession(t, rt)
					runSteps(t, s, tt.steps, engine.WithTimeout(10*time.Second))
					res, err := s.Execute(context.Background(), "alive := 1\nalive")
					require.NoError(t, err)
					assert.Equal(t, 1, res.Value, res.Error)
				})
			}
		})
	}
}
