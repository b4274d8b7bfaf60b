package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolscript/toolscript/executor"
	"github.com/toolscript/toolscript/internal/schema"
	"github.com/toolscript/toolscript/projection"
)

// CallOption configures one ExecuteToolCalls. Options only record values.
type CallOption func(*callConfig)

type callConfig struct {
	mode ExecutionMode
}

// WithExecutionMode runs this batch in mode m instead of the registry's
// default (see SetDefaultExecutionMode).
func WithExecutionMode(m ExecutionMode) CallOption { return func(c *callConfig) { c.mode = m } }

// ToolResult is the outcome of one tool call.
type ToolResult struct {
	// ID is the call's id, or "call_<index>" for a call without one.
	ID string
	// Call is the call as given.
	Call Call
	// Value is what the tool returned (JSON-decoded types in ModeProcess).
	Value any
	// Err is the call's error, nil on success: the tool's own error
	// unchanged, a *projection.ArgumentError for arguments that do not fit
	// the schema, a *CallError for calls that did not reach the tool, or an
	// executor error (timeout, cancellation, panic).
	Err error
	// Decision is the permission's decision about the call, for a tool
	// whose permission is ask or deny (DecisionApproved, DecisionRefused
	// or DecisionDenied), "" for an allowed tool. A refused or denied
	// call did not run: Err is a *CallError matching ErrCallRefused or
	// ErrToolDenied.
	Decision string
}

// Content returns the result as text for the model: a string value as is,
// other values as JSON, and "error: <message>" for an error.
func (r ToolResult) Content() string {
	if r.Err != nil {
		return "error: " + r.Err.Error()
	}
	if s, ok := r.Value.(string); ok {
		return s
	}
	b, err := json.Marshal(r.Value)
	if err != nil {
		return fmt.Sprint(r.Value)
	}
	return string(b)
}

// Results are the results of a batch, in the order of its calls.
type Results []ToolResult

// Get returns the result of the call with the given id.
func (rs Results) Get(id string) (ToolResult, bool) {
	for _, r := range rs {
		if r.ID == id {
			return r, true
		}
	}
	return ToolResult{}, false
}

// ExecuteToolCalls runs a batch of tool calls and returns one result per
// call, in input order and keyed by call id. A failing call never loses the
// others' results: its error is in its ToolResult.
//
// Each call's tool is looked up by qualified name, its arguments decoded and
// validated against the tool's schema, then run on the executor backend of
// the batch's mode (WithExecutionMode, else the registry default:
// ModeGoroutine). Each run is bounded by the tool's Metadata.Timeout and by
// ctx. Calls run concurrently, bounded by the backend's workers, unless any
// tool of the batch is ConcurrencyUnsafe: then the whole batch runs one call
// at a time, in order.
//
// The error is for misuse only: duplicate call ids (matching
// ErrBadToolCall) or a closed registry (ErrClosed). A nil ctx panics.
func (r *Registry) ExecuteToolCalls(ctx context.Context, calls []Call, opts ...CallOption) (Results, error) {
	if ctx == nil {
		panic("registry: ExecuteToolCalls with a nil context")
	}
	var cfg callConfig
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	results := make(Results, len(calls))
	for i := range calls {
		id := calls[i].ID
		if id == "" {
			id = "call_" + strconv.Itoa(i)
		}
		results[i] = ToolResult{ID: id, Call: calls[i]}
	}
	if err := checkUniqueIDs(results); err != nil {
		return nil, err
	}

	tools := make([]*Tool, len(calls))
	var asks []bool // the calls of ask tools
	r.mu.RLock()
	mode := r.mode
	for i := range calls {
		res := &results[i]
		t, ok := r.tools[calls[i].Name]
		if !ok {
			res.Err = &CallError{ID: res.ID, Tool: calls[i].Name, Err: r.unknownLocked(calls[i].Name)}
			continue
		}
		if off, reason := r.disabledLocked(t); off {
			res.Err = &CallError{ID: res.ID, Tool: t.Name, Err: disabledError(reason)}
			continue
		}
		switch r.permLocked(t.Name) {
		case PermissionDeny:
			res.Err, res.Decision = &CallError{ID: res.ID, Tool: t.Name, Err: deniedError(t.Name)}, DecisionDenied
			continue
		case PermissionAsk:
			if asks == nil {
				asks = make([]bool, len(calls))
			}
			asks[i] = true
		}
		tools[i] = t
	}
	r.mu.RUnlock()
	if cfg.mode != "" {
		mode = cfg.mode
	}

	b, berr := r.backend(mode)
	if errors.Is(berr, ErrClosed) {
		return nil, berr
	}
	sequential := false
	args := make([]map[string]any, len(calls))
	for i, t := range tools {
		if t == nil {
			continue
		}
		res := &results[i]
		a, err := decodeArgs(&calls[i], t)
		switch {
		case err == nil && berr != nil:
			err = &CallError{ID: res.ID, Tool: t.Name, Err: berr}
		case err == nil && mode == ModeProcess && t.ProcessFunc == "":
			err = &CallError{ID: res.ID, Tool: t.Name, Err: fmt.Errorf("%w: give it a ProcessFunc registered with executor.RegisterFunc", ErrNotProcessable)}
		}
		if err != nil {
			if ce, ok := err.(*CallError); ok && ce.ID == "" {
				ce.ID = res.ID
			}
			res.Err, tools[i] = err, nil
			continue
		}
		args[i] = a
		sequential = sequential || t.Metadata.ConcurrencyUnsafe
	}
	// Ask tools: the decision comes after validation, one call at a
	// time, before any call of the batch runs.
	for i, t := range tools {
		if t == nil || asks == nil || !asks[i] {
			continue
		}
		c := calls[i]
		c.Args = args[i]
		decision, err := r.ask(ctx, c)
		results[i].Decision = decision
		if err != nil {
			results[i].Err, tools[i] = &CallError{ID: results[i].ID, Tool: t.Name, Err: err}, nil
		}
	}

	base := []executor.SubmitOption{executor.WithContext(ctx)}
	submit := func(i int) executor.Handle {
		t := tools[i]
		opts := base
		if t.Metadata.Timeout > 0 {
			opts = append(base[:1:1], executor.WithTimeout(t.Metadata.Timeout))
		}
		var fn any = t.Func
		switch {
		case mode == ModeProcess:
			fn = t.ProcessFunc
		case t.serial != nil:
			fn = t.run
		}
		return b.Submit(fn, args[i], opts...)
	}
	if sequential {
		for i, t := range tools {
			if t != nil {
				results[i].Value, results[i].Err = submit(i).Result(0)
			}
		}
		return results, nil
	}
	handles := make([]executor.Handle, len(calls))
	for i, t := range tools {
		if t != nil {
			handles[i] = submit(i)
		}
	}
	for i, h := range handles {
		if h != nil {
			results[i].Value, results[i].Err = h.Result(0)
		}
	}
	return results, nil
}

