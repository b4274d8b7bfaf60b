//go:build !linux

package sandbox

import (
	"io"
	"os"
	"runtime"
)

// newSpinReader returns f: outside Linux the reads simply block.
func newSpinReader(f *os.File, _ func() bool) io.Reader { return f }

// Yield pauses a spinning wait (i is the caller's count of its calls):
// it lets the other goroutines of this process run.
func Yield(i int) { runtime.Gosched() }
