package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/scripts"
)

// Workloads returns the fixed set of workloads, fresh (their counters at
// zero), in the table's order.
func Workloads() []*Workload {
	return []*Workload{
		trivial(), trivialFmt(), oneCall(), calls1000(), loop1000(),
		agentShop(), fanout100(), jsonHeavy(), compute(), compileError(), timeout(),
		corpus100(), slicesSort(), sortSort(),
	}
}

// Workload looks a workload up by name among Workloads and Curves.
func WorkloadByName(name string) (*Workload, bool) {
	for _, w := range append(Workloads(), Curves(false)...) {
		if w.Name == name {
			return w, true
		}
	}
	return nil, false
}

// wantExact returns a Want that accepts exactly want.
func wantExact(want string) func(string) error {
	return func(out string) error {
		if out != want {
			return fmt.Errorf("printed %q, want %q", clip(out), clip(want))
		}
		return nil
	}
}

// wantNative returns a Want that accepts what native prints (computed
// once, natively, the first time it is needed).
func wantNative(native func(context.Context) (string, error)) func(string) error {
	var once sync.Once
	var want string
	var err error
	return func(out string) error {
		once.Do(func() { want, err = native(context.Background()) })
		if err != nil {
			return fmt.Errorf("the native version failed: %w", err)
		}
		return wantExact(want)(out)
	}
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// toInt reads an integer argument: an int in process, possibly a float64
// or json.Number after a trip through JSON (isolated runtime, registry,
// peers).
func toInt(v any) (int, error) {
	switch n := v.(type) {
	case int:
		return n, nil
	case int64:
		return int(n), nil
	case float64:
		if n != float64(int(n)) {
			return 0, fmt.Errorf("%v is not an integer", n)
		}
		return int(n), nil
	case json.Number:
		i, err := n.Int64()
		return int(i), err
	}
	return 0, fmt.Errorf("%T is not a number", v)
}

// tool builds a ToolSpec whose calls count in c.
func tool(c *Counter, name, doc string, params []string, fn func(ctx context.Context, args map[string]any) (any, error)) ToolSpec {
	return ToolSpec{Name: name, Doc: doc, Params: params, Fn: func(ctx context.Context, args map[string]any) (any, error) {
		c.enter()
		defer c.leave()
		return fn(ctx, args)
	}}
}

// squareTool is "square": {"n": int} -> float64(n*n).
func squareTool(c *Counter) ToolSpec {
	return tool(c, "square", "Square a number. Args: n (int). Returns float64 n*n.", []string{"n"},
		func(_ context.Context, args map[string]any) (any, error) {
			n, err := toInt(args["n"])
			if err != nil {
				return nil, fmt.Errorf("square: n: %w", err)
			}
			return float64(n * n), nil
		})
}

// lookupTool is "lookup": {"id": int} -> a record.
func lookupTool(c *Counter) ToolSpec {
	return tool(c, "lookup", "Look an item up. Args: id (int). Returns map[string]any with id (int), name (string), price (float64).", []string{"id"},
		func(_ context.Context, args map[string]any) (any, error) {
			id, err := toInt(args["id"])
			if err != nil {
				return nil, fmt.Errorf("lookup: id: %w", err)
			}
			return map[string]any{"id": id, "name": "item-" + strconv.Itoa(id), "price": float64(id) + 0.5}, nil
		})
}

func callFn(ts ToolSpec) func(ctx context.Context, args map[string]any) (any, error) { return ts.Fn }

func trivial() *Workload {
	return &Workload{
		Name:   "trivial",
		Doc:    "bare statements, no import, no output",
		Go:     "x := 40\nx += 2\n_ = x\n",
		Want:   wantExact(""),
		Short:  true,
		Native: func(context.Context) (string, error) { return "", nil },
	}
}

func trivialFmt() *Workload {
	return &Workload{
		Name:   "trivial_fmt",
		Doc:    "one fmt.Println",
		Go:     "fmt.Println(\"hello\", 42)\n",
		Want:   wantExact("hello 42\n"),
		Short:  true,
		Native: func(context.Context) (string, error) { return fmt.Sprintln("hello", 42), nil },
	}
}

func oneCall() *Workload {
	c := &Counter{}
	lookup := lookupTool(c)
	return &Workload{
		Name: "one_call",
		Doc:  "one tool call, one field printed",
		Go: `r, err := tools.Lookup(map[string]any{"id": 7})
if err != nil {
	panic(err)
}
fmt.Println(r.(map[string]any)["name"])
`,
		Tools: []ToolSpec{lookup},
		Want:  wantExact("item-7\n"),
		Short: true,
		Native: func(ctx context.Context) (string, error) {
			r, err := lookup.Fn(ctx, map[string]any{"id": 7})
			if err != nil {
				return "", err
			}
			return fmt.Sprintln(r.(map[string]any)["name"]), nil
		},
		Batch: []BatchCall{{Name: "lookup", Args: map[string]any{"id": 7}}},
		BatchOut: func(rs []any) string {
			return fmt.Sprintln(rs[0].(map[string]any)["name"])
		},
		Counter: c, Calls: 1,
	}
}

// sumSquares is what the 1000-iteration loops print.
const sumSquaresOut = "1000 332833500\n"

func calls1000() *Workload {
	c := &Counter{}
	sq := squareTool(c)
	batch := make([]BatchCall, 1000)
	for i := range batch {
		batch[i] = BatchCall{Name: "square", Args: map[string]any{"n": i}}
	}
	return &Workload{
		Name: "calls_1000",
		Doc:  "1000 sequential tool calls in a loop",
		Go: `n, sum := 0, 0.0
for i := 0; i < 1000; i++ {
	r, err := tools.Square(map[string]any{"n": i})
	if err != nil {
		panic(err)
	}
	sum += r.(float64)
	n++
}
fmt.Println(n, int(sum))
`,
		Tools: []ToolSpec{sq},
		Want:  wantExact(sumSquaresOut),
		Short: true,
		Native: func(ctx context.Context) (string, error) {
			n, sum := 0, 0.0
			for i := 0; i < 1000; i++ {
				r, err := sq.Fn(ctx, map[string]any{"n": i})
				if err != nil {
					return "", err
				}
				sum += r.(float64)
				n++
			}
			return fmt.Sprintln(n, int(sum)), nil
		},
		Batch: batch,
		BatchOut: func(rs []any) string {
			n, sum := 0, 0.0
			for _, r := range rs {
				sum += r.(float64)
				n++
			}
			return fmt.Sprintln(n, int(sum))
		},
		Counter: c, Calls: 1000,
	}
}

func loop1000() *Workload {
	return &Workload{
		Name: "loop_1000",
		Doc:  "the calls_1000 loop with the call replaced by its result",
		Go: `n, sum := 0, 0.0
for i := 0; i < 1000; i++ {
	r := any(float64(i * i))
	sum += r.(float64)
	n++
}
fmt.Println(n, int(sum))
`,
		Want:  wantExact(sumSquaresOut),
		Short: true,
		Native: func(context.Context) (string, error) {
			n, sum := 0, 0.0
			for i := 0; i < 1000; i++ {
				r := any(float64(i * i))
				sum += r.(float64)
				n++
			}
			return fmt.Sprintln(n, int(sum)), nil
		},
	}
}

// shopSpecs are the demo shop's list tools as ToolSpecs of one store.
func shopSpecs(c *Counter) []ToolSpec {
	ns := demo.Namespace()
	var specs []ToolSpec
	for _, name := range []string{"customers-list", "orders-list", "products-list"} {
		p := ns[name]
		specs = append(specs, tool(c, name, p.Doc(), nil, p.Call))
	}
	return specs
}

// agentShopGo is the agent task: revenue of the orders that were paid for,
// by customer country, and units sold by product category (a join of
// orders with customers and of order items with products, a filter and
// two aggregations).
const agentShopGo = `customers, err := customers.List(map[string]any{})
if err != nil {
	panic(err)
}
orders, err := orders.List(map[string]any{})
if err != nil {
	panic(err)
}
products, err := products.List(map[string]any{})
if err != nil {
	panic(err)
}
country := map[int]string{}
for _, c := range customers.([]map[string]any) {
	country[c["id"].(int)] = c["country"].(string)
}
category := map[int]string{}
for _, p := range products.([]map[string]any) {
	category[p["id"].(int)] = p["category"].(string)
}
revenue := map[string]float64{}
units := map[string]int{}
n := 0
for _, o := range orders.([]map[string]any) {
	switch o["status"] {
	case "paid", "shipped", "delivered":
	default:
		continue
	}
	n++
	revenue[country[o["customer_id"].(int)]] += o["total"].(float64)
	for _, it := range o["items"].([]map[string]any) {
		units[category[it["product_id"].(int)]] += it["quantity"].(int)
	}
}
keys := make([]string, 0, len(revenue))
for k := range revenue {
	keys = append(keys, k)
}
sort.Slice(keys, func(i, j int) bool {
	if revenue[keys[i]] != revenue[keys[j]] {
		return revenue[keys[i]] > revenue[keys[j]]
	}
	return keys[i] < keys[j]
})
fmt.Println("orders", n)
for _, k := range keys {
	fmt.Printf("%s %.2f\n", k, revenue[k])
}
cats := make([]string, 0, len(units))
for k := range units {
	cats = append(cats, k)
}
sort.Strings(cats)
for _, k := range cats {
	fmt.Println(k, units[k])
}
`

// agentShopNative is agentShopGo compiled.
func agentShopNative(specs []ToolSpec) func(ctx context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		var lists [3][]map[string]any
		for i, s := range specs {
			v, err := s.Fn(ctx, map[string]any{})
			if err != nil {
				return "", err
			}
			lists[i] = v.([]map[string]any)
		}
		customers, orders, products := lists[0], lists[1], lists[2]
		country := map[int]string{}
		for _, c := range customers {
			country[c["id"].(int)] = c["country"].(string)
		}
		category := map[int]string{}
		for _, p := range products {
			category[p["id"].(int)] = p["category"].(string)
		}
		revenue := map[string]float64{}
		units := map[string]int{}
		n := 0
		for _, o := range orders {
			switch o["status"] {
			case "paid", "shipped", "delivered":
			default:
				continue
			}
			n++
			revenue[country[o["customer_id"].(int)]] += o["total"].(float64)
			for _, it := range o["items"].([]map[string]any) {
				units[category[it["product_id"].(int)]] += it["quantity"].(int)
			}
		}
		keys := make([]string, 0, len(revenue))
		for k := range revenue {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if revenue[keys[i]] != revenue[keys[j]] {
				return revenue[keys[i]] > revenue[keys[j]]
			}
			return keys[i] < keys[j]
		})
		var b strings.Builder
		fmt.Fprintln(&b, "orders", n)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s %.2f\n", k, revenue[k])
		}
		cats := make([]string, 0, len(units))
		for k := range units {
			cats = append(cats, k)
		}
		sort.Strings(cats)
		for _, k := range cats {
			fmt.Fprintln(&b, k, units[k])
		}
		return b.String(), nil
	}
}

