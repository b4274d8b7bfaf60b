package registry

import (
	"fmt"
	"strings"
)

// withNamespace returns a copy of t in namespace ns with the given
// separator; its effective disabled state (disabled) is kept in its
// metadata, since the namespace's state does not follow it.
func withNamespace(t *Tool, ns string, sep Separator, disabled bool, reason string) *Tool {
	c := t.clone()
	if disabled && !c.Metadata.Disabled {
		c.Metadata.Disabled, c.Metadata.DisabledReason = true, reason
	}
	c.Namespace, c.sep = ns, sep
	c.Name = c.QualifiedName()
	return c
}

// Merge copies the tools of other into r, putting each in a namespace:
//
//   - forceNamespace false: a tool keeps its namespace; a tool without one,
//     of r or of other, gets its registry's name as namespace. Merging
//     registry "mcp_math" into "openapi_math" gives openapi_math-add_get ...
//     mcp_math-add ...
//   - forceNamespace true: every tool, of r or of other, gets r's name as
//     namespace: openapi_math-add_get ... openapi_math-add ...
//
// When two tools end up with the same qualified name, keepExisting keeps the
// one already in r (or the first one seen); otherwise the newcomer replaces
// it in place. Qualified names use r's separator. other is only read; its
// tools are copied, including their enabled state.
//
// A registry whose name is needed as a namespace but that has none is an
// error matching ErrInvalidName; on error r is unchanged.
func (r *Registry) Merge(other *Registry, forceNamespace, keepExisting bool) error {
	if other == nil {
		return fmt.Errorf("%w: merge with a nil registry", ErrInvalidTool)
	}
	// Snapshot other first, so that a.Merge(b) and b.Merge(a) never hold
	// both locks.
	other.mu.RLock()
	theirs := make([]*Tool, len(other.order))
	for i, n := range other.order {
		theirs[i] = other.effectiveLocked(other.tools[n])
	}
	other.mu.RUnlock()

	r.mu.Lock()
	defer r.mu.Unlock()
	nsFor := func(t *Tool, owner *Registry) (string, error) {
		switch {
		case forceNamespace:
			if r.name == "" {
				return "", fmt.Errorf("%w: force_namespace needs a named registry", ErrInvalidName)
			}
			return r.name, nil
		case t.Namespace != "":
			return t.Namespace, nil
		case owner.name == "":
			return "", fmt.Errorf("%w: tool %q needs a namespace but its registry has no name", ErrInvalidName, t.Name)
		}
		return owner.name, nil
	}
	tools := make(map[string]*Tool, len(r.tools)+len(theirs))
	order := make([]string, 0, len(r.order)+len(theirs))
	add := func(t *Tool) error {
		if err := checkQualifiedName(t.Name); err != nil {
			return err
		}
		if _, dup := tools[t.Name]; dup {
			if !keepExisting {
				tools[t.Name] = t
			}
			return nil
		}
		tools[t.Name] = t
		order = append(order, t.Name)
		return nil
	}
	for _, n := range r.order {
		t := r.tools[n]
		ns, err := nsFor(t, r)
		if err != nil {
			return err
		}
		off, reason := r.disabledLocked(t)
		if err := add(withNamespace(t, ns, r.sep, off, reason)); err != nil {
			return err
		}
	}
	for _, t := range theirs {
		ns, err := nsFor(t, other)
		if err != nil {
			return err
		}
		if err := add(withNamespace(t, ns, r.sep, t.Metadata.Disabled, t.Metadata.DisabledReason)); err != nil {
			return err
		}
	}
	r.tools, r.order = tools, order
	r.pruneNamespacesLocked()
	return nil
}

// pruneNamespacesLocked forgets disabled namespaces that no tool has.
func (r *Registry) pruneNamespacesLocked() {
	for ns := range r.nsDisabled {
		found := false
		for _, t := range r.tools {
			if t.Namespace == ns {
				found = true
				break
			}
		}
		if !found {
			delete(r.nsDisabled, ns)
		}
	}
}

// Spinoff moves the tools of namespace prefix out of r into a new registry
// named prefix, with r's separator, default execution mode and options
// (backends given with WithBackend are shared; those r started are not).
//
// Unless retainNamespace, the moved tools lose their namespace (see
// ReduceNamespace), and so do r's remaining tools if they now all share one
// namespace. With retainNamespace every name stays as it was.
//
// No tool in namespace prefix is an error matching ErrUnknownNamespace; r is
// then unchanged.
func (r *Registry) Spinoff(prefix string, retainNamespace bool) (*Registry, error) {
	ns, err := NormalizeToolName(prefix)
	if err != nil {
		return nil, unknownNamespace(prefix)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	out := newRegistry(ns, r.cfg)
	out.mode = r.mode
	var keep []string
	for _, n := range r.order {
		t := r.tools[n]
		if t.Namespace != ns {
			keep = append(keep, n)
			continue
		}
		off, reason := r.disabledLocked(t)
		c := withNamespace(t, ns, r.sep, off, reason)
		out.tools[c.Name] = c
		out.order = append(out.order, c.Name)
	}
	if len(out.order) == 0 {
		return nil, fmt.Errorf("%w: no tool has namespace %q", ErrUnknownNamespace, ns)
	}
	for _, n := range out.order {
		delete(r.tools, n)
	}
	r.order = keep
	r.pruneNamespacesLocked()
	if !retainNamespace {
		if err := out.reduceLocked(); err != nil {
			return nil, err // cannot happen: all share ns
		}
		if single, _ := r.singleNamespaceLocked(); single {
			if err := r.reduceLocked(); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// singleNamespaceLocked reports whether every tool has the same non-empty
// namespace, and lists the namespaces seen ("" for none).
func (r *Registry) singleNamespaceLocked() (bool, []string) {
	var seen []string
	for _, n := range r.order {
		ns := r.tools[n].Namespace
		found := false
		for _, s := range seen {
			if s == ns {
				found = true
				break
			}
		}
		if !found {
			seen = append(seen, ns)
		}
	}
	return len(seen) == 1 && seen[0] != "", seen
}

// ReduceNamespace removes the namespace of every tool when they all share
// one, so "math_ops-add" becomes "add": names, lookups, schemas and
// projections all use the method names afterwards. A registry whose tools
// have no namespace is left as is. Tools in different namespaces, or some
// with and some without, give an error matching ErrMixedNamespaces and no
// change.
func (r *Registry) ReduceNamespace() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reduceLocked()
}

func (r *Registry) reduceLocked() error {
	single, seen := r.singleNamespaceLocked()
	if !single {
		if len(seen) <= 1 { // empty, or no namespaces at all
			return nil
		}
		for i, s := range seen {
			if s == "" {
				seen[i] = "(none)"
			}
		}
		return fmt.Errorf("%w: %s", ErrMixedNamespaces, strings.Join(seen, ", "))
	}
	tools := make(map[string]*Tool, len(r.tools))
	order := make([]string, 0, len(r.order))
	for _, n := range r.order {
		t := r.tools[n]
		off, reason := r.disabledLocked(t)
		c := withNamespace(t, "", r.sep, off, reason)
		c.Name = c.MethodName
		tools[c.Name] = c
		order = append(order, c.Name)
	}
	r.tools, r.order = tools, order
	clear(r.nsDisabled)
	return nil
}
