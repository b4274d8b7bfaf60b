package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/remote"
)

var runHelp = subcommand{
	name:     "run",
	synopsis: "[flags] FILE|-",
	about: `Runs a Go script (a full program, or bare statements and declarations)
against the demo tools (and the tools of MCP servers, with --mcp),
streaming its output, and exits with its return code (see "toolscript
help"). "-" reads the script from standard input.

When the script has a value (the argument of its last result(v) call, or
its final expression statement, such as a bare x), run prints it after
the script's output on a line of its own, marked "=> ". With --json it
prints instead the whole result as one JSON object: stdout, stderr,
return_code, error, value, tool_calls, duration_ns; a value JSON cannot
encode (a complex number, a NaN) is left out and value_error names its
type, the rest of the result is kept.`,
	examples: []string{
		"toolscript run scripts/testdata/top_customers_by_revenue.gos",
		"toolscript run script.gos --json --timeout 5s",
		`echo 'x := 6 * 7; x' | toolscript run -`,
	},
}

// runCmd runs one script and exits with its ReturnCode.
func runCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &runHelp
	fs := c.newFlagSet()
	var limits limitFlags
	limits.register(fs)
	asJSON := fs.Bool("json", false, "print the whole result as JSON instead of the script's output")
	isolated := fs.Bool("isolated", false, "run the script in a worker process under OS limits (memory, CPU,\nfiles, stack); tools stay in this process")
	tf := addToolFlags(fs)
	var nf natsFlags
	nf.register(fs, "run the script on a worker of the fleet at this NATS URL (see\ntoolscript fleet, toolscript worker --nats); tools stay in this process")
	pos, err := c.parse(fs, args, stdout, stderr)
	if err != nil {
		return exitCodeOf(err)
	}
	if len(pos) != 1 {
		c.fail(stderr, "needs one FILE, or - for standard input (got %d arguments)", len(pos))
		return exitUsage
	}
	code, err := readScript(pos[0], stdin)
	if err != nil {
		fmt.Fprintf(stderr, "toolscript run: %v\n", err)
		return exitUsage
	}
	opts := limits.options()
	out := &lineWriter{w: stdout}
	if !*asJSON {
		// Stream the script's output as it is written.
		opts = append(opts, engine.WithStdout(out), engine.WithStderr(stderr))
	}
	ns, closeTools, err := tf.namespace(ctx, stderr, nil)
	if err != nil {
		fmt.Fprintf(stderr, "toolscript run: %v\n", err)
		return exitUsage
	}
	defer closeTools()
	var rt engine.CodeRuntime = engine.New(engine.Config{})
	if *isolated {
		iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
		if err != nil {
			fmt.Fprintf(stderr, "toolscript run: %v\n", err)
			return exitUsage
		}
		defer iso.Close()
		rt = iso
	}
	if *nf.url != "" {
		nc, err := remote.Connect(*nf.url, "toolscript run", nf.auth)
		if err != nil {
			fmt.Fprintf(stderr, "toolscript run: %v\n", err)
			return exitUsage
		}
		defer nc.Close()
		rt = remote.New(nc, remote.Config{})
	}
	res, err := rt.Execute(ctx, code, ns, opts...)
	if err != nil {
		fmt.Fprintf(stderr, "toolscript run: %v\n", err)
		return exitUsage
	}
	rc := res.ReturnCode
	if rc == engine.CodeTimeout && ctx.Err() != nil {
		rc = exitInterrupted
	}
	if *asJSON {
		if err := writeJSONResult(stdout, res); err != nil {
			fmt.Fprintf(stderr, "toolscript run: writing the result: %v\n", err)
			return exitUsage
		}
		return rc
	}
	if res.Value != nil {
		out.endLine()
		fmt.Fprintf(out, "=> %s\n", formatValue(res.Value))
	}
	if res.Error != "" {
		fmt.Fprintf(stderr, "error: %s\n", res.Error)
	}
	return rc
}

// jsonResult is run --json's output: the CodeResult, whose value, when
// JSON cannot encode it, is replaced by value_error.
type jsonResult struct {
	engine.CodeResult
	Value      any    `json:"value,omitempty"`
	ValueError string `json:"value_error,omitempty"`
}

// writeJSONResult writes res as indented JSON. A value that cannot be
// encoded does not lose the rest: it is dropped and named.
func writeJSONResult(w io.Writer, res engine.CodeResult) error {
	r := jsonResult{CodeResult: res, Value: res.Value}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil && res.Value != nil {
		if _, verr := json.Marshal(res.Value); verr != nil {
			r.Value = nil
			r.ValueError = fmt.Sprintf("the value, of type %T, cannot be encoded as JSON: %v", res.Value, verr)
			data, err = json.MarshalIndent(r, "", "  ")
		}
	}
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
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
