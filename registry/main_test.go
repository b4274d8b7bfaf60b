package registry_test

import (
	"context"
	"errors"
	"flag"
	"testing"

	"go.uber.org/goleak"

	"github.com/toolscript/toolscript/executor"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestMain is also the process backend's child: the test binary serves the
// functions registered in init.
func TestMain(m *testing.M) {
	executor.MaybeServeChild()
	goleak.VerifyTestMain(m)
}

// Functions the process backend can run, registered before MaybeServeChild.
func init() {
	executor.RegisterFunc("registry_test.add", func(kw map[string]any) (any, error) {
		a, _ := kw["a"].(float64)
		b, _ := kw["b"].(float64)
		return a + b, nil
	})
	executor.RegisterFunc("registry_test.fail", func(kw map[string]any) (any, error) {
		return nil, errors.New("remote failure")
	})
	executor.RegisterFunc("registry_test.block", func(ctx context.Context, kw map[string]any) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
}
