package registry

import (
	"context"
	"errors"
	"fmt"
	"path"

	"github.com/toolscript/toolscript/projection"
)

// Permission is the policy of a tool: whether a model's or a script's call
// of it runs.
type Permission string

// The permissions.
const (
	// PermissionAllow: calls run. The default of every tool.
	PermissionAllow Permission = "allow"
	// PermissionAsk: before each call the registry's ask function (see
	// WithAskFunc) decides; without one, every call is refused.
	PermissionAsk Permission = "ask"
	// PermissionDeny: the tool is absent from Names, Schemas, Projections'
	// surface (and so from engine.Describe) and Search, and a call of it,
	// by ExecuteToolCalls or a script's tools.Call, fails with
	// ErrToolDenied.
	PermissionDeny Permission = "deny"
)

// Errors of permissions. A refused or denied call is a *CallError (in
// ExecuteToolCalls) or a tool error (in a script) matching one of them.
var (
	// ErrToolDenied reports a call of a tool whose permission is deny.
	ErrToolDenied = errors.New("registry: tool denied")
	// ErrCallRefused reports a call of an ask tool that the ask function
	// refused (or that had no ask function to ask).
	ErrCallRefused = errors.New("registry: call refused")
)

// The decisions of a call of an ask or deny tool, in ToolResult.Decision
// and in engine.ToolCall.Decision (they are package projection's).
const (
	DecisionApproved = projection.DecisionApproved
	DecisionRefused  = projection.DecisionRefused
	DecisionDenied   = projection.DecisionDenied
)

// AskFunc decides whether one call of an ask tool runs: true runs it;
// false, or an error (which the call's error then carries), refuses it.
// It is called in the host, before each call and after the call's
// arguments were validated, with the context of the call (ExecuteToolCalls'
// or the script's execution): a host that asks a person or an MCP client
// finds what it needs there. It may be called concurrently.
type AskFunc func(ctx context.Context, call Call) (bool, error)

// WithAskFunc sets the function that decides the calls of ask tools.
func WithAskFunc(f AskFunc) Option { return func(c *config) { c.ask = f } }

// permRule is one SetPermission.
type permRule struct {
	pattern string
	perm    Permission
}

// SetPermission sets the permission of the tools whose qualified name
// matches pattern, a glob of package path's Match syntax ("*" matches any
// run of characters, "?" one, "[a-z]" a class): "github-*" is every tool
// of namespace github with SeparatorDash, "*-delete_*" every deleting tool.
// Rules apply in the order they were set, the last matching one winning,
// to the tools registered now and later; a tool no rule matches is
// allowed. A malformed pattern or an unknown permission is an error.
func (r *Registry) SetPermission(pattern string, p Permission) error {
	switch p {
	case PermissionAllow, PermissionAsk, PermissionDeny:
	default:
		return fmt.Errorf("registry: unknown permission %q: use allow, ask or deny", string(p))
	}
	if _, err := path.Match(pattern, ""); err != nil {
		return fmt.Errorf("registry: permission pattern %q: %w", pattern, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.perms = append(r.perms, permRule{pattern: pattern, perm: p})
	return nil
}

// SetNamespacePermission is SetPermission for the tools of namespace ns
// whose method name matches pattern: the rule's pattern is ns, the
// separator and pattern. "*" sets the whole namespace.
func (r *Registry) SetNamespacePermission(ns, pattern string, p Permission) error {
	norm, err := NormalizeToolName(ns)
	if err != nil {
		return err
	}
	return r.SetPermission(norm+string(r.sep)+pattern, p)
}

// PermissionOf returns the permission of the tool registered under name
// (the last rule that matches it, PermissionAllow if none).
func (r *Registry) PermissionOf(name string) Permission {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.permLocked(name)
}

func (r *Registry) permLocked(name string) Permission {
	for i := len(r.perms) - 1; i >= 0; i-- {
		if ok, _ := path.Match(r.perms[i].pattern, name); ok {
			return r.perms[i].perm
		}
	}
	return PermissionAllow
}

func deniedError(name string) error {
	return fmt.Errorf("%w: %q is denied by the registry's permissions", ErrToolDenied, name)
}

func refusedError(name string, err error) error {
	if err != nil {
		return fmt.Errorf("%w: the call of %q was not approved: %w", ErrCallRefused, name, err)
	}
	return fmt.Errorf("%w: the call of %q was not approved", ErrCallRefused, name)
}

// ask decides one call of an ask tool, returning the decision and, for a
// refusal, the call's error.
func (r *Registry) ask(ctx context.Context, call Call) (string, error) {
	f := r.cfg.ask
	if f == nil {
		return DecisionRefused, refusedError(call.Name, errors.New("no ask function is set (registry.WithAskFunc)"))
	}
	ok, err := f(ctx, call)
	if err != nil || !ok {
		return DecisionRefused, refusedError(call.Name, err)
	}
	return DecisionApproved, nil
}

// approval is the context key of an approved call of one tool.
type approval struct{ t *Tool }

// askProjected is the projection of an ask tool: Decide asks, and Call
// runs what Decide approved (a Call without it asks itself).
type askProjected struct {
	projected
	r *Registry
}

var _ projection.Gated = (*askProjected)(nil)

func (p *askProjected) Decide(ctx context.Context, args map[string]any) (context.Context, string, error) {
	if args == nil {
		args = map[string]any{}
	}
	if err := validateArgs(p.t, args); err != nil {
		return ctx, "", err // not a question worth asking
	}
	decision, err := p.r.ask(ctx, Call{Name: p.t.Name, Args: args})
	if err != nil {
		return ctx, decision, err
	}
	return context.WithValue(ctx, approval{p.t}, true), decision, nil
}

func (p *askProjected) Call(ctx context.Context, args map[string]any) (any, error) {
	if ctx.Value(approval{p.t}) != true {
		var err error
		if ctx, _, err = p.Decide(ctx, args); err != nil {
			return nil, err
		}
	}
	return p.projected.Call(ctx, args)
}

// deniedProjected is the projection of a denied tool: withheld from the
// script's surface, refusing every call.
type deniedProjected struct{ name string }

var (
	_ projection.Gated = (*deniedProjected)(nil)
	_ projection.Roled = (*deniedProjected)(nil)
)

func (p *deniedProjected) Name() string { return p.name }
func (p *deniedProjected) Doc() string  { return "" }
func (p *deniedProjected) Role() string { return projection.RoleWithheld }

func (p *deniedProjected) Decide(ctx context.Context, _ map[string]any) (context.Context, string, error) {
	return ctx, DecisionDenied, deniedError(p.name)
}

func (p *deniedProjected) Call(context.Context, map[string]any) (any, error) {
	return nil, deniedError(p.name)
}
