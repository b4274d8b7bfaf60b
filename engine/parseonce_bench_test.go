package engine_test

import (
	"context"
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
	s, err := scripts.Get("methods_interface_cases")
	if err != nil {
		b.Fatal(err)
	}
	ns := demo.Namespace()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := engine.Execute(ctx, s.Code, ns)
		if err != nil || res.ReturnCode != 0 || res.Stdout != s.Output {
			b.Fatal(err, res.Error, res.Stdout)
		}
	}
}
