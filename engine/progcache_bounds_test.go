package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keptCodes returns the script texts the program cache holds, its entry
// count and its bytes.
func keptCodes() (codes map[string]bool, n, bytes int) {
	progs.mu.Lock()
	defer progs.mu.Unlock()
	codes = map[string]bool{}
	for k := range progs.byKey {
		codes[k.code] = true
	}
	return codes, len(progs.byKey), progs.bytes
}

// TestProgramCacheBounds checks the cache's bounds: a script over
// maxProgScript bytes is not kept, the count and bytes never pass
// maxProgInterps and maxProgBytes, and the least recently used goes
// first. Other tests may fill the cache at the same time; each assertion
// holds whatever they keep.
func TestProgramCacheBounds(t *testing.T) {
	ctx := context.Background()
	run := func(code string) {
		t.Helper()
		res, err := Execute(ctx, code, nil)
		require.NoError(t, err)
		require.Equal(t, CodeOK, res.ReturnCode, res.Error)
	}

	big := "x := 0\n" + strings.Repeat("x++\n", maxProgScript/4) + "_ = x\n"
	require.Greater(t, len(big), maxProgScript)
	run(big)
	codes, _, _ := keptCodes()
	assert.False(t, codes[big], "a script over maxProgScript bytes was kept")

	first := "_ = \"program cache bounds: first\"\n"
	run(first)
	codes, _, _ = keptCodes()
	require.True(t, codes[first], "a short clean script was not kept")

	for i := range maxProgInterps + 8 {
		run(fmt.Sprintf("_ = \"program cache bounds: %d\"\n", i))
		_, n, bytes := keptCodes()
		require.LessOrEqual(t, n, maxProgInterps)
		require.LessOrEqual(t, bytes, maxProgBytes)
	}
	codes, _, _ = keptCodes()
	assert.False(t, codes[first], "the least recently used script outlived %d newer ones", maxProgInterps+8)

	// Scripts of about 4 KB each: the byte bound, not the count, evicts.
	pad := strings.Repeat("y", maxProgScript/2)
	for i := range 2 * maxProgBytes / len(pad) {
		run(fmt.Sprintf("_ = %q // %d\n", pad, i))
		_, _, bytes := keptCodes()
		require.LessOrEqual(t, bytes, maxProgBytes)
	}
}
