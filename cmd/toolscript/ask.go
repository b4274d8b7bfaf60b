package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/peterh/liner"

	"github.com/toolscript/toolscript/projection"
	"github.com/toolscript/toolscript/registry"
)

// askArgsMax bounds the arguments a question shows.
const askArgsMax = 400

// asker decides the calls of the ask tools of the REPL's MCP servers by
// asking the person at it: which tool, with which arguments, and y, n or
// a (always: this tool's calls run without asking until the REPL exits).
//
// On a terminal the answer is read through the line editor, which the
// REPL's own prompt uses too: mu is held around every use of it, so a
// question and the prompt never read the terminal at once. A script
// calling tools from several goroutines gets one question at a time.
type asker struct {
	mu sync.Mutex
	// read shows prompt and reads one answer; nil until the REPL's loop
	// starts (no input runs before).
	read func(ctx context.Context, prompt string) (string, error)
	w    io.Writer // where the question goes
	// endLine ends the script's output line before the question.
	endLine func()
	// interrupt cancels the running input (Ctrl-C at the question).
	interrupt func() bool
	names     map[string]string // registry name -> the script's pkg.Func
	always    map[string]bool
	// asking is set while a question reads its answer on the terminal
	// (the terminal loop's read sets it): the line editor
	// prints the question before it turns the terminal's signals off, so
	// a Ctrl-C typed at once may come as SIGINT, which the REPL then
	// leaves to the question (pressed again, it refuses) rather than
	// cancelling the input under a question still waiting for a key.
	asking atomic.Bool
}

// setNames records the script's names of the tools of ns.
func (a *asker) setNames(ns map[string]projection.ToolProjection) {
	names := map[string]string{}
	for _, t := range toolIndex(ns) {
		names[t.name] = t.pkg + "." + t.fn
	}
	a.mu.Lock()
	a.names = names
	a.mu.Unlock()
}

// errNoAnswer is the refusal of a question nobody answered.
var errNoAnswer = errors.New("no answer: the input ended")

// decide is the registry's AskFunc.
func (a *asker) decide(ctx context.Context, call registry.Call) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.always[call.Name] {
		return true, nil
	}
	if a.read == nil {
		return false, errors.New("nobody to ask")
	}
	name := a.names[call.Name]
	if name == "" {
		name = call.Name
	}
	args := compactJSON(call.Args)
	if len(args) > askArgsMax {
		args = args[:askArgsMax] + "..."
	}
	if a.endLine != nil {
		a.endLine()
	}
	fmt.Fprintf(a.w, "the script calls %s(%s), a tool that asks before each call\n", name, args)
	for {
		if err := ctx.Err(); err != nil {
			return false, context.Cause(ctx)
		}
		text, err := a.read(ctx, "run it? y(es), n(o), a(lways this tool) [n]: ")
		switch {
		case errors.Is(err, liner.ErrPromptAborted): // Ctrl-C: refuse and cancel the input
			fmt.Fprintln(a.w, "refused; the input is interrupted")
			if a.interrupt != nil {
				a.interrupt()
			}
			return false, errInterrupted
		case errors.Is(err, io.EOF):
			fmt.Fprintln(a.w)
			return false, errNoAnswer
		case err != nil:
			return false, err
		}
		if ctx.Err() != nil {
			fmt.Fprintln(a.w, "too late: the input has ended")
			return false, context.Cause(ctx)
		}
		switch strings.ToLower(strings.TrimSpace(text)) {
		case "y", "yes":
			return true, nil
		case "a", "always":
			if a.always == nil {
				a.always = map[string]bool{}
			}
			a.always[call.Name] = true
			fmt.Fprintf(a.w, "%s runs without asking until the REPL exits\n", name)
			return true, nil
		case "n", "no", "":
			return false, nil
		default:
			fmt.Fprintf(a.w, "answer y, n or a, not %q\n", text)
		}
	}
}

// lockedPrompt is the REPL's own prompt, which holds the line editor as
// a question does.
func (a *asker) lockedPrompt(line *liner.State, p string) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return line.Prompt(p)
}
