package isolated

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
)

// ProfileEnv names a directory, in the host's environment, where each
// engine worker writes a CPU profile of its whole life,
// worker-<pid>.cpu.pprof, to read with `go tool pprof`: the worker side
// of a tool call's round trip, which the host's own profile
// (go test -cpuprofile) does not see. A diagnostic only: a profiling
// worker opens the file before it applies its limits, and skips
// RLIMIT_FSIZE (it must write the profile); the profile is complete when
// the pool is closed (Host.Close), not for a worker that was killed.
//
//	TOOLSCRIPT_WORKER_CPUPROFILE=/tmp/prof go test -run '^$' -bench Isolated_1000 ./engine
//	go tool pprof engine.test /tmp/prof/worker-*.cpu.pprof
const ProfileEnv = "TOOLSCRIPT_WORKER_CPUPROFILE"

// profileEnv returns the entry of a worker's environment that passes
// ProfileEnv on, or nil when the host does not profile its workers.
func profileEnv() []string {
	dir := os.Getenv(ProfileEnv)
	if dir == "" {
		return nil
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs // the worker runs in a directory of its own
	}
	return []string{ProfileEnv + "=" + dir}
}

// profiling is set in a worker that writes a profile: it keeps
// RLIMIT_FSIZE unlimited.
var profiling bool

// workerProfile is the CPU profile a worker writes (see ProfileEnv).
type workerProfile struct{ f *os.File }

// startProfile starts the worker's CPU profile when the host asked for
// one, before the environment is cleared and the limits applied.
func startProfile() (*workerProfile, error) {
	dir := os.Getenv(ProfileEnv)
	if dir == "" {
		return nil, nil
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("worker-%d.cpu.pprof", os.Getpid())))
	if err != nil {
		return nil, fmt.Errorf("isolated: worker profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("isolated: worker profile: %w", err)
	}
	profiling = true
	return &workerProfile{f: f}, nil
}

// stop writes the rest of the profile and closes its file.
func (p *workerProfile) stop() {
	if p == nil {
		return
	}
	pprof.StopCPUProfile()
	p.f.Close()
}
