package proc

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
)

// Exit statuses of a child, besides those of the Go runtime (2 for a
// fatal error or an unrecovered panic).
const (
	// ExitServe means the role's Serve returned an error.
	ExitServe = 1
	// ExitSetup means the child could not set itself up before its hello:
	// no role of that name in the binary, a Role.Setup error (limits that
	// could not be applied, a failed warm-up) or missing pipes.
	ExitSetup = 3
	// ExitCPU means a child under OS limits used up the CPU time of its
	// run; it writes CPULimitMessage to its standard error first.
	ExitCPU = 152
)

// CPULimitMessage is what a child under OS limits writes to its standard
// error before it exits with ExitCPU.
const CPULimitMessage = "proc: CPU time limit exceeded"

// Errors of the package.
var (
	// ErrClosed reports use of a closed Pool (or of its spawner).
	ErrClosed = errors.New("proc: child pool is closed")
	// ErrStart is matched by every *StartError.
	ErrStart = errors.New("proc: child process did not start")
)

// Exit describes how a child ended: the one result of exit
// classification, for the executor's children and the isolated runtime's
// workers alike.
type Exit struct {
	// Cause is what ended the child, for people and models: the host's
	// reason when the host killed it; else, read from its status and
	// standard error, "memory limit", "stack overflow", "CPU time limit",
	// "concurrent map writes", "panic: ..." (a panic nothing recovered),
	// "setup failed: ..." (before its hello), or the exit status. A child
	// without OS limits (Config.Limited false) is never said to have hit
	// one: its causes are "out of memory", "no new OS thread" or the
	// status instead.
	Cause string
	// Status is the process status, e.g. "exit status 2" or "signal: killed".
	Status string
	// Stderr is the child's standard error: its first and last 4 KiB.
	Stderr string
}

// String renders "cause (status)", or the cause alone when it is the
// status.
func (e Exit) String() string {
	if e.Cause == e.Status || e.Status == "" {
		return e.Cause
	}
	return e.Cause + " (" + e.Status + ")"
}

// Quote renders the exit with the end of its standard error, for an error
// message: "cause (status); stderr: ...", the stderr part cut to its last
// 2 KiB and left out when empty.
func (e Exit) Quote() string {
	s := e.String()
	if tail := strings.TrimSpace(e.Stderr); tail != "" {
		if len(tail) > 2048 {
			tail = "..." + tail[len(tail)-2048:]
		}
		s += "; stderr: " + tail
	}
	return s
}

// StartError reports a child that did not start: it could not be spawned,
// it ended or sent something else before its hello, it spoke another
// protocol version or role, or it said nothing within the start timeout.
// It matches ErrStart.
type StartError struct {
	Role   string // the role the child was started for
	Reason string // what went wrong, e.g. "no hello within 20s"
	Exit   Exit   // how the child ended; zero when it never ran
	Hint   string // Config.Hint, for a child that ran
}

// Error renders "proc: <role> child process did not start: <reason>:
// <exit>; stderr: <tail><hint>".
func (e *StartError) Error() string {
	s := fmt.Sprintf("proc: %s child process did not start: %s", e.Role, e.Reason)
	if e.Exit != (Exit{}) {
		s += ": " + e.Exit.Quote()
	}
	return s + e.Hint
}

// Unwrap returns ErrStart.
func (e *StartError) Unwrap() error { return ErrStart }

// classify finds why a child ended from its status and standard error.
// reason, when not empty, is the host's and wins; hello tells whether the
// child had said hello (only before it does exit status ExitSetup mean a
// failed setup); limited whether it ran under OS limits (only then do
// SIGKILL and ExitCPU mean the CPU limit, and running out of memory the
// memory limit).
func classify(st *os.ProcessState, waitErr error, stderr, reason string, hello, limited bool) Exit {
	e := Exit{Stderr: stderr, Status: "exited"}
	switch {
	case st != nil:
		e.Status = st.String()
	case waitErr != nil:
		e.Status = waitErr.Error()
	}
	has := func(s ...string) bool {
		for _, x := range s {
			if strings.Contains(stderr, x) {
				return true
			}
		}
		return false
	}
	switch {
	case reason != "":
		e.Cause = reason
	case limited && (st != nil && st.ExitCode() == ExitCPU || has(CPULimitMessage)):
		e.Cause = "CPU time limit"
	case limited && st != nil && isSignal(st, syscall.SIGKILL) && !has("fatal error", "panic:"):
		e.Cause = "killed by SIGKILL (CPU time limit or the kernel's out-of-memory killer)"
	case has("stack overflow", "stack exceeds"):
		e.Cause = "stack overflow"
	case has("out of memory", "cannot allocate memory", "ThreadSanitizer failed to allocate", "errno=12"):
		e.Cause = "out of memory"
		if limited {
			e.Cause = "memory limit"
		}
	case has("failed to create new OS thread", "pthread_create failed"):
		// EAGAIN from thread creation is RLIMIT_NPROC, or (through libc,
		// as in race-enabled builds) a thread stack that RLIMIT_DATA
		// left no room for.
		e.Cause = "no new OS thread"
		if limited {
			e.Cause = "memory limit or process limit (no new OS thread)"
		}
	case has("concurrent map"):
		e.Cause = firstLine(stderr, "fatal error: ")
	case has("panic: "):
		e.Cause = "panic: " + firstLine(stderr, "panic: ")
	case has("fatal error: "):
		e.Cause = firstLine(stderr, "fatal error: ")
	case !hello && st != nil && st.ExitCode() == ExitSetup:
		e.Cause = "setup failed: " + strings.TrimSpace(lastLine(stderr))
	default:
		e.Cause = e.Status
	}
	return e
}

func isSignal(st *os.ProcessState, sig syscall.Signal) bool {
	ws, ok := st.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}

// firstLine returns the rest of the first line that contains prefix.
func firstLine(s, prefix string) string {
	i := strings.Index(s, prefix)
	if i < 0 {
		return ""
	}
	s = s[i+len(prefix):]
	if j := strings.IndexByte(s, '\n'); j >= 0 {
		s = s[:j]
	}
	return strings.TrimSpace(s)
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// tailBuffer keeps the first max bytes and the last max bytes written to
// it: a fatal error's message comes first, the goroutine dump after.
type tailBuffer struct {
	mu   sync.Mutex
	max  int
	head []byte
	b    []byte
	cut  bool // bytes between head and b were dropped
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if room := t.max - len(t.head); room > 0 {
		k := min(room, len(p))
		t.head = append(t.head, p[:k]...)
		p = p[k:]
	}
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
		t.cut = true
	}
	return n, nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cut {
		return string(t.head) + "\n...\n" + string(t.b)
	}
	return string(t.head) + string(t.b)
}
