package registry

import (
	"context"
	"encoding/json"

	"github.com/toolscript/toolscript/projection"
)

// projected is a registry tool as the engine sees it.
type projected struct{ t *Tool }

var (
	_ projection.SchemaProjection = (*projected)(nil)
	_ projection.Namespaced       = (*projected)(nil)

	_ projection.OutputSchemaProjection = (*projected)(nil)
)

func (p *projected) Name() string            { return p.t.Name }
func (p *projected) Doc() string             { return p.t.Description }
func (p *projected) Schema() json.RawMessage { return p.t.Parameters }

// OutputSchema is the tool's result schema (Tool.OutputSchema): scripts
// get a typed result where the engine can express it.
func (p *projected) OutputSchema() json.RawMessage { return p.t.OutputSchema }
func (p *projected) Namespace() string             { return p.t.Namespace }
func (p *projected) MethodName() string            { return p.t.MethodName }

// Call validates args against the tool's schema, applies its timeout and
// calls it in the calling goroutine (one run at a time for a
// ConcurrencyUnsafe tool).
func (p *projected) Call(ctx context.Context, args map[string]any) (any, error) {
	if args == nil {
		args = map[string]any{}
	}
	if err := validateArgs(p.t, args); err != nil {
		return nil, err
	}
	if d := p.t.Metadata.Timeout; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	return p.t.run(ctx, args)
}

// Projections returns the enabled tools as projections for engine.Execute,
// keyed by qualified name. Each value implements projection.SchemaProjection
// (the tool's argument schema) and projection.Namespaced (its namespace and
// method name), and its Doc is the tool's description. A projection's Call
// validates the arguments against the schema (a mismatch is a
// *projection.ArgumentError), applies the tool's timeout to ctx and calls the
// tool directly in the calling goroutine, without an executor backend.
//
// Permissions (SetPermission) shape the map: an ask tool's projection is a
// projection.Gated whose Decide asks the registry's AskFunc (its Call
// asks too when called without Decide); a denied tool's entry is withheld
// (projection.RoleWithheld: not in the script's surface, tools.Names or
// engine.Describe) and refuses every call with ErrToolDenied, so that a
// script's tools.Call says it is denied.
//
// The PTC tool (EnablePTC) is left out: no script can call it.
//
// The map is a snapshot: later changes to the registry do not affect it.
func (r *Registry) Projections() map[string]projection.ToolProjection {
	r.mu.RLock()
	defer r.mu.RUnlock()
	r.pmu.Lock()
	defer r.pmu.Unlock()
	out := make(map[string]projection.ToolProjection, len(r.order))
	kept := make(map[*Tool]keptProjection, len(r.order))
	for _, n := range r.order {
		t := r.tools[n]
		if off, _ := r.disabledLocked(t); off || r.ptcNameLocked(n) {
			continue
		}
		perm := r.permLocked(n)
		if k, ok := r.projs[t]; ok && k.perm == perm {
			out[n], kept[t] = k.p, k
			continue
		}
		var p projection.ToolProjection
		switch perm {
		case PermissionDeny:
			p = &deniedProjected{name: n}
		case PermissionAsk:
			p = &askProjected{projected: projected{t: t}, r: r}
		default:
			p = &projected{t: t}
		}
		out[n], kept[t] = p, keptProjection{perm: perm, p: p}
	}
	r.projs = kept
	return out
}

// keptProjection is the projection Projections gave a tool under a
// permission: the same tool under the same permission gets the same
// value again, so that a namespace built anew from an unchanged registry
// holds the same projections and the engine finds its surface cached.
type keptProjection struct {
	perm Permission
	p    projection.ToolProjection
}
