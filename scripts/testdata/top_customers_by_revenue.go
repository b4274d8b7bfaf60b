// Which customers spent the most on paid, shipped or delivered orders?
orders_, err := orders.List(nil)
if err != nil {
	panic(err)
}
revenue := map[int]float64{}
for _, o := range orders_.([]map[string]any) {
	switch o["status"] {
	case "paid", "shipped", "delivered":
		revenue[o["customer_id"].(int)] += o["total"].(float64)
	}
}
type entry struct {
	id    int
	total float64
}
var ranked []entry
for id, total := range revenue {
	ranked = append(ranked, entry{id, total})
}
sort.Slice(ranked, func(i, j int) bool { return ranked[i].total > ranked[j].total })
for _, e := range ranked[:3] {
	c, err := customers.Get(map[string]any{"id": e.id})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%-20s %10.2f\n", c.(map[string]any)["name"], e.total)
}
