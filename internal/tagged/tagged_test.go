package tagged_test

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/internal/tagged"
)

type celsius float64

type point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

func TestRoundTrip(t *testing.T) {
	when := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	tests := []struct {
		name string
		in   any
		want any // nil: same as in
	}{
		{name: "nil", in: nil},
		{name: "bool", in: true},
		{name: "string", in: "h\u00e9llo \"q\" \\ \n"},
		{name: "int", in: 42},
		{name: "negative int", in: -7},
		{name: "float64 integral", in: 2.0},
		{name: "float64", in: 0.1},
		{name: "float64 big", in: 1e300},
		{name: "map", in: map[string]any{"a": 1, "b": 2.5, "c": []any{"x", nil, true}, "d": map[string]any{}}},
		{name: "[]any", in: []any{1, 1.0, "s", []int{1, 2}}},
		{name: "empty []any", in: []any{}},
		{name: "nil map", in: map[string]any(nil)},
		{name: "nil slices", in: []any{[]any(nil), []int(nil), []string(nil), []map[string]any(nil)}},
		{name: "[]map", in: []map[string]any{{"id": 1}, {"id": 2}}},
		{name: "[]string", in: []string{"a", "b"}},
		{name: "[]int", in: []int{3, -1}},
		{name: "[]float64", in: []float64{1, 0.5}},
		{name: "[]bool", in: []bool{true, false}},
		{name: "[]byte", in: []byte("raw\x00")},
		{name: "map[string]string", in: map[string]string{"k": "v"}},
		{name: "map[string]int", in: map[string]int{"k": 1}},
		{name: "map[string]float64", in: map[string]float64{"k": 1}},
		{name: "sized ints", in: []any{int8(-1), int16(2), int32(3), int64(1 << 40), uint(5), uint8(6), uint16(7), uint32(8), uint64(math.MaxUint64)}},
		{name: "float32", in: float32(1.5)},
		{name: "duration", in: 3 * time.Second},
		{name: "time", in: when},
		{name: "named float", in: celsius(21.5), want: 21.5},
		{name: "other slice", in: []celsius{1, 2}, want: []any{1.0, 2.0}},
		{name: "array", in: [2]string{"a", "b"}, want: []any{"a", "b"}},
		{name: "pointer", in: new(int), want: 0},
		{name: "struct as JSON", in: point{1, 2}, want: map[string]any{"x": 1.0, "y": 2.0}},
		{name: "struct pointer as JSON", in: &point{3, 4}, want: map[string]any{"x": 3.0, "y": 4.0}},
		{name: "int-keyed map as JSON", in: map[int]string{1: "a"}, want: map[string]any{"1": "a"}},
		{name: "error", in: errors.New("boom"), want: errors.New("boom")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tagged.Marshal(tt.in)
			require.NoError(t, err)
			require.True(t, json.Valid(b), "encoding is JSON: %s", b)
			got, err := tagged.Unmarshal(b)
			require.NoError(t, err, "%s", b)
			want := tt.want
			if want == nil {
				want = tt.in
			}
			assert.Equal(t, want, got, "%s", b)
		})
	}
}

func TestSpecialFloats(t *testing.T) {
	for _, f := range []float64{math.Inf(1), math.Inf(-1)} {
		b, err := tagged.Marshal(f)
		require.NoError(t, err)
		got, err := tagged.Unmarshal(b)
		require.NoError(t, err)
		assert.Equal(t, f, got)
	}
	b, err := tagged.Marshal(math.NaN())
	require.NoError(t, err)
	got, err := tagged.Unmarshal(b)
	require.NoError(t, err)
	assert.True(t, math.IsNaN(got.(float64)))
	// float32 and the elements of typed slices and maps keep them too.
	for _, v := range []any{float32(math.Inf(1)), []float64{math.Inf(-1)}, map[string]float64{"k": math.Inf(1)}} {
		b, err := tagged.Marshal(v)
		require.NoError(t, err)
		got, err := tagged.Unmarshal(b)
		require.NoError(t, err, "%s", b)
		assert.Equal(t, v, got, "%s", b)
	}
	b, err = tagged.Marshal(float32(math.NaN()))
	require.NoError(t, err)
	got, err = tagged.Unmarshal(b)
	require.NoError(t, err, "%s", b)
	assert.True(t, math.IsNaN(float64(got.(float32))), "%s", b)
}

func TestUnsupported(t *testing.T) {
	for _, v := range []any{func() {}, make(chan int), complex(1, 2)} {
		_, err := tagged.Marshal(v)
		assert.ErrorIs(t, err, tagged.ErrUnsupported)
	}
	deep := []any{}
	for range tagged.MaxDepth + 5 {
		deep = []any{deep}
	}
	_, err := tagged.Marshal(deep)
	assert.ErrorIs(t, err, tagged.ErrUnsupported)
}

func TestUnmarshal_Errors(t *testing.T) {
	for _, in := range []string{"", "[", `["nope",1]`, `{"a":}`, `"unterminated`, "1 2", `["[]int","x"]`, `[1,2]`} {
		_, err := tagged.Unmarshal([]byte(in))
		assert.ErrorIs(t, err, tagged.ErrSyntax, in)
	}
}

// TestUnmarshal_TypedElements checks the element types of typed slices:
// a wrong element names the slice and the element's type, and only []map
// takes null elements.
func TestUnmarshal_TypedElements(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{`["[]bool",true,"x"]`, "[]bool element is string"},
		{`["[]float64",1.5,true]`, "[]float64 element is bool"},
		{`["[]float64",null]`, "[]float64 element is <nil>"},
		{`["[]map",{"a":1},2.5]`, "[]map element is float64"},
	} {
		_, err := tagged.Unmarshal([]byte(c.in))
		require.ErrorIs(t, err, tagged.ErrSyntax, c.in)
		assert.Contains(t, err.Error(), c.msg, c.in)
	}
	v, err := tagged.Unmarshal([]byte(`["[]map",null,{"a":1}]`))
	require.NoError(t, err)
	assert.Equal(t, []map[string]any{nil, {"a": 1}}, v)
}

func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{`{"a":["[]any",1,2.0,"x"]}`, `["json",{"a":[1,2]}]`, `["map[string]int",{"a":1}]`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := tagged.Unmarshal(data)
		if err != nil {
			return
		}
		b, err := tagged.Marshal(v)
		if err != nil {
			t.Fatalf("decoded value %#v does not encode: %v", v, err)
		}
		if _, err := tagged.Unmarshal(b); err != nil {
			t.Fatalf("re-encoding %s does not decode: %v", b, err)
		}
	})
}
