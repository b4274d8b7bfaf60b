package registry

import (
	"fmt"
	"sync"

	"github.com/toolscript/toolscript/executor"
)

// Separator joins a namespace and a method name into a qualified name.
type Separator string

// The separators a registry can use.
const (
	// SeparatorDash is the default: "math_ops-multiply". It is valid in the
	// function names of every supported API.
	SeparatorDash Separator = "-"
	// SeparatorDot gives "math_ops.multiply", for providers that accept dots
	// (OpenAI models before GPT-4.1 did; GPT-4.1 and later do not).
	SeparatorDot Separator = "."
	// DefaultSeparator is the separator of a registry created without
	// WithSeparator.
	DefaultSeparator = SeparatorDash
)

// Registry is a catalogue of tools, addressed by qualified name. The zero
// value is not usable; create one with New. A Registry is safe for
// concurrent use. If it ran ExecuteToolCalls, Close it to stop the backends
// it started.
type Registry struct {
	name string
	sep  Separator

	mu         sync.RWMutex
	tools      map[string]*Tool // by qualified name; values are never mutated
	order      []string         // registration order
	nsDisabled map[string]string
	mode       ExecutionMode
	perms      []permRule // SetPermission's rules, in order
	ptc        *ptcConfig // EnablePTC's, nil before

	bmu      sync.Mutex
	cfg      config
	backends map[ExecutionMode]executor.Backend
	owned    map[ExecutionMode]bool
	closed   bool

	search searchCache // Search's index

	pmu         sync.Mutex               // guards projs
	projs       map[*Tool]keptProjection // Projections' values, kept while the tool and its permission are
	searchEntry *searchProjected         // ScriptNamespace's search entry, one per registry
}

// Option configures New. Options only record values.
type Option func(*config)

type config struct {
	sep        Separator
	maxWorkers int
	procCfg    executor.ProcessConfig
	backends   map[ExecutionMode]executor.Backend
	ask        AskFunc
}

// WithSeparator sets the separator of qualified names: SeparatorDash (the
// default) or SeparatorDot. It is used for registration, lookup, Merge,
// Spinoff and every export. New panics on any other value.
func WithSeparator(sep Separator) Option { return func(c *config) { c.sep = sep } }

// WithMaxWorkers bounds the goroutine backend the registry starts. Zero
// (or a negative n) means the default of executor.NewGoroutineBackend.
func WithMaxWorkers(n int) Option { return func(c *config) { c.maxWorkers = n } }

// WithProcessConfig configures the process backend the registry starts on
// the first ModeProcess call. The default is the zero ProcessConfig.
func WithProcessConfig(cfg executor.ProcessConfig) Option {
	return func(c *config) { c.procCfg = cfg }
}

// WithBackend makes the registry run mode's calls on b instead of a backend
// of its own. The registry does not shut b down; its owner does, after the
// registry's last ExecuteToolCalls.
func WithBackend(mode ExecutionMode, b executor.Backend) Option {
	return func(c *config) {
		if c.backends == nil {
			c.backends = map[ExecutionMode]executor.Backend{}
		}
		c.backends[mode] = b
	}
}

// New returns an empty registry. name is normalized with NormalizeToolName
// and becomes the namespace of its tools when it is merged into another
// registry; "" leaves the registry unnamed. New panics, like a malformed
// regexp.MustCompile, on a programming error: a name that does not
// normalize (the panic value is an error matching ErrInvalidName) or an
// invalid separator.
func New(name string, opts ...Option) *Registry {
	cfg := config{sep: DefaultSeparator}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.sep != SeparatorDash && cfg.sep != SeparatorDot {
		panic(fmt.Sprintf("registry: invalid separator %q: use SeparatorDash or SeparatorDot", string(cfg.sep)))
	}
	norm := ""
	if name != "" {
		var err error
		if norm, err = NormalizeToolName(name); err != nil {
			panic(fmt.Errorf("registry: New: %w", err))
		}
	}
	return newRegistry(norm, cfg)
}

func newRegistry(name string, cfg config) *Registry {
	r := &Registry{
		name:       name,
		sep:        cfg.sep,
		tools:      map[string]*Tool{},
		nsDisabled: map[string]string{},
		mode:       ModeGoroutine,
		cfg:        cfg,
		backends:   map[ExecutionMode]executor.Backend{},
		owned:      map[ExecutionMode]bool{},
	}
	r.searchEntry = &searchProjected{r: r}
	for m, b := range cfg.backends {
		r.backends[m] = b
	}
	return r
}

// Name returns the registry's normalized name, "" when unnamed.
func (r *Registry) Name() string { return r.name }

