package isolated

import (
	"encoding/json"
	"fmt"
	"time"
)

// Unlimited disables a limit of Limits.
const Unlimited = -1

// Default limits, used for every zero field of Limits.
const (
	// DefaultMemoryBytes bounds a worker's writable memory above what it
	// used at start.
	DefaultMemoryBytes = 1 << 30
	// DefaultCPUTime bounds the CPU time of a worker over its life.
	DefaultCPUTime = 10 * time.Minute
	// DefaultOpenFiles bounds a worker's open file descriptors.
	DefaultOpenFiles = 32
	// DefaultProcesses bounds the threads and processes of the user a
	// worker runs as, when it runs as its own user (see Limits.KeepRoot).
	DefaultProcesses = 512
	// DefaultMaxStack bounds the stack of each goroutine of a worker.
	DefaultMaxStack = 256 << 20
)

// Limits are the OS limits a worker applies to itself when it starts,
// before it reads anything from the host. A zero field takes the package
// default; Unlimited (or any negative value) disables that limit. See the
// package documentation for what each one does on Linux.
type Limits struct {
	// MemoryBytes bounds the worker's private writable memory
	// (RLIMIT_DATA) to what it used at start plus this many bytes
	// (DefaultMemoryBytes), and sets the Go runtime's soft memory limit
	// (debug.SetMemoryLimit) to the same figure so the collector works
	// harder before the hard limit kills the worker.
	MemoryBytes int64 `json:"memory_bytes,omitempty"`
	// CPUTime bounds the worker's CPU time over its whole life
	// (RLIMIT_CPU hard limit; the kernel sends SIGKILL), DefaultCPUTime.
	// The per-run budget is set with SetRunCPU.
	CPUTime time.Duration `json:"cpu_time,omitempty"`
	// OpenFiles bounds the worker's file descriptors (RLIMIT_NOFILE),
	// DefaultOpenFiles.
	OpenFiles int `json:"open_files,omitempty"`
	// Processes bounds the threads and processes of the worker's user
	// (RLIMIT_NPROC), DefaultProcesses. It is applied only when the worker
	// runs as its own user (a host running as root, KeepRoot false): the
	// count is per user, and the host's user has other processes.
	Processes int `json:"processes,omitempty"`
	// MaxStack bounds each goroutine's stack (debug.SetMaxStack),
	// DefaultMaxStack: runaway recursion ends the worker, not the host.
	MaxStack int `json:"max_stack,omitempty"`
	// KeepRoot keeps a worker started by a root host running as root.
	// By default such a worker switches to user and group nobody (65534)
	// and drops its supplementary groups, so file permissions and
	// RLIMIT_NPROC apply to it.
	KeepRoot bool `json:"keep_root,omitempty"`
}

// WithDefaults returns l with its zero fields set to the package defaults.
func (l Limits) WithDefaults() Limits {
	if l.MemoryBytes == 0 {
		l.MemoryBytes = DefaultMemoryBytes
	}
	if l.CPUTime == 0 {
		l.CPUTime = DefaultCPUTime
	}
	if l.OpenFiles == 0 {
		l.OpenFiles = DefaultOpenFiles
	}
	if l.Processes == 0 {
		l.Processes = DefaultProcesses
	}
	if l.MaxStack == 0 {
		l.MaxStack = DefaultMaxStack
	}
	return l
}

func (l Limits) encode() string {
	b, _ := json.Marshal(l)
	return string(b)
}

func decodeLimits(s string) (Limits, error) {
	var l Limits
	if s == "" {
		return l.WithDefaults(), nil
	}
	if err := json.Unmarshal([]byte(s), &l); err != nil {
		return l, fmt.Errorf("sandbox: bad limits from the host: %w", err)
	}
	return l.WithDefaults(), nil
}
