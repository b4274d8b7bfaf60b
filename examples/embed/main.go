// Command embed shows toolscript embedded in a Go program: a registry of
// Go functions becomes the namespace of one script, which joins and
// aggregates their results in process and prints one line for the model.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/registry"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// script is what a model would write: two tool calls, a join and a sum.
const script = `
orders, err := shop.ListOrders(map[string]any{"status": "paid"})
if err != nil {
	panic(err)
}
total := 0.0
for _, o := range orders.([]any) {
	order := o.(map[string]any)
	price, err := shop.Price(map[string]any{"sku": order["sku"]})
	if err != nil {
		panic(err)
	}
	total += price.(float64) * float64(order["qty"].(int))
}
fmt.Printf("paid orders: %d, revenue: %.2f\n", len(orders.([]any)), total)
`

func run(ctx context.Context, w io.Writer) error {
	// README:start embed
	reg := registry.New("example")
	defer reg.Close()

	// Plain Go functions: name the parameters; the JSON Schema comes from
	// the types and the script sees shop.ListOrders and shop.Price.
	listOrders := func(status string) []any {
		return []any{
			map[string]any{"id": 1, "sku": "tea", "qty": 3, "status": status},
			map[string]any{"id": 2, "sku": "cup", "qty": 2, "status": status},
		}
	}
	price := func(sku string) (float64, error) {
		prices := map[string]float64{"tea": 4.5, "cup": 7.25}
		p, ok := prices[sku]
		if !ok {
			return 0, fmt.Errorf("unknown sku %q", sku)
		}
		return p, nil
	}
	if err := reg.Register(listOrders, registry.WithNamespace("shop"), registry.WithName("list_orders"),
		registry.WithParams("status"), registry.WithDescription("List the orders with a status.")); err != nil {
		return err
	}
	if err := reg.Register(price, registry.WithNamespace("shop"), registry.WithName("price"),
		registry.WithParams("sku"), registry.WithDescription("The unit price of a product.")); err != nil {
		return err
	}

	ns := reg.Projections()
	res, err := engine.Execute(ctx, script, ns, engine.WithTimeout(10*time.Second))
	if err != nil {
		return err // misuse only: everything about the script is in res
	}
	fmt.Fprint(w, res.Stdout)
	if res.Error != "" {
		fmt.Fprintln(w, "script failed:", res.Error)
	}
	for _, c := range res.ToolCalls {
		fmt.Fprintf(w, "called %s %v\n", c.Name, c.Args)
	}
	// README:end embed

	// What the model reads in its prompt: the tools as Go declarations.
	fmt.Fprintln(w, strings.Count(engine.Describe(ns), "func "), "functions described")
	return nil
}
