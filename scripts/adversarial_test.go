package scripts_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/scripts"
)

// adversarialLimits keep the memory cases quick; every other limit is the
// engine's default, so the expected errors name the defaults. The timeout
// is for the scripts that time out on purpose (see scriptTimeout).
var adversarialLimits = engine.Limits{Timeout: 700 * time.Millisecond, MaxMemoryBytes: 256 << 20}

// scriptTimeout is the deadline of s, whose expected return code is rc.
// A script that times out on purpose gets its Timeout line, else the
// driver's short timeout; one that times out on purpose after some output
// or a tool call sets a Timeout line long enough for them
// (select_forever). Any other script gets at least a minute, whatever its
// Timeout line says, so that a script expected to trip another limit (or
// to succeed) is not cut short by a loaded machine under -race.
func scriptTimeout(s scripts.Script, rc int) time.Duration {
	if rc == engine.CodeTimeout {
		if s.Timeout > 0 {
			return s.Timeout
		}
		return adversarialLimits.Timeout
	}
	return max(s.Timeout, time.Minute)
}

// TestAdversarial_InProcess runs the adversarial corpus in-process. For
// each script: the expected error class, the host alive (this test goes
// on), no goroutine left, no CPU burning after, and a correct next
// execution. Scripts marked Unsafe are not run in-process: only the
// isolated runtime survives them.
func TestAdversarial_InProcess(t *testing.T) {
	all, err := scripts.Adversarial()
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(all), 40, "the adversarial corpus must hold at least 40 scripts")
	e := engine.New(engine.Config{Limits: adversarialLimits})
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			if s.Unsafe != "" {
				// Documented, not run: see the script's Unsafe line.
				assert.NotEmpty(t, s.IsolatedError+strconv.Itoa(deref(s.IsolatedReturnCode)), "an Unsafe script states what the isolated runtime gives")
				t.Skipf("Unsafe, run by TestAdversarial_Isolated only: %s", s.Unsafe)
			}
			before := goleak.IgnoreCurrent()
			opts := []engine.Option{engine.WithTimeout(scriptTimeout(s, s.ReturnCode))}
			store := demo.NewStore()
			res, err := e.Execute(context.Background(), s.Code, store.Namespace(), opts...)
			require.NoError(t, err)
			checkBounded(t, res)
			assert.Equal(t, s.ReturnCode, res.ReturnCode, "error: %s", res.Error)
			if s.Error != "" {
				assert.Contains(t, res.Error, s.Error)
			} else {
				assert.Empty(t, res.Error)
			}
			if !s.AnyOutput {
				assert.Equal(t, s.Output, res.Stdout)
			}
			if res.ReturnCode == engine.CodeOK {
				// A clean run's interpreter is kept and runs the
				// script again (engine's progcache.go): nothing the
				// first run changed may show in the second.
				store.Reset()
				again, err := e.Execute(context.Background(), s.Code, store.Namespace(), opts...)
				require.NoError(t, err)
				assert.Equal(t, res.ReturnCode, again.ReturnCode, "run again: %s", again.Error)
				assert.Equal(t, res.Stderr, again.Stderr, "run again")
				if !s.AnyOutput {
					assert.Equal(t, s.Output, again.Stdout, "run again")
				}
			}
			if s.Busy != "" {
				// Documented: a native call runs on after the result;
				// wait for it so the next cases measure their own CPU.
				for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline) && cpuBusy(t, 100*time.Millisecond) > 0.3; {
				}
				return
			}
			// No goroutine of the script outlives it, unless documented.
			// Stopped goroutines unwind at their next step, which a
			// loaded machine can delay: wait for them generously.
			if s.Leak == "" {
				var leak error
				for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
					if leak = findLeaks(before); leak == nil {
						break
					}
				}
				require.NoError(t, leak)
			}
			// No CPU keeps burning (the garbage collector may take a
			// moment after the memory cases).
			busy := 1.0
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && busy >= 0.5; {
				busy = cpuBusy(t, 200*time.Millisecond)
			}
			assert.Less(t, busy, 0.5, "a core is still busy after the execution")
			// The next execution works.
			next, err := e.Execute(context.Background(), `c, _ := customers.Get(map[string]any{"id": 2}); fmt.Println(c.(map[string]any)["name"])`, demo.Namespace())
			require.NoError(t, err)
			assert.Equal(t, "Linus Hamilton\n", next.Stdout, next.Error)
		})
	}
}

