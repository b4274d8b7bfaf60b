package engine_test

import (
	"context"
	"fmt"
	"time"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

func ExampleExecute() {
	multiply := projection.MustDirect("math_ops-multiply",
		func(a, b float64) float64 { return a * b },
		"Multiply two numbers.", projection.WithParams("a", "b"))
	ns := map[string]projection.ToolProjection{multiply.Name(): multiply}

	res, err := engine.Execute(context.Background(), `
total := 0.0
for i := 1; i <= 3; i++ {
	r, err := math_ops.Multiply(map[string]any{"a": i, "b": 10})
	if err != nil {
		panic(err)
	}
	total += r.(float64)
}
fmt.Println("total:", total)
total * 2
`, ns)
	if err != nil {
		panic(err)
	}
	fmt.Print(res.Stdout)
	fmt.Println("value:", res.Value, "calls:", len(res.ToolCalls), "code:", res.ReturnCode)
	// Output:
	// total: 60
	// value: 120 calls: 3 code: 0
}

func ExampleExecute_error() {
	res, _ := engine.Execute(context.Background(), "x := 1\nfmt.Println(y)", nil)
	fmt.Println(res.ReturnCode)
	fmt.Println(res.Error)
	// Output:
	// 1
	// line 2:13: undefined: y
	//     fmt.Println(y)
	//                 ^
}

func ExampleWithTimeout() {
	res, _ := engine.Execute(context.Background(), "for {}", nil, engine.WithTimeout(50*time.Millisecond))
	fmt.Println(res.ReturnCode == engine.CodeTimeout)
	fmt.Println(res.Error)
	// Output:
	// true
	// engine: timeout: the script did not finish within 50ms: context deadline exceeded
}

func ExampleWithLimits() {
	echo := projection.MustDirect("echo", func(a map[string]any) (any, error) { return a, nil }, "Echo.")
	ns := map[string]projection.ToolProjection{"echo": echo}
	// A tripped limit ends the execution; the calls made so far are kept.
	res, _ := engine.Execute(context.Background(), `
for {
	tools.Echo(nil)
}`, ns, engine.WithLimits(engine.Limits{MaxToolCalls: 3}))
	fmt.Println(res.ReturnCode == engine.CodeLimit, len(res.ToolCalls))
	fmt.Println(res.Error)
	// Output:
	// true 3
	// engine: limit exceeded: MaxToolCalls (3)
}

func ExampleDescribe() {
	add := projection.MustDirect("math_ops-add", func(a, b float64) float64 { return a + b }, "Add a and b.", projection.WithParams("a", "b"))
	ns := map[string]projection.ToolProjection{add.Name(): add}
	d := engine.DescribeWith(ns, engine.DescribeOptions{Namespaces: []string{"math_ops"}})
	fmt.Print(d.Text)
	fmt.Printf("(%d tool, %d bytes, about %d tokens)\n", d.Tools, d.Bytes, d.Tokens)
	// Output:
	// package math_ops
	//
	// // A typed function also accepts a map[string]any of its arguments, or nil: it
	// // then returns its result untyped, as any (see tools.Decode).
	//
	// // Add calls tool "math_ops-add". Add a and b.
	// func Add(args AddArgs) (float64, error)
	//
	// // AddArgs is the arguments of Add.
	// type AddArgs struct {
	// 	A float64 `json:"a"`
	// 	B float64 `json:"b"`
	// }
	// (1 tool, 353 bytes, about 89 tokens)
}
