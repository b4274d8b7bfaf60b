package isolated_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/toolscript/toolscript/internal/isolated"
	"github.com/toolscript/toolscript/internal/proc"
	"github.com/toolscript/toolscript/internal/wire"
)

// TestMain is the worker hook: the test binary is also the worker (of
// the pools' default role), which answers the probe calls of serveProbe.
func TestMain(m *testing.M) {
	isolated.Register("worker", isolated.ServeConfig{Serve: serveProbe})
	isolated.Register("engine", isolated.ServeConfig{Serve: serveLiar}) // see liar_test.go
	proc.MaybeServe()
	goleak.VerifyTestMain(m)
}

// probe is what a worker reports about itself.
type probe struct {
	Env      []string          `json:"env"`
	Dir      string            `json:"dir"`
	DirEmpty bool              `json:"dir_empty"`
	UID      int               `json:"uid"`
	GID      int               `json:"gid"`
	PGID     int               `json:"pgid"`
	PID      int               `json:"pid"`
	Limits   map[string]uint64 `json:"limits"`
	OpenErr  string            `json:"open_err"`
	WriteErr string            `json:"write_err"`
	ExecErr  string            `json:"exec_err"`
}

// serveProbe answers calls: "probe", "alloc" (MB), "recurse", "spin".
func serveProbe(c *isolated.Conn) error {
	for {
		f, err := c.R.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if f.Type == wire.TypeShutdown {
			return nil
		}
		var call wire.Call
		_ = f.Decode(&call)
		var out any
		switch call.Name {
		case "probe":
			p := probe{Env: os.Environ(), UID: os.Getuid(), GID: os.Getgid(), PID: os.Getpid(), Limits: map[string]uint64{}}
			p.PGID, _ = syscall.Getpgid(0)
			p.Dir, _ = os.Getwd()
			ents, err := os.ReadDir(".")
			// Empty, or not even readable (a root host's worker runs as
			// nobody in a directory of root's).
			p.DirEmpty = err == nil && len(ents) == 0 || os.IsPermission(err)
			for name, r := range map[string]int{"cpu": syscall.RLIMIT_CPU, "data": syscall.RLIMIT_DATA, "nofile": syscall.RLIMIT_NOFILE, "fsize": syscall.RLIMIT_FSIZE, "core": syscall.RLIMIT_CORE, "nproc": 6} {
				var l syscall.Rlimit
				_ = syscall.Getrlimit(r, &l)
				p.Limits[name] = l.Max
			}
			var files []*os.File
			for i := 0; i < 64; i++ {
				f, err := os.Open("/dev/null")
				if err != nil {
					p.OpenErr = err.Error()
					break
				}
				files = append(files, f)
			}
			for _, f := range files {
				f.Close()
			}
			if err := os.WriteFile("/tmp/toolscript-sandbox-probe", []byte("x"), 0o600); err != nil {
				p.WriteErr = err.Error()
			}
			if err := exec.Command("/bin/true").Run(); err != nil {
				p.ExecErr = err.Error()
			}
			out = p
		case "alloc":
			var mb int
			_ = json.Unmarshal(call.Args, &mb)
			var keep [][]byte
			for range mb {
				b := make([]byte, 1<<20)
				for i := range b {
					b[i] = 1
				}
				keep = append(keep, b)
			}
			out = len(keep)
		case "recurse":
			out = recurse(0)
		case "spin":
			for {
				runtime.Gosched()
			}
		}
		raw, _ := json.Marshal(out)
		_ = c.W.Send(wire.TypeResult, f.ID, &wire.Result{Value: raw})
	}
}

func recurse(n int) int { return recurse(n+1) + 1 }

func call(t *testing.T, w *isolated.Worker, name string, args any) (json.RawMessage, bool) {
	t.Helper()
	raw, _ := json.Marshal(args)
	require.NoError(t, w.Writer().Send(wire.TypeCall, 1, &wire.Call{Name: name, Args: raw}))
	for f := range w.Frames() {
		if f.Type == wire.TypeResult {
			var r wire.Result
			require.NoError(t, f.Decode(&r))
			return r.Value, true
		}
	}
	return nil, false // the worker died
}

