// Command bench is toolscript's benchmark runner: it runs the fixed
// workloads of package harness on the native floor, the in-process and
// isolated runtimes and the registry, and prints the table that
// BENCHMARKS.md publishes.
//
//	go run ./bench/cmd/bench --short
//	go run ./bench/cmd/bench --peers --out bench/results   # what BENCHMARKS.md embeds
//	go run ./bench/cmd/bench --json bench.json
//	go run ./bench/cmd/bench --cpuprofile cpu.out --workload trivial
package main

import (
	"os"

	"github.com/toolscript/toolscript/bench/harness"
)

func main() {
	os.Exit(harness.Main(os.Args[1:], nil))
}
