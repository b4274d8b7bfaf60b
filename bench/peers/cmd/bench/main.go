// Command bench is toolscript's benchmark runner with the peers of
// bench/peers as extra columns: upstream yaegi, goja and Starlark, side by
// side with toolscript in the same run.
//
//	cd bench/peers && go run ./cmd/bench --short
//
// It takes the flags of toolscript's runner (go run ./bench/cmd/bench
// --help at the repository's root).
package main

import (
	"os"

	"github.com/toolscript/toolscript/bench/harness"
	"github.com/toolscript/toolscript/bench/peers"
)

func main() {
	os.Exit(harness.Main(os.Args[1:], peers.All()))
}
