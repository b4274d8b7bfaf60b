package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/toolscript/toolscript/registry"
)

// target is a registry a client feeds.
type target struct{ reg *registry.Registry }

// Register imports the server's tools into reg, in the client's namespace
// (Namespace), and keeps them up to date: when the server's list changes,
// removed tools are unregistered, changed ones replaced and new ones
// added. Each tool's schema is the server's input schema, its
// OutputSchema the server's output schema, its description the server's
// (its title when it has none), its tags read from the server's
// annotations (read_only for readOnlyHint, destructive for an explicit
// destructiveHint, network for an explicit openWorldHint), and its
// function calls the tool upstream by its upstream name (CallTool).
//
// A tool the registry already holds under the same qualified name is an
// error, and Register then adds nothing. A tool disabled in reg stays
// disabled when the server changes it (it is replaced disabled, with the
// same reason, even when only its namespace was disabled). Tools stay in
// reg after Close; their calls then fail with ErrClosed.
func (c *Client) Register(reg *registry.Registry) error {
	c.syncMu.Lock()
	defer c.syncMu.Unlock()
	c.mu.Lock()
	tools := append([]Tool(nil), c.tools...)
	c.mu.Unlock()
	var added []string
	for _, t := range tools {
		rt := c.registryTool(t)
		if err := reg.Register(rt, registry.WithNamespace(c.ns)); err != nil {
			for _, n := range added {
				_ = reg.Unregister(n)
			}
			return fmt.Errorf("mcp: server %q: tool %q: %w", c.name, t.Upstream, err)
		}
		added = append(added, c.qualified(reg, t.Name))
	}
	c.mu.Lock()
	c.targets = append(c.targets, &target{reg: reg})
	c.mu.Unlock()
	return nil
}

func (c *Client) qualified(reg *registry.Registry, method string) string {
	return c.ns + string(reg.Separator()) + method
}

// registryTool is the registry's entry for t.
func (c *Client) registryTool(t Tool) *registry.Tool {
	upstream := t.Upstream
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	rt := &registry.Tool{
		Name:         t.Name,
		Namespace:    c.ns,
		Description:  desc,
		Parameters:   t.InputSchema,
		OutputSchema: t.OutputSchema,
		Func: func(ctx context.Context, args map[string]any) (any, error) {
			return c.CallTool(ctx, upstream, args)
		},
	}
	if a := t.Annotations; a != nil {
		if a.ReadOnlyHint {
			rt.Metadata.Tags = append(rt.Metadata.Tags, registry.TagReadOnly)
		}
		if a.DestructiveHint != nil && *a.DestructiveHint {
			rt.Metadata.Tags = append(rt.Metadata.Tags, registry.TagDestructive)
		}
		if a.OpenWorldHint != nil && *a.OpenWorldHint {
			rt.Metadata.Tags = append(rt.Metadata.Tags, registry.TagNetwork)
		}
	}
	return rt
}

// apply brings the target from the old list to the new one.
func (t *target) apply(c *Client, old, tools []Tool) {
	reg := t.reg
	before := map[string]Tool{}
	for _, o := range old {
		before[o.Name] = o
	}
	now := map[string]bool{}
	for _, n := range tools {
		now[n.Name] = true
	}
	for _, o := range old {
		if !now[o.Name] {
			_ = reg.Unregister(c.qualified(reg, o.Name))
		}
	}
	for _, n := range tools {
		b, had := before[n.Name]
		if had && sameTool(b, n) {
			continue
		}
		rt := c.registryTool(n)
		q := c.qualified(reg, n.Name)
		opts := []registry.RegisterOption{registry.WithNamespace(c.ns)}
		if had {
			opts = append(opts, registry.WithReplace())
			if reason, off := reg.DisabledReason(q); off {
				rt.Metadata.Disabled, rt.Metadata.DisabledReason = true, reason
			}
		}
		if err := reg.Register(rt, opts...); err != nil {
			c.opts.Logger.Warn("mcp: tool not updated", "server", c.name, "tool", n.Upstream, "error", err)
		}
	}
}

// Clients are the connections ConnectConfig made, one per server.
type Clients struct {
	list []*Client // in the order of the server names
}

// All returns the clients in the order of the server names.
func (cs *Clients) All() []*Client { return append([]*Client(nil), cs.list...) }

// Get returns the client of the server named name, nil if none.
func (cs *Clients) Get(name string) *Client {
	for _, c := range cs.list {
		if c.name == name {
			return c
		}
	}
	return nil
}

// Close closes every client, concurrently, and waits for all.
func (cs *Clients) Close() error {
	var wg sync.WaitGroup
	for _, c := range cs.list {
		wg.Go(func() { _ = c.Close() })
	}
	wg.Wait()
	return nil
}

// ConnectConfig connects to every enabled server of cfg, concurrently, and
// registers each one's tools in reg (when reg is not nil) in its own
// namespace, the server's name normalized. It is all or nothing: if a
// server cannot be connected or its tools registered, every connection is
// closed, nothing stays in reg, and the error (one per failed server,
// joined in name order) names the servers. Each server's Permissions are
// set in reg (before its tools arrive, so that no denied tool is ever
// visible; they stay after a failure). Close the Clients when done.
func ConnectConfig(ctx context.Context, cfg *Config, reg *registry.Registry, opts *Options) (*Clients, error) {
	names := cfg.Names()
	clients := make([]*Client, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		sc := cfg.Servers[name]
		sc.Name = name
		wg.Go(func() { clients[i], errs[i] = Connect(ctx, sc, opts) })
	}
	wg.Wait()
	cs := &Clients{}
	for _, c := range clients {
		if c != nil {
			cs.list = append(cs.list, c)
		}
	}
	if err := errors.Join(errs...); err != nil {
		_ = cs.Close()
		return nil, err
	}
	if reg != nil {
		for _, name := range names {
			sc := cfg.Servers[name]
			sc.Name = name
			ns, err := sc.Namespace()
			if err == nil {
				err = sc.Permissions.Apply(reg, ns)
			}
			if err != nil {
				_ = cs.Close()
				return nil, &ConfigError{Server: name, Field: "permissions", Err: fmt.Errorf("%w: %w", ErrConfig, err)}
			}
		}
		var done []*Client
		for _, c := range cs.list {
			if err := c.Register(reg); err != nil {
				for _, d := range done {
					for _, t := range d.Tools() {
						_ = reg.Unregister(d.qualified(reg, t.Name))
					}
				}
				_ = cs.Close()
				return nil, err
			}
			done = append(done, c)
		}
	}
	return cs, nil
}
