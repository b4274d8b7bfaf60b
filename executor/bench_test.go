package executor_test

import (
	"testing"
	"time"

	"github.com/toolscript/toolscript/executor"
)

func trivial(kw map[string]any) (any, error) { return kw["x"], nil }

func trivialCtx(ec *executor.ExecutionContext, kw map[string]any) (any, error) {
	if err := ec.CheckCancelled(); err != nil {
		return nil, err
	}
	return kw["x"], nil
}

func init() {
	executor.RegisterFunc("trivial", trivial)
}

var (
	sink      any
	trivialFn = trivial // called through a func value, as a backend does
)

// BenchmarkDirectCall is the floor: the trivial function called directly.
func BenchmarkDirectCall(b *testing.B) {
	kw := map[string]any{"x": 1}
	b.ReportAllocs()
	for b.Loop() {
		v, err := trivialFn(kw)
		if err != nil {
			b.Fatal(err)
		}
		sink = v
	}
}

const batch = 1000

// benchBackend measures one Submit+Result round trip, and a batch of 1000
// submitted at once then collected, reporting ns/call for the batch.
func benchBackend(b *testing.B, be executor.Backend, fn any, opts ...executor.SubmitOption) {
	kw := map[string]any{"x": 1}
	b.Run("single", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			v, err := be.Submit(fn, kw, opts...).Result(0)
			if err != nil {
				b.Fatal(err)
			}
			sink = v
		}
	})
	b.Run("batch1000", func(b *testing.B) {
		handles := make([]executor.Handle, batch)
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			for i := range handles {
				handles[i] = be.Submit(fn, kw, opts...)
			}
			for _, h := range handles {
				if _, err := h.Result(0); err != nil {
					b.Fatal(err)
				}
			}
			n++
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*batch), "ns/call")
	})
}

func BenchmarkGoroutineBackend(b *testing.B) {
	be := executor.NewGoroutineBackend(0)
	defer be.Shutdown(true)
	b.Run("plain", func(b *testing.B) { benchBackend(b, be, trivial) })
	b.Run("ctx+timeout", func(b *testing.B) {
		benchBackend(b, be, trivialCtx, executor.WithTimeout(time.Minute))
	})
}

func BenchmarkInlineBackend(b *testing.B) {
	be := executor.NewInlineBackend()
	b.Run("plain", func(b *testing.B) { benchBackend(b, be, trivial) })
	b.Run("ctx+timeout", func(b *testing.B) {
		benchBackend(b, be, trivialCtx, executor.WithTimeout(time.Minute))
	})
}

func BenchmarkProcessBackend(b *testing.B) {
	be, err := executor.NewProcessBackend(executor.ProcessConfig{})
	if err != nil {
		b.Fatal(err)
	}
	defer be.Shutdown(true)
	benchBackend(b, be, executor.Named("trivial"))
}
