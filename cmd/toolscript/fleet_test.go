package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
	"github.com/toolscript/toolscript/remote"
)

// TestFleet: toolscript fleet starts a NATS server and workers; run --nats
// sends a script to them whose tool calls come back to run's demo tools;
// the fleet stops when its context ends. worker --nats serves the same.
func TestFleet(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		var errb bytes.Buffer
		done <- fleetCmd(ctx, []string{"--workers", "2"}, pw, &errb)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	go io.Copy(io.Discard, pr)
	i := strings.Index(line, "nats://")
	require.GreaterOrEqual(t, i, 0, line)
	url := strings.Fields(line[i:])[0]

	// A third worker, as on another machine.
	wctx, wcancel := context.WithCancel(context.Background())
	wdone := make(chan int, 1)
	go func() {
		var out, errb bytes.Buffer
		wdone <- workerCmd(wctx, []string{"--nats", url, "--name", "extra"}, &out, &errb)
	}()

	file := writeScript(t, "fmt.Println(\"remote\")\nr, err := math_ops.Multiply(map[string]any{\"a\": 6, \"b\": 7})\nfmt.Println(r, err)\nresult(r)")
	for range 3 {
		code, out, errOut := runCLI(t, "", "run", "--nats", url, file)
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, "remote\n42 <nil>\n=> 42\n", out)
	}
	code, _, errOut := runCLI(t, "", "run", "--nats", url, writeScript(t, "panic(\"no\")"))
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "no")

	wcancel()
	select {
	case code := <-wdone:
		assert.Equal(t, 0, code)
	case <-time.After(time.Minute):
		t.Fatal("worker --nats did not drain")
	}
	cancel()
	select {
	case code := <-done:
		assert.Equal(t, 0, code)
	case <-time.After(time.Minute):
		t.Fatal("fleet did not stop")
	}
	code, _, errOut = runCLI(t, "", "run", "--nats", "nats://127.0.0.1:1", file)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "connecting")
}

// TestWorker_SIGTERMDrains: a real SIGTERM to a "toolscript worker
// --nats" process drains it: the execution it runs finishes (its tool
// calls still come back to the host), a new one goes to another worker,
// and the process exits with status 0 once the first is done.
func TestWorker_SIGTERMDrains(t *testing.T) {
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	require.NoError(t, err)
	go ns.Start()
	require.True(t, ns.ReadyForConnections(10*time.Second))
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })

	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "worker", "--nats", ns.ClientURL(), "--name", "sigterm")
	cmd.Env = append(os.Environ(), cliEnv+"=1")
	// A file, not a pipe: Wait does not wait for the worker's own
	// children to close it.
	stderr := &fileText{f: filepath.Join(t.TempDir(), "stderr")}
	ef, err := os.Create(stderr.f)
	require.NoError(t, err)
	defer ef.Close()
	cmd.Stderr = ef
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	exited := make(chan struct{}) // closed once waitErr is set
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	lines := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	expect := func(prefix string) {
		t.Helper()
		select {
		case l := <-lines:
			require.True(t, strings.HasPrefix(l, prefix), "got %q, want %q...", l, prefix)
		case <-time.After(wait):
			t.Fatalf("the worker did not print %q within %s; stderr: %s", prefix, wait, stderr.String())
		}
	}
	expect("worker sigterm serving ")

	hnc, err := nats.Connect(ns.ClientURL())
	require.NoError(t, err)
	t.Cleanup(hnc.Close)
	rt := remote.New(hnc, remote.Config{})
	entered, release := make(chan struct{}), make(chan struct{})
	tools := map[string]projection.ToolProjection{
		"hold":  projection.MustDirect("hold", func() string { close(entered); <-release; return "held" }, "Hold."),
		"quick": projection.MustDirect("quick", func() int { return 1 }, "Quick."),
	}
	first := make(chan engine.CodeResult, 1)
	go func() {
		res, _ := rt.Execute(context.Background(), "r, _ := tools.Hold()\nfmt.Println(\"after the hold\")\nresult(r)", tools)
		first <- res
	}()
	select {
	case <-entered:
		t.Log("entered")
	case <-time.After(wait):
		t.Fatalf("the execution did not reach its tool within %s; stderr: %s", wait, stderr.String())
	}

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	expect("draining")
	t.Log("draining")
	// A new execution goes to another worker: the draining one takes none.
	wnc, err := nats.Connect(ns.ClientURL())
	require.NoError(t, err)
	t.Cleanup(wnc.Close)
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
	require.NoError(t, err)
	t.Cleanup(func() { _ = iso.Close() })
	other, err := remote.NewWorker(wnc, remote.WorkerConfig{Runtime: iso, Name: "other"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = other.Close() })
	res, err := rt.Execute(context.Background(), "r, _ := tools.Quick()\nresult(r)", tools)
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	assert.EqualValues(t, 1, other.Stats().Completed)
	select {
	case <-exited:
		t.Fatalf("the worker exited (%v) while its execution ran; stderr: %s", waitErr, stderr.String())
	default:
	}

	close(release)
	var r1 engine.CodeResult
	select {
	case r1 = <-first:
	case <-time.After(wait):
		t.Fatalf("the drained execution did not end within %s; stderr: %s", wait, stderr.String())
	}
	require.Equal(t, engine.CodeOK, r1.ReturnCode, r1.Error)
	assert.Equal(t, "held", r1.Value)
	assert.Equal(t, "after the hold\n", r1.Stdout)
	select {
	case <-exited:
		require.NoError(t, waitErr, "status 0 after draining; stderr: %s", stderr.String())
	case <-time.After(wait):
		t.Fatalf("the worker did not exit within %s of its last execution", wait)
	}
}

// fileText reads a file for failure messages.
type fileText struct{ f string }

func (f *fileText) String() string {
	data, _ := os.ReadFile(f.f)
	return string(data)
}
