package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/engine"
)

// runCmd runs one script and exits with its ReturnCode.
func runCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	timeout := fs.Duration("timeout", engine.DefaultTimeout, "bound on the script's wall time (0: engine default, negative: unlimited)")
	asJSON := fs.Bool("json", false, "print the whole CodeResult as JSON instead of the script's output")
	maxCalls := fs.Int("max-tool-calls", 0, "bound on tool calls (0: engine default, -1: unlimited)")
	isolated := fs.Bool("isolated", false, "run the script in a worker process under OS limits (memory, CPU, files, stack); tools stay in this process")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: toolscript run [flags] FILE|-\n\nRuns a Go script (a full program or bare statements) against the demo tools.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	code, err := readScript(fs.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "toolscript: %v\n", err)
		return 2
	}
	opts := []engine.Option{engine.WithTimeout(*timeout), engine.WithLimits(engine.Limits{MaxToolCalls: *maxCalls})}
	if !*asJSON {
		// Stream the script's output as it is written.
		opts = append(opts, engine.WithStdout(stdout), engine.WithStderr(stderr))
	}
	var rt engine.CodeRuntime = engine.New(engine.Config{})
	if *isolated {
		iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
		if err != nil {
			fmt.Fprintf(stderr, "toolscript: %v\n", err)
			return 2
		}
		defer iso.Close()
		rt = iso
	}
	res, err := rt.Execute(ctx, code, demo.Namespace(), opts...)
	if err != nil {
		fmt.Fprintf(stderr, "toolscript: %v\n", err)
		return 2
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			fmt.Fprintf(stderr, "toolscript: encoding result: %v\n", err)
			return 2
		}
		return res.ReturnCode
	}
	if res.Error != "" {
		fmt.Fprintf(stderr, "error: %s\n", res.Error)
	}
	return res.ReturnCode
}

func readScript(name string, stdin io.Reader) (string, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return "", fmt.Errorf("reading script: %w", err)
	}
	return string(data), nil
}
