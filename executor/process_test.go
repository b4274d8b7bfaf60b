package executor_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/executor"
)

func newProcessBackend(t *testing.T, cfg executor.ProcessConfig) *executor.ProcessBackend {
	t.Helper()
	b, err := executor.NewProcessBackend(cfg)
	require.NoError(t, err)
	t.Cleanup(func() {
		pids := b.ChildPIDs()
		b.Shutdown(false)
		assertDead(t, pids)
	})
	return b
}

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func assertDead(t *testing.T, pids []int) {
	t.Helper()
	for _, pid := range pids {
		assert.False(t, alive(pid), "child %d still alive", pid)
		assert.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "child %d not reaped", pid)
	}
}

func childPID(t *testing.T, b executor.Backend) int {
	t.Helper()
	v, err := b.Submit(pid, nil).Result(10 * time.Second)
	require.NoError(t, err)
	return int(v.(float64))
}

func TestProcessBackend_Outcomes(t *testing.T) {
	b := newProcessBackend(t, executor.ProcessConfig{MaxWorkers: 2})
	assert.Equal(t, 2, b.MaxWorkers())
	tests := []struct {
		name    string
		fn      any
		kwargs  map[string]any
		opts    []executor.SubmitOption
		status  executor.Status
		value   any
		errIs   []error
		errText string
	}{
		{"named", executor.Named("add"), map[string]any{"a": 1, "b": 2}, nil, executor.Completed, 3.0, nil, ""},
		{"registered value", add, map[string]any{"a": 1.5, "b": 2}, nil, executor.Completed, 3.5, nil, ""},
		{"execution context function", sleepCoop, map[string]any{"ms": 1}, nil, executor.Completed, "slept", nil, ""},
		{"error message unchanged", fail, map[string]any{"why": "bad input"}, nil, executor.Failed, nil, nil, "tool failed: bad input"},
		{"panic", boom, nil, nil, executor.Failed, nil, nil, "executor: panic: boom"},
		{"cooperative timeout", sleepCoop, map[string]any{"ms": 60_000}, []executor.SubmitOption{executor.WithTimeout(50 * time.Millisecond)},
			executor.Failed, nil, []error{executor.ErrTimeout, context.DeadlineExceeded}, "timed out after 50ms"},
		{"uncooperative timeout", sleepStubborn, map[string]any{"ms": 60_000}, []executor.SubmitOption{executor.WithTimeout(50 * time.Millisecond)},
			executor.Failed, nil, []error{executor.ErrTimeout}, "timed out"},
		{"unregistered function", func(map[string]any) (any, error) { return nil, nil }, nil, nil, executor.Failed, nil, []error{executor.ErrNotRegistered}, "RegisterFunc"},
		{"unknown name", executor.Named("nope"), nil, nil, executor.Failed, nil, []error{executor.ErrNotRegistered}, `"nope"`},
		{"bad shape", "add", nil, nil, executor.Failed, nil, []error{executor.ErrBadFunc}, "string"},
		{"arguments not JSON", add, map[string]any{"a": make(chan int)}, nil, executor.Failed, nil, nil, `executor: arguments of "add" do not encode to JSON`},
		{"result not JSON", unencodable, nil, nil, executor.Failed, nil, nil, "does not encode to JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := b.Submit(tt.fn, tt.kwargs, tt.opts...)
			v, err := h.Result(30 * time.Second)
			assert.Equal(t, tt.status, h.Status())
			assert.Equal(t, tt.value, v)
			if tt.status == executor.Completed {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			for _, target := range tt.errIs {
				assert.ErrorIs(t, err, target)
			}
			assert.Contains(t, err.Error(), tt.errText)
		})
	}
	t.Run("errors keep their kind", func(t *testing.T) {
		_, err := b.Submit(fail, map[string]any{"why": "x"}).Result(0)
		var re *executor.RemoteError
		require.ErrorAs(t, err, &re)
		assert.Equal(t, "tool failed: x", re.Message)
		_, err = b.Submit(boom, nil).Result(0)
		var pe *executor.FuncPanicError
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, "boom", pe.Value)
		assert.Contains(t, pe.Stack, "executor_test.boom")
	})
}

