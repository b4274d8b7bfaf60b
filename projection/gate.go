package projection

import (
	"context"
	"time"
)

// A host's policy over tools reaches the engine through two optional
// interfaces of a projection: [Gated] for calls that a decision precedes,
// [Roled] for entries of a namespace that are not plain functions of the
// script's surface. The registry implements them for its permissions and
// its tool search; any tool source can.

// The decisions a [Gated] projection reports, which the engine keeps in the
// trace of the call.
const (
	// DecisionApproved: the host's decision function allowed the call.
	DecisionApproved = "approved"
	// DecisionRefused: the host's decision function refused the call (or
	// there was none to ask).
	DecisionRefused = "refused"
	// DecisionDenied: the host's policy denies the tool outright.
	DecisionDenied = "denied"
)

// Gated is implemented by a projection whose calls a host decision
// precedes (a registry tool whose permission is "ask" or "deny"). The
// runtime calls Decide before Call, in the host, and records decision in
// the call's trace entry; when err is not nil the call does not run and
// err is its error. Otherwise Call runs with the returned context, which
// carries the approval: a Gated projection's Call made without Decide
// decides by itself, so that no path skips the decision.
type Gated interface {
	ToolProjection
	Decide(ctx context.Context, args map[string]any) (_ context.Context, decision string, err error)
}

// The roles of a [Roled] projection.
const (
	// RoleWithheld: the tool is not part of the script's surface (no
	// package function, not in tools.Names or Describe); a call by name
	// (tools.Call) reaches it, and its Gated decision refuses it. A
	// registry's denied tools are withheld.
	RoleWithheld = "withheld"
	// RoleSearch: the entry is the namespace's tool search, which scripts
	// call as tools.Search. Its Call takes {"query": string, "limit": int}
	// and returns a []any of map[string]any with the string keys "name",
	// "signature" and "description", best match first.
	RoleSearch = "search"
)

// Roled is implemented by a namespace entry that is not a plain tool of the
// script's surface; Role returns RoleWithheld or RoleSearch (any other
// value is a plain tool).
type Roled interface {
	ToolProjection
	Role() string
}

// CodeRequest is one script for a [CodeRunner]: a tool that runs code (the
// registry's programmatic tool call) hands it to a runtime it cannot
// import.
type CodeRequest struct {
	// Code is the script: a Go program or bare statements.
	Code string
	// Namespace is what the script can call.
	Namespace map[string]ToolProjection
	// Timeout bounds the execution; zero means the runtime's default.
	Timeout time.Duration
}

// CodeOutcome is what a script did.
type CodeOutcome struct {
	// Stdout is what it printed.
	Stdout string
	// Error is "" on success, else the error with the script's line and
	// column where known.
	Error string
	// Value is the script's result value, nil if none.
	Value any
	// ToolCalls is the number of tool calls the script made.
	ToolCalls int
}

// CodeRunner runs scripts: engine.CodeRunner adapts a runtime of package
// engine. RunCode's error reports misuse or a closed runtime; a script that
// fails is an outcome with Error set.
type CodeRunner interface {
	RunCode(ctx context.Context, req CodeRequest) (CodeOutcome, error)
}
