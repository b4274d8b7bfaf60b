package engine_test

import (
	"bytes"
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
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
	assert.GreaterOrEqual(t, engine.ProgramCacheHits()-hits, int64(3), "runs 2 to 4 reuse the first's interpreter")
}

// sizeNS is a namespace whose one tool, cfg_ops.Size, returns *size.
func sizeNS(size *atomic.Int64) map[string]projection.ToolProjection {
	t := projection.MustDirect("cfg_ops-size", func(context.Context, map[string]any) (any, error) {
		return int(size.Load()), nil
	}, "The size.")
	return map[string]projection.ToolProjection{t.Name(): t}
}

// sizeScript prints as many bytes as cfg_ops.Size says, after a
// recursion and a loop it says how deep and long.
const sizeScript = `package main

import (
	"fmt"
	"strings"
	"cfg_ops"
)

func depth(n int) int {
	if n == 0 {
		return 0
	}
	return depth(n-1) + 1
}

func main() {
	r, err := cfg_ops.Size(map[string]any{})
	if err != nil {
		panic(err)
	}
	n := r.(int) // output bytes + 1000 * depth + 1e6 * loop
	s := 0
	for i := 0; i < n/1000000*100000000; i++ {
		s += i
	}
	fmt.Printf("%s%d%d", strings.Repeat("x", n%1000), depth(n/1000%1000), s%2)
}
`

func TestProgramCacheToolsOutputAndLimits(t *testing.T) {
	ctx := context.Background()
	var size atomic.Int64
	ns := sizeNS(&size)
	limits := engine.WithLimits(engine.Limits{MaxOutputBytes: 100, MaxCallDepth: 60, Timeout: 300 * time.Millisecond})
	run := func(n int64, w *bytes.Buffer) engine.CodeResult {
		t.Helper()
		size.Store(n)
		res, err := engine.Execute(ctx, sizeScript, ns, limits, engine.WithStdout(w))
		require.NoError(t, err)
		return res
	}
	var w1, w2, w3 bytes.Buffer
	res := run(3+3000, &w1)
	require.Equal(t, 0, res.ReturnCode, res.Error)
	hits := engine.ProgramCacheHits()
	res = run(5+5000, &w2)
	require.Equal(t, 0, res.ReturnCode, res.Error)
	assert.Equal(t, int64(1), engine.ProgramCacheHits()-hits, "the second run reuses the first's interpreter")
	assert.Equal(t, "xxx30", w1.String(), "the first run's writer sees only its own output")
	assert.Equal(t, "xxxxx50", w2.String())
	assert.Equal(t, "xxxxx50", res.Stdout)
	require.Len(t, res.ToolCalls, 1, "the trace is the new execution's")
	assert.Equal(t, "cfg_ops-size", res.ToolCalls[0].Name)

	// The limits hold in a reused run.
	res = run(150, &w3)
	assert.Equal(t, engine.CodeLimit, res.ReturnCode, res.Error)
	assert.Contains(t, res.Error, "MaxOutputBytes")
	res = run(80000, &w3)
	assert.Equal(t, engine.CodeLimit, res.ReturnCode, res.Error)
	assert.Contains(t, res.Error, "MaxCallDepth")
	hits = engine.ProgramCacheHits()
	res = run(7+7000, &w3)
	require.Equal(t, 0, res.ReturnCode, res.Error)
	assert.Equal(t, int64(0), engine.ProgramCacheHits()-hits, "a run that hit a limit is not kept")
	res = run(50e6, &w3)
	assert.Equal(t, engine.CodeTimeout, res.ReturnCode, res.Error)
	res = run(2+2000, &w3)
	require.Equal(t, 0, res.ReturnCode, res.Error)
	assert.Equal(t, "xx20", res.Stdout)
}

func TestProgramCacheFailuresNotKept(t *testing.T) {
	ctx := context.Background()
	for _, script := range []string{
		"package main\n\nfunc main() { panic(\"boom\") }\n",
		"package main\n\nimport \"fmt\"\n\nfunc main() {\n\tgo func() { select {} }()\n\tfmt.Println(1)\n}\n",
		"package main\n\nfunc main() { for {} }\n",
	} {
		for range 2 {
			hits := engine.ProgramCacheHits()
			_, err := engine.Execute(ctx, script, nil, engine.WithTimeout(50*time.Millisecond))
			require.NoError(t, err)
			assert.Equal(t, int64(0), engine.ProgramCacheHits()-hits, "%q reused", script)
		}
	}
}

func TestProgramCacheConcurrent(t *testing.T) {
	ctx := context.Background()
	fresh, err := engine.Execute(ctx, statefulScript, nil, engine.WithProgramCache(false))
	require.NoError(t, err)
	var size atomic.Int64
	size.Store(4 + 4000)
	ns := sizeNS(&size)
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			for range 5 {
				res, err := engine.Execute(ctx, statefulScript, nil)
				if assert.NoError(t, err) {
					assert.Equal(t, fresh.Stdout, res.Stdout, res.Error)
				}
				var out bytes.Buffer
				res, err = engine.Execute(ctx, sizeScript, ns, engine.WithStdout(&out))
				if assert.NoError(t, err) {
					assert.Equal(t, "xxxx40", res.Stdout, res.Error)
					assert.Equal(t, "xxxx40", out.String())
					assert.Len(t, res.ToolCalls, 1)
				}
			}
		})
	}
	wg.Wait()
}