func TestProcessBackend_TimeoutKillsAndReplacesChild(t *testing.T) {
	b := newProcessBackend(t, executor.ProcessConfig{MaxWorkers: 1})
	before := childPID(t, b)
	h := b.Submit(sleepStubborn, map[string]any{"ms": 60_000}, executor.WithTimeout(30*time.Millisecond))
	_, err := h.Result(0)
	require.ErrorIs(t, err, executor.ErrTimeout)
	assert.Equal(t, executor.Failed, h.Status())
	require.Eventually(t, func() bool { return !alive(before) }, 10*time.Second, time.Millisecond)
	after := childPID(t, b)
	assert.NotEqual(t, before, after, "a fresh child replaces the killed one")
}

func TestProcessBackend_Cancel(t *testing.T) {
	b := newProcessBackend(t, executor.ProcessConfig{MaxWorkers: 1})
	t.Run("during run kills the child", func(t *testing.T) {
		before := childPID(t, b)
		h := b.Submit(progress, map[string]any{"n": 1})
		_, err := h.Result(0)
		require.NoError(t, err)
		h = b.Submit(sleepStubborn, map[string]any{"ms": 60_000})
		waitStatus(t, h, executor.Running)
		require.True(t, h.Cancel())
		assert.Equal(t, executor.Cancelled, h.Status())
		_, err = h.Result(0)
		require.ErrorIs(t, err, executor.ErrCancelled)
		require.Eventually(t, func() bool { return !alive(before) }, 10*time.Second, time.Millisecond)
		assert.NotEqual(t, before, childPID(t, b))
	})
	t.Run("before start", func(t *testing.T) {
		// busy holds the only child until it is cancelled, so h is still
		// queued when it is cancelled, however slow the machine.
		busy := b.Submit(sleepCoop, map[string]any{"ms": 60_000})
		waitStatus(t, busy, executor.Running)
		h := b.Submit(add, nil)
		require.True(t, h.Cancel())
		require.True(t, busy.Cancel())
		_, err := busy.Result(0)
		require.ErrorIs(t, err, executor.ErrCancelled)
		_, err = h.Result(0)
		require.ErrorIs(t, err, executor.ErrCancelled)
		assert.Equal(t, executor.Cancelled, h.Status())
	})
	t.Run("after completion", func(t *testing.T) {
		h := b.Submit(add, map[string]any{"a": 1})
		_, err := h.Result(0)
		require.NoError(t, err)
		assert.False(t, h.Cancel())
		assert.Equal(t, executor.Completed, h.Status())
	})
	t.Run("through WithContext", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		h := b.Submit(sleepStubborn, map[string]any{"ms": 60_000}, executor.WithContext(ctx))
		_, err := h.Result(0)
		require.ErrorIs(t, err, executor.ErrCancelled)
		require.ErrorIs(t, err, context.DeadlineExceeded)
	})
}

func TestProcessBackend_CancelGrace(t *testing.T) {
	b := newProcessBackend(t, executor.ProcessConfig{MaxWorkers: 1, CancelGrace: 5 * time.Second})
	before := childPID(t, b)
	h := b.Submit(sleepCoop, map[string]any{"ms": 60_000})
	waitStatus(t, h, executor.Running)
	h.Cancel()
	assert.Equal(t, before, childPID(t, b), "a child that honours the cancel message is kept")

	h = b.Submit(sleepCoop, map[string]any{"ms": 60_000}, executor.WithTimeout(20*time.Millisecond))
	_, err := h.Result(0)
	require.ErrorIs(t, err, executor.ErrTimeout)
	assert.Equal(t, before, childPID(t, b))
}

