package wire_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/internal/wire"
)

func TestWriter_RoundTrip(t *testing.T) {
	tests := []struct {
		name string
		typ  wire.Type
		id   uint64
		body any
		into func() any
	}{
		{"hello", wire.TypeHello, 0, &wire.Hello{Version: wire.Version, PID: 42, Role: "executor"}, func() any { return new(wire.Hello) }},
		{"call", wire.TypeCall, 7, &wire.Call{Name: "add", Args: json.RawMessage(`{"a":1}`)}, func() any { return new(wire.Call) }},
		{"result value", wire.TypeResult, 7, &wire.Result{Value: json.RawMessage(`[1,2]`)}, func() any { return new(wire.Result) }},
		{"result error", wire.TypeResult, 8, &wire.Result{Error: &wire.Error{Kind: wire.KindPanic, Message: "boom", Stack: "s"}}, func() any { return new(wire.Result) }},
		{"progress", wire.TypeProgress, 9, &wire.Progress{Fraction: 0.5, Message: "half", Detail: json.RawMessage(`{"k":"v"}`)}, func() any { return new(wire.Progress) }},
		{"cancel", wire.TypeCancel, 1<<63 + 5, &wire.Cancel{Reason: "timeout"}, func() any { return new(wire.Cancel) }},
		{"shutdown", wire.TypeShutdown, 0, nil, nil},
		{"extension", wire.TypeExtension + 1, 3, &map[string]string{"x": "y"}, func() any { return new(map[string]string) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, wire.NewWriter(&buf).Send(tt.typ, tt.id, tt.body))
			f, err := wire.NewReader(&buf).Read()
			require.NoError(t, err)
			assert.Equal(t, tt.typ, f.Type)
			assert.Equal(t, tt.id, f.ID)
			if tt.body == nil {
				assert.Empty(t, f.Body)
				return
			}
			got := tt.into()
			require.NoError(t, f.Decode(got))
			assert.Equal(t, tt.body, got)
		})
	}
}

func TestReader_Errors(t *testing.T) {
	frame := func(n uint32, typ byte, rest ...byte) []byte {
		b := binary.BigEndian.AppendUint32(nil, n)
		b = append(b, typ)
		b = append(b, make([]byte, 8)...)
		return append(b, rest...)
	}
	tests := []struct {
		name  string
		input []byte
		want  error
	}{
		{"empty is clean EOF", nil, io.EOF},
		{"partial length", []byte{0, 0}, io.ErrUnexpectedEOF},
		{"short length", frame(3, 1), wire.ErrShortFrame},
		{"too large", frame(wire.DefaultMaxFrame+1, 1), wire.ErrFrameTooLarge},
		{"type zero", frame(9, 0), wire.ErrBadType},
		{"truncated header", frame(9, 1)[:8], io.ErrUnexpectedEOF},
		{"truncated body", frame(12, 1, 'a'), io.ErrUnexpectedEOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := wire.NewReader(bytes.NewReader(tt.input)).Read()
			require.ErrorIs(t, err, tt.want)
		})
	}
}

func TestReader_SetMaxFrame(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, wire.NewWriter(&buf).Write(wire.Frame{Type: wire.TypeCall, Body: make([]byte, 100)}))
	r := wire.NewReader(bytes.NewReader(buf.Bytes()))
	r.SetMaxFrame(50)
	_, err := r.Read()
	require.ErrorIs(t, err, wire.ErrFrameTooLarge)

	r = wire.NewReader(bytes.NewReader(buf.Bytes()))
	r.SetMaxFrame(0)
	f, err := r.Read()
	require.NoError(t, err)
	assert.Len(t, f.Body, 100)
}

func TestWriter_Errors(t *testing.T) {
	w := wire.NewWriter(io.Discard)
	require.ErrorIs(t, w.Write(wire.Frame{}), wire.ErrBadType)
	require.Error(t, w.Send(wire.TypeCall, 1, func() {}))
}

func TestFrame_DecodeError(t *testing.T) {
	var c wire.Call
	err := wire.Frame{Type: wire.TypeCall, Body: []byte("{")}.Decode(&c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "wire: decode call body")
	require.NoError(t, wire.Frame{Type: wire.TypeCall}.Decode(&c))
}

func TestType_String(t *testing.T) {
	assert.Equal(t, "call", wire.TypeCall.String())
	assert.Equal(t, "shutdown", wire.TypeShutdown.String())
	assert.Equal(t, "type(99)", wire.Type(99).String())
}

// TestWriter_Concurrent checks that concurrent senders never interleave.
func TestWriter_Concurrent(t *testing.T) {
	pr, pw := io.Pipe()
	w := wire.NewWriter(pw)
	const senders, each = 8, 50
	var wg sync.WaitGroup
	for s := range senders {
		wg.Go(func() {
			for i := range each {
				assert.NoError(t, w.Send(wire.TypeCall, uint64(s*1000+i), &wire.Call{Name: "f", Args: json.RawMessage(`{"pad":"` + string(bytes.Repeat([]byte{'x'}, i*37)) + `"}`)}))
			}
		})
	}
	go func() { wg.Wait(); pw.Close() }()
	r := wire.NewReader(pr)
	n := 0
	for {
		f, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		var c wire.Call
		require.NoError(t, f.Decode(&c))
		assert.Equal(t, "f", c.Name)
		n++
	}
	assert.Equal(t, senders*each, n)
}

func TestFrameSizeError(t *testing.T) {
	// The writer refuses what a default reader would refuse, and the
	// stream stays usable.
	var buf bytes.Buffer
	w := wire.NewWriter(&buf)
	err := w.Write(wire.Frame{Type: wire.TypeResult, ID: 1, Body: make([]byte, wire.DefaultMaxFrame)})
	var fe *wire.FrameSizeError
	require.ErrorAs(t, err, &fe)
	require.ErrorIs(t, err, wire.ErrFrameTooLarge)
	assert.Equal(t, wire.TypeResult, fe.Type)
	assert.Equal(t, wire.DefaultMaxFrame+9, fe.Size)
	assert.Equal(t, wire.DefaultMaxFrame, fe.Limit)
	assert.Contains(t, err.Error(), "result frame")
	assert.Zero(t, buf.Len(), "nothing of the refused frame is written")
	require.NoError(t, w.Write(wire.Frame{Type: wire.TypeCall, ID: 2, Body: []byte("{}")}))

	// The reader names the type of the frame it refuses.
	var big bytes.Buffer
	require.NoError(t, wire.NewWriter(&big).Write(wire.Frame{Type: wire.TypeCall, Body: make([]byte, 100)}))
	r := wire.NewReader(bytes.NewReader(big.Bytes()))
	r.SetMaxFrame(50)
	_, err = r.Read()
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, wire.TypeCall, fe.Type)
	assert.Equal(t, 109, fe.Size)
	assert.Equal(t, 50, fe.Limit)
}