func TestProgramCacheOff(t *testing.T) {
	ctx := context.Background()
	e := engine.New(engine.Config{DisableProgramCache: true})
	for range 3 {
		hits := engine.ProgramCacheHits()
		res, err := e.Execute(ctx, statefulScript, nil)
		require.NoError(t, err)
		require.Equal(t, 0, res.ReturnCode, res.Error)
		assert.Equal(t, int64(0), engine.ProgramCacheHits()-hits)
	}
}

// TestProgramCacheStatefulImports: a program whose imports hold state
// of their own (os's variables, log's standard logger, math/rand's
// generator, the interpreted slices, maps, cmp and iter, the errors and
// sync extensions) is reused, and each reuse runs as a fresh
// interpreter does, whatever the last run assigned or set.
func TestProgramCacheStatefulImports(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ name, script, stdout, stderr string }{
		{"os", `package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Println(os.Args, len(os.Args))
	os.Args[0] = "changed"
	fmt.Fprintln(os.Stdout, "to stdout")
	os.Stdout = os.Stderr
	fmt.Fprintln(os.Stdout, "to stderr")
	*os.Stderr = *os.Stdout
}
`, "[script] 1\nto stdout\n", "to stderr\n"},
		{"log", `package main

import (
	"bytes"
	"fmt"
	"log"
)

func main() {
	fmt.Println(log.Prefix() == "", log.Flags() == log.LstdFlags)
	log.SetFlags(0)
	log.Print("plain")
	log.SetPrefix("p: ")
	log.Print("prefixed")
	var buf bytes.Buffer
	log.Default().SetOutput(&buf)
	log.Print("lost")
	fmt.Println(buf.Len() > 0)
}
`, "true true\ntrue\n", "plain\np: prefixed\n"},
		{"sources", `package main

import (
	"cmp"
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"sync"
)

type notFound struct{ id int }

func (e notFound) Error() string { return fmt.Sprint("no ", e.id) }

func count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

var calls int

func main() {
	xs := []int{3, 1, 2}
	slices.Sort(xs)
	m := map[string]int{"b": 2, "a": 1}
	once := sync.OnceValue(func() int { calls++; return calls })
	e, ok := errors.AsType[notFound](fmt.Errorf("w: %w", notFound{7}))
	fmt.Println(xs, slices.Sorted(maps.Keys(m)), slices.Collect(count(3)), cmp.Or(0, 4), once(), once(), e.id, ok)
}
`, "[1 2 3] [a b] [0 1 2] 4 1 1 7 true\n", ""},
		{"math/rand and time", `package main

import (
	"fmt"
	"math/rand"
	"time"
)

func main() {
	start := time.Now()
	time.Sleep(time.Microsecond)
	fmt.Println(rand.Intn(10) < 10, time.Since(start) > 0)
}
`, "true true\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hits := engine.ProgramCacheHits()
			for run := range 3 {
				res, err := engine.Execute(ctx, tc.script, nil)
				require.NoError(t, err)
				require.Equal(t, 0, res.ReturnCode, res.Error)
				assert.Equal(t, tc.stdout, res.Stdout, "run %d", run+1)
				assert.Equal(t, tc.stderr, res.Stderr, "run %d", run+1)
			}
			assert.Equal(t, int64(2), engine.ProgramCacheHits()-hits, "runs 2 and 3 reuse the first's interpreter")
		})
	}
}

// TestProgramCacheStatefulNotKept: a program that names a package
// variable executions get a deep copy of (a run can change what it
// holds), that made a timer or a context callback, or that uses
// WithExtraGlobals is compiled afresh every time.
func TestProgramCacheStatefulNotKept(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		script string
		opts   []engine.Option
	}{
		{"package main\n\nimport (\n\t\"fmt\"\n\t\"unicode\"\n)\n\nfunc main() { fmt.Println(unicode.Is(unicode.Latin, 'a')) }\n", nil},
		{"package main\n\nimport (\n\t\"encoding/base64\"\n\t\"fmt\"\n)\n\nfunc main() { fmt.Println(base64.StdEncoding.EncodeToString([]byte(\"x\"))) }\n", nil},
		{"package main\n\nimport (\n\t\"fmt\"\n\t\"hash/crc32\"\n)\n\nfunc main() { fmt.Println(crc32.ChecksumIEEE([]byte(\"x\"))) }\n", nil},
		{"package main\n\nimport (\n\t\"fmt\"\n\t\"time\"\n)\n\nfunc main() { t := time.AfterFunc(time.Hour, func() {}); fmt.Println(t.Stop()) }\n", nil},
		{"package main\n\nimport (\n\t\"context\"\n\t\"fmt\"\n)\n\nfunc main() {\n\tctx, cancel := context.WithCancel(context.Background())\n\tstop := context.AfterFunc(ctx, func() {})\n\tfmt.Println(stop())\n\tcancel()\n}\n", nil},
		{"fmt.Println(G)", []engine.Option{engine.WithExtraGlobals(map[string]any{"G": 1})}},
	} {
		var first string
		for i := range 2 {
			hits := engine.ProgramCacheHits()
			res, err := engine.Execute(ctx, tc.script, nil, tc.opts...)
			require.NoError(t, err)
			require.Equal(t, 0, res.ReturnCode, res.Error)
			assert.Equal(t, int64(0), engine.ProgramCacheHits()-hits, "%q reused", tc.script)
			if i == 0 {
				first = res.Stdout
			} else {
				assert.Equal(t, first, res.Stdout)
			}
		}
	}
}