func agentShop() *Workload {
	c := &Counter{}
	specs := shopSpecs(c)
	native := agentShopNative(shopSpecs(&Counter{}))
	return &Workload{
		Name:    "agent_shop",
		Doc:     "demo shop: join 60 orders (and their items) with 20 customers and 21 products, filter, aggregate",
		Go:      agentShopGo,
		Tools:   specs,
		Want:    wantNative(native),
		Short:   true,
		Native:  agentShopNative(specs),
		Counter: c, Calls: 3,
	}
}

// FanoutBound is the fan-out workload's concurrency bound.
const FanoutBound = 10

func fanout100() *Workload {
	c := &Counter{}
	sq := squareTool(c)
	batch := make([]BatchCall, 100)
	for i := range batch {
		batch[i] = BatchCall{Name: "square", Args: map[string]any{"n": i}}
	}
	return &Workload{
		Name: "fanout_100",
		Doc:  "100 tool calls from 100 goroutines, at most 10 at once (a semaphore channel)",
		Go: `sem := make(chan struct{}, 10)
var wg sync.WaitGroup
var mu sync.Mutex
total, n := 0.0, 0
for i := 0; i < 100; i++ {
	wg.Add(1)
	go func(i int) {
		defer wg.Done()
		sem <- struct{}{}
		defer func() { <-sem }()
		r, err := tools.Square(map[string]any{"n": i})
		if err != nil {
			panic(err)
		}
		mu.Lock()
		total += r.(float64)
		n++
		mu.Unlock()
	}(i)
}
wg.Wait()
fmt.Println(n, int(total))
`,
		Tools: []ToolSpec{sq},
		Want:  wantExact("100 328350\n"),
		Short: true,
		Native: func(ctx context.Context) (string, error) {
			sem := make(chan struct{}, FanoutBound)
			var wg sync.WaitGroup
			var mu sync.Mutex
			total, n := 0.0, 0
			var firstErr error
			for i := 0; i < 100; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					sem <- struct{}{}
					defer func() { <-sem }()
					r, err := sq.Fn(ctx, map[string]any{"n": i})
					mu.Lock()
					defer mu.Unlock()
					if err != nil {
						firstErr = err
						return
					}
					total += r.(float64)
					n++
				}(i)
			}
			wg.Wait()
			return fmt.Sprintln(n, int(total)), firstErr
		},
		Batch: batch,
		BatchOut: func(rs []any) string {
			n, sum := 0, 0.0
			for _, r := range rs {
				sum += r.(float64)
				n++
			}
			return fmt.Sprintln(n, int(sum))
		},
		Counter: c, Calls: 100, MaxConcurrent: FanoutBound,
	}
}

