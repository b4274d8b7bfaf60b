// Package demo is toolscript's built-in demo tool set: a small,
// deterministic shop (customers, products, orders) plus text and math
// helpers, so that a newcomer can run scripts with no set-up.
//
// Every Store is generated from a fixed seed, so the same script prints the
// same output on every machine. Tools that change data (orders.UpdateStatus)
// change only their own Store.
//
// # Tools
//
//	customers.List, customers.Get, customers.Search
//	products.List, products.Get, products.Search
//	orders.List, orders.Get, orders.UpdateStatus
//	text.WordCount, text.Slugify, text.Truncate
//	math_ops.Add, math_ops.Multiply, math_ops.Stats
//	tools.Echo (no namespace)
//
// Every tool but echo declares the JSON Schemas of its arguments and
// result, so scripts call it as a typed Go function (customers.Get(
// customers.GetArgs{ID: 1}) returns a customers.Customer) or with a map of
// arguments (customers.Get(map[string]any{"id": 1}) returns the record as
// map[string]any with int ids and quantities, float64 money and string
// text; lists are []map[string]any). engine.Describe prints the typed
// surface, generated from the schemas.
package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/toolscript/toolscript/projection"
)

// Store holds the demo data. It is safe for concurrent use.
type Store struct {
	mu        sync.RWMutex
	customers []customer
	products  []product
	orders    []order
}

type customer struct {
	ID      int
	Name    string
	Email   string
	Country string
	Tier    string
}

type product struct {
	ID       int
	Name     string
	Category string
	Price    float64
	Stock    int
}

type item struct {
	ProductID int
	Quantity  int
	UnitPrice float64
}

type order struct {
	ID         int
	CustomerID int
	Status     string
	Items      []item
	Day        int // days since 2026-01-01
}

// ErrNotFound is returned (wrapped) by the Get tools for an unknown id.
var ErrNotFound = errors.New("not found")

var (
	firstNames = []string{"Ada", "Linus", "Grace", "Ken", "Barbara", "Dennis", "Margaret", "Rob", "Frances", "Alan"}
	lastNames  = []string{"Lovelace", "Torvalds", "Hopper", "Thompson", "Liskov", "Ritchie", "Hamilton", "Pike", "Allen", "Turing"}
	countries  = []string{"US", "DE", "FR", "JP", "BR", "IN", "GB", "CA"}
	tiers      = []string{"bronze", "silver", "gold"}
	categories = map[string][]string{
		"books":       {"Go in Action", "The Go Programming Language", "Concurrency in Go", "Designing Data-Intensive Applications", "Site Reliability Engineering"},
		"electronics": {"USB-C Hub", "Mechanical Keyboard", "Noise-Cancelling Headphones", "4K Monitor", "Wireless Mouse", "Webcam"},
		"kitchen":     {"Espresso Machine", "Chef Knife", "Cast Iron Pan", "Kettle", "French Press"},
		"outdoor":     {"Tent", "Sleeping Bag", "Headlamp", "Water Filter", "Trekking Poles"},
	}
	statuses = []string{"pending", "paid", "shipped", "delivered", "cancelled"}
)

// Reset puts the store back to the data NewStore gives, so that a host
// can run scripts again on the same namespace (the same tool functions)
// from the same data.
func (s *Store) Reset() {
	fresh := NewStore()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.customers, s.products, s.orders = fresh.customers, fresh.products, fresh.orders
}

// lcg is a small deterministic generator.
type lcg uint64

func (l *lcg) next(n int) int {
	*l = *l*6364136223846793005 + 1442695040888963407
	return int((uint64(*l) >> 33) % uint64(n))
}

