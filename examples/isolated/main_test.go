package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolscript/toolscript/engine"
)

func TestMain(m *testing.M) {
	engine.MaybeServeWorker() // the test binary is the workers' binary too
	os.Exit(m.Run())
}

func TestRun(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	lines := strings.Split(out.String(), "\n")
	require.Len(t, lines, 4, out.String())
	require.Equal(t, "code 0: HELLO FROM A WORKER", lines[0])
	// The reason follows: "concurrent map writes" or "concurrent map read
	// and map write", whichever the Go runtime caught first, or only the
	// exit status when the race detector of a -race test binary (the
	// worker) reported the race before the runtime did.
	require.True(t, strings.HasPrefix(lines[1], "code 137: engine: worker killed: "), lines[1])
	require.Equal(t, "code 0: the next worker is fresh", lines[2])
}