func newPool(t *testing.T, size int, l isolated.Limits) *isolated.Pool {
	t.Helper()
	p, err := isolated.NewPool(isolated.Config{Size: size, Limits: l})
	require.NoError(t, err)
	t.Cleanup(func() {
		pids := p.PIDs()
		require.NoError(t, p.Close())
		for _, pid := range pids {
			assert.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "worker %d outlived Close", pid)
		}
	})
	return p
}

func TestWorker_AppliesLimits(t *testing.T) {
	t.Setenv("TOOLSCRIPT_SECRET", "host-only")
	p := newPool(t, 1, isolated.Limits{OpenFiles: 16, CPUTime: 30 * time.Second})
	w, err := p.Get(context.Background())
	require.NoError(t, err)
	raw, ok := call(t, w, "probe", nil)
	require.True(t, ok)
	p.Put(w)
	var pr probe
	require.NoError(t, json.Unmarshal(raw, &pr))
	t.Logf("probe: %+v", pr)

	assert.Empty(t, pr.Env, "no environment of the host")
	assert.True(t, pr.DirEmpty, "working directory is an empty directory")
	assert.Contains(t, pr.Dir, "toolscript-worker-")
	assert.Equal(t, pr.PID, pr.PGID, "own process group")
	assert.Equal(t, uint64(16), pr.Limits["nofile"])
	assert.Equal(t, uint64(30), pr.Limits["cpu"])
	assert.Equal(t, uint64(0), pr.Limits["fsize"])
	assert.Equal(t, uint64(0), pr.Limits["core"])
	assert.NotEmpty(t, pr.OpenErr, "open files are bounded")
	assert.NotEmpty(t, pr.WriteErr, "no file can be written")
	t.Run("a root host's worker runs as nobody", func(t *testing.T) {
		if os.Getuid() != 0 {
			t.Skip("the host is not root: the worker keeps the host's user")
		}
		assert.Equal(t, 65534, pr.UID)
		assert.Equal(t, uint64(isolated.DefaultProcesses), pr.Limits["nproc"])
	})
	_, err = os.Stat(pr.Dir)
	require.NoError(t, err)
	require.NoError(t, p.Close())
	_, err = os.Stat(pr.Dir)
	assert.True(t, os.IsNotExist(err), "the working directory is removed with the worker")
}

func TestWorker_DiesOfItsLimits(t *testing.T) {
	tests := []struct {
		name, call string
		args       any
		limits     isolated.Limits
		cause      []string
	}{
		{"memory", "alloc", 1024, isolated.Limits{MemoryBytes: 128 << 20}, []string{"memory limit"}},
		{"stack", "recurse", nil, isolated.Limits{MaxStack: 8 << 20}, []string{"stack overflow", "memory limit"}},
		{"cpu", "spin", nil, isolated.Limits{CPUTime: time.Second}, []string{"CPU time limit", "SIGKILL"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPool(t, 1, tt.limits)
			w, err := p.Get(context.Background())
			require.NoError(t, err)
			start := time.Now()
			_, ok := call(t, w, tt.call, tt.args)
			require.False(t, ok, "the worker must die")
			ex := p.Kill(w, "")
			t.Logf("%s after %v: %s", tt.name, time.Since(start), ex)
			found := false
			for _, c := range tt.cause {
				found = found || strings.Contains(ex.Cause, c)
			}
			assert.True(t, found, "cause %q", ex.Cause)
		})
	}
	// A small allocation is fine under a memory limit.
	p := newPool(t, 1, isolated.Limits{MemoryBytes: 128 << 20})
	w, err := p.Get(context.Background())
	require.NoError(t, err)
	raw, ok := call(t, w, "alloc", 16)
	require.True(t, ok)
	assert.JSONEq(t, "16", string(raw))
	p.Put(w)
}

func TestPool_GetAfterClose(t *testing.T) {
	p, err := isolated.NewPool(isolated.Config{Size: 1})
	require.NoError(t, err)
	require.NoError(t, p.Close())
	require.NoError(t, p.Close())
	_, err = p.Get(context.Background())
	require.ErrorIs(t, err, isolated.ErrClosed)
}

func TestNewPool_BadBinary(t *testing.T) {
	_, err := isolated.NewPool(isolated.Config{Size: 1, Path: "/bin/true", StartTimeout: 2 * time.Second})
	require.ErrorIs(t, err, isolated.ErrStart)
}
