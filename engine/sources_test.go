package engine

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSources_PrunedPerProgram runs, one after the other and in both
// orders, scripts that reach different functions of the interpreted
// slices (each execution gets the source pruned for its own program,
// internal/policy.SourceFSFor): what one execution's pruning kept or
// dropped never shows in the next; a script naming a function slices
// lacks fails to compile; a panic inside slices reads as with the whole
// source.
func TestSources_PrunedPerProgram(t *testing.T) {
	ctx := context.Background()
	cases := []struct{ code, want, err string }{
		{code: `fmt.Println(slices.Index([]int{4, 5}, 5))`, want: "1\n"},
		{code: `s := []int{3, 1, 2}; slices.Sort(s); fmt.Println(s, slices.Contains(s, 2))`, want: "[1 2 3] true\n"},
		{code: `fmt.Println(slices.Sorted(maps.Keys(map[string]int{"b": 1, "a": 2})))`, want: "[a b]\n"},
		{code: `fmt.Println(slices.NoSuchFunction([]int{1}))`, err: "NoSuchFunction"},
		{code: `fmt.Println(slices.Max([]int{}))`, err: "panic: slices.Max: empty list (in main (line 1:13))"},
	}
	for round := 0; round < 2; round++ {
		for i := range cases {
			c := cases[i]
			if round == 1 {
				c = cases[len(cases)-1-i]
			}
			res, err := Execute(ctx, c.code, nil)
			require.NoError(t, err)
			if c.err != "" {
				assert.NotEqual(t, CodeOK, res.ReturnCode, c.code)
				assert.Contains(t, res.Error, c.err, c.code)
				continue
			}
			assert.Equal(t, CodeOK, res.ReturnCode, "%s: %s", c.code, res.Error)
			assert.Equal(t, c.want, res.Stdout, c.code)
		}
	}
}
