package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
