package mcp_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStdioServer_DiesWithItsHost: a host killed by SIGKILL runs nothing
// that could stop its stdio servers, and a server that does not exit at
// the end of its input would outlive it; the kernel kills it (the
// parent-death signal), within a bound far above the milliseconds it
// takes.
func TestStdioServer_DiesWithItsHost(t *testing.T) {
	const bound = 10 * time.Second
	pidFile := filepath.Join(t.TempDir(), "pid")
	exe, err := os.Executable()
	require.NoError(t, err)
	parent := exec.Command(exe, "-test.run=^$")
	parent.Env = append(os.Environ(), parentEnv+"="+pidFile)
	stderr := &lockedBuffer{}
	parent.Stderr = stderr
	out, err := parent.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, parent.Start())
	t.Cleanup(func() { _ = parent.Process.Kill(); _ = parent.Wait() })

	connected := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		connected <- line
	}()
	select {
	case line := <-connected:
		require.Equal(t, "connected\n", line, "the parent's standard error: %s", stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("the parent did not connect; its standard error: %s", stderr.String())
	}
	data, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	pid, err := strconv.Atoi(string(data))
	require.NoError(t, err)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	require.True(t, alive(pid), "the server runs")

	require.NoError(t, parent.Process.Signal(syscall.SIGKILL))
	_ = parent.Wait()
	start := time.Now()
	for alive(pid) {
		if time.Since(start) > bound {
			t.Fatalf("the server (pid %d) still runs %s after its host was killed", pid, bound)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("the server died %s after its host", time.Since(start).Round(time.Millisecond))
	assert.Less(t, time.Since(start), bound)
}

// alive reports whether process pid runs: it exists and is not a zombie
// (an orphan's zombie waits for whoever adopts it to reap it).
func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 || i+2 >= len(data) {
		return false
	}
	state := data[i+2]
	return state != 'Z' && state != 'X'
}

// lockedBuffer is a bytes.Buffer a process writes while the test reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
