package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// childArg, as the first argument of the runner's binary, makes it a
// child that measures one cell of one extra engine (a peer) and writes it
// as JSON to a file: kind ("cell" or "rate"), engine, workload,
// concurrency (rates), "short" or "full", and the file.
const childArg = "-bench-child-cell"

// childTimeout bounds one child: a peer that hangs costs its cell, not
// the run.
const childTimeout = 3 * time.Minute

// inChild measures one cell of an extra engine in a child process of the
// runner's own binary, so that a peer that crashes the process (a panic
// in a goroutine of its interpreter cannot be recovered) costs that cell
// alone: the cell is marked Crashed, with the child's panic as its Err.
// The child returns a Cell (kind "cell") or a Rate (kind "rate") in out.
func inChild(ctx context.Context, kind, engine, workload string, k int, short bool, out any) (crash string, err error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp("", "bench-child-*.json")
	if err != nil {
		return "", err
	}
	file := f.Name()
	f.Close()
	defer os.Remove(file)
	mode := "full"
	if short {
		mode = "short"
	}
	ctx, cancel := context.WithTimeout(ctx, childTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, childArg, kind, engine, workload, strconv.Itoa(k), mode, file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	runErr := cmd.Run()
	b, _ := os.ReadFile(file)
	if runErr == nil && len(b) > 0 {
		return "", json.Unmarshal(b, out)
	}
	if ctx.Err() != nil {
		return fmt.Sprintf("no result in %v", childTimeout), nil
	}
	return crashReason(stderr.String(), runErr), nil
}

// crashReason is the first line of a Go panic or fatal error in a child's
// standard error, with how the child ended.
func crashReason(stderr string, err error) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	reason := lines[len(lines)-1]
	for _, l := range lines {
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") {
			reason = l
			break
		}
	}
	if err != nil {
		reason += " (" + err.Error() + ")"
	}
	return reason
}

// serveChild is the child's side of inChild: it measures the cell and
// writes it to the file. It returns the exit status.
func serveChild(args []string, extra []Engine, stderr io.Writer) int {
	if len(args) != 6 {
		fmt.Fprintln(stderr, "bench: child: want kind engine workload k mode file")
		return 2
	}
	kind, name, workload, mode, file := args[0], args[1], args[2], args[4], args[5]
	k, err := strconv.Atoi(args[3])
	if err != nil {
		fmt.Fprintln(stderr, "bench: child:", err)
		return 2
	}
	var e Engine
	for _, x := range extra {
		if x.Name() == name {
			e = x
		}
	}
	w, ok := WorkloadByName(workload)
	if e == nil || !ok {
		fmt.Fprintf(stderr, "bench: child: no engine %q or workload %q\n", name, workload)
		return 2
	}
	s := FullSettings
	if mode == "short" {
		s = ShortSettings
	}
	ctx := context.Background()
	var v any
	runFn, err := e.Prepare(w)
	switch kind {
	case "cell":
		c := Cell{Workload: w.Name, Engine: name}
		switch {
		case errors.Is(err, ErrUnsupported):
			c.Unsupported = true
		case err != nil:
			c.Err = err.Error()
		default:
			c = Measure(ctx, w, name, runFn, s)
		}
		v = c
	case "rate":
		r := Rate{Workload: w.Name, Engine: name, Concurrency: k}
		switch {
		case errors.Is(err, ErrUnsupported):
			r.Unsupported = true
		case err != nil:
			r.Err = err.Error()
		default:
			r = MeasureRate(ctx, w, name, runFn, k, s)
		}
		v = r
	default:
		fmt.Fprintln(stderr, "bench: child: unknown kind", kind)
		return 2
	}
	b, err := json.Marshal(v)
	if err == nil {
		err = os.WriteFile(file, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(stderr, "bench: child:", err)
		return 1
	}
	return 0
}
