//go:build unix

package proc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/toolscript/toolscript/internal/wire"
)

const sleeperEnv = "TOOLSCRIPT_PROC_TEST_SLEEPER"

// TestMain registers the test roles and calls the hook: the test binary
// is also every child.
func TestMain(m *testing.M) {
	if os.Getenv(sleeperEnv) == "1" {
		time.Sleep(time.Minute) // a child of the spawner tests: wait to be killed
		os.Exit(0)
	}
	Register("echo", Role{Serve: serveEcho, ServeShared: serveEchoShared})
	registerRingRoles()
	Register("bad-setup", Role{Setup: func() error { return errors.New("no setup today") }, Serve: serveEcho})
	Register("env", Role{Setup: func() error { os.Clearenv(); return nil }, Serve: serveEcho})
	MaybeServe()
	goleak.VerifyTestMain(m)
}

// serveEcho answers each call with its name, except "exit" (exits with
// the code in its arguments after a line on standard error) and "panic".
func serveEcho(in, out *os.File) error { return serveEchoOn(in, out) }

// serveEchoShared is serveEcho over shared memory, spinning for 50 µs
// after each frame.
func serveEchoShared(r *RingReader, w *RingWriter) error {
	r.SetSpin(func() bool { return true }, 50*time.Microsecond)
	return serveEchoOn(r, w)
}

func serveEchoOn(in io.Reader, out io.Writer) error {
	r, w := wire.NewReader(in), wire.NewWriter(out)
	for {
		f, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if f.Type == wire.TypeShutdown {
			return nil
		}
		var c wire.Call
		_ = f.Decode(&c)
		switch c.Name {
		case "exit":
			var code int
			_ = json.Unmarshal(c.Args, &code)
			fmt.Fprintln(os.Stderr, "exiting on request")
			os.Exit(code)
		case "panic":
			go panic("child exploded")
			select {}
		case "echo":
			_ = w.Send(wire.TypeResult, f.ID, &wire.Result{Value: c.Args})
			continue
		case "env":
			raw, _ := json.Marshal(os.Environ())
			_ = w.Send(wire.TypeResult, f.ID, &wire.Result{Value: raw})
			continue
		}
		raw, _ := json.Marshal(c.Name)
		_ = w.Send(wire.TypeResult, f.ID, &wire.Result{Value: raw})
	}
}

func sleeper(t *testing.T) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = []string{sleeperEnv + "=1"}
	return cmd
}

// TestSpawner_StartsInOwnGroup checks that a started child leads its own
// process group and that killGroup ends it.
func TestSpawner_StartsInOwnGroup(t *testing.T) {
	s := newSpawner()
	defer s.close()
	cmd := sleeper(t)
	require.NoError(t, s.start(cmd))
	pgid, err := syscall.Getpgid(cmd.Process.Pid)
	require.NoError(t, err)
	assert.Equal(t, cmd.Process.Pid, pgid, "the child must lead its own process group")
	killGroup(cmd)
	err = cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	ws, ok := exit.Sys().(syscall.WaitStatus)
	require.True(t, ok)
	assert.Equal(t, syscall.SIGKILL, ws.Signal())
}

// TestSpawner_Closed checks that close is idempotent, ends the spawning
// goroutine (goleak in TestMain) and refuses later starts.
func TestSpawner_Closed(t *testing.T) {
	s := newSpawner()
	s.close()
	s.close()
	cmd := sleeper(t)
	require.ErrorIs(t, s.start(cmd), ErrClosed)
	assert.Nil(t, cmd.Process, "nothing may start after close")
}

// TestSpawner_ReportsStartErrors checks that a command that cannot start
// returns its error.
func TestSpawner_ReportsStartErrors(t *testing.T) {
	s := newSpawner()
	defer s.close()
	err := s.start(exec.Command("/nonexistent/toolscript-proc-test"))
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrClosed)
}

func newPool(t *testing.T, cfg Config) *Pool[*Child] {
	t.Helper()
	p, err := NewPool(cfg, func(c *Child) *Child { return c })
	require.NoError(t, err)
	t.Cleanup(func() {
		pids := p.PIDs()
		require.NoError(t, p.Close())
		for _, pid := range pids {
			assert.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "child %d outlived Close", pid)
		}
	})
	return p
}