func TestProcessBackend_ChildCrash(t *testing.T) {
	var stderr syncBuffer
	b := newProcessBackend(t, executor.ProcessConfig{MaxWorkers: 1, Stderr: &stderr})
	tests := []struct {
		name string
		run  func() executor.Handle
		want string
	}{
		{"exit", func() executor.Handle { return b.Submit(exitWith, map[string]any{"code": 3}) }, "exit status 3; stderr: about to exit"},
		{"killed from outside", func() executor.Handle {
			pid := childPID(t, b)
			h := b.Submit(sleepStubborn, map[string]any{"ms": 60_000})
			waitStatus(t, h, executor.Running)
			require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
			return h
		}, "signal: killed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.run()
			_, err := h.Result(30 * time.Second)
			require.ErrorIs(t, err, executor.ErrChildExited)
			assert.Contains(t, err.Error(), tt.want)
			assert.Equal(t, executor.Failed, h.Status())
			v, err := b.Submit(add, map[string]any{"a": 1}).Result(30 * time.Second)
			require.NoError(t, err, "the child is replaced")
			assert.Equal(t, 1.0, v)
		})
	}
	assert.Contains(t, stderr.String(), "about to exit", "Stderr gets a copy")
}

func TestProcessBackend_Progress(t *testing.T) {
	b := newProcessBackend(t, executor.ProcessConfig{MaxWorkers: 1})
	const n = 20
	var mu sync.Mutex
	var got []executor.Progress
	busy := b.Submit(sleepCoop, map[string]any{"ms": 50}) // keeps the next one pending while we register
	h := b.Submit(progress, map[string]any{"n": n})
	h.OnProgress(func(p executor.Progress) { mu.Lock(); got = append(got, p); mu.Unlock() })
	_, err := busy.Result(0)
	require.NoError(t, err)
	v, err := h.Result(0)
	require.NoError(t, err)
	assert.Equal(t, "done", v)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, got, n)
	for i, p := range got {
		assert.Equal(t, fmt.Sprintf("step %d", i+1), p.Message)
		assert.Equal(t, map[string]any{"i": float64(i + 1)}, p.Detail)
	}
}

func TestProcessBackend_Environment(t *testing.T) {
	t.Setenv("TOOLSCRIPT_TEST_SECRET", "hunter2")
	b := newProcessBackend(t, executor.ProcessConfig{MaxWorkers: 1, Env: []string{"FOO=bar"}})
	v, err := b.Submit(env, nil).Result(0)
	require.NoError(t, err)
	var vars []string
	for _, e := range v.([]any) {
		vars = append(vars, e.(string))
	}
	assert.Contains(t, vars, "FOO=bar")
	for _, e := range vars {
		assert.NotContains(t, e, "hunter2")
		assert.False(t, strings.HasPrefix(e, "PATH=") || strings.HasPrefix(e, "HOME="), e)
	}
	assert.Len(t, vars, 2, "only the child marker and Env: %v", vars)
}

func TestProcessBackend_ProcessGroup(t *testing.T) {
	b := newProcessBackend(t, executor.ProcessConfig{MaxWorkers: 1})
	pid := childPID(t, b)
	pgid, err := syscall.Getpgid(pid)
	require.NoError(t, err)
	assert.Equal(t, pid, pgid, "each child leads its own process group")
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	assert.Contains(t, string(status), "PPid:\t"+fmt.Sprint(os.Getpid()))
}

func TestProcessBackend_KillTakesTheGroup(t *testing.T) {
	b := newProcessBackend(t, executor.ProcessConfig{MaxWorkers: 1, Env: []string{"PATH=" + os.Getenv("PATH")}})
	h := b.Submit(executor.Named("grandchild"), nil)
	grandchild := make(chan int, 1)
	h.OnProgress(func(p executor.Progress) { grandchild <- int(p.Detail.(float64)) })
	var pid int
	select {
	case pid = <-grandchild:
	case <-time.After(30 * time.Second):
		t.Fatal("no grandchild")
	}
	require.True(t, alive(pid))
	h.Cancel()
	require.Eventually(t, func() bool { return !alive(pid) }, 10*time.Second, time.Millisecond, "grandchild %d survived", pid)
}

// TestProcessBackend_ChildrenDieWithHost kills a host process (this test
// binary in another role) and checks that its children die too.
func TestProcessBackend_ChildrenDieWithHost(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), orphanHostEnv+"=1")
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	var pids []int
	for _, f := range strings.Fields(strings.Trim(line, "[]\n")) {
		pid, err := strconv.Atoi(f)
		require.NoError(t, err, line)
		pids = append(pids, pid)
	}
	require.Len(t, pids, 2, line)
	for _, pid := range pids {
		require.True(t, alive(pid))
	}
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	for _, pid := range pids {
		require.Eventually(t, func() bool { return !alive(pid) }, 10*time.Second, time.Millisecond, "child %d outlived its host", pid)
	}
}

