package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDescribe_Filters: --ns and --tool select what describe prints, the
// words filter further, and --size reports the size on stderr.
func TestDescribe_Filters(t *testing.T) {
	code, out, errOut := runCLI(t, "", "describe", "--ns", "math_ops", "--size")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "package math_ops")
	assert.Contains(t, out, "func Stats(args StatsArgs) (Summary, error)")
	assert.NotContains(t, out, "package customers")
	assert.Regexp(t, `^\d+ bytes, about \d+ tokens\n$`, errOut)

	code, out, errOut = runCLI(t, "", "describe", "--tool", "customers-get,orders.List")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "func Get(args GetArgs) (Customer, error)")
	assert.Contains(t, out, "func List(args ListArgs) ([]Order, error)")
	assert.NotContains(t, out, "func Search(")

	code, out, _ = runCLI(t, "", "describe", "--ns", "orders", "change")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "func UpdateStatus(")
	assert.NotContains(t, out, "func Get(")

	code, _, errOut = runCLI(t, "", "describe", "--ns", "nope")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errOut, "no tool matches")
}
