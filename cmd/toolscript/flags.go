package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/toolscript/toolscript/engine"
)

// subcommand describes one subcommand for its -h: what it does, its
// synopsis and examples. Its flags come from its FlagSet.
type subcommand struct {
	name     string   // "run"
	synopsis string   // "[flags] FILE|-"
	about    string   // what it does, a paragraph or more
	examples []string // command lines, each printed on its own line
}

// newFlagSet returns the FlagSet of c. It prints nothing itself: parse
// (below) prints the help or the error.
func (c *subcommand) newFlagSet() *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// printHelp writes c's help: synopsis, description, flags with their
// defaults, examples.
func (c *subcommand) printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: toolscript %s %s\n\n%s\n", c.name, c.synopsis, strings.TrimSpace(c.about))
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		where := ""
		if strings.Contains(c.synopsis, "FILE") {
			where = " (before or after FILE)"
		}
		fmt.Fprintf(w, "\nFlags%s:\n", where)
		fs.VisitAll(func(f *flag.Flag) {
			kind, usage := flag.UnquoteUsage(f)
			if kind != "" {
				kind = " " + kind
			}
			fmt.Fprintf(w, "  --%s%s\n", f.Name, kind)
			for _, line := range strings.Split(usage, "\n") {
				fmt.Fprintf(w, "        %s\n", line)
			}
			if def := f.DefValue; def != "" && def != "false" {
				fmt.Fprintf(w, "        (default %s)\n", def)
			}
		})
	}
	if len(c.examples) > 0 {
		fmt.Fprintf(w, "\nExample%s:\n", plural(len(c.examples)))
		for _, e := range c.examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// errHelp is parse's error after it printed the help: exit 0.
var errHelp = errors.New("help printed")

// parse parses args with fs, accepting flags before and after the
// positional arguments (run FILE --json), and returns the positional
// ones. Everything after "--" is positional. On -h it prints the help to
// stdout and returns errHelp; on a bad flag it prints the error and how
// to get help to stderr and returns the error.
func (c *subcommand) parse(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) ([]string, error) {
	var pos []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			c.printHelp(stdout, fs)
			return nil, errHelp
		}
		if err != nil {
			c.fail(stderr, "%v", err)
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// fs.Parse stops at the first positional argument, or just
		// after a "--" it consumed: then all the rest is positional.
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" && !isFlagValue(fs, args[:consumed-1]) {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// isFlagValue reports whether the argument after before is the value of
// a flag given as "--name value" (so a "--" there is a value, not the end
// of the flags).
func isFlagValue(fs *flag.FlagSet, before []string) bool {
	if len(before) == 0 {
		return false
	}
	last := before[len(before)-1]
	name, ok := strings.CutPrefix(last, "-")
	if !ok || strings.Contains(name, "=") {
		return false
	}
	name = strings.TrimPrefix(name, "-")
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return false
	}
	return true
}

// fail prints a usage error of c to stderr, with how to get help.
func (c *subcommand) fail(stderr io.Writer, format string, args ...any) {
	fmt.Fprintf(stderr, "toolscript %s: %s\nRun \"toolscript %s -h\" for its usage.\n", c.name, fmt.Sprintf(format, args...), c.name)
}

// timeoutValue is a --timeout flag: a duration with a unit, 0 for the
// engine's default, "unlimited" for none. A negative duration is an error
// (the engine's API reads it as none; the command asks for the word).
type timeoutValue struct{ d time.Duration }

func (v *timeoutValue) String() string {
	if v == nil {
		return "0"
	}
	return formatTimeout(v.d)
}

func formatTimeout(d time.Duration) string {
	switch {
	case d < 0:
		return "unlimited"
	case d == 0:
		return "0"
	}
	return d.String()
}

func (v *timeoutValue) Set(s string) error {
	d, err := parseTimeout(s)
	if err != nil {
		return err
	}
	v.d = d
	return nil
}

var errNegativeTimeout = errors.New(`a timeout cannot be negative: use 0 for the default or "unlimited" for none`)

// parseTimeout reads a timeout as --timeout and the REPL's :timeout do.
func parseTimeout(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "unlimited") {
		return engine.Unlimited, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		if f, nerr := strconv.ParseFloat(s, 64); nerr == nil {
			if f < 0 {
				return 0, errNegativeTimeout
			}
			return 0, fmt.Errorf("a duration needs a unit: use a unit, such as %ss (or 500ms, 2m), or unlimited", s)
		}
		return 0, errors.New(`not a duration: use a unit, such as 5s (or 500ms, 2m), 0 for the default, or unlimited`)
	}
	if d < 0 {
		return 0, errNegativeTimeout
	}
	return d, nil
}

// limitValue is a count limit flag: a whole number, 0 for the engine's
// default, "unlimited" for none; a negative number is an error.
type limitValue struct{ n int }

func (v *limitValue) String() string {
	if v == nil || v.n == 0 {
		return "0"
	}
	if v.n < 0 {
		return "unlimited"
	}
	return strconv.Itoa(v.n)
}

func (v *limitValue) Set(s string) error {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "unlimited") {
		v.n = engine.Unlimited
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New(`not a whole number: use a count such as 100, 0 for the default, or unlimited`)
	}
	if n < 0 {
		return errors.New(`a limit cannot be negative: use 0 for the default or "unlimited" for none`)
	}
	v.n = n
	return nil
}

// limitFlags are the limit flags shared by run and repl.
type limitFlags struct {
	timeout  timeoutValue
	maxCalls limitValue
}

func (l *limitFlags) register(fs *flag.FlagSet) {
	fs.Var(&l.timeout, "timeout", "each execution's wall time, a `duration` with a unit (500ms, 5s, 2m);\n0 keeps the engine's default, \"unlimited\" sets none;\na number without a unit or a negative one is an error")
	fs.Lookup("timeout").DefValue = fmt.Sprintf("0, the engine's %s", engine.DefaultTimeout)
	fs.Var(&l.maxCalls, "max-tool-calls", "the tool calls of each execution, a `count`;\n0 keeps the engine's default, \"unlimited\" sets none;\na negative count is an error")
	fs.Lookup("max-tool-calls").DefValue = fmt.Sprintf("0, the engine's %d", engine.DefaultMaxToolCalls)
}

// options are the engine options the limit flags ask for.
func (l *limitFlags) options() []engine.Option {
	return []engine.Option{engine.WithLimits(engine.Limits{Timeout: l.timeout.d, MaxToolCalls: l.maxCalls.n})}
}
