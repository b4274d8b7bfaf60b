package interp // toolscript patch 201

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestResetRerun checks patch 201: a program run again after Reset
// prints what its first run printed (package variables, maps, slices,
// closures, a sync.Once and a mutex left locked all start afresh, init
// functions run again), and Reset refuses while a goroutine of the
// program runs.
func TestResetRerun(t *testing.T) {
	var out bytes.Buffer
	i := New(Options{Stdout: &out})
	require.NoError(t, i.Use(stdlib.Symbols))
	prog, err := i.Compile(`package main

import (
	"fmt"
	"sync"
)

var (
	n    int
	m    = map[string]int{}
	s    []int
	fs   []func() int
	once sync.Once
	mu   sync.Mutex
	ran  int
)

func init() { n += 10 }

func main() {
	mu.Lock()
	n++
	m["a"]++
	s = append(s, n)
	k := n
	fs = append(fs, func() int { return k })
	once.Do(func() { ran++ })
	fmt.Println(n, m, s, len(fs), fs[0](), ran)
}
`)
	require.NoError(t, err)
	for range 3 {
		out.Reset()
		_, done, err := i.ExecuteWatch(context.Background(), prog)
		require.NoError(t, err)
		<-done
		assert.Equal(t, "11 map[a:1] [11] 1 11 1\n", out.String())
		i.Stop()
		require.NoError(t, i.Reset())
	}

	// A goroutine left blocked: Reset refuses until it is stopped.
	j := New(Options{})
	require.NoError(t, j.Use(stdlib.Symbols))
	prog, err = j.Compile("package main\n\nfunc main() {\n\tgo func() { select {} }()\n}\n")
	require.NoError(t, err)
	_, done, err := j.ExecuteWatch(context.Background(), prog)
	require.NoError(t, err)
	<-done
	assert.ErrorIs(t, j.Reset(), ErrBusy)
	j.Stop()
}
