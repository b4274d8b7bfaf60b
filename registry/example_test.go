package registry_test

import (
	"context"
	"fmt"

	"github.com/toolscript/toolscript/registry"
)

func ExampleRegistry_Register() {
	r := registry.New("demo")

	// A plain function: name its parameters; the schema comes from the types.
	multiply := func(a, b float64) float64 { return a * b }
	if err := r.Register(multiply, registry.WithName("multiply"), registry.WithParams("a", "b"),
		registry.WithNamespace("math_ops"), registry.WithDescription("Multiply two numbers.")); err != nil {
		panic(err)
	}

	// A function taking a struct: json tags name the arguments, jsonschema
	// tags describe them, omitempty makes them optional.
	type weatherArgs struct {
		City  string `json:"city" jsonschema:"the city to look up"`
		Units string `json:"units,omitempty"`
	}
	if err := r.Register(func(_ context.Context, in weatherArgs) (string, error) {
		return "sunny in " + in.City, nil
	}, registry.WithName("getWeather")); err != nil {
		panic(err)
	}

	tool, _ := r.Get("math_ops-multiply")
	fmt.Println(r.Names())
	fmt.Println(tool.Namespace, tool.MethodName, tool.QualifiedName())
	weather, _ := r.Get("get_weather")
	fmt.Println(string(weather.Parameters))
	// Output:
	// [math_ops-multiply get_weather]
	// math_ops multiply math_ops-multiply
	// {"type":"object","properties":{"city":{"type":"string","description":"the city to look up"},"units":{"type":"string"}},"required":["city"],"additionalProperties":false}
}

func newMathRegistry(name string, ops ...string) *registry.Registry {
	r := registry.New(name, registry.WithSeparator(registry.SeparatorDot))
	for _, op := range ops {
		if err := r.Register(func(map[string]any) (any, error) { return op, nil }, registry.WithName(op)); err != nil {
			panic(err)
		}
	}
	return r
}

func ExampleRegistry_Merge() {
	openapi := newMathRegistry("openapi_math", "add_add_get", "subtract_subtract_get")
	mcp := newMathRegistry("mcp_math", "add", "subtract")
	if err := openapi.Merge(mcp, false, false); err != nil {
		panic(err)
	}
	fmt.Println(openapi.Names())

	forced := newMathRegistry("openapi_math", "add_add_get", "subtract_subtract_get")
	if err := forced.Merge(mcp, true, false); err != nil {
		panic(err)
	}
	fmt.Println(forced.Names())
	fmt.Println(mcp.Names()) // never changed
	// Output:
	// [openapi_math.add_get openapi_math.subtract_get mcp_math.add mcp_math.subtract]
	// [openapi_math.add_get openapi_math.subtract_get openapi_math.add openapi_math.subtract]
	// [add subtract]
}

func ExampleRegistry_Spinoff() {
	mixed := newMathRegistry("openapi_math", "add_get", "subtract_get")
	if err := mixed.Merge(newMathRegistry("mcp_math", "add", "subtract"), false, false); err != nil {
		panic(err)
	}
	openapi, err := mixed.Spinoff("openapi_math", false)
	if err != nil {
		panic(err)
	}
	fmt.Println(openapi.Names())
	fmt.Println(mixed.Names()) // one namespace left: reduced too

	_, err = mixed.Spinoff("openapi_math", false)
	fmt.Println(err)
	// Output:
	// [add_get subtract_get]
	// [add subtract]
	// registry: unknown namespace: no tool has namespace "openapi_math"
}

func ExampleRegistry_ExecuteToolCalls() {
	r := registry.New("demo")
	defer r.Close()
	multiply := func(a, b float64) float64 { return a * b }
	if err := r.Register(multiply, registry.WithName("multiply"), registry.WithParams("a", "b"), registry.WithNamespace("math_ops")); err != nil {
		panic(err)
	}

	// The assistant message of an OpenAI chat completion.
	calls, err := registry.ParseToolCalls([]byte(`{"role": "assistant", "tool_calls": [
		{"id": "call_1", "type": "function", "function": {"name": "math_ops-multiply", "arguments": "{\"a\": 6, \"b\": 7}"}},
		{"id": "call_2", "type": "function", "function": {"name": "math_ops-multiply", "arguments": "{\"a\": \"six\"}"}}
	]}`))
	if err != nil {
		panic(err)
	}
	results, err := r.ExecuteToolCalls(context.Background(), calls)
	if err != nil {
		panic(err)
	}
	for _, res := range results {
		fmt.Println(res.ID, res.Content())
	}

	// The messages for the next turn.
	msgs, _ := registry.ResultMessages(registry.OpenAIChat, results)
	fmt.Println(string(msgs[0]))
	// Output:
	// call_1 42
	// call_2 error: projection: tool "math_ops-multiply": argument "b": missing required argument
	// {"content":"42","role":"tool","tool_call_id":"call_1"}
}

func ExampleNormalizeToolName() {
	for _, s := range []string{"HTTP_Request", "add_add_get", "calculateTotal", "OpenAPI service", "get user info", "process.data", "encode@url", "@decorator", "@@", "  "} {
		fmt.Println(registry.NormalizeToolName(s))
	}
	// Output:
	// http_request <nil>
	// add_get <nil>
	// calculate_total <nil>
	// open_api_service <nil>
	// get_user_info <nil>
	// process_data <nil>
	// encode_url <nil>
	// _decorator <nil>
	// _ <nil>
	//  registry: invalid name: "  " has no letters or digits
}
