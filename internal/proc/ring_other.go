//go:build !(linux && (amd64 || arm64))

package proc

import (
	"errors"
	"os"
	"time"
)

// ringsSupported reports whether this build can share memory with a
// child: only on Linux (amd64, arm64); elsewhere the frames take the
// pipes.
const ringsSupported = false

// region is a child's shared memory; this build has none.
type region struct{}

func createRegion() (*region, *os.File, error) { return nil, nil, errors.ErrUnsupported }
func mapRegion(*os.File) (*region, error)      { return nil, errors.ErrUnsupported }
func (*region) end(error)                      {}
func (*region) watchEnd(*os.File)              {}
func (*region) hostEnds() (*RingReader, *RingWriter) {
	return nil, nil
}
func (*region) childEnds() (*RingReader, *RingWriter) {
	return nil, nil
}

// RingReader reads one direction of a child's shared memory; this build
// has none, and no value of it exists.
type RingReader struct{}

// RingWriter writes one direction of a child's shared memory; this build
// has none, and no value of it exists.
type RingWriter struct{}

// SetSpin does nothing: no RingReader exists in this build.
func (*RingReader) SetSpin(func() bool, time.Duration) {}

// Buffered returns 0: no RingReader exists in this build.
func (*RingReader) Buffered() int { return 0 }

// Read fails: no RingReader exists in this build.
func (*RingReader) Read([]byte) (int, error) { return 0, errors.ErrUnsupported }

// Write fails: no RingWriter exists in this build.
func (*RingWriter) Write([]byte) (int, error) { return 0, errors.ErrUnsupported }
