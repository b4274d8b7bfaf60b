package executor_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/toolscript/toolscript/executor"
)

// TestMain is the process backend hook: the test binary is also the child.
func TestMain(m *testing.M) {
	executor.MaybeServeChild()
	if os.Getenv(orphanHostEnv) == "1" {
		orphanHost()
	}
	goleak.VerifyTestMain(m)
}

const orphanHostEnv = "EXECUTOR_TEST_ORPHAN_HOST"

// orphanHost is a host process for TestProcessBackend_ChildrenDieWithHost:
// it starts children, prints their pids and waits to be killed.
func orphanHost() {
	b, err := executor.NewProcessBackend(executor.ProcessConfig{MaxWorkers: 2})
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	h := b.Submit(sleepStubborn, map[string]any{"ms": 60_000}) // one child busy
	for h.Status() != executor.Running {
		time.Sleep(time.Millisecond)
	}
	fmt.Println(b.ChildPIDs())
	time.Sleep(time.Minute)
	os.Exit(1)
}

// Functions shared by the tests; registered at init so that children have them.

func add(kw map[string]any) (any, error) {
	a, _ := kw["a"].(float64)
	b, _ := kw["b"].(float64)
	return a + b, nil
}

func ms(kw map[string]any) time.Duration {
	switch v := kw["ms"].(type) {
	case float64:
		return time.Duration(v) * time.Millisecond
	case int:
		return time.Duration(v) * time.Millisecond
	}
	return 0
}

// sleepCoop sleeps kw["ms"] unless cancelled first.
func sleepCoop(ec *executor.ExecutionContext, kw map[string]any) (any, error) {
	select {
	case <-time.After(ms(kw)):
		return "slept", nil
	case <-ec.Done():
		return nil, ec.CheckCancelled()
	}
}

// sleepStubborn sleeps kw["ms"] whatever happens.
func sleepStubborn(kw map[string]any) (any, error) {
	time.Sleep(ms(kw))
	return "slept", nil
}

func fail(kw map[string]any) (any, error) {
	return nil, fmt.Errorf("tool failed: %v", kw["why"])
}

func boom(map[string]any) (any, error) { panic("boom") }

func exitWith(kw map[string]any) (any, error) {
	fmt.Fprintln(os.Stderr, "about to exit")
	code, _ := kw["code"].(float64)
	os.Exit(int(code))
	return nil, nil
}

func progress(ec *executor.ExecutionContext, kw map[string]any) (any, error) {
	n, _ := kw["n"].(float64)
	for i := range int(n) {
		ec.ReportProgress(float64(i+1)/n, fmt.Sprintf("step %d", i+1), map[string]any{"i": i + 1})
	}
	return "done", nil
}

func env(context.Context, map[string]any) (any, error) { return os.Environ(), nil }

func pid(map[string]any) (any, error) { return os.Getpid(), nil }

func unencodable(map[string]any) (any, error) { return func() {}, nil }

func ctxErr(ctx context.Context, _ map[string]any) (any, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// grandchild starts a sleeping process, reports its pid and waits.
func grandchild(ec *executor.ExecutionContext, _ map[string]any) (any, error) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	ec.ReportProgress(0.5, "started", cmd.Process.Pid)
	err := cmd.Wait()
	return nil, err
}

func closure(v int) func(map[string]any) (any, error) {
	return func(map[string]any) (any, error) { return v, nil }
}

// closureOne and closureTwo come from one call site, so they share code.
var closureOne, closureTwo = func() (a, b func(map[string]any) (any, error)) {
	var fs []func(map[string]any) (any, error)
	for i := 1; i <= 2; i++ {
		fs = append(fs, closure(i))
	}
	return fs[0], fs[1]
}()

func init() {
	executor.RegisterFunc("closure_one", closureOne)
	executor.RegisterFunc("closure_two", closureTwo)
	executor.RegisterFunc("grandchild", grandchild)
	executor.RegisterFunc("add", add)
	executor.RegisterFunc("sleep_coop", sleepCoop)
	executor.RegisterFunc("sleep_stubborn", sleepStubborn)
	executor.RegisterFunc("fail", fail)
	executor.RegisterFunc("boom", boom)
	executor.RegisterFunc("exit", exitWith)
	executor.RegisterFunc("progress", progress)
	executor.RegisterFunc("env", env)
	executor.RegisterFunc("pid", pid)
	executor.RegisterFunc("unencodable", unencodable)
	executor.RegisterFunc("ctx_err", ctxErr)
}

var errSentinel = errors.New("sentinel")
