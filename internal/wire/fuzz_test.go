package wire_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/toolscript/toolscript/internal/wire"
)

// FuzzReader feeds arbitrary bytes to the decoder. It must never panic, never
// accept a frame over its limit, and every frame it accepts must re-encode to
// the bytes it was read from.
func FuzzReader(f *testing.F) {
	seed := func(frames ...wire.Frame) []byte {
		var b []byte
		for _, fr := range frames {
			b = wire.AppendFrame(b, fr)
		}
		return b
	}
	f.Add(seed(wire.Frame{Type: wire.TypeHello, Body: []byte(`{"version":1,"pid":7}`)}))
	f.Add(seed(wire.Frame{Type: wire.TypeCall, ID: 1, Body: []byte(`{"name":"add","args":{"a":1,"b":2}}`)},
		wire.Frame{Type: wire.TypeCancel, ID: 1, Body: []byte(`{"reason":"timeout"}`)}))
	f.Add(seed(wire.Frame{Type: wire.TypeResult, ID: 1, Body: []byte(`{"error":{"kind":"panic","message":"x","stack":"y"}}`)}))
	f.Add(seed(wire.Frame{Type: wire.TypeProgress, ID: 2, Body: []byte(`{"fraction":0.5,"detail":[1]}`)}, wire.Frame{Type: wire.TypeShutdown}))
	f.Add([]byte{0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 1})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := wire.NewReader(bytes.NewReader(data))
		r.SetMaxFrame(1 << 16)
		off := 0
		for {
			fr, err := r.Read()
			if err != nil {
				return
			}
			if len(fr.Body) > 1<<16 {
				t.Fatalf("frame of %d bytes over the limit", len(fr.Body))
			}
			enc := wire.AppendFrame(nil, fr)
			if !bytes.Equal(enc, data[off:off+len(enc)]) {
				t.Fatalf("re-encoding differs at offset %d", off)
			}
			off += len(enc)
			var v any
			switch fr.Type {
			case wire.TypeHello:
				v = new(wire.Hello)
			case wire.TypeCall:
				v = new(wire.Call)
			case wire.TypeResult:
				v = new(wire.Result)
			case wire.TypeProgress:
				v = new(wire.Progress)
			case wire.TypeCancel:
				v = new(wire.Cancel)
			default:
				v = new(json.RawMessage)
			}
			_ = fr.Decode(v)
		}
	})
}