// eventsJSON is the json_heavy tool's result: 300 events as JSON text.
var eventsJSON = func() string {
	type event struct {
		ID     int      `json:"id"`
		Kind   string   `json:"kind"`
		User   string   `json:"user"`
		Amount float64  `json:"amount"`
		Tags   []string `json:"tags"`
	}
	kinds := []string{"click", "view", "purchase", "refund"}
	evs := make([]event, 300)
	for i := range evs {
		evs[i] = event{ID: i + 1, Kind: kinds[i%len(kinds)], User: "user" + strconv.Itoa(i%37),
			Amount: float64(i%50) + 0.25, Tags: []string{"t" + strconv.Itoa(i%5), "batch"}}
	}
	b, err := json.Marshal(evs)
	if err != nil {
		panic(err)
	}
	return string(b)
}()

const jsonHeavyGo = `raw, err := tools.Events(map[string]any{})
if err != nil {
	panic(err)
}
var events []map[string]any
if err := json.Unmarshal([]byte(raw.(string)), &events); err != nil {
	panic(err)
}
type total struct {
	User   string  ` + "`json:\"user\"`" + `
	Count  int     ` + "`json:\"count\"`" + `
	Amount float64 ` + "`json:\"amount\"`" + `
}
byUser := map[string]*total{}
for _, e := range events {
	if e["kind"] != "purchase" {
		continue
	}
	u := e["user"].(string)
	t := byUser[u]
	if t == nil {
		t = &total{User: u}
		byUser[u] = t
	}
	t.Count++
	t.Amount += e["amount"].(float64)
}
list := make([]*total, 0, len(byUser))
for _, t := range byUser {
	list = append(list, t)
}
sort.Slice(list, func(i, j int) bool { return list[i].User < list[j].User })
out, err := json.Marshal(list)
if err != nil {
	panic(err)
}
fmt.Println(len(events), len(list), len(out))
fmt.Println(string(out[:60]))
`

