//go:build !linux

package isolated

import (
	"runtime/debug"
	"time"
)

// applyLimits applies what is portable: the stack and the Go memory
// limit. The OS limits of the package documentation are Linux only.
func applyLimits(l Limits) error {
	if l.MaxStack >= 0 {
		debug.SetMaxStack(l.MaxStack)
	}
	if l.MemoryBytes >= 0 {
		debug.SetMemoryLimit(l.MemoryBytes)
	}
	return nil
}

// CPUUsed returns 0 outside Linux.
func CPUUsed() time.Duration { return 0 }

// SetRunCPU does nothing outside Linux and reports true.
func SetRunCPU(time.Duration) bool { return true }
