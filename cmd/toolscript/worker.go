package main

import (
	"fmt"
	"io"

	"github.com/toolscript/toolscript/engine"
)

// workerCmd is "toolscript worker": what an isolated-runtime worker runs.
// main hands such processes to engine.MaybeServeWorker before parsing any
// argument, so reaching this function means the process was started by
// hand, not by a host.
func workerCmd(stderr io.Writer) int {
	code, err := engine.ServeWorker()
	if err != nil {
		fmt.Fprintf(stderr, "toolscript: %v (this command is started by the isolated runtime, not by hand)\n", err)
	}
	return code
}
