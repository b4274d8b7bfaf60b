package engine_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
)

// TestMaxMemoryBytes_GarbageIsNotGrowth: after a large live set of the
// host dies, the collector's goal stays far above the live heap until its
// next cycle, and the heap sampled during an execution that makes garbage
// fast counts the dead objects not yet swept (here up to about 384 MiB,
// over the limit of 256 MiB, under twice it). That is not growth: the
// execution runs to its end (it was stopped for MaxMemoryBytes before the
// watchdog confirmed growth by a collection). A script that keeps what it
// allocates is still stopped.
func TestMaxMemoryBytes_GarbageIsNotGrowth(t *testing.T) {
	big := make([][]byte, 0, 384)
	for range cap(big) {
		big = append(big, make([]byte, 1<<20))
	}
	runtime.GC() // the goal is now about twice 384 MiB
	runtime.KeepAlive(big)
	big = nil

	e := engine.New(engine.Config{})
	res, err := e.Execute(context.Background(), `n := 0
for i := range 1024 {
	b := make([]byte, 1<<20)
	b[i] = 1
	n += len(b)
}
fmt.Println(n >> 20)`, nil, engine.WithLimits(engine.Limits{MaxMemoryBytes: 256 << 20}))
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, res.ReturnCode, res.Error)
	require.Equal(t, "1024\n", res.Stdout)

	// It must not end by itself: the watchdog samples every few
	// milliseconds, which a loaded machine can delay past a finite
	// script's end.
	res, err = e.Execute(context.Background(), `var keep [][]byte
for {
	keep = append(keep, make([]byte, 1<<20))
}`, nil, engine.WithLimits(engine.Limits{MaxMemoryBytes: 256 << 20, Timeout: 5 * time.Minute}))
	require.NoError(t, err)
	require.Equal(t, engine.CodeLimit, res.ReturnCode, res.Stdout)
	require.Contains(t, res.Error, "MaxMemoryBytes")
}
