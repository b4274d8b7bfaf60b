const limit = 20000;
const composite = new Array(limit + 1).fill(false);
let count = 0;
for (let i = 2; i <= limit; i++) {
	if (composite[i]) {
		continue;
	}
	count++;
	for (let j = i * i; j <= limit; j += i) {
		composite[j] = true;
	}
}
console.log(count);
