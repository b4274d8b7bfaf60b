const raw = call_tool("events", {});
const events = JSON.parse(raw);
const byUser = new Map();
for (const e of events) {
	if (e.kind !== "purchase") {
		continue;
	}
	let t = byUser.get(e.user);
	if (t === undefined) {
		t = {user: e.user, count: 0, amount: 0};
		byUser.set(e.user, t);
	}
	t.count++;
	t.amount += e.amount;
}
const list = [...byUser.keys()].sort().map(u => byUser.get(u));
const out = JSON.stringify(list);
console.log(events.length, list.length, out.length);
console.log(out.slice(0, 60));