// call sends a call to c and returns its result, or false when the
// child's frames end first.
func call(t *testing.T, c *Child, name string, args any) (json.RawMessage, bool) {
	t.Helper()
	raw, _ := json.Marshal(args)
	require.NoError(t, c.Writer().Send(wire.TypeCall, 1, &wire.Call{Name: name, Args: raw}))
	for f := range c.Frames() {
		if f.Type == wire.TypeResult {
			var r wire.Result
			require.NoError(t, f.Decode(&r))
			return r.Value, true
		}
	}
	return nil, false
}

func get(t testing.TB, p *Pool[*Child]) *Child {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := p.Get(ctx)
	require.NoError(t, err)
	return c
}

func TestPool_ServesTheRole(t *testing.T) {
	p := newPool(t, Config{Role: "echo", Size: 2, Env: []string{"FOO=bar"}})
	assert.Equal(t, 2, p.Size())
	require.Len(t, p.PIDs(), 2)
	c := get(t, p)
	pgid, err := syscall.Getpgid(c.PID())
	require.NoError(t, err)
	assert.Equal(t, c.PID(), pgid, "each child leads its own process group")
	raw, ok := call(t, c, "ping", nil)
	require.True(t, ok)
	assert.JSONEq(t, `"ping"`, string(raw))
	raw, ok = call(t, c, "env", nil)
	require.True(t, ok)
	assert.JSONEq(t, `["TOOLSCRIPT_CHILD=echo","FOO=bar"]`, string(raw), "the marker and Env, nothing of the host's")
	p.Put(c)

	q := newPool(t, Config{Role: "env", Size: 1})
	c = get(t, q)
	raw, ok = call(t, c, "env", nil)
	require.True(t, ok)
	assert.JSONEq(t, `[]`, string(raw), "a role's Setup may clear the environment, marker included")
	q.Put(c)
}

// helloFrame renders a hello frame as a printf argument.
func helloFrame(h wire.Hello) string {
	f, _ := wire.Encode(wire.TypeHello, 0, &h)
	var b strings.Builder
	for _, c := range wire.AppendFrame(nil, f) {
		fmt.Fprintf(&b, `\%03o`, c)
	}
	return b.String()
}

func TestNewPool_StartErrors(t *testing.T) {
	sh := func(script string) Config {
		return Config{Role: "echo", Path: "/bin/sh", Args: []string{"-c", script}, Hint: " (hint)"}
	}
	timeout := sh("sleep 60")
	timeout.StartTimeout = 100 * time.Millisecond
	tests := []struct {
		name   string
		cfg    Config
		reason string
		cause  string // of the Exit, "" when the child never ran
		hint   bool
	}{
		{"missing executable", Config{Role: "echo", Path: "/nonexistent/binary", Hint: " (hint)"}, "start /nonexistent/binary", "", false},
		{"exits before hello", sh("echo no hook >&2; exit 4"), "exited before its hello", "exit status 4", true},
		{"never says hello", timeout, "no hello within 100ms", "signal: killed", true},
		{"says something else", sh(`printf '\000\000\000\011\002\000\000\000\000\000\000\000\000' >&4; sleep 60`), "sent call instead of hello", "signal: killed", true},
		{"another version", sh(`printf '` + helloFrame(wire.Hello{Version: wire.Version + 1, Role: "echo"}) + `' >&4; sleep 60`), fmt.Sprintf("speaks protocol version %d, want %d", wire.Version+1, wire.Version), "signal: killed", true},
		{"another role", sh(`printf '` + helloFrame(wire.Hello{Version: wire.Version, Role: "other"}) + `' >&4; sleep 60`), `said hello as "other", want "echo"`, "signal: killed", true},
		{"role not in the binary", Config{Role: "nosuch", Hint: " (hint)"}, "exited before its hello", `setup failed: proc: this binary has no child role "nosuch"`, true},
		{"setup fails", Config{Role: "bad-setup", Hint: " (hint)"}, "exited before its hello", "setup failed: no setup today", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.Size = 2
			p, err := NewPool(cfg, func(c *Child) *Child { return c })
			require.ErrorIs(t, err, ErrStart)
			assert.Nil(t, p)
			var se *StartError
			require.ErrorAs(t, err, &se)
			assert.Contains(t, se.Reason, tt.reason)
			assert.Equal(t, tt.cause, se.Exit.Cause)
			assert.Equal(t, tt.hint, strings.HasSuffix(err.Error(), " (hint)"), err.Error())
		})
	}
	t.Run("stderr is quoted", func(t *testing.T) {
		_, err := NewPool(sh("echo no hook >&2; exit 4"), func(c *Child) *Child { return c })
		assert.ErrorContains(t, err, "exited before its hello: exit status 4; stderr: no hook (hint)")
	})
}

