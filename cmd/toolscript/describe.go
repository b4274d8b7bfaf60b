package main

import (
	"context"
	"fmt"
	"io"
	"strings"
)

var describeHelp = subcommand{
	name:     "describe",
	synopsis: "[flags] [PACKAGE | WORDS...]",
	about: `Prints the tools a script can call as the Go declarations the script
sees (package, function, documentation): the text to give a model. With a
PACKAGE name, only that package's tools; with other WORDS, the tools whose
package, name or documentation contains every one of them (the REPL's
:describe).`,
	examples: []string{
		"toolscript describe",
		"toolscript describe customers",
		"toolscript describe --mcp servers.json order status",
	},
}

// describeCmd prints the tools a script can call, as Go declarations.
func describeCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &describeHelp
	fs := c.newFlagSet()
	tf := addToolFlags(fs)
	pos, err := c.parse(fs, args, stdout, stderr)
	if err != nil {
		return exitCodeOf(err)
	}
	ns, closeTools, err := tf.namespace(ctx, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "toolscript describe: %v\n", err)
		return exitUsage
	}
	defer closeTools()
	out, err := describeTools(ns, strings.Join(pos, " "))
	if err != nil {
		fmt.Fprintf(stderr, "toolscript describe: %v\n", err)
		return exitFailure
	}
	fmt.Fprint(stdout, out)
	return exitOK
}
