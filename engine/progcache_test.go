package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
)

// statefulScript mutates every kind of package-level state a script can
// hold; each run must print what a fresh run prints.
const statefulScript = `package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

var (
	counter int
	seen    = map[string]int{}
	list    []int
	fns     []func() int
	once    sync.Once
	mu      sync.Mutex
	onceRan int
	b       strings.Builder
	arr     [3]int
	ptr     *int
)

type box struct{ n int }

var boxes = []*box{{1}}

func init() { counter += 10 }

func main() {
	mu.Lock() // left locked: a reused run would deadlock on it
	counter++
	seen["a"]++
	list = append(list, counter)
	n := counter
	fns = append(fns, func() int { return n })
	once.Do(func() { onceRan++ })
	b.WriteString("x")
	arr[0]++
	if ptr == nil {
		v := 0
		ptr = &v
	}
	*ptr++
	boxes[0].n++
	keys := []string{}
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println(counter, seen["a"], list, len(fns), fns[0](), onceRan, b.String(), arr, *ptr, boxes[0].n, keys)
}
`

func TestProgramCacheIsolation(t *testing.T) {
	ctx := context.Background()
	fresh, err := engine.Execute(ctx, statefulScript, nil, engine.WithProgramCache(false))
	require.NoError(t, err)
	require.Equal(t, 0, fresh.ReturnCode, fresh.Error)
	require.Equal(t, "11 1 [11] 1 11 1 x [1 0 0] 1 2 [a]\n", fresh.Stdout)
	hits := engine.ProgramCacheHits()
	for i := range 4 {
		res, err := engine.Execute(ctx, statefulScript, nil)
		require.NoError(t, err)
		require.Equal(t, 0, res.ReturnCode, res.Error)
		assert.Equal(t, fresh.Stdout, res.Stdout, "run %d", i)
	}
	assert.Equal(t, int64(3), engine.ProgramCacheHits()-hits, "runs 2 to 4 reuse the first's interpreter")
}