func TestNewPool_Refused(t *testing.T) {
	_, err := NewPool(Config{}, func(c *Child) *Child { return c })
	require.ErrorContains(t, err, "Role is empty")
	t.Setenv(RoleEnv, "echo")
	_, err = NewPool(Config{Role: "echo"}, func(c *Child) *Child { return c })
	require.ErrorContains(t, err, "in a child process")
}

func TestPool_KillReplaces(t *testing.T) {
	p := newPool(t, Config{Role: "echo", Size: 1})
	c := get(t, p)
	before := c.PID()
	e := p.Kill(c, "the host had enough")
	assert.Equal(t, "the host had enough", e.Cause)
	assert.Equal(t, "signal: killed", e.Status)
	assert.Equal(t, "the host had enough (signal: killed)", e.String())
	assert.Equal(t, e, p.Kill(c, "again"), "ending a child again changes nothing")
	c = get(t, p)
	assert.NotEqual(t, before, c.PID(), "a fresh child replaces the killed one")
	assert.ErrorIs(t, syscall.Kill(before, 0), syscall.ESRCH, "the killed child is reaped")
	p.Put(c)
}

func TestPool_DeadChildren(t *testing.T) {
	tests := []struct {
		name    string
		call    string
		args    any
		limited bool
		cause   string
		status  string
		stderr  string
	}{
		{"exit code", "exit", 7, false, "exit status 7", "exit status 7", "exiting on request"},
		{"exit setup after hello", "exit", ExitSetup, false, "exit status 3", "exit status 3", "exiting on request"},
		{"exit cpu without limits", "exit", ExitCPU, false, "exit status 152", "exit status 152", "exiting on request"},
		{"exit cpu under limits", "exit", ExitCPU, true, "CPU time limit", "exit status 152", "exiting on request"},
		{"panic", "panic", nil, false, "panic: child exploded", "exit status 2", "goroutine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPool(t, Config{Role: "echo", Size: 1, Limited: tt.limited})
			c := get(t, p)
			_, ok := call(t, c, tt.call, tt.args)
			require.False(t, ok, "the child must die")
			// The frames end before the reader marks the child exited.
			require.Eventually(t, c.Exited, 20*time.Second, time.Millisecond)
			e := p.Kill(c, "")
			assert.Equal(t, tt.cause, e.Cause)
			assert.Equal(t, tt.status, e.Status)
			assert.Contains(t, e.Stderr, tt.stderr)
			p.Put(get(t, p)) // replaced
		})
	}
	t.Run("put back dead", func(t *testing.T) {
		p := newPool(t, Config{Role: "echo", Size: 1})
		c := get(t, p)
		_, ok := call(t, c, "exit", 0)
		require.False(t, ok)
		// The frames end before the reader marks the child exited.
		require.Eventually(t, c.Exited, 20*time.Second, time.Millisecond)
		p.Put(c)
		assert.ErrorIs(t, syscall.Kill(c.PID(), 0), syscall.ESRCH, "a dead child put back is reaped")
		n := get(t, p)
		assert.NotEqual(t, c.PID(), n.PID())
		p.Put(n)
	})
}

func TestPool_Close(t *testing.T) {
	p, err := NewPool(Config{Role: "echo", Size: 2}, func(c *Child) *Child { return c })
	require.NoError(t, err)
	busy := get(t, p)
	pids := p.PIDs()
	require.NoError(t, p.Close())
	require.NoError(t, p.Close())
	for _, pid := range pids {
		assert.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "child %d outlived Close", pid)
	}
	assert.Empty(t, p.PIDs())
	_, err = p.Get(context.Background())
	require.ErrorIs(t, err, ErrClosed)
	assert.Equal(t, "pool closed", p.Kill(busy, "").Cause, "a busy child is killed by Close")
	p.Put(busy) // ends nothing twice
}

