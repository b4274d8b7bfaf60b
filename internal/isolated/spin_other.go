//go:build !linux

package isolated

import (
	"io"
	"os"
	"runtime"
)

// newSpinReader returns f: outside Linux the reads simply block.
func newSpinReader(f *os.File, _ func() bool) io.Reader { return f }

// newPipeReader returns f and nil: outside Linux whether the pipe holds
// bytes is not known without blocking.
func newPipeReader(f *os.File) (io.Reader, func() bool) { return f, nil }

// Yield pauses a spinning wait (i is the caller's count of its calls):
// it lets the other goroutines of this process run.
func Yield(i int) { runtime.Gosched() }
