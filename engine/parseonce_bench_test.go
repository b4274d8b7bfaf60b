package engine_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/scripts"
)

// BenchmarkExecute_Corpus100 is a whole execution of the corpus script
// the runner's corpus_100 workload runs (methods_interface_cases: 108
// lines, a full program with types, methods, a type switch and tool
// calls): the compile cost of the common case. With
// BenchmarkExecute_Trivial it pins the single parse of a script
// (TestParseOnce_SameSource shows both are parsed once).
func BenchmarkExecute_Corpus100(b *testing.B) {
	benchCorpus100(b, func(code string, _ int) string { return code })
}

// BenchmarkExecute_Corpus100Distinct is BenchmarkExecute_Corpus100 with a
// script whose text differs in every execution (a comment): the cost of
// a script seen for the first time, which no cache of the engine's by the
// script's text serves (the type-checking pass's results are kept by
// script: checkResult).
func BenchmarkExecute_Corpus100Distinct(b *testing.B) {
	benchCorpus100(b, func(code string, i int) string { return code + "\n// run " + strconv.Itoa(i) + "\n" })
}

// benchCorpus100 executes the corpus script methods_interface_cases,
// its text for the i-th execution given by text, and checks its output.
func benchCorpus100(b *testing.B, text func(code string, i int) string) {
	s, err := scripts.Get("methods_interface_cases")
	if err != nil {
		b.Fatal(err)
	}
	ns := demo.Namespace()
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		res, err := engine.Execute(ctx, text(s.Code, i), ns)
		if err != nil || res.ReturnCode != 0 || res.Stdout != s.Output {
			b.Fatal(err, res.Error, res.Stdout)
		}
	}
}

// BenchmarkExecute_FinalValue is a bare script whose final expression is
// its value and which calls min and max: the rewrites the normaliser now
// makes before its one parse (the result call, the generated functions).
func BenchmarkExecute_FinalValue(b *testing.B) {
	const code = "xs := []int{3, 1, 2}\nmin(xs[0], xs[1]) + max(xs[1], xs[2])\n"
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := engine.Execute(ctx, code, nil)
		if err != nil || res.ReturnCode != 0 || res.Value != 3 {
			b.Fatal(err, res.Error, res.Value)
		}
	}
}
