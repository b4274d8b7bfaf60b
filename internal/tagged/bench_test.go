package tagged_test

import (
	"testing"
	"time"

	"github.com/toolscript/toolscript/internal/tagged"
)

// benchValues are the shapes that cross the isolated runtime's pipe: tool
// arguments (plain JSON-like maps), results built by Go tools (typed
// slices and maps, sized integers, times) and values a script returns.
var benchValues = []struct {
	name string
	v    any
}{
	{"args", map[string]any{"a": 6, "b": 7.5, "name": "multiply", "flags": []any{true, "x", nil}}},
	{"typed", map[string]any{
		"ids": []int{1, 2, 3, 4}, "tags": []string{"a", "b", "c"}, "scores": []float64{0.5, 1.5},
		"counts": map[string]int{"x": 1, "y": 2}, "labels": map[string]string{"k": "v"},
		"n64": int64(1 << 40), "u8": uint8(7), "f32": float32(1.5), "took": 3 * time.Second,
		"at": time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), "raw": []byte("bytes"),
	}},
	{"rows", []map[string]any{{"id": 1, "qty": 2.5, "sku": "A-1"}, {"id": 2, "qty": 1.0, "sku": "B-2"}, {"id": 3, "qty": 4.0, "sku": "C-3"}}},
}

func BenchmarkMarshal(b *testing.B) {
	for _, bv := range benchValues {
		b.Run(bv.name, func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				var err error
				if buf, err = tagged.Append(buf[:0], bv.v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkUnmarshal(b *testing.B) {
	for _, bv := range benchValues {
		data, err := tagged.Marshal(bv.v)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bv.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tagged.Unmarshal(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncodes(b *testing.B) {
	for _, bv := range benchValues {
		data, err := tagged.Marshal(bv.v)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bv.name, func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				_, buf = tagged.Encodes(buf, bv.v, data)
			}
		})
	}
}
