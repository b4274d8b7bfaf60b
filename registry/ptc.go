package registry

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/toolscript/toolscript/projection"
)

// PTCToolName is the name of the programmatic tool call tool that
// EnablePTC registers.
const PTCToolName = "programmatic_tool_call"

// SearchEntryName is the key of the tool search entry in ScriptNamespace
// (a script calls it as tools.Search; the trace names it so). No
// registry tool can have it: normalized names are lower-case.
const SearchEntryName = "tools.Search"

// Defaults of the PTC tool (see PTCOption).
const (
	// DefaultPTCTimeout bounds a script whose call gives no timeout.
	DefaultPTCTimeout = 30 * time.Second
	// DefaultPTCMaxTimeout bounds the timeout a call may ask for.
	DefaultPTCMaxTimeout = 5 * time.Minute
	// DefaultPTCDescribeBytes is the size of the tools' Go surface up to
	// which the PTC tool's description carries it; past it, the
	// description names the namespaces and points to tools.Search.
	DefaultPTCDescribeBytes = 16 << 10
)

// PTCOption configures EnablePTC.
type PTCOption func(*ptcConfig)

type ptcConfig struct {
	timeout, maxTimeout time.Duration
	describeBytes       int
}

// WithPTCTimeout sets the timeout of a script whose call gives none
// (DefaultPTCTimeout when d is zero or less).
func WithPTCTimeout(d time.Duration) PTCOption { return func(c *ptcConfig) { c.timeout = d } }

// WithPTCMaxTimeout bounds the timeout a call may ask for
// (DefaultPTCMaxTimeout when d is zero or less).
func WithPTCMaxTimeout(d time.Duration) PTCOption { return func(c *ptcConfig) { c.maxTimeout = d } }

// WithPTCDescribeBytes sets the size past which the description points to
// tools.Search instead of listing the tools (DefaultPTCDescribeBytes when
// n is zero; a negative n always points to the search).
func WithPTCDescribeBytes(n int) PTCOption { return func(c *ptcConfig) { c.describeBytes = n } }

// ptcArgs are the PTC tool's arguments.
type ptcArgs struct {
	Code    string  `json:"code" jsonschema:"a Go program (package main) or bare Go statements; print with fmt, or end with an expression to return its value"`
	Timeout float64 `json:"timeout_seconds,omitempty" jsonschema:"bound on the script's run time in seconds"`
}

// EnablePTC makes the registry offer the programmatic tool call tool,
// PTCToolName: one call runs a Go script, given as "code" with an
// optional "timeout_seconds", whose Go functions are the registry's other
// tools, and returns {"stdout", "tool_calls"} with "error" when the script
// failed (with its line and column) and "value" when it returned one (its
// last expression or result(v)), so that one round
// trip of a JSON tool-calling loop does the work of many. It is a tool
// like the others: Schemas declares it in all four formats and
// ExecuteToolCalls runs it.
//
// run executes the scripts: engine.CodeRunner adapts a runtime of
// package engine (the registry never imports the engine). A script sees
// ScriptNamespace at the time of the call: the enabled tools with their
// permissions, and tools.Search; never the PTC tool itself, which is not
// in Projections either, so no script can call it. Its description, made
// fresh by each Schemas, carries the Go signatures and descriptions of
// the tools while they fit in the describe bound, else the namespaces and
// a pointer to tools.Search.
//
// Enabling again replaces the tool with the new runner and options.
func (r *Registry) EnablePTC(run projection.CodeRunner, opts ...PTCOption) error {
	if run == nil {
		return fmt.Errorf("%w: EnablePTC needs a CodeRunner (engine.CodeRunner)", ErrInvalidTool)
	}
	cfg := ptcConfig{}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.timeout <= 0 {
		cfg.timeout = DefaultPTCTimeout
	}
	if cfg.maxTimeout <= 0 {
		cfg.maxTimeout = DefaultPTCMaxTimeout
	}
	if cfg.describeBytes == 0 {
		cfg.describeBytes = DefaultPTCDescribeBytes
	}
	fn := func(ctx context.Context, in ptcArgs) (map[string]any, error) {
		timeout := cfg.timeout
		if in.Timeout > 0 {
			timeout = min(time.Duration(in.Timeout*float64(time.Second)), cfg.maxTimeout)
		}
		out, err := run.RunCode(ctx, projection.CodeRequest{Code: in.Code, Namespace: r.ScriptNamespace(), Timeout: timeout})
		if err != nil {
			return nil, err
		}
		res := map[string]any{"stdout": out.Stdout, "tool_calls": out.ToolCalls}
		if out.Error != "" {
			res["error"] = out.Error
		}
		if out.Value != nil {
			res["value"] = out.Value
		}
		return res, nil
	}
	if err := r.Register(fn, WithName(PTCToolName), WithReplace(), WithDescription(ptcIntro)); err != nil {
		return err
	}
	r.mu.Lock()
	r.ptc = &cfg
	r.mu.Unlock()
	return nil
}

