// Command toolscript runs Go scripts against tools: the built-in demo tool
// set, with more sources to come.
//
// Usage:
//
//	toolscript run [--timeout 30s] [--json] [--isolated] FILE|-
//	toolscript describe
//	toolscript worker
//	toolscript version
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/toolscript/toolscript/engine"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	// Started by the isolated runtime as a worker: serve, then exit.
	engine.MaybeServeWorker()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

const usage = `toolscript runs Go scripts that call tools.

Usage:
  toolscript run [flags] FILE|-   run a script against the demo tools
  toolscript describe             print the tools a script can call
  toolscript worker               (internal) serve as an isolated-runtime worker
  toolscript version              print the version

Run "toolscript run -h" for the flags of run.
`

// run is the whole command; it returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "run":
		return runCmd(ctx, args[1:], stdin, stdout, stderr)
	case "describe":
		return describeCmd(args[1:], stdout, stderr)
	case "worker":
		return workerCmd(stderr)
	case "version":
		fmt.Fprintln(stdout, "toolscript", version)
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "toolscript: unknown command %q\n\n%s", args[0], usage)
	return 2
}
