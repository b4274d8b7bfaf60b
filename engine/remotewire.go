package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/toolscript/toolscript/internal/isolated"
	"github.com/toolscript/toolscript/internal/tagged"
	"github.com/toolscript/toolscript/projection"
)

// The pieces a runtime in another package needs to run scripts in other
// processes it reaches by its own means (package remote: workers over
// NATS): the options of an Execute resolved, and a CodeResult and an error
// in the isolated runtime's encoding, so that values keep their Go types
// (package internal/tagged) and errors their types across the network.

// Resolved is what an Execute's options come to: the limits (the runtime's
// defaults merged with the options, defaults filled in), the extra globals
// and the output copies.
type Resolved struct {
	Limits         Limits
	Globals        map[string]any
	Stdout, Stderr io.Writer
}

// ResolveOptions validates an Execute's arguments as every runtime does
// (a nil ctx panics; a namespace whose keys are not its tools' names and
// globals that are not identifiers are errors) and resolves opts over
// defaults.
func ResolveOptions(ctx context.Context, defaults Limits, ns map[string]projection.ToolProjection, opts ...Option) (Resolved, error) {
	s, limits, err := prepare(ctx, false, defaults, false, ns, opts)
	if err != nil {
		return Resolved{}, err
	}
	return Resolved{Limits: limits, Globals: s.globals, Stdout: s.stdout, Stderr: s.stderr}, nil
}

// MarshalError encodes err so that UnmarshalError rebuilds it with its
// type (*ScriptError, *PanicError, *LimitError, *ExitError, *ToolError)
// and the sentinels it matches; other errors keep their message. Nil
// encodes as nil.
func MarshalError(err error) []byte {
	if err == nil {
		return nil
	}
	b, _ := json.Marshal(encodeErr(err))
	return b
}

// UnmarshalError rebuilds an error MarshalError encoded; nil or empty
// data is a nil error.
func UnmarshalError(data []byte) (error, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var ei isolated.ErrInfo
	if err := json.Unmarshal(data, &ei); err != nil {
		return nil, fmt.Errorf("engine: bad encoded error: %w", err)
	}
	return decodeErr(&ei), nil
}

// wireResult is a CodeResult as MarshalResult encodes it.
type wireResult struct {
	Stdout             string          `json:"stdout,omitempty"`
	Stderr             string          `json:"stderr,omitempty"`
	ReturnCode         int             `json:"code"`
	Error              string          `json:"error,omitempty"`
	Err                json.RawMessage `json:"err,omitempty"`
	Value              json.RawMessage `json:"value,omitempty"` // tagged
	Calls              []wireCall      `json:"calls,omitempty"`
	Duration           time.Duration   `json:"duration,omitempty"`
	StdoutTruncated    bool            `json:"stdout_cut,omitempty"`
	StderrTruncated    bool            `json:"stderr_cut,omitempty"`
	ErrorTruncated     bool            `json:"error_cut,omitempty"`
	ToolCallsTruncated bool            `json:"calls_cut,omitempty"`
}

type wireCall struct {
	Name        string          `json:"name"`
	Args        json.RawMessage `json:"args,omitempty"` // tagged
	Duration    time.Duration   `json:"d,omitempty"`
	Error       string          `json:"error,omitempty"`
	ArgsOmitted bool            `json:"omitted,omitempty"`
	Decision    string          `json:"decision,omitempty"`
}

// MarshalResult encodes r for UnmarshalResult: its value and the trace's
// arguments in package internal/tagged's encoding (the isolated runtime's:
// values that cannot cross it are an error), its Err by MarshalError.
func MarshalResult(r CodeResult) ([]byte, error) {
	w := wireResult{
		Stdout: r.Stdout, Stderr: r.Stderr, ReturnCode: r.ReturnCode, Error: r.Error,
		Err: MarshalError(r.Err), Duration: r.Duration,
		StdoutTruncated: r.StdoutTruncated, StderrTruncated: r.StderrTruncated,
		ErrorTruncated: r.ErrorTruncated, ToolCallsTruncated: r.ToolCallsTruncated,
	}
	if r.Value != nil {
		v, err := tagged.Marshal(r.Value)
		if err != nil {
			return nil, fmt.Errorf("engine: the result value: %w", err)
		}
		w.Value = v
	}
	for _, c := range r.ToolCalls {
		wc := wireCall{Name: c.Name, Duration: c.Duration, Error: c.Error, ArgsOmitted: c.ArgsOmitted, Decision: c.Decision}
		if c.Args != nil {
			a, err := tagged.Marshal(c.Args)
			if err != nil {
				return nil, fmt.Errorf("engine: the arguments of a call of %s: %w", c.Name, err)
			}
			wc.Args = a
		}
		w.Calls = append(w.Calls, wc)
	}
	return json.Marshal(w)
}

// UnmarshalResult rebuilds a CodeResult MarshalResult encoded.
func UnmarshalResult(data []byte) (CodeResult, error) {
	var w wireResult
	if err := json.Unmarshal(data, &w); err != nil {
		return CodeResult{}, fmt.Errorf("engine: bad encoded result: %w", err)
	}
	r := CodeResult{
		Stdout: w.Stdout, Stderr: w.Stderr, ReturnCode: w.ReturnCode, Error: w.Error, Duration: w.Duration,
		StdoutTruncated: w.StdoutTruncated, StderrTruncated: w.StderrTruncated,
		ErrorTruncated: w.ErrorTruncated, ToolCallsTruncated: w.ToolCallsTruncated,
	}
	var err error
	if r.Err, err = UnmarshalError(w.Err); err != nil {
		return CodeResult{}, err
	}
	if len(w.Value) > 0 {
		if r.Value, err = tagged.Unmarshal(w.Value); err != nil {
			return CodeResult{}, fmt.Errorf("engine: bad encoded result value: %w", err)
		}
	}
	for _, wc := range w.Calls {
		c := ToolCall{Name: wc.Name, Duration: wc.Duration, Error: wc.Error, ArgsOmitted: wc.ArgsOmitted, Decision: wc.Decision}
		if len(wc.Args) > 0 {
			if c.Args, err = tagged.UnmarshalMap(wc.Args); err != nil {
				return CodeResult{}, fmt.Errorf("engine: bad encoded call arguments: %w", err)
			}
		}
		r.ToolCalls = append(r.ToolCalls, c)
	}
	return r, nil
}
