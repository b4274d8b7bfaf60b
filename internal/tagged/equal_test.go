package tagged_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/internal/tagged"
)

func TestEncodes(t *testing.T) {
	values := []any{
		nil, true, "s", 1, 2.0, []any{1, "a", nil}, []int{1, 2}, map[string]any(nil), map[string]any{},
		map[string]any{"a": 1, "b": 2.5, "c": "x\"y\\z:,{}[]", "é": true, "q\"k": nil},
		map[string]any{"n": map[string]any{"x": 1, "y": []any{map[string]any{"p": 1}}}, "m": map[string]any{}},
		map[string]int{"a": 1},
	}
	var buf []byte
	for i, v := range values {
		data, err := tagged.Marshal(v)
		require.NoError(t, err)
		for range 20 { // map orders vary
			var ok bool
			ok, buf = tagged.Encodes(buf, v, data)
			if _, other := v.(map[string]int); !other {
				assert.True(t, ok, "%d: %s", i, data)
			}
		}
		for j, w := range values {
			if i == j {
				continue
			}
			var ok bool
			ok, buf = tagged.Encodes(buf, w, data)
			assert.False(t, ok, "%d vs %d: %s", i, j, data)
		}
	}
	changed := []struct{ before, after map[string]any }{
		{map[string]any{"a": 1}, map[string]any{"a": 2}},
		{map[string]any{"a": 1}, map[string]any{"a": 1, "b": 1}},
		{map[string]any{"a": 1, "b": 1}, map[string]any{"a": 1}},
		{map[string]any{"a": 1, "b": 1}, map[string]any{"a": 1, "c": 1}},
		{map[string]any{"a": 1}, map[string]any{"a": 1.0}},
		{map[string]any{"a": map[string]any{"x": 1}}, map[string]any{"a": map[string]any{"x": 1, "y": 2}}},
		{map[string]any{"a": []any{1}}, map[string]any{"a": []any{1, 2}}},
		{map[string]any{"a": nil}, map[string]any{"a": map[string]any(nil)}},
	}
	for _, c := range changed {
		data, err := tagged.Marshal(c.before)
		require.NoError(t, err)
		var ok bool
		ok, buf = tagged.Encodes(buf, c.after, data)
		assert.False(t, ok, "%s vs %v", data, c.after)
	}
	ok, _ := tagged.Encodes(nil, map[string]any{"f": func() {}}, []byte(`{"f":null}`))
	assert.False(t, ok, "a value that cannot be encoded")
	for _, bad := range []string{``, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1`, `{"a":1,"a":1}`, `{a:1}`} {
		ok, _ := tagged.Encodes(nil, map[string]any{"a": 1}, []byte(bad))
		assert.False(t, ok, bad)
	}
}