func checkUniqueIDs(results Results) error {
	if len(results) <= 16 {
		for i := range results {
			for j := range i {
				if results[i].ID == results[j].ID {
					return duplicateID(results[i].ID)
				}
			}
		}
		return nil
	}
	seen := make(map[string]struct{}, len(results))
	for _, r := range results {
		if _, dup := seen[r.ID]; dup {
			return duplicateID(r.ID)
		}
		seen[r.ID] = struct{}{}
	}
	return nil
}

// unknownLocked explains an unknown name, suggesting the name with the
// registry's separator when the model used the other one.
func (r *Registry) unknownLocked(name string) error {
	other := string(SeparatorDot)
	if r.sep == SeparatorDot {
		other = string(SeparatorDash)
	}
	if strings.Contains(name, other) {
		alt := strings.Replace(name, other, string(r.sep), 1)
		if _, ok := r.tools[alt]; ok {
			return fmt.Errorf("%w (did you mean %q?)", unknownTool(name), alt)
		}
	}
	return unknownTool(name)
}

func disabledError(reason string) error {
	if reason == "" {
		return ErrToolDisabled
	}
	return fmt.Errorf("%w: %s", ErrToolDisabled, reason)
}

// decodeArgs returns the call's arguments, decoded and validated against
// t's schema.
func decodeArgs(c *Call, t *Tool) (map[string]any, error) {
	args := c.Args
	if args == nil && len(c.Arguments) > 0 {
		if err := json.Unmarshal(c.Arguments, &args); err != nil {
			return nil, &CallError{Tool: t.Name, Err: fmt.Errorf("%w: arguments are not a JSON object: %v", ErrBadToolCall, err)}
		}
	}
	if args == nil {
		args = map[string]any{}
	}
	if err := validateArgs(t, args); err != nil {
		return nil, err
	}
	return args, nil
}

// validateArgs checks args against t's compiled schema, reporting a
// *projection.ArgumentError that names the argument path.
func validateArgs(t *Tool, args map[string]any) error {
	if t.compiled == nil {
		return nil
	}
	err := t.compiled.Validate(args)
	if err == nil {
		return nil
	}
	var ve *schema.ValidationError
	if errors.As(err, &ve) {
		return &projection.ArgumentError{Tool: t.Name, Arg: ve.Path, Err: errors.New(ve.Msg)}
	}
	return &projection.ArgumentError{Tool: t.Name, Err: err}
}
