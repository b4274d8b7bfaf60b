package harness

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/perf/benchmath"
)

// Confidence is the level of the intervals the table prints.
const Confidence = 0.95

// Settings say how long to measure.
type Settings struct {
	// Samples is the number of timed samples per cell (at least 6, the
	// fewest for a 95 % interval around a median).
	Samples int
	// SampleTime is the target duration of one sample: a sample runs the
	// workload as many times as fit.
	SampleTime time.Duration
	// MaxIters bounds the runs of one sample.
	MaxIters int
	// Throughput is how long one throughput sample keeps every core busy.
	Throughput time.Duration
}

// ShortSettings and FullSettings are --short's and the default.
var (
	ShortSettings = Settings{Samples: 6, SampleTime: 15 * time.Millisecond, MaxIters: 2000, Throughput: 50 * time.Millisecond}
	FullSettings  = Settings{Samples: 10, SampleTime: 40 * time.Millisecond, MaxIters: 20000, Throughput: 100 * time.Millisecond}
)

// Cell is one measured (workload, engine) pair.
type Cell struct {
	Workload string `json:"workload"`
	Engine   string `json:"engine"`
	// Unsupported: the engine has no script for the workload.
	Unsupported bool `json:"unsupported,omitempty"`
	// Err is why the cell has no result (a failed or wrong run, or,
	// when Crashed, the crash).
	Err string `json:"error,omitempty"`
	// Crashed: the engine, measured in a child process (a peer), crashed
	// that process; Err holds its panic.
	Crashed bool `json:"crashed,omitempty"`
	// Samples are nanoseconds per execution, one per sample.
	Samples []float64 `json:"ns_per_op,omitempty"`
	// Iters is the number of executions of each sample.
	Iters int `json:"iters,omitempty"`
	// BytesPerOp and AllocsPerOp are the heap allocated by this process
	// per execution (for the isolated runtime: the host's side only).
	BytesPerOp  float64 `json:"bytes_per_op"`
	AllocsPerOp float64 `json:"allocs_per_op"`
	// Summary is the median and its 95 % interval (benchmath).
	Summary benchmath.Summary `json:"-"`
}

// OK reports whether the cell has a result.
func (c *Cell) OK() bool { return !c.Unsupported && c.Err == "" && len(c.Samples) > 0 }

// summarize fills Summary from Samples.
func (c *Cell) summarize() {
	if len(c.Samples) == 0 {
		return
	}
	c.Summary = benchmath.AssumeNothing.Summary(benchmath.NewSample(c.Samples, &benchmath.DefaultThresholds), Confidence)
}

// Check runs w once with run and checks the outcome: the output Want
// accepts, or the error Fail names.
func Check(ctx context.Context, w *Workload, run func(context.Context) (string, error)) error {
	out, err := run(ctx)
	return verify(w, out, err)
}

