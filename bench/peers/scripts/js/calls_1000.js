let n = 0, sum = 0;
for (let i = 0; i < 1000; i++) {
	const r = call_tool("square", {n: i});
	sum += r;
	n++;
}
console.log(n, Math.trunc(sum));
