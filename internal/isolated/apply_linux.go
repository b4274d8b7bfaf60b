//go:build linux

package isolated

import (
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

const (
	prSetNoNewPrivs = 38    // PR_SET_NO_NEW_PRIVS
	rlimitNPROC     = 6     // RLIMIT_NPROC (x86, arm, riscv, s390, ppc); syscall lacks it
	nobody          = 65534 // user and group nobody
)

// applyLimits is run by the worker on itself before it reads anything.
func applyLimits(l Limits) error {
	set := func(name string, res int, v uint64) error {
		if err := syscall.Setrlimit(res, &syscall.Rlimit{Cur: v, Max: v}); err != nil {
			return fmt.Errorf("sandbox: setrlimit %s=%d: %w", name, v, err)
		}
		return nil
	}
	// No core dumps, no files written.
	if err := set("RLIMIT_CORE", syscall.RLIMIT_CORE, 0); err != nil {
		return err
	}
	if !profiling {
		if err := set("RLIMIT_FSIZE", syscall.RLIMIT_FSIZE, 0); err != nil {
			return err
		}
	}
	// Never gain privileges through exec (set-uid binaries, file caps).
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0, 0, 0, 0); e != 0 {
		return fmt.Errorf("sandbox: prctl(PR_SET_NO_NEW_PRIVS): %w", e)
	}
	dropped := false
	if os.Getuid() == 0 && !l.KeepRoot {
		if err := syscall.Setgroups(nil); err != nil {
			return fmt.Errorf("sandbox: setgroups: %w", err)
		}
		if err := syscall.Setgid(nobody); err != nil {
			return fmt.Errorf("sandbox: setgid: %w", err)
		}
		if err := syscall.Setuid(nobody); err != nil {
			return fmt.Errorf("sandbox: setuid: %w", err)
		}
		dropped = true
	}
	if l.Processes >= 0 && dropped {
		if err := set("RLIMIT_NPROC", rlimitNPROC, uint64(l.Processes)); err != nil {
			return err
		}
	}
	if l.MaxStack >= 0 {
		debug.SetMaxStack(l.MaxStack)
	}
	if l.MemoryBytes >= 0 {
		base := vmData()
		debug.SetMemoryLimit(l.MemoryBytes)
		if err := set("RLIMIT_DATA", syscall.RLIMIT_DATA, base+uint64(l.MemoryBytes)); err != nil {
			return err
		}
	}
	if l.CPUTime >= 0 {
		secs := uint64((l.CPUTime + time.Second - 1) / time.Second)
		if err := set("RLIMIT_CPU", syscall.RLIMIT_CPU, secs); err != nil {
			return err
		}
		cpuHard.Store(secs)
		// The soft limit of a run (SetRunCPU) raises SIGXCPU: leave
		// with a recognisable status.
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGXCPU)
		go func() {
			<-ch
			fmt.Fprintln(os.Stderr, cpuMessage)
			os.Exit(ExitCPU)
		}()
	}
	if l.OpenFiles >= 0 {
		if err := set("RLIMIT_NOFILE", syscall.RLIMIT_NOFILE, uint64(l.OpenFiles)); err != nil {
			return err
		}
	}
	return nil
}

// vmData returns the worker's private writable memory now (VmData), the
// base that Limits.MemoryBytes is added to.
func vmData() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmData:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

var cpuHard atomic.Uint64 // the hard RLIMIT_CPU in seconds; 0: none

// CPUUsed returns the CPU time (user and system) this process has used.
func CPUUsed() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// SetRunCPU gives the next run of a worker d of CPU time from now: it
// sets the soft RLIMIT_CPU to the CPU used so far plus d (rounded up to
// whole seconds, at most the hard limit of Limits.CPUTime). Past it the
// worker exits with ExitCPU. It reports whether the worker has d left
// below its hard limit; when it has not, the host should retire the
// worker after this run. A non-positive d means up to the hard limit.
func SetRunCPU(d time.Duration) bool {
	hard := cpuHard.Load()
	if hard == 0 {
		return true
	}
	used := CPUUsed()
	soft := hard
	if d > 0 {
		if s := uint64((used + d + time.Second - 1) / time.Second); s < hard {
			soft = s
		}
	}
	_ = syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: soft, Max: hard})
	return d <= 0 || used+d <= time.Duration(hard)*time.Second
}
