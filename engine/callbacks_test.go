package engine

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestOnEnd_AfterEnd checks that a clean-up registered after the end of
// the execution (a timer armed while the script unwinds) runs at once,
// and one registered before runs at the end, once.
func TestOnEnd_AfterEnd(t *testing.T) {
	x := &execution{}
	before, after := 0, 0
	x.onEnd(func() { before++ })
	assert.Equal(t, 0, before)
	x.endCallbacks()
	assert.Equal(t, 1, before)
	x.onEnd(func() { after++ })
	assert.Equal(t, 1, after)
	x.endCallbacks()
	assert.Equal(t, 1, before)
}

// TestWaitGroups_ReleaseAfterEnd checks that a WaitGroup first added to
// after the end of the execution does not block: the release has run.
func TestWaitGroups_ReleaseAfterEnd(t *testing.T) {
	x := &execution{}
	var wg sync.WaitGroup
	x.waits.add(x, &wg, 2)
	x.endCallbacks()
	wg.Wait() // released: the counts the script added are given back
	var late sync.WaitGroup
	y := &execution{}
	y.endCallbacks()
	y.waits.add(y, &late, 1) // after the end: does nothing
	late.Wait()
}
