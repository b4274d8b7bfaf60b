package demo

import (
	"encoding/json"
	"slices"
)

// The JSON Schemas of the demo tools' arguments and results. Objects with
// a title become named Go types in scripts (Customer, Order, ...); enums
// become named string types with constants (Tier, Category, Status).

type js = map[string]any

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// ordered is an object whose members keep their order in JSON: the
// fields of a generated Go type follow the order of the properties.
type ordered []member

type member struct {
	name  string
	value any
}

// MarshalJSON writes the members in order.
func (o ordered) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(m.name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// object is a closed object schema of props, in order; required lists
// its required properties, title names its Go type ("" for the default
// name).
func object(title string, required []string, props ordered) js {
	o := js{"type": "object", "properties": props, "additionalProperties": false}
	if title != "" {
		o["title"] = title
	}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

func prop(typ, desc string) js {
	if desc == "" {
		return js{"type": typ}
	}
	return js{"type": typ, "description": desc}
}

func enum(title, desc string, values []string) js {
	return js{"type": "string", "title": title, "description": desc, "enum": slices.Clone(values)}
}

func list(items js) js { return js{"type": "array", "items": items} }

var (
	tierSchema     = enum("Tier", "A customer's loyalty tier.", tiers)
	categorySchema = enum("Category", "A product category.", []string{"books", "electronics", "kitchen", "outdoor"})
	statusSchema   = enum("Status", "An order's status.", statuses)

	customerSchema = object("Customer", []string{"id", "name", "email", "country", "tier"}, ordered{
		{"id", prop("integer", "The customer's id, from 1.")},
		{"name", prop("string", "")},
		{"email", prop("string", "")},
		{"country", prop("string", "ISO 3166 country code, such as \"DE\".")},
		{"tier", tierSchema},
	})
	productSchema = object("Product", []string{"id", "name", "category", "price", "stock"}, ordered{
		{"id", prop("integer", "The product's id, from 1.")},
		{"name", prop("string", "")},
		{"category", categorySchema},
		{"price", prop("number", "Unit price in euros.")},
		{"stock", prop("integer", "Units in stock.")},
	})
	orderSchema = object("Order", []string{"id", "customer_id", "status", "date", "total", "items"}, ordered{
		{"id", prop("integer", "The order's id, from 1001.")},
		{"customer_id", prop("integer", "")},
		{"status", statusSchema},
		{"date", prop("string", "The order's date, YYYY-MM-DD.")},
		{"total", prop("number", "Sum of quantity times unit price of the items.")},
		{"items", list(object("OrderItem", []string{"product_id", "quantity", "unit_price"}, ordered{
			{"product_id", prop("integer", "")},
			{"quantity", prop("integer", "")},
			{"unit_price", prop("number", "")},
		}))},
	})

	limitSchema = js{"type": "integer", "description": "At most this many results; 0 for all.", "minimum": 0}

	inListCustomers = mustJSON(object("", nil, ordered{
		{"country", prop("string", "ISO 3166 country code, case-insensitive.")},
		{"tier", tierSchema},
		{"limit", limitSchema},
	}))
	inID      = mustJSON(object("", []string{"id"}, ordered{{"id", prop("integer", "")}}))
	inOrderID = mustJSON(object("", []string{"id"}, ordered{{"id", prop("integer", "The order's id, from 1001.")}}))
	inQuery   = mustJSON(object("", []string{"query"}, ordered{
		{"query", prop("string", "Words to look for.")},
		{"limit", limitSchema},
	}))
	inListProducts = mustJSON(object("", nil, ordered{
		{"category", categorySchema},
		{"max_price", prop("number", "Only products at most this price; 0 for any.")},
		{"in_stock", prop("boolean", "Only products in stock.")},
	}))
	inListOrders = mustJSON(object("", nil, ordered{
		{"customer_id", prop("integer", "Only this customer's orders; 0 for all.")},
		{"status", statusSchema},
	}))
	inUpdateStatus = mustJSON(object("", []string{"id", "status"}, ordered{
		{"id", prop("integer", "")},
		{"status", statusSchema},
	}))
	inText     = mustJSON(object("", []string{"text"}, ordered{{"text", prop("string", "")}}))
	inTruncate = mustJSON(object("", []string{"text", "length"}, ordered{
		{"text", prop("string", "")},
		{"length", js{"type": "integer", "description": "Maximum length in runes.", "minimum": 1}},
	}))
	inAB     = mustJSON(object("", []string{"a", "b"}, ordered{{"a", js{"type": "number"}}, {"b", js{"type": "number"}}}))
	inValues = mustJSON(object("", []string{"values"}, ordered{
		{"values", js{"type": "array", "items": js{"type": "number"}, "minItems": 1}},
	}))

	outCustomer  = mustJSON(customerSchema)
	outCustomers = mustJSON(list(customerSchema))
	outProduct   = mustJSON(productSchema)
	outProducts  = mustJSON(list(productSchema))
	outOrder     = mustJSON(orderSchema)
	outOrders    = mustJSON(list(orderSchema))
	outWordCount = mustJSON(object("Counts", []string{"words", "unique", "characters"}, ordered{
		{"words", prop("integer", "")},
		{"unique", prop("integer", "Distinct words, case-insensitive.")},
		{"characters", prop("integer", "Length in runes.")},
	}))
	outStats = mustJSON(object("Summary", []string{"count", "sum", "mean", "median", "min", "max"}, ordered{
		{"count", prop("integer", "")},
		{"sum", prop("number", "Rounded to 2 decimals.")},
		{"mean", prop("number", "Rounded to 2 decimals.")},
		{"median", prop("number", "")},
		{"min", prop("number", "")},
		{"max", prop("number", "")},
	}))
	outString = mustJSON(js{"type": "string"})
	outNumber = mustJSON(js{"type": "number"})
)
