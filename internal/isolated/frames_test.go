package isolated

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/internal/wire"
)

// countingWriter records each Write it is given.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.Buffer.Write(p)
}

// TestWriteFrames checks that frames written together arrive in one
// write, in order, readable as frames, and that a frame over the limit
// fails as wire.Writer fails it, after the frames before it.
func TestWriteFrames(t *testing.T) {
	out := &countingWriter{}
	lw := &lockedWriter{w: out}
	c := &Conn{W: wire.NewWriter(lw), out: lw}
	fs := []wire.Frame{
		{Type: typeTrace, ID: 7, Body: []byte("trace")},
		{Type: wire.TypeResult, ID: 7, Body: []byte(`{"value":{}}`)},
		{Type: typeReady, ID: 7, Body: readyClean},
	}
	require.NoError(t, c.WriteFrames(fs...))
	assert.Equal(t, 1, out.writes)
	require.NoError(t, c.W.Write(wire.Frame{Type: typeStdout, ID: 8, Body: []byte("after")}))
	r := wire.NewReader(bytes.NewReader(out.Bytes()))
	for _, want := range append(fs, wire.Frame{Type: typeStdout, ID: 8, Body: []byte("after")}) {
		f, err := r.Read()
		require.NoError(t, err)
		assert.Equal(t, want, f)
	}

	out.Reset()
	out.writes = 0
	big := wire.Frame{Type: wire.TypeResult, ID: 9, Body: make([]byte, MaxFrameBytes)}
	err := c.WriteFrames(fs[0], big, fs[2])
	var fe *wire.FrameSizeError
	require.True(t, errors.As(err, &fe), "%v", err)
	r = wire.NewReader(bytes.NewReader(out.Bytes()))
	f, err := r.Read()
	require.NoError(t, err)
	assert.Equal(t, fs[0], f, "the frame before the one over the limit is written")
	_, err = r.Read()
	assert.Error(t, err, "nothing after it")
	assert.Error(t, c.WriteFrames(wire.Frame{ID: 1}), "a frame without a type")
}