func TestProcessBackend_Shutdown(t *testing.T) {
	t.Run("wait finishes work and reaps children", func(t *testing.T) {
		b, err := executor.NewProcessBackend(executor.ProcessConfig{MaxWorkers: 2})
		require.NoError(t, err)
		pids := b.ChildPIDs()
		require.Len(t, pids, 2)
		var handles []executor.Handle
		for i := range 10 {
			handles = append(handles, b.Submit(sleepCoop, map[string]any{"ms": i}))
		}
		b.Shutdown(true)
		for _, h := range handles {
			assert.Equal(t, executor.Completed, h.Status())
		}
		assert.Empty(t, b.ChildPIDs())
		assertDead(t, pids)
		_, err = b.Submit(add, nil).Result(0)
		require.ErrorIs(t, err, executor.ErrShutdown)
		b.Shutdown(false)
	})
	t.Run("no wait cancels and kills", func(t *testing.T) {
		b, err := executor.NewProcessBackend(executor.ProcessConfig{MaxWorkers: 1})
		require.NoError(t, err)
		pids := b.ChildPIDs()
		running := b.Submit(sleepStubborn, map[string]any{"ms": 60_000})
		waitStatus(t, running, executor.Running)
		queued := b.Submit(add, nil)
		b.Shutdown(false)
		for _, h := range []executor.Handle{running, queued} {
			assert.Equal(t, executor.Cancelled, h.Status())
			_, err := h.Result(0)
			require.ErrorIs(t, err, executor.ErrShutdown)
		}
		assert.Empty(t, b.ChildPIDs())
		assertDead(t, pids)
	})
}

func TestProcessBackend_ConcurrentSubmit(t *testing.T) {
	b := newProcessBackend(t, executor.ProcessConfig{MaxWorkers: 2})
	var wg sync.WaitGroup
	for s := range 8 {
		wg.Go(func() {
			for i := range 25 {
				h := b.Submit(add, map[string]any{"a": s, "b": i})
				if i%10 == 9 {
					h.Cancel()
				}
				v, err := h.Result(0)
				if errors.Is(err, executor.ErrCancelled) {
					continue
				}
				if assert.NoError(t, err) {
					assert.Equal(t, float64(s+i), v)
				}
			}
		})
	}
	wg.Wait()
}

func TestNewProcessBackend_Errors(t *testing.T) {
	tests := []struct {
		name string
		cfg  executor.ProcessConfig
		want string
	}{
		{"missing executable", executor.ProcessConfig{Path: "/nonexistent/binary"}, "/nonexistent/binary"},
		{"exits before hello", executor.ProcessConfig{Path: "/bin/sh", Args: []string{"-c", "echo no hook >&2; exit 4"}}, "exit status 4; stderr: no hook"},
		{"never says hello", executor.ProcessConfig{Path: "/bin/sh", Args: []string{"-c", "sleep 60"}, StartTimeout: 100 * time.Millisecond}, "no hello within 100ms"},
		{"says something else", executor.ProcessConfig{Path: "/bin/sh", Args: []string{"-c", `printf '\000\000\000\011\002\000\000\000\000\000\000\000\000' >&4; sleep 60`}}, "call instead of hello"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.MaxWorkers = 2
			b, err := executor.NewProcessBackend(cfg)
			require.ErrorIs(t, err, executor.ErrChildExited)
			assert.Nil(t, b)
			assert.Contains(t, err.Error(), tt.want)
			if tt.name != "missing executable" {
				assert.Contains(t, err.Error(), "MaybeServeChild")
			}
		})
	}
}

func TestNewProcessBackend_RefusedInChild(t *testing.T) {
	t.Setenv("TOOLSCRIPT_CHILD", "executor")
	_, err := executor.NewProcessBackend(executor.ProcessConfig{})
	require.ErrorContains(t, err, "child process")
}

// syncBuffer is a strings.Builder safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
