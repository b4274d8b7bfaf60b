package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/engine"
)

// describeCmd prints the tools a script can call, as Go declarations.
func describeCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("describe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fmt.Fprint(stdout, engine.Describe(demo.Namespace()))
	return 0
}