func jsonHeavyNative(ev ToolSpec) func(ctx context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		raw, err := ev.Fn(ctx, map[string]any{})
		if err != nil {
			return "", err
		}
		var events []map[string]any
		if err := json.Unmarshal([]byte(raw.(string)), &events); err != nil {
			return "", err
		}
		type total struct {
			User   string  `json:"user"`
			Count  int     `json:"count"`
			Amount float64 `json:"amount"`
		}
		byUser := map[string]*total{}
		for _, e := range events {
			if e["kind"] != "purchase" {
				continue
			}
			u := e["user"].(string)
			t := byUser[u]
			if t == nil {
				t = &total{User: u}
				byUser[u] = t
			}
			t.Count++
			t.Amount += e["amount"].(float64)
		}
		list := make([]*total, 0, len(byUser))
		for _, t := range byUser {
			list = append(list, t)
		}
		sort.Slice(list, func(i, j int) bool { return list[i].User < list[j].User })
		out, err := json.Marshal(list)
		if err != nil {
			return "", err
		}
		return fmt.Sprintln(len(events), len(list), len(out)) + fmt.Sprintln(string(out[:60])), nil
	}
}

func eventsTool(c *Counter) ToolSpec {
	return tool(c, "events", "The event log. No args. Returns string: a JSON array of 300 events with id (int), kind, user (string), amount (float64), tags ([]string).", nil,
		func(context.Context, map[string]any) (any, error) { return eventsJSON, nil })
}

func jsonHeavy() *Workload {
	c := &Counter{}
	ev := eventsTool(c)
	return &Workload{
		Name:    "json_heavy",
		Doc:     "decode 300 JSON events (45 KB), aggregate the purchases per user, encode the result",
		Go:      jsonHeavyGo,
		Tools:   []ToolSpec{ev},
		Want:    wantNative(jsonHeavyNative(eventsTool(&Counter{}))),
		Short:   true,
		Native:  jsonHeavyNative(ev),
		Counter: c, Calls: 1,
	}
}

// ComputeLimit is the compute workload's sieve bound.
const ComputeLimit = 20000

func compute() *Workload {
	return &Workload{
		Name: "compute",
		Doc:  "sieve of Eratosthenes up to 20,000 (no tools): the interpreter against the compiler",
		Go: `const limit = 20000
composite := make([]bool, limit+1)
count := 0
for i := 2; i <= limit; i++ {
	if composite[i] {
		continue
	}
	count++
	for j := i * i; j <= limit; j += i {
		composite[j] = true
	}
}
fmt.Println(count)
`,
		Want:  wantExact("2262\n"),
		Short: true,
		Native: func(context.Context) (string, error) {
			const limit = ComputeLimit
			composite := make([]bool, limit+1)
			count := 0
			for i := 2; i <= limit; i++ {
				if composite[i] {
					continue
				}
				count++
				for j := i * i; j <= limit; j += i {
					composite[j] = true
				}
			}
			return fmt.Sprintln(count), nil
		},
	}
}

