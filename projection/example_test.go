package projection_test

import (
	"context"
	"fmt"

	"github.com/toolscript/toolscript/projection"
)

func ExampleNewDirect() {
	// A plain function: name its parameters.
	add, err := projection.NewDirect("add", func(a, b int) int { return a + b }, "Add two numbers.",
		projection.WithParams("a", "b"))
	if err != nil {
		panic(err)
	}
	// JSON numbers arrive as float64; whole ones fit an int parameter.
	sum, err := add.Call(context.Background(), map[string]any{"a": 3.0, "b": 4})
	fmt.Println(sum, err)

	// A function taking a struct: json tags name the arguments.
	type greetArgs struct {
		Name string `json:"name"`
	}
	greet := projection.MustDirect("greet", func(_ context.Context, in greetArgs) (string, error) {
		return "hello, " + in.Name, nil
	}, "Greet someone.")
	msg, _ := greet.Call(context.Background(), map[string]any{"name": "Ada"})
	fmt.Println(msg)

	_, err = add.Call(context.Background(), map[string]any{"a": "three", "b": 4})
	fmt.Println(err)
	// Output:
	// 7 <nil>
	// hello, Ada
	// projection: tool "add": argument "a": cannot use string "three" as int
}

func ExampleValidateNamespace() {
	add := projection.MustDirect("add", func(a, b int) int { return a + b }, "", projection.WithParams("a", "b"))
	fmt.Println(projection.ValidateNamespace(map[string]projection.ToolProjection{"add": add}))
	fmt.Println(projection.ValidateNamespace(map[string]projection.ToolProjection{"sum": add}))
	// Output:
	// <nil>
	// projection: namespace key does not match tool name: "sum": projection is named "add"
}
