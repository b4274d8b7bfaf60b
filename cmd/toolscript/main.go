// Command toolscript runs Go scripts against tools: the built-in demo tool
// set, with more sources to come.
//
// Usage:
//
//	toolscript run [--timeout 30s] [--json] [--isolated] [--mcp FILE] [--no-demo] FILE|-
//	toolscript describe [--mcp FILE] [--no-demo]
//	toolscript repl [--isolated] [--timeout 30s] [--trace] [--history FILE]
//	toolscript worker
//	toolscript version
//	toolscript help
//
// Every subcommand explains itself with -h; "toolscript help" lists the
// exit codes.
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
	ctx, stop := context.Background(), func() {}
	if len(os.Args) < 2 || os.Args[1] != "repl" {
		// Ctrl-C cancels the command; the REPL handles it itself, to
		// cancel one input and keep running.
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt)
	}
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

const usage = `toolscript runs Go scripts that call tools.

Usage:
  toolscript run [flags] FILE|-   run a script against the demo tools (and MCP servers: --mcp FILE)
  toolscript describe [flags]     print the tools a script can call
  toolscript repl [flags]         read and run Go statements one at a time, keeping state
  toolscript serve [flags]        serve code mode to MCP clients (stdio, or HTTP: --http ADDR)
  toolscript worker               (internal) serve as an isolated-runtime worker; --nats URL: a fleet's
  toolscript fleet [flags]        a NATS server and N workers in one process (run --nats URL FILE)
  toolscript version              print the version
  toolscript help                 print this text

Run "toolscript COMMAND -h" for what a command does, its flags and an example.

Limits: a timeout is a duration with a unit (500ms, 5s, 2m) and a count is
a whole number; 0 keeps the engine's default (timeout 30s, 10000 tool
calls) and "unlimited" sets none; a negative value is an error.

Exit codes:
  0    the script ran to completion (repl: every input succeeded)
  1    the script failed: it did not compile, panicked, or returned an
       error; os.Exit(1) (repl reading standard input: an input failed)
  2    a usage error: an unknown command or flag, a bad flag value, a
       missing or unreadable file, a runtime that could not start
  124  the timeout passed
  125  a limit was exceeded (tool calls, output, memory, ...)
  130  interrupted by Ctrl-C (run; repl between inputs on standard input)
  137  the isolated worker running the script died
  N    any other code the script passed to os.Exit(N)
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
		return describeCmd(ctx, args[1:], stdout, stderr)
	case "repl":
		return replCmd(ctx, args[1:], stdin, stdout, stderr)
	case "serve":
		return serveCmd(ctx, args[1:], stdin, stdout, stderr)
	case "worker":
		return workerCmd(ctx, args[1:], stdout, stderr)
	case "fleet":
		return fleetCmd(ctx, args[1:], stdout, stderr)
	case "version":
		return versionCmd(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		return helpCmd(ctx, args[1:], stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "toolscript: unknown command %q\n\n%s", args[0], usage)
	return 2
}

var versionHelp = subcommand{
	name:     "version",
	synopsis: "",
	about:    "Prints the version of toolscript, set when it was built.",
	examples: []string{"toolscript version"},
}

func versionCmd(args []string, stdout, stderr io.Writer) int {
	c := &versionHelp
	fs := c.newFlagSet()
	pos, err := c.parse(fs, args, stdout, stderr)
	if err != nil {
		return exitCodeOf(err)
	}
	if len(pos) > 0 {
		c.fail(stderr, "takes no arguments")
		return exitUsage
	}
	fmt.Fprintln(stdout, "toolscript", version)
	return exitOK
}

// helpCmd is "toolscript help [COMMAND]": the overview, or a command's -h.
func helpCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	if args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	return run(ctx, []string{args[0], "-h"}, stdin, stdout, stderr)
}
