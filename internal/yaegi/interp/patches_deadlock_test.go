package interp

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runDeadlock runs src with a Deadlock hook and returns the report, or ""
// when the program ended (or ran past its bound) without one.
func runDeadlock(t *testing.T, src string, bound time.Duration) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	reports := make(chan string, 2)
	it := New(Options{Stdout: io.Discard, Stderr: io.Discard, Deadlock: func(r string) {
		reports <- r
		cancel() // as the engine ends the execution
	}, BinMethod: noBinMethod}) // as the engine sets it (patch 108 binds sync's waits there)
	require.NoError(t, it.Use(stdlib.Symbols))
	prog, err := it.Compile(src)
	require.NoError(t, err)
	_, _, _ = it.ExecuteWatch(ctx, prog) // returns when main does or ctx ends
	select {
	case r := <-reports:
		// Stop the deadlocked goroutines. A program that ended by itself
		// is not stopped: a native callback (time.AfterFunc's) may still
		// be returning, and a stop would panic it on a goroutine no one
		// recovers (the engine's replacements of those functions recover).
		it.Stop()
		return r
	default:
		return ""
	}
}

// TestDeadlockReported checks that a program whose goroutines are all
// blocked on its channels is reported at once, naming where each waits
// (toolscript patch 78).
func TestDeadlockReported(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"main receives", `
	ch := make(chan int)
	<-ch`, []string{"goroutine [chan receive]:\n\tline 8\n"}},
		{"every goroutine", `
	a, b := make(chan int), make(chan int)
	go func() { a <- 1 }()
	go func() { for range b {} }()
	b <- 1
	b <- 2
	<-a
	<-a`, []string{"goroutine [chan receive]:\n\tline 13\n", "goroutine [chan receive]:\n\tline 9\n"}},
		{"select without default", `
	a, b := make(chan int), make(chan string)
	select {
	case <-a:
	case b <- "x":
	}`, []string{"goroutine [select]:\n\tline 8\n"}},
		{"empty select", `
	select {}`, []string{"[select (no cases)]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			r := runDeadlock(t, "package main\n\nimport \"fmt\"\n\nfunc main() {\n\t_ = fmt.Sprint()"+tt.body+"\n}\n", 20*time.Second)
			require.NotEmpty(t, r, "no deadlock reported")
			assert.True(t, strings.HasPrefix(r, "fatal error: all goroutines are asleep - deadlock!\n"), r)
			for _, w := range tt.want {
				assert.Contains(t, r, w)
			}
			assert.Less(t, time.Since(start), 10*time.Second)
		})
	}
}

// TestDeadlockNotReported checks programs that Go does not report: each
// ends by itself, or waits for something that can wake it.
func TestDeadlockNotReported(t *testing.T) {
	tests := []struct {
		name, body string
	}{
		{"a goroutine sleeps, then sends", `
	ch := make(chan int)
	go func() { time.Sleep(100 * time.Millisecond); ch <- 1 }()
	fmt.Sprint(<-ch)`},
		{"time.After", `
	select {
	case <-time.After(100 * time.Millisecond):
	}`},
		{"a native callback sends", `
	ch := make(chan int)
	time.AfterFunc(100*time.Millisecond, func() { ch <- 1 })
	<-ch`},
		{"ping-pong", `
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v + 1
		}
		close(pong)
	}()
	n := 0
	for i := 0; i < 2000; i++ {
		ping <- n
		n = <-pong
	}
	close(ping)
	<-pong`},
		{"workers and results", `
	jobs, results := make(chan int), make(chan int)
	for w := 0; w < 4; w++ {
		go func() {
			for j := range jobs {
				results <- j * 2
			}
		}()
	}
	go func() {
		for i := 0; i < 500; i++ {
			jobs <- i
		}
		close(jobs)
	}()
	sum := 0
	for i := 0; i < 500; i++ {
		sum += <-results
	}
	fmt.Sprint(sum)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runDeadlock(t, "package main\n\nimport (\n\t\"fmt\"\n\t\"time\"\n)\n\nfunc main() {\n\t_, _ = fmt.Sprint(), time.Now()"+tt.body+"\n}\n", 60*time.Second)
			assert.Empty(t, r)
		})
	}
}

// BenchmarkChanPingPong measures unbuffered channel round trips between
// two goroutines of a program, the path deadlock detection (patch 78)
// adds to: with the hook set, as the engine sets it, and without.
func BenchmarkChanPingPong(b *testing.B) {
	const src = `package main

func main() {
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v
		}
	}()
	for i := 0; i < 1000; i++ {
		ping <- i
		<-pong
	}
	close(ping)
}
`
	for _, hook := range []bool{false, true} {
		name := "hook=off"
		var report func(string)
		if hook {
			name, report = "hook=on", func(string) { b.Error("deadlock reported") }
		}
		b.Run(name, func(b *testing.B) {
			it := New(Options{Stdout: io.Discard, Stderr: io.Discard, Deadlock: report})
			prog, err := it.Compile(src)
			require.NoError(b, err)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := it.Execute(prog); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
