package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/toolscript/toolscript/demo"
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
		"toolscript describe order status",
	},
}

// describeCmd prints the tools a script can call, as Go declarations.
func describeCmd(args []string, stdout, stderr io.Writer) int {
	c := &describeHelp
	fs := c.newFlagSet()
	pos, err := c.parse(fs, args, stdout, stderr)
	if err != nil {
		return exitCodeOf(err)
	}
	out, err := describeTools(demo.Namespace(), strings.Join(pos, " "))
	if err != nil {
		fmt.Fprintf(stderr, "toolscript describe: %v\n", err)
		return exitFailure
	}
	fmt.Fprint(stdout, out)
	return exitOK
}
