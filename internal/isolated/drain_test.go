package isolated

import (
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

// TestDrainSeesStuckNativeCall checks that a worker's end-of-run check
// sees a goroutine of the script stuck in a native call after the script
// ended, by asking the interpreter (interp.Running), not by searching
// goroutine stacks for the interpreter's import path: renaming or
// vendoring the fork cannot disable it. Each goroutine the script leaves
// is also counted by runtime.NumGoroutine, so the base is raised by the
// stuck ones to isolate the interpreter's own report.
func TestDrainSeesStuckNativeCall(t *testing.T) {
	tests := []struct {
		name string
		src  string
	}{
		{"a go statement of a native function", `go host.Block()`},
		{"a script goroutine in a native call", `go func() { host.Block() }()`},
		{"a callback native code runs", `host.Later(func() { host.Block() })`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			release, blocked := make(chan struct{}), make(chan struct{}, 1)
			block := func() { blocked <- struct{}{}; <-release }
			it := interp.New(interp.Options{})
			require.NoError(t, it.Use(interp.Exports{"host/./host": {
				"Block": reflect.ValueOf(block),
				"Later": reflect.ValueOf(func(f func()) { go f() }),
			}}))
			base := runtime.NumGoroutine()
			_, err := it.Eval(`import "host"`)
			require.NoError(t, err)
			_, err = it.Eval(tt.src)
			require.NoError(t, err)
			<-blocked // the script has ended; its goroutine is in Block
			// The stuck goroutine is allowed for by NumGoroutine: only the
			// interpreter's count can tell it is there.
			assert.False(t, drain(runtime.NumGoroutine(), 20*time.Millisecond), "a goroutine in a native call of the script must keep the run from draining")
			close(release)
			assert.True(t, drain(base, 10*time.Second), "once the native call returns, the run drains")
		})
	}
}