func TestPool_GetWaits(t *testing.T) {
	p := newPool(t, Config{Role: "echo", Size: 1})
	c := get(t, p)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := p.Get(ctx)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	p.Put(c)
}

func TestServe_OutsideAChild(t *testing.T) {
	code, err := Serve()
	assert.Equal(t, ExitSetup, code)
	require.ErrorContains(t, err, RoleEnv+" is not set")
}

func TestRegister_Refuses(t *testing.T) {
	assert.Panics(t, func() { Register("", Role{Serve: serveEcho}) })
	assert.Panics(t, func() { Register("x", Role{}) })
	assert.Panics(t, func() { Register("echo", Role{Serve: serveEcho}) }, "registered twice")
}

// TestReadHello_ReadsNoFurther checks that the hello is read alone: the
// frame after it stays in the pipe for the reading.
func TestReadHello_ReadsNoFurther(t *testing.T) {
	var buf bytes.Buffer
	w := wire.NewWriter(&buf)
	require.NoError(t, w.Send(wire.TypeHello, 0, &wire.Hello{Version: wire.Version, Role: "echo"}))
	require.NoError(t, w.Send(wire.TypeResult, 9, nil))
	f, err := readHello(&buf)
	require.NoError(t, err)
	assert.Equal(t, wire.TypeHello, f.Type)
	next, err := wire.NewReader(&buf).Read()
	require.NoError(t, err)
	assert.Equal(t, wire.Frame{Type: wire.TypeResult, ID: 9}, next)

	_, err = readHello(bytes.NewReader([]byte{0xff, 0, 0, 0}))
	require.ErrorContains(t, err, "hello frame of")
	_, err = readHello(bytes.NewReader(nil))
	require.ErrorIs(t, err, io.EOF)
}

func TestClassify_Stderr(t *testing.T) {
	tests := []struct {
		name           string
		stderr         string
		hello, limited bool
		want           string
	}{
		{"stack", "runtime: goroutine stack exceeds 1000000-byte limit\nfatal error: stack overflow", true, false, "stack overflow"},
		{"memory unlimited", "fatal error: out of memory", true, false, "out of memory"},
		{"memory limited", "fatal error: out of memory", true, true, "memory limit"},
		{"thread unlimited", "runtime: failed to create new OS thread", true, false, "no new OS thread"},
		{"thread limited", "runtime: failed to create new OS thread", true, true, "memory limit or process limit (no new OS thread)"},
		{"map", "fatal error: concurrent map writes\n\ngoroutine 1", true, false, "concurrent map writes"},
		{"panic", "panic: boom\n\ngoroutine 1", true, false, "panic: boom"},
		{"fatal", "fatal error: all goroutines are asleep - deadlock!", true, false, "all goroutines are asleep - deadlock!"},
		{"cpu message unlimited", CPULimitMessage, true, false, "exited"},
		{"cpu message limited", CPULimitMessage, true, true, "CPU time limit"},
		{"nothing", "", false, false, "exited"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, classify(nil, nil, tt.stderr, "", tt.hello, tt.limited).Cause)
		})
	}
	assert.Equal(t, "the host's", classify(nil, nil, "panic: x", "the host's", true, true).Cause, "the host's reason wins")
}

func TestTailBuffer(t *testing.T) {
	b := &tailBuffer{max: 4}
	_, _ = b.Write([]byte("abc"))
	assert.Equal(t, "abc", b.String())
	_, _ = b.Write([]byte("defg"))
	assert.Equal(t, "abcdefg", b.String(), "nothing dropped yet")
	_, _ = b.Write([]byte("hijklm"))
	assert.Equal(t, "abcd\n...\njklm", b.String())
}

func TestExit_Quote(t *testing.T) {
	assert.Equal(t, "exit status 3", Exit{Cause: "exit status 3", Status: "exit status 3"}.Quote())
	assert.Equal(t, "panic: x (exit status 2); stderr: panic: x", Exit{Cause: "panic: x", Status: "exit status 2", Stderr: "panic: x\n"}.Quote())
	long := Exit{Cause: "c", Stderr: strings.Repeat("a", 3000) + "end"}.Quote()
	assert.True(t, strings.HasSuffix(long, "end"))
	assert.Less(t, len(long), 2100)
}
