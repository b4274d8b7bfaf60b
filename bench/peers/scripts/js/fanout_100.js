// 100 calls, at most 10 at once: 10 workers share the indices; each
// awaits call_tool_async, whose stub runs on a goroutine of its own.
async function main() {
	let next = 0, total = 0, n = 0;
	async function worker() {
		while (next < 100) {
			const i = next++;
			const r = await call_tool_async("square", {n: i});
			total += r;
			n++;
		}
	}
	const workers = [];
	for (let w = 0; w < 10; w++) {
		workers.push(worker());
	}
	await Promise.all(workers);
	console.log(n, Math.trunc(total));
}
main();
