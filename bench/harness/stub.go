package harness

import (
	"sync"
	"sync/atomic"
	"time"
)

// Counter counts a workload's tool calls and the most that ran at once.
type Counter struct {
	calls  atomic.Int64
	active atomic.Int64
	max    atomic.Int64

	mu    sync.Mutex
	gate  int           // > 0: calls wait until gate calls are active (tests)
	open  chan struct{} // closed once gate calls were active at once
	until time.Time
}

// Reset zeroes the counts.
func (c *Counter) Reset() {
	c.calls.Store(0)
	c.active.Store(0)
	c.max.Store(0)
}

// Calls is the number of calls since the last Reset.
func (c *Counter) Calls() int { return int(c.calls.Load()) }

// MaxActive is the most calls that were running at the same time.
func (c *Counter) MaxActive() int { return int(c.max.Load()) }

// enter and leave bracket one call.
func (c *Counter) enter() {
	c.calls.Add(1)
	n := c.active.Add(1)
	for {
		m := c.max.Load()
		if n <= m || c.max.CompareAndSwap(m, n) {
			break
		}
	}
	c.mu.Lock()
	gate, open, until := c.gate, c.open, c.until
	c.mu.Unlock()
	if gate > 0 {
		if int(n) >= gate {
			c.mu.Lock()
			if c.open == open {
				select {
				case <-open:
				default:
					close(open)
				}
			}
			c.mu.Unlock()
		}
		select {
		case <-open:
		case <-time.After(time.Until(until)):
		}
	}
}

func (c *Counter) leave() { c.active.Add(-1) }

// Gate makes calls wait, until n of them run at the same time or d has
// passed, so that a test sees the concurrency a script allows rather
// than the one the scheduler happened to give. 0 removes the gate.
func (c *Counter) Gate(n int, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gate, c.open, c.until = n, make(chan struct{}), time.Now().Add(d)
}
