package main

import (
	"fmt"
	"io"

	"github.com/toolscript/toolscript/engine"
)

var workerHelp = subcommand{
	name:     "worker",
	synopsis: "",
	about: `(internal) Serves as a worker of the isolated runtime: the host
(run --isolated, repl --isolated, or a program calling engine.NewIsolated)
starts this binary as a child process and talks to it over a pipe. It is
not started by hand: so started, it says so and exits with status 2.`,
	examples: []string{"toolscript run --isolated script.gos   # starts workers itself"},
}

// workerCmd is "toolscript worker": what an isolated-runtime worker runs.
// main hands such processes to engine.MaybeServeWorker before parsing any
// argument, so reaching this function means the process was started by
// hand, not by a host.
func workerCmd(args []string, stdout, stderr io.Writer) int {
	c := &workerHelp
	if _, err := c.parse(c.newFlagSet(), args, stdout, stderr); err != nil {
		return exitCodeOf(err)
	}
	code, err := engine.ServeWorker()
	if err != nil {
		fmt.Fprintf(stderr, "toolscript: %v (this command is started by the isolated runtime, not by hand)\n", err)
	}
	return code
}