// NewStore returns a fresh store with 20 customers, 21 products and 60
// orders, identical on every call.
func NewStore() *Store {
	s := &Store{}
	r := lcg(42)
	for i := 1; i <= 20; i++ {
		first, last := firstNames[(i-1)%len(firstNames)], lastNames[(i*3+i/10)%len(lastNames)]
		s.customers = append(s.customers, customer{
			ID: i, Name: first + " " + last,
			Email:   strings.ToLower(first+"."+last) + "@example.com",
			Country: countries[r.next(len(countries))],
			Tier:    tiers[r.next(len(tiers))],
		})
	}
	cats := make([]string, 0, len(categories))
	for c := range categories {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	id := 1
	for _, c := range cats {
		for _, name := range categories[c] {
			price := float64(5+r.next(300)) + float64(r.next(100))/100
			s.products = append(s.products, product{ID: id, Name: name, Category: c, Price: price, Stock: r.next(50)})
			id++
		}
	}
	for i := 1; i <= 60; i++ {
		o := order{ID: 1000 + i, CustomerID: 1 + r.next(len(s.customers)), Status: statuses[r.next(len(statuses))], Day: r.next(330)}
		for n := 1 + r.next(3); n > 0; n-- {
			p := s.products[r.next(len(s.products))]
			o.Items = append(o.Items, item{ProductID: p.ID, Quantity: 1 + r.next(4), UnitPrice: p.Price})
		}
		s.orders = append(s.orders, o)
	}
	return s
}

func (c customer) record() map[string]any {
	return map[string]any{"id": c.ID, "name": c.Name, "email": c.Email, "country": c.Country, "tier": c.Tier}
}

func (p product) record() map[string]any {
	return map[string]any{"id": p.ID, "name": p.Name, "category": p.Category, "price": p.Price, "stock": p.Stock}
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

func (o order) total() float64 {
	t := 0.0
	for _, it := range o.Items {
		t += float64(it.Quantity) * it.UnitPrice
	}
	return round2(t)
}

func (o order) record() map[string]any {
	items := make([]map[string]any, len(o.Items))
	for i, it := range o.Items {
		items[i] = map[string]any{"product_id": it.ProductID, "quantity": it.Quantity, "unit_price": it.UnitPrice}
	}
	y, m, d := dayDate(o.Day)
	return map[string]any{
		"id": o.ID, "customer_id": o.CustomerID, "status": o.Status,
		"items": items, "total": o.total(), "date": fmt.Sprintf("%04d-%02d-%02d", y, m, d),
	}
}

func dayDate(day int) (int, int, int) {
	months := []int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	m := 0
	for day >= months[m] {
		day -= months[m]
		m++
	}
	return 2026, m + 1, day + 1
}

// Argument structs: json tags name the tool arguments.
type (
	listCustomersArgs struct {
		Country string `json:"country,omitempty"`
		Tier    string `json:"tier,omitempty"`
		Limit   int    `json:"limit,omitempty"`
	}
	idArgs struct {
		ID int `json:"id"`
	}
	queryArgs struct {
		Query string `json:"query"`
		Limit int    `json:"limit,omitempty"`
	}
	listProductsArgs struct {
		Category string  `json:"category,omitempty"`
		MaxPrice float64 `json:"max_price,omitempty"`
		InStock  bool    `json:"in_stock,omitempty"`
	}
	listOrdersArgs struct {
		CustomerID int    `json:"customer_id,omitempty"`
		Status     string `json:"status,omitempty"`
	}
	updateStatusArgs struct {
		ID     int    `json:"id"`
		Status string `json:"status"`
	}
	textArgs struct {
		Text string `json:"text"`
	}
	truncateArgs struct {
		Text   string `json:"text"`
		Length int    `json:"length"`
	}
	numbersArgs struct {
		Values []float64 `json:"values"`
	}
)

func limit(list []map[string]any, n int) []map[string]any {
	if n > 0 && len(list) > n {
		return list[:n]
	}
	return list
}

func (s *Store) listCustomers(_ context.Context, a listCustomersArgs) ([]map[string]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := []map[string]any{}
	for _, c := range s.customers {
		if (a.Country == "" || strings.EqualFold(c.Country, a.Country)) && (a.Tier == "" || c.Tier == a.Tier) {
			out = append(out, c.record())
		}
	}
	return limit(out, a.Limit), nil
}

func (s *Store) getCustomer(_ context.Context, a idArgs) (map[string]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, c := range s.customers {
		if c.ID == a.ID {
			return c.record(), nil
		}
	}
	return nil, fmt.Errorf("customer %d: %w", a.ID, ErrNotFound)
}

func (s *Store) searchCustomers(_ context.Context, a queryArgs) ([]map[string]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	q := strings.ToLower(a.Query)
	out := []map[string]any{}
	for _, c := range s.customers {
		if strings.Contains(strings.ToLower(c.Name), q) || strings.Contains(c.Email, q) {
			out = append(out, c.record())
		}
	}
	return limit(out, a.Limit), nil
}

func (s *Store) listProducts(_ context.Context, a listProductsArgs) ([]map[string]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := []map[string]any{}
	for _, p := range s.products {
		if (a.Category == "" || p.Category == a.Category) && (a.MaxPrice == 0 || p.Price <= a.MaxPrice) && (!a.InStock || p.Stock > 0) {
			out = append(out, p.record())
		}
	}
	return out, nil
}

func (s *Store) getProduct(_ context.Context, a idArgs) (map[string]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, p := range s.products {
		if p.ID == a.ID {
			return p.record(), nil
		}
	}
	return nil, fmt.Errorf("product %d: %w", a.ID, ErrNotFound)
}

func (s *Store) searchProducts(_ context.Context, a queryArgs) ([]map[string]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	q := strings.ToLower(a.Query)
	out := []map[string]any{}
	for _, p := range s.products {
		if strings.Contains(strings.ToLower(p.Name), q) || p.Category == q {
			out = append(out, p.record())
		}
	}
	return limit(out, a.Limit), nil
}

func (s *Store) listOrders(_ context.Context, a listOrdersArgs) ([]map[string]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if a.Status != "" && !validStatus(a.Status) {
		return nil, fmt.Errorf("unknown status %q (want one of %s)", a.Status, strings.Join(statuses, ", "))
	}
	out := []map[string]any{}
	for _, o := range s.orders {
		if (a.CustomerID == 0 || o.CustomerID == a.CustomerID) && (a.Status == "" || o.Status == a.Status) {
			out = append(out, o.record())
		}
	}
	return out, nil
}

func (s *Store) getOrder(_ context.Context, a idArgs) (map[string]any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, o := range s.orders {
		if o.ID == a.ID {
			return o.record(), nil
		}
	}
	return nil, fmt.Errorf("order %d: %w", a.ID, ErrNotFound)
}

func validStatus(s string) bool {
	for _, v := range statuses {
		if v == s {
			return true
		}
	}
	return false
}

func (s *Store) updateOrderStatus(_ context.Context, a updateStatusArgs) (map[string]any, error) {
	if !validStatus(a.Status) {
		return nil, fmt.Errorf("unknown status %q (want one of %s)", a.Status, strings.Join(statuses, ", "))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.orders {
		if s.orders[i].ID == a.ID {
			if s.orders[i].Status == "delivered" || s.orders[i].Status == "cancelled" {
				return nil, fmt.Errorf("order %d is %s and cannot change", a.ID, s.orders[i].Status)
			}
			s.orders[i].Status = a.Status
			return s.orders[i].record(), nil
		}
	}
	return nil, fmt.Errorf("order %d: %w", a.ID, ErrNotFound)
}

func wordCount(a textArgs) map[string]any {
	words := strings.Fields(a.Text)
	freq := map[string]int{}
	for _, w := range words {
		freq[strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))]++
	}
	return map[string]any{"words": len(words), "unique": len(freq), "characters": len([]rune(a.Text))}
}

func slugify(a textArgs) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(a.Text) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

func truncate(a truncateArgs) (string, error) {
	if a.Length < 1 {
		return "", fmt.Errorf("length must be at least 1, got %d", a.Length)
	}
	r := []rune(a.Text)
	if len(r) <= a.Length {
		return a.Text, nil
	}
	return string(r[:a.Length]) + "…", nil
}

func stats(a numbersArgs) (map[string]any, error) {
	if len(a.Values) == 0 {
		return nil, errors.New("values must not be empty")
	}
	sorted := append([]float64(nil), a.Values...)
	sort.Float64s(sorted)
	sum := 0.0
	for _, v := range sorted {
		sum += v
	}
	median := sorted[len(sorted)/2]
	if len(sorted)%2 == 0 {
		median = (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
	}
	return map[string]any{"count": len(sorted), "sum": round2(sum), "mean": round2(sum / float64(len(sorted))), "median": median, "min": sorted[0], "max": sorted[len(sorted)-1]}, nil
}

// Namespace returns the demo tools bound to s, keyed by qualified name
// ("customers-list", "math_ops-multiply", "echo", ...). Every tool but
// echo declares the JSON Schemas of its arguments and result (schemas.go),
// so scripts see typed functions and Describe prints their Go types.
func (s *Store) Namespace() map[string]projection.ToolProjection {
	list := []*projection.DirectProjection{
		direct("customers-list", s.listCustomers, "List customers, optionally by country and tier.", inListCustomers, outCustomers),
		direct("customers-get", s.getCustomer, "Get one customer by id. Error if there is no such customer.", inID, outCustomer),
		direct("customers-search", s.searchCustomers, "Search customers by name or email, case-insensitive.", inQuery, outCustomers),
		direct("products-list", s.listProducts, "List products, optionally by category, price and stock.", inListProducts, outProducts),
		direct("products-get", s.getProduct, "Get one product by id. Error if there is no such product.", inID, outProduct),
		direct("products-search", s.searchProducts, "Search products by name (case-insensitive) or exact category.", inQuery, outProducts),
		direct("orders-list", s.listOrders, "List orders, optionally of one customer or in one status.", inListOrders, outOrders),
		direct("orders-get", s.getOrder, "Get one order by id (orders start at 1001). Error if there is no such order.", inOrderID, outOrder),
		direct("orders-update_status", s.updateOrderStatus, "Change an order's status and return the updated order. Delivered and cancelled orders cannot change.", inUpdateStatus, outOrder),
		direct("text-word_count", wordCount, "Count the words, unique words (case-insensitive) and characters of a text.", inText, outWordCount),
		direct("text-slugify", slugify, "Make a URL slug: lower case, runs of other characters become one dash.", inText, outString),
		direct("text-truncate", truncate, "Cut text to at most length runes, adding an ellipsis when cut.", inTruncate, outString),
		direct("math_ops-add", func(a, b float64) float64 { return a + b }, "Add two numbers.", inAB, outNumber, projection.WithParams("a", "b")),
		direct("math_ops-multiply", func(a, b float64) float64 { return a * b }, "Multiply two numbers.", inAB, outNumber, projection.WithParams("a", "b")),
		direct("math_ops-stats", stats, "Summary statistics of a list of numbers.", inValues, outStats),
		projection.MustDirect("echo", func(a map[string]any) (any, error) { return a, nil },
			"Return the arguments unchanged, as map[string]any. Useful to test tool calls."),
	}
	ns := make(map[string]projection.ToolProjection, len(list))
	for _, p := range list {
		ns[p.Name()] = p
	}
	return ns
}

// direct wraps fn with its schemas.
func direct(name string, fn any, doc string, in, out json.RawMessage, opts ...projection.DirectOption) *projection.DirectProjection {
	return projection.MustDirect(name, fn, doc, append(opts, projection.WithSchema(in), projection.WithOutputSchema(out))...)
}

// Namespace returns the demo tools bound to a fresh Store.
func Namespace() map[string]projection.ToolProjection { return NewStore().Namespace() }