// findLeaks is goleak.Find, except that a goroutine still unwinding a deep
// recursion (whose stack goleak cannot parse: "frames elided") counts as
// a leak for now rather than a panic of the test.
func findLeaks(opts ...goleak.Option) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("goroutines still unwinding: %v", r)
		}
	}()
	return goleak.Find(opts...)
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// cpuBusy returns the fraction of one core this process used over d.
func cpuBusy(t *testing.T, d time.Duration) float64 {
	t.Helper()
	read := func() float64 {
		data, err := os.ReadFile("/proc/self/stat")
		require.NoError(t, err, "this check needs Linux /proc")
		// Fields after the command name in parentheses.
		rest := string(data[strings.LastIndexByte(string(data), ')')+2:])
		f := strings.Fields(rest)
		utime, _ := strconv.ParseFloat(f[11], 64)
		stime, _ := strconv.ParseFloat(f[12], 64)
		return (utime + stime) / 100 // clock ticks, USER_HZ = 100
	}
	a := read()
	time.Sleep(d)
	return (read() - a) / d.Seconds()
}

// TestMain lets this test binary serve as the isolated runtime's worker.
func TestMain(m *testing.M) {
	engine.MaybeServeWorker()
	os.Exit(m.Run())
}

// TestAdversarial_Isolated runs the whole adversarial corpus, Unsafe
// scripts included, in the isolated runtime: each gives its error class,
// the host's goroutines are unchanged, the next execution is correct, and
// no worker outlives Close.
func TestAdversarial_Isolated(t *testing.T) {
	all, err := scripts.Adversarial()
	require.NoError(t, err)
	before := goleak.IgnoreCurrent()
	// A generous OS memory limit: under -race the detector needs a lot of
	// memory of its own, and the guards inside the worker must be what
	// stops these scripts.
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Limits: adversarialLimits, Workers: 2, OS: engine.WorkerLimits{MemoryBytes: 4 << 30}})
	require.NoError(t, err)
	var pids []int
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			pids = append(pids, iso.WorkerPIDs()...)
			rc, msg := s.ReturnCode, s.Error
			if s.IsolatedReturnCode != nil {
				rc = *s.IsolatedReturnCode
			}
			opts := []engine.Option{engine.WithTimeout(scriptTimeout(s, rc))}
			res, err := iso.Execute(context.Background(), s.Code, demo.Namespace(), opts...)
			require.NoError(t, err)
			checkBounded(t, res)
			if s.IsolatedError != "" {
				msg = s.IsolatedError
			}
			switch {
			case s.IsolatedAny:
				assert.NotEqual(t, engine.CodeOK, res.ReturnCode, "the script must fail")
				assert.NotEmpty(t, res.Error)
			case altMatches(s.IsolatedAlt, res):
				// An accepted alternative outcome.
			default:
				assert.Equal(t, rc, res.ReturnCode, "error: %s", res.Error)
				if msg != "" {
					assert.Contains(t, res.Error, msg)
				} else {
					assert.Empty(t, res.Error)
				}
			}
			if !s.AnyOutput && !s.IsolatedAny && !altMatches(s.IsolatedAlt, res) {
				assert.Equal(t, s.Output, res.Stdout)
			}
			next, err := iso.Execute(context.Background(), `c, _ := customers.Get(map[string]any{"id": 2}); fmt.Println(c.(map[string]any)["name"])`, demo.Namespace())
			require.NoError(t, err)
			assert.Equal(t, "Linus Hamilton\n", next.Stdout, next.Error)
		})
	}
	pids = append(pids, iso.WorkerPIDs()...)
	require.NoError(t, iso.Close())
	for _, pid := range pids {
		assert.Eventually(t, func() bool { return !alive(pid) }, 30*time.Second, 20*time.Millisecond, "worker %d outlived Close", pid)
	}
	var leak error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if leak = findLeaks(before); leak == nil {
			break
		}
	}
	require.NoError(t, leak)
}

// checkBounded checks that a result encodes as JSON, within the bounds
// of its parts: output, error, value and trace.
func checkBounded(t *testing.T, res engine.CodeResult) {
	t.Helper()
	b, err := json.Marshal(res)
	require.NoError(t, err, "the result must encode")
	assert.LessOrEqual(t, len(res.Error), engine.MaxErrorBytes)
	assert.Less(t, len(b), 2*(3*engine.DefaultMaxOutputBytes+engine.MaxErrorBytes+engine.MaxTraceBytes))
	for _, c := range res.ToolCalls {
		if c.Name == "customers-get" && c.Args != nil {
			// result_trace_rewritten_args: what the tool received.
			assert.NotEqual(t, "forged", fmt.Sprint(c.Args["tags"]))
		}
	}
}

func altMatches(alts []scripts.Alt, res engine.CodeResult) bool {
	for _, a := range alts {
		if a.ReturnCode == res.ReturnCode && strings.Contains(res.Error, a.Error) {
			return true
		}
	}
	return false
}

// alive reports whether pid names a live (not zombie) process.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}
