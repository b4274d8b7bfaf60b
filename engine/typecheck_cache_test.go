package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/demo"
)

// TestCheckResult_Cache: a script checked again on the same surface gets
// the result it got the first time, from the cache (its errors, or none);
// the result is the same as a fresh surface's, and the two scripts that
// differ only in a comment are two entries.
func TestCheckResult_Cache(t *testing.T) {
	surf := buildSurface(demo.Namespace())
	bad := "type Level int\nvar l Level = 2\nvar n int = l\nfmt.Println(n)\n"
	good := "type Level int\nvar l Level = 2\nfmt.Println(int(l))\n"

	first, ok := surf.checkResult(bad)
	require.True(t, ok)
	require.Len(t, first, 1)
	assert.Contains(t, first[0].Msg, "cannot use l (variable of int type Level) as int value")
	again, ok := surf.checkResult(bad)
	require.True(t, ok)
	assert.Equal(t, first, again)
	fresh, ok := buildSurface(demo.Namespace()).checkResult(bad)
	require.True(t, ok)
	assert.Equal(t, first, fresh, "a cached result is the pass's own")

	errs, ok := surf.checkResult(good)
	require.True(t, ok)
	assert.Empty(t, errs)
	_, ok = surf.checkResult(good + "// again\n")
	require.True(t, ok)

	surf.check.mu.Lock()
	defer surf.check.mu.Unlock()
	assert.Len(t, surf.check.results, 3)
	assert.Equal(t, len(bad)+len(good)+len(good+"// again\n"), surf.check.bytes)
}

// TestCheckResult_Bounded: a flood of distinct scripts never holds more
// than the cache's bounds, in count and in bytes, and a script too large
// for a slot is checked without being kept.
func TestCheckResult_Bounded(t *testing.T) {
	surf := buildSurface(demo.Namespace())
	for i := range maxCheckResults + 40 {
		_, ok := surf.checkResult(fmt.Sprintf("x := %d\nfmt.Println(x)\n", i))
		require.True(t, ok)
		surf.check.mu.Lock()
		n, b := len(surf.check.results), surf.check.bytes
		surf.check.mu.Unlock()
		require.LessOrEqual(t, n, maxCheckResults)
		require.LessOrEqual(t, b, maxCheckBytes)
	}
	big := "x := 1\n" + strings.Repeat("// padding padding padding\n", maxCheckBytes/8/27+1) + "fmt.Println(x, y)\n"
	errs, ok := surf.checkResult(big)
	require.True(t, ok)
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Msg, "undefined: y")
	surf.check.mu.Lock()
	_, kept := surf.check.results[big]
	surf.check.mu.Unlock()
	assert.False(t, kept)
}

// TestCheckResult_RepeatedExecutions: the same gated script executed
// again and again, from several goroutines at once, always runs (or
// fails) as it did the first time: a valid one prints its output, an
// invalid one fails with Go's error, and neither changes the other.
func TestCheckResult_RepeatedExecutions(t *testing.T) {
	ns := demo.Namespace()
	good := "type Level int\nfunc (l Level) String() string { return fmt.Sprint(\"L\", int(l)) }\nfmt.Println(Level(3))\n"
	bad := "type Level int\nvar l Level = 2\nvar n int = l\nfmt.Println(n)\n"
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 10 {
				code := good
				if (g+i)%2 == 1 {
					code = bad
				}
				res, err := Execute(context.Background(), code, ns)
				if !assert.NoError(t, err) {
					return
				}
				if code == good {
					assert.Equal(t, 0, res.ReturnCode, res.Error)
					assert.Equal(t, "L3\n", res.Stdout)
				} else {
					assert.Equal(t, CodeError, res.ReturnCode)
					assert.Contains(t, res.Error, "line 3:13: cannot use l (variable of int type Level) as int value in variable declaration")
					assert.Empty(t, res.Stdout)
				}
			}
		})
	}
	wg.Wait()
}
