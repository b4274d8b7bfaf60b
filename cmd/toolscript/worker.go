package main

import (
	"context"
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
not started by hand: so started, it says so and exits with status 2.

With --nats URL it is started by hand, as a worker of a fleet: it takes
executions from the NATS server (run --nats sends them), runs each in an
isolated worker process of its own, and sends their tool calls back to
the host that asked. SIGTERM or Ctrl-C drains it: it takes no new
execution and exits once the running ones finish.`,
	examples: []string{
		"toolscript run --isolated script.gos   # starts workers itself",
		"toolscript worker --nats nats://nats.example:4222 --concurrency 4",
	},
}

// workerCmd is "toolscript worker": what an isolated-runtime worker runs.
// main hands such processes to engine.MaybeServeWorker before parsing any
// argument, so reaching this function means the process was started by
// hand, not by a host.
//
// With --nats URL it is a worker of a fleet instead, started by hand: it
// takes executions from the NATS server until SIGTERM or Ctrl-C, then
// drains (fleet.go).
func workerCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &workerHelp
	fs := c.newFlagSet()
	var nf natsFlags
	nf.register(fs, "serve executions of a fleet from the NATS server at this URL\n(see toolscript fleet)")
	concurrency := fs.Int("concurrency", 1, "with --nats: executions at once (each a worker process)")
	name := fs.String("name", "", "with --nats: the worker's name in heartbeats and $SRV.STATS (default: a unique id)")
	if _, err := c.parse(fs, args, stdout, stderr); err != nil {
		return exitCodeOf(err)
	}
	if *nf.url != "" {
		return fleetWorker(ctx, &nf, *concurrency, *name, stdout, stderr)
	}
	code, err := engine.ServeWorker()
	if err != nil {
		fmt.Fprintf(stderr, "toolscript: %v (this command is started by the isolated runtime, not by hand)\n", err)
	}
	return code
}
