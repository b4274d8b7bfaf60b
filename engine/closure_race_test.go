package engine_test

import (
	"context"
	"flag"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/toolscript/toolscript/engine"
)

var closureStress = flag.Int("closure-stress", 0, "rounds per worker of TestExecute_GoroutinesFromLoops (0: a bounded default)")

// goroutinesFromLoops are model-style scripts that start goroutines from
// loops: closures of the loop variable, go of a named function and of a
// literal with arguments, each calling a tool, with the results collected
// over a mutex or a channel. Each prints a sum the script checks.
var goroutinesFromLoops = []struct {
	name, code, want string
}{
	{"closures with a wait group", `var wg sync.WaitGroup
var mu sync.Mutex
sum := 0.0
for i := range 50 {
	wg.Add(1)
	go func() {
		defer wg.Done()
		r, err := math_ops.Multiply(map[string]any{"a": i, "b": 2})
		if err != nil {
			panic(err)
		}
		mu.Lock()
		sum += r.(float64)
		mu.Unlock()
	}()
}
wg.Wait()
fmt.Println(sum)`, "2450\n"},
	{"go of a named function", `ch := make(chan int, 50)
add := func(a, b int) {
	r, err := math_ops.Add(map[string]any{"a": a, "b": b})
	if err != nil {
		panic(err)
	}
	ch <- r.(int)
}
for i := 0; i < 50; i++ {
	go add(i, 1)
}
sum := 0
for range 50 {
	sum += <-ch
}
fmt.Println(sum)`, "1275\n"},
	{"literal with a tool call as argument", `ch := make(chan int, 50)
add := func(a int) int {
	r, err := math_ops.Add(map[string]any{"a": a, "b": 0})
	if err != nil {
		panic(err)
	}
	return r.(int)
}
for i := 0; i < 50; i++ {
	go func(v, i int) {
		if v != i {
			panic("argument of another iteration")
		}
		ch <- i
	}(add(i), i)
}
seen := map[int]bool{}
for range 50 {
	seen[<-ch] = true
}
fmt.Println(len(seen))`, "50\n"},
	{"closures over per-iteration variables", `var fs []func() int
for i := 0; i < 20; i++ {
	j := i * i
	fs = append(fs, func() int { return i + j })
}
results := make(chan int, len(fs))
var wg sync.WaitGroup
for _, f := range fs {
	wg.Add(1)
	go func() { defer wg.Done(); results <- f() }()
}
wg.Wait()
close(results)
sum := 0
for r := range results {
	sum += r
}
fmt.Println(sum)`, "2660\n"},
}

// TestExecute_GoroutinesFromLoops runs the scripts of goroutinesFromLoops
// in many executions at once and checks every result: under parallel load
// the interpreter once handed a go statement an earlier closure of its
// literal or a nil function. -closure-stress=N runs N rounds per worker.
func TestExecute_GoroutinesFromLoops(t *testing.T) {
	rounds := 3
	if *closureStress > 0 {
		rounds = *closureStress
	}
	e := engine.New(engine.Config{})
	ns := mathNS(t)
	const workers = 8
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				s := goroutinesFromLoops[(w+r)%len(goroutinesFromLoops)]
				res, err := e.Execute(context.Background(), s.code, ns, engine.WithTimeout(time.Minute))
				if !assert.NoError(t, err) || !assert.Equal(t, engine.CodeOK, res.ReturnCode, "%s: %s", s.name, res.Error) {
					return
				}
				if !assert.Equal(t, s.want, res.Stdout, s.name) {
					return
				}
			}
		}()
	}
	wg.Wait()
}