func verify(w *Workload, out string, err error) error {
	if w.Fail != nil {
		if err == nil {
			return fmt.Errorf("%s: succeeded (printed %q), want an error matching %v", w.Name, clip(out), w.Fail)
		}
		if !errors.Is(err, w.Fail) {
			return fmt.Errorf("%s: %w, want an error matching %v", w.Name, err, w.Fail)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", w.Name, err)
	}
	if w.Want != nil {
		if err := w.Want(out); err != nil {
			return fmt.Errorf("%s: %w: %w", w.Name, errWant, err)
		}
	}
	return nil
}

// Measure times run on w: a checked warm-up run, a calibration (the
// runs that fit in a fifth of a sample), then s.Samples samples; every run's outcome is checked, so a wrong result
// is an error, never a figure.
func Measure(ctx context.Context, w *Workload, engine string, run func(context.Context) (string, error), s Settings) Cell {
	c := Cell{Workload: w.Name, Engine: engine}
	fail := func(err error) Cell {
		c.Err, c.Samples = err.Error(), nil
		return c
	}
	start := time.Now()
	if err := Check(ctx, w, run); err != nil {
		return fail(err)
	}
	one := time.Since(start)
	// Calibrate on the runs that fit in a fifth of a sample (at least
	// one, after the first, which may have warmed caches): their mean
	// counts the garbage collections a sample pays, which the fastest
	// single run does not (a sample then took many times SampleTime).
	runs, calib := 0, time.Duration(0)
	for start = time.Now(); runs == 0 || (calib < s.SampleTime/5 && runs < s.MaxIters); calib = time.Since(start) {
		if err := Check(ctx, w, run); err != nil {
			return fail(err)
		}
		runs++
	}
	if runs > 1 || calib < one {
		one = calib / time.Duration(runs)
	}
	iters := int(s.SampleTime / max(one, time.Microsecond))
	iters = min(max(iters, 1), s.MaxIters)
	c.Iters = iters
	var bytes, allocs uint64
	var before, after runtime.MemStats
	for range s.Samples {
		runtime.ReadMemStats(&before)
		start := time.Now()
		for range iters {
			out, err := run(ctx)
			if err := verify(w, out, err); err != nil {
				return fail(err)
			}
		}
		el := time.Since(start)
		runtime.ReadMemStats(&after)
		bytes += after.TotalAlloc - before.TotalAlloc
		allocs += after.Mallocs - before.Mallocs
		c.Samples = append(c.Samples, float64(el.Nanoseconds())/float64(iters))
		if ctx.Err() != nil {
			return fail(ctx.Err())
		}
	}
	n := float64(iters * s.Samples)
	c.BytesPerOp, c.AllocsPerOp = math.Round(float64(bytes)/n), math.Round(float64(allocs)/n)
	c.summarize()
	return c
}

// Rate is a throughput: executions per second with k at once.
type Rate struct {
	Workload    string `json:"workload"`
	Engine      string `json:"engine"`
	Concurrency int    `json:"concurrency"`
	Err         string `json:"error,omitempty"`
	// Unsupported and Crashed are as in Cell (they come from a child
	// process, where the engine's Prepare runs).
	Unsupported bool      `json:"unsupported,omitempty"`
	Crashed     bool      `json:"crashed,omitempty"`
	Samples     []float64 `json:"executions_per_second,omitempty"`
	// Summary is the median and its 95 % interval (benchmath).
	Summary benchmath.Summary `json:"-"`
}

// MeasureRate keeps k goroutines running w for s.Throughput, s.Samples
// times, and reports executions per second. Every run is checked.
func MeasureRate(ctx context.Context, w *Workload, engine string, run func(context.Context) (string, error), k int, s Settings) Rate {
	r := Rate{Workload: w.Name, Engine: engine, Concurrency: k}
	if err := Check(ctx, w, run); err != nil {
		r.Err = err.Error()
		return r
	}
	for range s.Samples {
		var n atomic.Int64
		var firstErr error
		var once sync.Once
		var wg sync.WaitGroup
		deadline := time.Now().Add(s.Throughput)
		start := time.Now()
		for range k {
			wg.Go(func() {
				for time.Now().Before(deadline) {
					out, err := run(ctx)
					if err := verify(w, out, err); err != nil {
						once.Do(func() { firstErr = err })
						return
					}
					n.Add(1)
				}
			})
		}
		wg.Wait()
		el := time.Since(start)
		if firstErr != nil {
			r.Err, r.Samples = firstErr.Error(), nil
			return r
		}
		r.Samples = append(r.Samples, float64(n.Load())/el.Seconds())
	}
	r.summarize()
	return r
}

// summarize fills Summary from Samples.
func (r *Rate) summarize() {
	if len(r.Samples) == 0 {
		return
	}
	r.Summary = benchmath.AssumeNothing.Summary(benchmath.NewSample(r.Samples, &benchmath.DefaultThresholds), Confidence)
}
