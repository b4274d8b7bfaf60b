const customers = call_tool("customers-list", {});
const orders = call_tool("orders-list", {});
const products = call_tool("products-list", {});
const country = new Map();
for (const c of customers) {
	country.set(c.id, c.country);
}
const category = new Map();
for (const p of products) {
	category.set(p.id, p.category);
}
const revenue = new Map();
const units = new Map();
let n = 0;
for (const o of orders) {
	switch (o.status) {
	case "paid": case "shipped": case "delivered":
		break;
	default:
		continue;
	}
	n++;
	const k = country.get(o.customer_id) ?? "";
	revenue.set(k, (revenue.get(k) ?? 0) + o.total);
	for (const it of o.items) {
		const c = category.get(it.product_id) ?? "";
		units.set(c, (units.get(c) ?? 0) + it.quantity);
	}
}
const keys = [...revenue.keys()].sort((a, b) =>
	revenue.get(a) !== revenue.get(b) ? revenue.get(b) - revenue.get(a) : (a < b ? -1 : a > b ? 1 : 0));
console.log("orders", n);
for (const k of keys) {
	console.log(k, revenue.get(k).toFixed(2));
}
for (const k of [...units.keys()].sort()) {
	console.log(k, units.get(k));
}