// Separator returns the separator of qualified names.
func (r *Registry) Separator() Separator { return r.sep }

// Get returns a copy of the tool registered under the qualified name name,
// enabled or not, using the registry's separator. Its Metadata shows the
// effective enabled state, including a disabled namespace.
func (r *Registry) Get(name string) (*Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.tools[name]
	if !ok {
		return nil, false
	}
	return r.effectiveLocked(t), true
}

// effectiveLocked returns a copy of t with the namespace's disabled state
// folded into its metadata.
func (r *Registry) effectiveLocked(t *Tool) *Tool {
	c := t.clone()
	if reason, off := r.nsDisabled[t.Namespace]; off && t.Namespace != "" && !c.Metadata.Disabled {
		c.Metadata.Disabled, c.Metadata.DisabledReason = true, reason
	}
	return c
}

// disabledLocked reports whether t is disabled, itself or by namespace.
func (r *Registry) disabledLocked(t *Tool) (bool, string) {
	if t.Metadata.Disabled {
		return true, t.Metadata.DisabledReason
	}
	if t.Namespace != "" {
		if reason, off := r.nsDisabled[t.Namespace]; off {
			return true, reason
		}
	}
	return false, ""
}

// Names returns the qualified names of the enabled tools in registration
// order (the Python ToolRegistry's get_available_tools), leaving out the
// denied ones (see SetPermission).
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.order))
	for _, n := range r.order {
		if off, _ := r.disabledLocked(r.tools[n]); !off && r.permLocked(n) != PermissionDeny {
			names = append(names, n)
		}
	}
	return names
}

// Tools returns copies of all tools, enabled or not, in registration order.
func (r *Registry) Tools() []*Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Tool, len(r.order))
	for i, n := range r.order {
		out[i] = r.effectiveLocked(r.tools[n])
	}
	return out
}

// Len returns the number of tools, enabled or not.
func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.order)
}

// Namespaces returns the namespaces of the tools, in order of first
// appearance.
func (r *Registry) Namespaces() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []string
	seen := map[string]bool{}
	for _, n := range r.order {
		if ns := r.tools[n].Namespace; ns != "" && !seen[ns] {
			seen[ns] = true
			out = append(out, ns)
		}
	}
	return out
}

// Unregister removes the tool registered under name.
func (r *Registry) Unregister(name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.tools[name]; !ok {
		return unknownTool(name)
	}
	delete(r.tools, name)
	r.order = deleteName(r.order, name)
	return nil
}

func deleteName(order []string, name string) []string {
	for i, n := range order {
		if n == name {
			return append(order[:i:i], order[i+1:]...)
		}
	}
	return order
}

// Disable disables the tool registered under name, saying why: it leaves
// Names, schemas and projections, and calls of it fail with ErrToolDisabled
// and the reason.
func (r *Registry) Disable(name, reason string) error {
	return r.setEnabled(name, false, reason)
}

// Enable re-enables the tool registered under name. A tool whose namespace
// is disabled stays disabled until EnableNamespace.
func (r *Registry) Enable(name string) error { return r.setEnabled(name, true, "") }

func (r *Registry) setEnabled(name string, on bool, reason string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.tools[name]
	if !ok {
		return unknownTool(name)
	}
	c := t.clone()
	c.Metadata.Disabled, c.Metadata.DisabledReason = !on, reason
	r.tools[name] = c
	return nil
}

// DisableNamespace disables every tool of namespace ns, now and those
// registered later, saying why.
func (r *Registry) DisableNamespace(ns, reason string) error {
	return r.setNamespace(ns, false, reason)
}

// EnableNamespace lifts DisableNamespace. Tools disabled one by one stay
// disabled.
func (r *Registry) EnableNamespace(ns string) error { return r.setNamespace(ns, true, "") }

func (r *Registry) setNamespace(ns string, on bool, reason string) error {
	norm, err := NormalizeToolName(ns)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	found := false
	for _, t := range r.tools {
		if t.Namespace == norm {
			found = true
			break
		}
	}
	if !found {
		return unknownNamespace(ns)
	}
	if on {
		delete(r.nsDisabled, norm)
	} else {
		r.nsDisabled[norm] = reason
	}
	return nil
}

// DisabledReason reports whether the tool registered under name is
// disabled (itself or through its namespace) and why. An unknown name is
// not disabled.
func (r *Registry) DisabledReason(name string) (reason string, disabled bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.tools[name]
	if !ok {
		return "", false
	}
	disabled, reason = r.disabledLocked(t)
	return reason, disabled
}
