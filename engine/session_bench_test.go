package engine_test

import (
	"context"
	"testing"

	"github.com/toolscript/toolscript/engine"
)

// sessionState is what the benchmarks' sessions hold before the measured
// input: a table, a function over it and a type.
const sessionState = `
type row struct{ Name string; Qty int }
rows := []row{}
for i := 0; i < 200; i++ {
	rows = append(rows, row{Name: fmt.Sprint("item", i), Qty: i})
}
byName := map[string]int{}
for _, r := range rows {
	byName[r.Name] = r.Qty
}
func total(rs []row) int {
	t := 0
	for _, r := range rs {
		t += r.Qty
	}
	return t
}
`

// sessionInput is the small input measured: the same code runs one-shot.
const sessionInput = `r, _ := math_ops.Multiply(map[string]any{"a": 6, "b": 7})
fmt.Println(r)`

// benchSession measures sessionInput in a session on rt that already
// holds sessionState.
func benchSession(b *testing.B, rt engine.CodeRuntime) {
	ns, _ := benchNS()
	s, err := engine.NewSession(rt, ns)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if res, err := s.Execute(ctx, sessionState); err != nil || res.ReturnCode != 0 {
		b.Fatal(err, res.Error)
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := s.Execute(ctx, sessionInput)
		if err != nil || res.ReturnCode != 0 || res.Stdout != "42\n" {
			b.Fatal(err, res.Error)
		}
	}
}

// benchOneShot measures sessionInput as a one-shot execution on rt.
func benchOneShot(b *testing.B, rt engine.CodeRuntime) {
	ns, _ := benchNS()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := rt.Execute(ctx, sessionInput, ns)
		if err != nil || res.ReturnCode != 0 || res.Stdout != "42\n" {
			b.Fatal(err, res.Error)
		}
	}
}

// BenchmarkSession_Input is a small input (a tool call and a print) on
// top of a session that holds 200 rows, a map and a function: compile
// into the kept interpreter, run, checkpoint the state.
func BenchmarkSession_Input(b *testing.B) { benchSession(b, engine.New(engine.Config{})) }

// BenchmarkSession_OneShot is the same input as a one-shot Execute.
func BenchmarkSession_OneShot(b *testing.B) { benchOneShot(b, engine.New(engine.Config{})) }

// BenchmarkSession_IsolatedInput is BenchmarkSession_Input on the
// isolated runtime (the session's pinned worker).
func BenchmarkSession_IsolatedInput(b *testing.B) {
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer iso.Close()
	benchSession(b, iso)
}

// BenchmarkSession_IsolatedOneShot is the same input as a one-shot
// Execute on the isolated runtime.
func BenchmarkSession_IsolatedOneShot(b *testing.B) {
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer iso.Close()
	benchOneShot(b, iso)
}
