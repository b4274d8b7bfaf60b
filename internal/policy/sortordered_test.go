package policy

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSortOrdered checks that SortOrdered sorts every ordered kind, named
// element and slice types included, exactly as slices.Sort does, in place,
// and refuses what is not a slice of such a kind.
func TestSortOrdered(t *testing.T) {
	type name string
	type names []name
	type level int8
	rng := rand.New(rand.NewPCG(3, 4))
	floats := make([]float64, 200)
	for i := range floats {
		switch i % 17 {
		case 0:
			floats[i] = math.NaN()
		case 1:
			floats[i] = math.Copysign(0, -1)
		case 2:
			floats[i] = 0
		default:
			floats[i] = rng.NormFloat64()
		}
	}
	want := slices.Clone(floats)
	slices.Sort(want)
	got := slices.Clone(floats)
	require.True(t, SortOrdered(got))
	for i := range want {
		assert.Equal(t, math.Float64bits(want[i]), math.Float64bits(got[i]), "element %d: the same bits, -0 and NaN included", i)
	}

	ns := names{"b", "c", "a"}
	require.True(t, SortOrdered(ns))
	assert.Equal(t, names{"a", "b", "c"}, ns, "in place, through a named slice type")
	lv := []level{3, -128, 127, 0}
	require.True(t, SortOrdered(lv))
	assert.Equal(t, []level{-128, 0, 3, 127}, lv)
	u := []uint64{1 << 63, 1, 0}
	require.True(t, SortOrdered(u[1:]))
	assert.Equal(t, []uint64{1 << 63, 0, 1}, u, "a sub-slice sorts its own elements only")
	require.True(t, SortOrdered([]string(nil)))
	require.True(t, SortOrdered([]uintptr{2, 1}))

	for _, v := range []any{nil, 3, "s", []bool{true, false}, []struct{ X int }{{2}, {1}}, []any{2, 1}, [2]int{2, 1}, []*int{nil}} {
		assert.False(t, SortOrdered(v), "%T", v)
	}
}
