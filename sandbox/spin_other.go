//go:build !linux

package sandbox

import (
	"io"
	"os"
	"runtime"
)

// newSpinReader returns f: outside Linux the reads simply block.
func newSpinReader(f *os.File, _ func() bool) io.Reader { return f }

// Yield lets the other goroutines of this process run: the pause of a
// spinning wait.
func Yield() { runtime.Gosched() }