// ptcIntro opens the PTC tool's description.
const ptcIntro = "Run Go code that calls the tools below as Go functions, to do in one step what would take many tool calls: " +
	"loop, filter and combine their results in the script and print (fmt.Println) or return (end with an expression) only what is needed. " +
	"Code is a Go program or bare statements; the standard library's safe packages (fmt, strings, sort, encoding/json, time, ...) are available without imports. " +
	"Each tool takes a map of its arguments and returns (any, error); tools.Call(name, args) calls one by its name."

// ScriptNamespace is the namespace for a script over the registry:
// Projections without the PTC tool, plus SearchEntryName, the tool search
// (tools.Search in a script, over the same visible tools).
func (r *Registry) ScriptNamespace() map[string]projection.ToolProjection {
	ns := r.Projections()
	ns[SearchEntryName] = r.searchEntry
	return ns
}

// ptcNameLocked reports whether name is the enabled PTC tool's.
func (r *Registry) ptcNameLocked(name string) bool { return r.ptc != nil && name == PTCToolName }

// ptcDescription is the PTC tool's description over tools, the visible
// tools of a Schemas call.
func (r *Registry) ptcDescription(tools []*Tool, limit int) string {
	var b strings.Builder
	b.WriteString(ptcIntro)
	byPkg := map[string][]*Tool{}
	var pkgs []string
	n := 0
	for _, t := range tools {
		if t.Name == PTCToolName && t.Namespace == "" {
			continue
		}
		pkg := projection.GoPackageName(t.Namespace)
		if _, ok := byPkg[pkg]; !ok {
			pkgs = append(pkgs, pkg)
		}
		byPkg[pkg] = append(byPkg[pkg], t)
		n++
	}
	sort.Strings(pkgs)
	var surface strings.Builder
	for _, p := range pkgs {
		fmt.Fprintf(&surface, "\n\npackage %s", p)
		for _, t := range byPkg[p] {
			surface.WriteString("\n")
			if d := strings.Join(strings.Fields(t.Description), " "); d != "" {
				surface.WriteString("// " + d + "\n")
			}
			surface.WriteString(Signature(t))
		}
	}
	if limit >= 0 && surface.Len() <= limit {
		b.WriteString("\n\nThe tools:")
		b.WriteString(surface.String())
		b.WriteString("\n\ntools.Search(query string) ([]tools.SearchResult, error) finds tools by words (fields Name, Signature, Description).")
		return b.String()
	}
	fmt.Fprintf(&b, "\n\n%d tools, too many to list here, in the packages %s. "+
		"Find the ones you need from the script: tools.Search(query string) ([]tools.SearchResult, error) returns the %d best matches "+
		"with their Name (for tools.Call), Go Signature and Description; print them, then call the tools in a next script or the same one.",
		n, strings.Join(pkgs, ", "), searchLimitScript)
	return b.String()
}

// searchLimitScript is the engine's SearchLimit, the number of results of
// a script's tools.Search.
const searchLimitScript = 10

// searchProjected is the tool search entry of ScriptNamespace.
type searchProjected struct{ r *Registry }

var _ projection.Roled = (*searchProjected)(nil)

func (p *searchProjected) Name() string { return SearchEntryName }
func (p *searchProjected) Doc() string  { return "Search the tools by words." }
func (p *searchProjected) Role() string { return projection.RoleSearch }

func (p *searchProjected) Call(_ context.Context, args map[string]any) (any, error) {
	q, ok := args["query"].(string)
	if !ok {
		return nil, errors.New("registry: tool search: query must be a string")
	}
	limit := DefaultSearchLimit
	switch l := args["limit"].(type) {
	case int:
		limit = l
	case float64:
		limit = int(l)
	}
	hits := p.r.Search(q, limit+1)
	out := make([]any, 0, len(hits))
	for _, h := range hits {
		if h.Tool.Name == PTCToolName && h.Tool.Namespace == "" {
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, map[string]any{"name": h.Tool.Name, "signature": h.Signature, "description": h.Tool.Description})
	}
	return out, nil
}
