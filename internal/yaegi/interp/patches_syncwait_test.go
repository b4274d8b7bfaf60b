package interp

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// noBinMethod is an Options.BinMethod that replaces nothing.
func noBinMethod(reflect.Type, string) func(reflect.Value) reflect.Value { return nil }

// TestDeadlockSync checks that a goroutine waiting in a sync call counts
// as blocked, as Go's runtime counts it (toolscript patch 108): a program
// whose goroutines all wait, some in Mutex.Lock, RWMutex.Lock or RLock,
// WaitGroup.Wait or Cond.Wait, is reported with each wait's state and
// line.
func TestDeadlockSync(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"a second Lock", `
	var mu sync.Mutex
	mu.Lock()
	mu.Lock()`, []string{"goroutine [sync.Mutex.Lock]:\n\tline 12\n"}},
		{"Wait on a count no one lowers", `
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done() }()
	wg.Wait()`, []string{"goroutine [sync.WaitGroup.Wait]:\n\tline 13\n"}},
		{"a pointer WaitGroup", `
	wg := &sync.WaitGroup{}
	wg.Add(1)
	wg.Wait()`, []string{"[sync.WaitGroup.Wait]"}},
		{"an embedded mutex and a channel", `
	var c struct {
		sync.Mutex
		n int
	}
	c.Lock()
	ch := make(chan int)
	go func() { c.Lock(); ch <- 1 }()
	<-ch`, []string{"goroutine [chan receive]:\n\tline 17\n", "goroutine [sync.Mutex.Lock]:\n\tline 16\n"}},
		{"RWMutex Lock under a reader", `
	var rw sync.RWMutex
	rw.RLock()
	rw.Lock()`, []string{"[sync.RWMutex.Lock]"}},
		{"RWMutex RLock under a writer", `
	var rw sync.RWMutex
	rw.Lock()
	rw.RLock()`, []string{"[sync.RWMutex.RLock]"}},
		{"Cond.Wait with no Signal", `
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	mu.Lock()
	c.Wait()`, []string{"[sync.Cond.Wait]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runDeadlock(t, "package main\n\nimport (\n\t\"fmt\"\n\t\"sync\"\n)\n\nfunc main() {\n\t_ = fmt.Sprint()"+tt.body+"\n}\n", 20*time.Second)
			require.NotEmpty(t, r, "no deadlock reported")
			assert.True(t, strings.HasPrefix(r, "fatal error: all goroutines are asleep - deadlock!\n"), r)
			for _, w := range tt.want {
				assert.Contains(t, r, w)
			}
		})
	}
}

// TestDeadlockSyncNotReported checks sync waits that end: contended locks,
// a holder that sleeps or a goroutine that Signals, Waits that the last
// Done ends, and a Wait in a go statement's own goroutine.
func TestDeadlockSyncNotReported(t *testing.T) {
	tests := []struct {
		name, body string
	}{
		{"contended counter", `
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				mu.Lock()
				n++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if n != 5000 {
		panic(n)
	}`},
		{"the holder sleeps", `
	var mu sync.Mutex
	mu.Lock()
	go func() { time.Sleep(100 * time.Millisecond); mu.Unlock() }()
	mu.Lock()`},
		{"Signal", `
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	go func() {
		time.Sleep(50 * time.Millisecond)
		mu.Lock()
		ready = true
		mu.Unlock()
		c.Signal()
	}()
	mu.Lock()
	for !ready {
		c.Wait()
	}
	mu.Unlock()`},
		{"readers and a writer", `
	var rw sync.RWMutex
	var wg sync.WaitGroup
	m := map[int]int{}
	for i := 0; i < 20; i++ {
		wg.Add(2)
		go func() { defer wg.Done(); rw.Lock(); m[i] = i; rw.Unlock() }()
		go func() { defer wg.Done(); rw.RLock(); _ = m[i]; rw.RUnlock() }()
	}
	wg.Wait()`},
		{"a go statement's Wait", `
	var wg sync.WaitGroup
	wg.Add(1)
	go wg.Wait()
	ch := make(chan int)
	go func() { time.Sleep(50 * time.Millisecond); wg.Done(); ch <- 1 }()
	<-ch`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runDeadlock(t, "package main\n\nimport (\n\t\"fmt\"\n\t\"sync\"\n\t\"time\"\n)\n\nfunc main() {\n\t_, _ = fmt.Sprint(), time.Now()"+tt.body+"\n}\n", 60*time.Second)
			assert.Empty(t, r)
		})
	}
}