func compileError() *Workload {
	return &Workload{
		Name:  "compile_error",
		Doc:   "a type error on line 2: how fast the failure comes back",
		Go:    "x := 1\nvar s string = x\nfmt.Println(s)\n",
		Fail:  ErrCompile,
		Short: true,
	}
}

// TimeoutAfter is the timeout workload's deadline.
const TimeoutAfter = 20 * time.Millisecond

func timeout() *Workload {
	return &Workload{
		Name:    "timeout",
		Doc:     "an endless loop under a 20 ms timeout: how soon after the deadline the failure comes back",
		Go:      "n := 0\nfor {\n\tn++\n}\n",
		Fail:    ErrTimeout,
		Timeout: TimeoutAfter,
		Short:   true,
		Native: func(ctx context.Context) (string, error) {
			ctx, cancel := context.WithTimeout(ctx, TimeoutAfter)
			defer cancel()
			<-ctx.Done()
			return "", fmt.Errorf("%w: %w", ErrTimeout, ctx.Err())
		},
	}
}

// CorpusScript is the corpus script (package scripts) the corpus_100
// workload runs: 108 lines of script types, methods, embedding, an
// interface type switch and one tool call, as a model writes them.
const CorpusScript = "methods_interface_cases"

func corpus100() *Workload {
	s, err := scripts.Get(CorpusScript)
	if err != nil {
		panic(err)
	}
	c := &Counter{}
	get := demo.Namespace()["customers-get"]
	return &Workload{
		Name:    "corpus_100",
		Doc:     "a real ~100-line corpus script (" + CorpusScript + "): compile cost of the common case",
		Go:      s.Code,
		Tools:   []ToolSpec{tool(c, "customers-get", get.Doc(), nil, get.Call)},
		Want:    wantExact(s.Output),
		Short:   true,
		Counter: c, Calls: 2, // lookup(1) and lookup(9999)
	}
}

// sortTaskOut is what slices_sort and sort_sort print.
const sortTaskOut = "[apple banana cherry date fig grape kiwi lemon mango pear] 6 true [9 7 5 2 1] 4\n"

func slicesSort() *Workload {
	return &Workload{
		Name: "slices_sort",
		Doc:  "sort and search with slices (interpreted generic source): the import's cost against sort_sort",
		Go: `words := strings.Fields("pear fig apple kiwi banana cherry date grape lemon mango")
slices.Sort(words)
i, ok := slices.BinarySearch(words, "kiwi")
nums := []int{5, 2, 9, 1, 7}
slices.SortFunc(nums, func(a, b int) int { return b - a })
fmt.Println(words, i, ok, nums, slices.Index(words, "fig"))
`,
		Want:   wantExact(sortTaskOut),
		Short:  true,
		Native: sortTaskNative,
	}
}

func sortSort() *Workload {
	return &Workload{
		Name: "sort_sort",
		Doc:  "slices_sort's task with sort (native package)",
		Go: `words := strings.Fields("pear fig apple kiwi banana cherry date grape lemon mango")
sort.Strings(words)
i := sort.SearchStrings(words, "kiwi")
ok := i < len(words) && words[i] == "kiwi"
nums := []int{5, 2, 9, 1, 7}
sort.Slice(nums, func(a, b int) bool { return nums[a] > nums[b] })
at := -1
for j, w := range words {
	if w == "fig" {
		at = j
		break
	}
}
fmt.Println(words, i, ok, nums, at)
`,
		Want:   wantExact(sortTaskOut),
		Short:  true,
		Native: sortTaskNative,
	}
}

func sortTaskNative(context.Context) (string, error) {
	words := strings.Fields("pear fig apple kiwi banana cherry date grape lemon mango")
	sort.Strings(words)
	i := sort.SearchStrings(words, "kiwi")
	ok := i < len(words) && words[i] == "kiwi"
	nums := []int{5, 2, 9, 1, 7}
	sort.Slice(nums, func(a, b int) bool { return nums[a] > nums[b] })
	at := sort.SearchStrings(words, "fig")
	return fmt.Sprintln(words, i, ok, nums, at), nil
}

// errWant is returned when a run's result is not what its workload wants.
var errWant = errors.New("harness: wrong result")
