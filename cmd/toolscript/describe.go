package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/toolscript/toolscript/engine"
)

var describeHelp = subcommand{
	name:     "describe",
	synopsis: "[flags] [PACKAGE | WORDS...]",
	about: `Prints the tools a script can call as the Go declarations the script
sees (package, function, documentation): the text to give a model. With
PACKAGE or tool names (customers, orders.List), only those tools; with
other WORDS, the few tools the registry's search ranks best for them
(the REPL's :describe). --ns and --tool select namespaces and tools (the WORDS then
filter them further); --size reports the text's size on standard error.`,
	examples: []string{
		"toolscript describe",
		"toolscript describe customers",
		"toolscript describe --mcp servers.json order status",
		"toolscript describe --ns orders,products --size",
		"toolscript describe --tool customers-get,orders.List",
	},
}

// describeCmd prints the tools a script can call, as Go declarations.
func describeCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &describeHelp
	fs := c.newFlagSet()
	tf := addToolFlags(fs)
	nsList := fs.String("ns", "", "describe only these namespaces (comma-separated: math_ops, tools, ...)")
	toolList := fs.String("tool", "", "describe only these tools (comma-separated names: customers-get or\ncustomers.Get)")
	size := fs.Bool("size", false, "print the size of the text (bytes, estimated tokens) on standard error")
	pos, err := c.parse(fs, args, stdout, stderr)
	if err != nil {
		return exitCodeOf(err)
	}
	ns, closeTools, err := tf.namespace(ctx, stderr, nil)
	if err != nil {
		fmt.Fprintf(stderr, "toolscript describe: %v\n", err)
		return exitUsage
	}
	defer closeTools()
	var out string
	if *nsList != "" || *toolList != "" {
		d := engine.DescribeWith(ns, engine.DescribeOptions{Namespaces: splitList(*nsList), Tools: splitList(*toolList), Words: pos})
		if d.Tools == 0 {
			fmt.Fprintf(stderr, "toolscript describe: no tool matches\n")
			return exitFailure
		}
		out = d.Text
	} else if out, err = describeTools(ns, strings.Join(pos, " ")); err != nil {
		fmt.Fprintf(stderr, "toolscript describe: %v\n", err)
		return exitFailure
	}
	fmt.Fprint(stdout, out)
	if *size {
		fmt.Fprintf(stderr, "%d bytes, about %d tokens\n", len(out), (len(out)+3)/4)
	}
	return exitOK
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
