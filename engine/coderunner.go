package engine

import (
	"context"

	"github.com/toolscript/toolscript/projection"
)

// CodeRunner adapts rt to a projection.CodeRunner, the runner of tools
// that run scripts, such as the registry's programmatic tool call
// (registry.EnablePTC): each RunCode is rt.Execute of the request's code
// against its namespace, with opts and then the request's timeout (zero
// keeps the runtime's). The outcome's Stdout is the script's standard
// output followed by its standard error, Error its CodeResult.Error.
func CodeRunner(rt CodeRuntime, opts ...Option) projection.CodeRunner {
	return &codeRunner{rt: rt, opts: opts}
}

type codeRunner struct {
	rt   CodeRuntime
	opts []Option
}

func (c *codeRunner) RunCode(ctx context.Context, req projection.CodeRequest) (projection.CodeOutcome, error) {
	opts := append(c.opts[:len(c.opts):len(c.opts)], WithTimeout(req.Timeout))
	res, err := c.rt.Execute(ctx, req.Code, req.Namespace, opts...)
	if err != nil {
		return projection.CodeOutcome{}, err
	}
	return projection.CodeOutcome{Stdout: res.Stdout + res.Stderr, Error: res.Error, Value: res.Value, ToolCalls: len(res.ToolCalls)}, nil
}
