// Package isolated is toolscript's isolated runtime (engine.NewIsolated)
// below its public API: scripts run in pre-started worker processes under
// OS limits while their tools run in the host. It holds the worker pool
// and the OS limits, the host side ([Host]), the worker side
// ([RegisterEngine]) and their protocol (proto.go). It cannot import package
// engine, which imports it: the in-process runtime a worker runs scripts
// on, and engine's error types and bounds, come through [Engine], which
// package engine implements. Of the project it imports only projection and
// internal packages.
//
// # Host, worker, protocol
//
// A [Host] keeps a [Pool] of engine workers. [Host.Run] sends a script to a
// free worker as a "run" call; the worker runs it on the in-process
// runtime with tools that forward each call to the host, which runs the
// real tool and answers. Output streams to the host as the script writes
// it; the reply carries the result, the error (rebuilt with its type on
// the host) and the tool-call trace (binary, naming the frames of calls
// whose arguments the host kept instead of sending them again). A worker
// whose script ends with goroutines still running, or one that changed
// the package state it could reach, is replaced. Tool calls are the hot
// path: their frames are built and parsed by hand, quick tools are served
// on the goroutine that reads the worker's frames, and a worker's tool
// call reads the host's answer itself while it spins for it. A
// namespace's tool list crosses to a worker once: a run names it by its
// key and carries it only when the worker does not hold it yet, and a
// namespace changed since it was last given gets a new list (see
// toollist.go). [ProfileEnv] makes the workers write CPU profiles.
//
// # Pool
//
// A [Pool] on the host keeps Config.Size workers started: children of the
// same binary (or Config.Path), each in its own process group, with an
// empty temporary working directory, no environment but two variables of
// its own (its role and its limits), and pipes on file descriptors 3
// (host to worker) and 4 (worker to host) that carry the frames of
// package internal/wire. On Linux (amd64, arm64) the frames after the
// hello cross shared memory instead: a memory file on descriptor 5 that
// both map, a byte ring each way (proc.RingReader, proc.RingWriter), so
// a tool call and its answer cost no system call while each side spins
// for the other; the pipes then only tell each side that the other has
// ended, and neither side trusts the other's words in the rings
// (Config.Pipes keeps the frames on the pipes). The pool is package internal/proc's, the one
// mechanism for child processes that the executor's process backend uses
// too: its start timeout, replacement, killing and exit classification
// ([Exit]). The worker's main calls the hook of every child process
// (engine.MaybeServeWorker, or executor.MaybeServeChild: the same
// function), which runs the role the worker was started for, registered
// at init ([Register], [RegisterEngine]): the worker applies the [Limits]
// to itself before it reads anything from the host, says hello and serves
// the connection.
//
// # Limits
//
// What a worker applies to itself at start, on Linux, unprivileged (each
// measured on a 2-core Linux 6.x machine with Go 1.26):
//
//   - Limits.MemoryBytes: RLIMIT_DATA set to the private writable memory
//     the worker uses at start (VmData: about 120 MiB for an engine worker,
//     40 MiB for a bare Go binary, some 300 MiB more under -race)
//     plus MemoryBytes, and debug.SetMemoryLimit(MemoryBytes). RLIMIT_DATA
//     counts only writable private mappings, so the Go runtime's large
//     address-space reservations do not count against it (RLIMIT_AS does:
//     a Go binary starts at 1.2 GiB of address space, and the race detector
//     reserves terabytes, so RLIMIT_AS is not used). Past it the Go runtime
//     dies with "fatal error: out of memory" (or thread creation fails with
//     errno 12; the race detector exits with status 66): make([]byte, 1<<40)
//     dies at once, a string doubled in a loop dies at about half the limit
//     (old and new copy) in a few hundred milliseconds.
//   - Limits.CPUTime: RLIMIT_CPU hard limit over the worker's life (the
//     kernel sends SIGKILL). [SetRunCPU] sets the soft limit for one run
//     (whole seconds); at the soft limit the worker catches SIGXCPU and
//     exits with [ExitCPU].
//   - Limits.OpenFiles: RLIMIT_NOFILE (default 32): an engine worker
//     starts with about 10 descriptors (stdio, the two pipes, the runtime's
//     epoll and eventfd, two cgroup files the runtime keeps open), so it
//     can open a handful more (time zone files). Descriptors the host
//     leaves open without close-on-exec are inherited, whatever the limit.
//   - RLIMIT_FSIZE 0 (writing to any file fails with "file too large";
//     pipes are not files) and RLIMIT_CORE 0.
//   - PR_SET_NO_NEW_PRIVS: nothing the worker executes can gain privileges.
//   - A host running as root gets workers running as nobody (uid and gid
//     65534, no supplementary groups) unless Limits.KeepRoot; then
//     Limits.Processes is RLIMIT_NPROC for that user (shared by all
//     workers; threads count). The working directory, owned by root with
//     mode 0700, is then not even readable.
//   - Limits.MaxStack: debug.SetMaxStack (default 256 MiB): runaway
//     recursion ends with "fatal error: stack overflow" in the worker
//     (in under a second at 16-64 MiB).
//
// # Security
//
// Guaranteed, on Linux: a worker cannot take the host down (it is another
// process), it dies of the limits above instead of exhausting the machine,
// it has none of the host's environment, it is killed with its whole
// process group when the host kills it, closes the pool, or dies
// (Pdeathsig, set from a locked thread so an unrelated thread exit does not
// fire it), and its working directory is removed.
//
// Not enforced by this package: network access and reading files (a
// worker running as the host's user can read what that user can; as nobody,
// what nobody can), and starting processes when the host does not run as
// root (RLIMIT_NPROC is per user, so it is applied only to nobody). No
// seccomp filter, namespaces or cgroups are used. toolscript's workers rely
// on the interpreter's allowlist for those: scripts have no file, network
// or process API at all. Outside Linux only the stack and the Go memory
// limit apply.
//
// # Concurrency
//
// A Pool is safe for concurrent use; each Worker serves one caller at a
// time between Get and Put (or Kill). Close waits until every worker
// process has been reaped.
package isolated
