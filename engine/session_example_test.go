package engine_test

import (
	"context"
	"fmt"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

func ExampleNewSession() {
	multiply := projection.MustDirect("math_ops-multiply",
		func(a, b float64) float64 { return a * b },
		"Multiply two numbers.", projection.WithParams("a", "b"))
	ns := map[string]projection.ToolProjection{multiply.Name(): multiply}

	s, err := engine.NewSession(engine.New(engine.Config{}), ns)
	if err != nil {
		panic(err)
	}
	defer s.Close()
	ctx := context.Background()
	for _, input := range []string{
		// Variables, functions, types and imports stay for the next input.
		`prices := map[string]float64{"tea": 3, "cake": 4.5}`,
		`func cost(item string, n float64) float64 {
	r, _ := math_ops.Multiply(map[string]any{"a": prices[item], "b": n})
	return r.(float64)
}`,
		`total := cost("tea", 2) + cost("cake", 1)
total`,
		// An input that fails changes nothing.
		`total = 0
panic("oops")`,
		`fmt.Println("total is still", total)`,
	} {
		res, err := s.Execute(ctx, input)
		if err != nil {
			panic(err)
		}
		fmt.Printf("code %d %q value %v\n", res.ReturnCode, res.Stdout, res.Value)
		if res.Error != "" {
			fmt.Println(" ", res.Error)
		}
	}
	// Output:
	// code 0 "" value <nil>
	// code 0 "" value <nil>
	// code 0 "" value 10.5
	// code 1 "" value <nil>
	//   line 2:1: panic: oops
	//     panic("oops")
	//     ^
	// code 0 "total is still 10.5\n" value <nil>
}
