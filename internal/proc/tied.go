package proc

import (
	"os/exec"
	"sync"
)

// tiedSpawner is StartTied's spawner. Its OS thread is locked for the
// life of the process and never ends, so the parent-death signal of the
// children it forks fires only when the process dies.
var tiedSpawner = sync.OnceValue(newSpawner)

// SpawnerFunc is the function the goroutine of StartTied's spawner runs
// for the life of the process: goroutine leak checks ignore it
// (goleak.IgnoreAnyFunction(proc.SpawnerFunc)).
const SpawnerFunc = "github.com/toolscript/toolscript/internal/proc.(*spawner).loop"

// StartTied starts cmd, a child that is not one of a Pool's (an MCP
// server, say), tied to the host as a Pool's children are: in a process
// group of its own (on Unix), which the caller kills when it stops the
// child, and killed by the kernel with SIGKILL when the host dies, however
// it dies (on Linux, through the parent-death signal). cmd.SysProcAttr is
// replaced.
//
// Linux sends the parent-death signal when the thread that forked the
// child ends, not the process, and the Go runtime ends threads: a thread
// whose goroutine was locked to it ends when the goroutine returns. So
// every child is forked from one goroutine locked to its thread, which
// lives as long as the process (the first call starts it). Elsewhere there
// is no parent-death signal, and a child notices the host's death when
// its input pipe closes.
func StartTied(cmd *exec.Cmd) error { return tiedSpawner().start(cmd) }
