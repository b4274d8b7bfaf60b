package bench

import (
	"context"
	"strings"
	"testing"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/scripts"
)

// BenchmarkCorpus runs every passing corpus script: a whole execution each,
// interpreter set-up included.
func BenchmarkCorpus(b *testing.B) {
	all, err := scripts.All()
	if err != nil {
		b.Fatal(err)
	}
	e := engine.New(engine.Config{})
	ctx := context.Background()
	for _, s := range all {
		if s.Gap != "" || s.ReturnCode != 0 {
			continue
		}
		// Scripts that change the store get a fresh one each run.
		mutates := strings.Contains(s.Code, "UpdateStatus")
		b.Run(s.Name, func(b *testing.B) {
			ns := demo.Namespace()
			b.ReportAllocs()
			for b.Loop() {
				if mutates {
					ns = demo.Namespace()
				}
				res, err := e.Execute(ctx, s.Code, ns)
				if err != nil || res.ReturnCode != 0 {
					b.Fatal(err, res.Error)
				}
			}
		})
	}
}

// BenchmarkToolRoundTrip compares one demo tool call made from a script
// (less the cost of the same script without the call) with the same call
// made natively.
func BenchmarkToolRoundTrip(b *testing.B) {
	ns := demo.Namespace()
	ctx := context.Background()
	b.Run("native", func(b *testing.B) {
		p := ns["customers-get"]
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.Call(ctx, map[string]any{"id": 3}); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, tc := range []struct{ name, code string }{
		{"script-100-calls", "for i := 0; i < 100; i++ {\n\tif _, err := customers.Get(map[string]any{\"id\": 3}); err != nil {\n\t\tpanic(err)\n\t}\n}"},
		{"script-100-loops", "for i := 0; i < 100; i++ {\n\tif m := map[string]any{\"id\": 3}; m == nil {\n\t\tpanic(m)\n\t}\n}"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := engine.Execute(ctx, tc.code, ns)
				if err != nil || res.ReturnCode != 0 {
					b.Fatal(err, res.Error)
				}
			}
		})
	}
}

// BenchmarkFanOut runs ten tool calls from ten goroutines of one script.
func BenchmarkFanOut(b *testing.B) {
	ns := demo.Namespace()
	ctx := context.Background()
	code := `var wg sync.WaitGroup
for i := 1; i <= 10; i++ {
	wg.Add(1)
	go func() {
		defer wg.Done()
		customers.Get(map[string]any{"id": i})
	}()
}
wg.Wait()`
	b.ReportAllocs()
	for b.Loop() {
		res, err := engine.Execute(ctx, code, ns)
		if err != nil || res.ReturnCode != 0 || len(res.ToolCalls) != 10 {
			b.Fatal(err, res.Error)
		}
	}
}
