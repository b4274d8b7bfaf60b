package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
)

// TestWithTimeout_ZeroRule checks that WithTimeout follows the rule of
// Limits: zero keeps the runtime's default, Unlimited (any negative value)
// disables the timeout. WithTimeout(0) used to mean no timeout, unlike
// Limits{Timeout: 0}.
func TestWithTimeout_ZeroRule(t *testing.T) {
	e := engine.New(engine.Config{Limits: engine.Limits{Timeout: 20 * time.Millisecond}})
	const sleep = "time.Sleep(300 * time.Millisecond)\nfmt.Println(\"woke\")"
	tests := []struct {
		name string
		opts []engine.Option
		rc   int
	}{
		{name: "no option keeps the default", rc: engine.CodeTimeout},
		{name: "zero keeps the default", opts: []engine.Option{engine.WithTimeout(0)}, rc: engine.CodeTimeout},
		{name: "zero in WithLimits keeps the default", opts: []engine.Option{engine.WithLimits(engine.Limits{Timeout: 0})}, rc: engine.CodeTimeout},
		{name: "Unlimited disables it", opts: []engine.Option{engine.WithTimeout(engine.Unlimited)}, rc: engine.CodeOK},
		{name: "any negative value disables it", opts: []engine.Option{engine.WithTimeout(-time.Hour)}, rc: engine.CodeOK},
		{name: "Unlimited in WithLimits disables it", opts: []engine.Option{engine.WithLimits(engine.Limits{Timeout: engine.Unlimited})}, rc: engine.CodeOK},
		{name: "a later zero keeps an earlier bound", opts: []engine.Option{engine.WithTimeout(engine.Unlimited), engine.WithTimeout(0)}, rc: engine.CodeOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := e.Execute(context.Background(), sleep, nil, tt.opts...)
			require.NoError(t, err)
			assert.Equal(t, tt.rc, res.ReturnCode, "%s", res.Error)
			if tt.rc == engine.CodeOK {
				assert.Equal(t, "woke\n", res.Stdout)
			}
		})
	}
}
