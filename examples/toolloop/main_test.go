package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	require.Equal(t, `tool programmatic_tool_call -> "{\"stdout\":\"cup\\n\",\"tool_calls\":3}"
assistant: Out of stock: cup
`, out.String())
}
