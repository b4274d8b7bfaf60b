package engine

import (
	"io"
	"time"
)

// Unlimited disables a limit of Limits.
const Unlimited = -1

// Default limits, used for every zero field of Limits.
const (
	// DefaultTimeout bounds an execution's wall time.
	DefaultTimeout = 30 * time.Second
	// DefaultMaxToolCalls bounds the tool calls of one execution.
	DefaultMaxToolCalls = 10_000
	// DefaultMaxOutputBytes bounds stdout and stderr, each.
	DefaultMaxOutputBytes = 1 << 20
	// DefaultMaxParallelTools bounds the tool calls running at once.
	DefaultMaxParallelTools = 64
	// DefaultMaxGoroutines bounds the goroutines a script runs at once.
	DefaultMaxGoroutines = 1_000
	// DefaultMaxCallDepth bounds the depth of recursive script functions.
	DefaultMaxCallDepth = 10_000
	// DefaultMaxAllocLen bounds the length of one make or strings.Repeat.
	DefaultMaxAllocLen = 1 << 26
	// DefaultMaxAllocBytes bounds the bytes of one allocation a script
	// asks for (256 MiB), below DefaultMaxMemoryBytes.
	DefaultMaxAllocBytes = 256 << 20
	// DefaultMaxSourceBytes bounds the size of a script's source (1 MiB).
	DefaultMaxSourceBytes = 1 << 20
	// DefaultMaxMemoryBytes bounds the growth of the host's heap while
	// the execution runs.
	DefaultMaxMemoryBytes = 1 << 30
)

// Limits bound one execution. A zero field takes the default (the
// runtime's Config.Limits, else the package's Default constant); the
// constant Unlimited (or any negative value) disables that limit: the rule
// of every limit, timeout and bound of toolscript's API (see the package
// documentation). Limits are plain data, enforced in one place each, and a
// tripped limit ends the execution with a *LimitError naming the field
// (ReturnCode CodeLimit).
type Limits struct {
	// Timeout bounds the wall time, set-up included (DefaultTimeout). Its
	// expiry gives ReturnCode CodeTimeout and an error matching
	// context.DeadlineExceeded rather than a LimitError.
	Timeout time.Duration
	// MaxToolCalls bounds the number of tool calls (DefaultMaxToolCalls).
	MaxToolCalls int
	// MaxOutputBytes bounds stdout and stderr, each
	// (DefaultMaxOutputBytes). Output past it is dropped and the execution
	// ends.
	MaxOutputBytes int
	// MaxParallelTools bounds the tool calls running at the same time
	// (DefaultMaxParallelTools); further calls wait for a free slot.
	MaxParallelTools int
	// MaxGoroutines bounds the goroutines the script runs at the same
	// time (DefaultMaxGoroutines); a go statement past it ends the
	// execution.
	MaxGoroutines int
	// MaxCallDepth bounds the nesting of calls of recursive script
	// functions (functions that can call themselves, directly or through
	// others), summed over the script's goroutines (DefaultMaxCallDepth).
	// It turns runaway recursion into an error instead of a fatal stack
	// overflow of the host.
	MaxCallDepth int
	// MaxAllocLen bounds the length given to one make, strings.Repeat or
	// bytes.Repeat, counted in elements (DefaultMaxAllocLen). It is kept
	// for compatibility: MaxAllocBytes is the bound that counts bytes,
	// whatever the element size.
	MaxAllocLen int
	// MaxAllocBytes bounds, in bytes and before the allocation, any one
	// allocation whose size the script chooses (DefaultMaxAllocBytes):
	// make of any element type, a slice literal with a large index, a
	// variable of an array or struct type (a compile error), and the
	// native calls that build their result in one go (strings.Builder
	// and bytes.Buffer Grow, replacements, strings.Join, big-number
	// shifts, powers and precisions, float formatting, buffered I/O
	// sizes). So one oversized allocation is an error instead of a fatal
	// out-of-memory of the host, which MaxMemoryBytes cannot prevent
	// within a single native call.
	MaxAllocBytes int64
	// MaxMemoryBytes bounds how much the host process's heap may grow
	// while the execution runs (DefaultMaxMemoryBytes), checked every few
	// milliseconds, so runaway growth (a string doubled in a loop) is an
	// error instead of a fatal out-of-memory. In-process the heap is
	// shared: growth caused by other work of the host or by concurrent
	// executions counts too. The isolated runtime measures each worker
	// on its own. Compilation counts too. Garbage does not: growth past
	// the limit stops the execution once a garbage collection confirms
	// it, or at once past twice the limit.
	MaxMemoryBytes int64
	// MaxSourceBytes bounds the size of the script's source
	// (DefaultMaxSourceBytes). Compilation also runs under Timeout and
	// MaxMemoryBytes, and the nesting of the source's constructs is
	// bounded by MaxNesting.
	MaxSourceBytes int
}

// MaxNesting bounds the nesting of a script's syntax tree (expressions
// inside expressions, blocks inside blocks, function literals inside
// function literals): the interpreter's compiler takes time quadratic in
// it. A script nested deeper fails to compile, at the construct that
// crosses the bound.
const MaxNesting = 500

// withDefaults fills zero fields with the package defaults.
func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	if l.Timeout == 0 {
		l.Timeout = DefaultTimeout
	}
	def(&l.MaxToolCalls, DefaultMaxToolCalls)
	def(&l.MaxOutputBytes, DefaultMaxOutputBytes)
	def(&l.MaxParallelTools, DefaultMaxParallelTools)
	def(&l.MaxGoroutines, DefaultMaxGoroutines)
	def(&l.MaxCallDepth, DefaultMaxCallDepth)
	def(&l.MaxAllocLen, DefaultMaxAllocLen)
	def(&l.MaxSourceBytes, DefaultMaxSourceBytes)
	if l.MaxAllocBytes == 0 {
		l.MaxAllocBytes = DefaultMaxAllocBytes
	}
	if l.MaxMemoryBytes == 0 {
		l.MaxMemoryBytes = DefaultMaxMemoryBytes
	}
	return l
}

// merge overlays the non-zero fields of o on l.
func (l Limits) merge(o Limits) Limits {
	over := func(v *int, o int) {
		if o != 0 {
			*v = o
		}
	}
	if o.Timeout != 0 {
		l.Timeout = o.Timeout
	}
	over(&l.MaxToolCalls, o.MaxToolCalls)
	over(&l.MaxOutputBytes, o.MaxOutputBytes)
	over(&l.MaxParallelTools, o.MaxParallelTools)
	over(&l.MaxGoroutines, o.MaxGoroutines)
	over(&l.MaxCallDepth, o.MaxCallDepth)
	over(&l.MaxAllocLen, o.MaxAllocLen)
	over(&l.MaxSourceBytes, o.MaxSourceBytes)
	if o.MaxAllocBytes != 0 {
		l.MaxAllocBytes = o.MaxAllocBytes
	}
	if o.MaxMemoryBytes != 0 {
		l.MaxMemoryBytes = o.MaxMemoryBytes
	}
	return l
}

// Option configures one Execute call. Options only record values and
// never fail; Execute validates them once.
type Option func(*settings)

type settings struct {
	limits  Limits
	globals map[string]any
	stdout  io.Writer
	stderr  io.Writer
	surf    *surface // the namespace's surface (prepare)
	// noProgCache: the execution neither reuses nor keeps a compiled
	// interpreter (progcache.go).
	noProgCache bool
}

// WithProgramCache turns the reuse of compiled programs on or off for
// the execution (on by default, unless Config.DisableProgramCache):
// a script run again after a clean run of the same text, on the same
// namespace and with the same limits, reuses that run's interpreter and
// compiled program, reset to a fresh interpreter's state, instead of
// compiling it again.
func WithProgramCache(on bool) Option {
	return func(s *settings) { s.noProgCache = !on }
}

// WithTimeout bounds the execution's wall time; it overrides
// Limits.Timeout and follows its rule: zero keeps the default (the
// runtime's Config.Limits.Timeout, else DefaultTimeout), Unlimited (any
// negative d) means no timeout. It is WithLimits(Limits{Timeout: d}).
func WithTimeout(d time.Duration) Option { return WithLimits(Limits{Timeout: d}) }

// WithLimits sets the limits of the execution; its zero fields keep the
// runtime's (or the package's) defaults, its negative ones disable the
// limit.
func WithLimits(l Limits) Option {
	return func(s *settings) { s.limits = s.limits.merge(l) }
}

// WithExtraGlobals makes non-tool values available to the script as
// package-level identifiers (a dot-imported package). Names must be Go
// identifiers; a name that a tool package also uses is dropped: the tool
// wins, as in the Python ToolRegistry.
func WithExtraGlobals(globals map[string]any) Option {
	return func(s *settings) { s.globals = globals }
}

// WithStdout copies the script's standard output to w as it is written,
// in addition to CodeResult.Stdout (for streaming to a terminal). Writes to
// w happen on the script's goroutines; w must be safe for that.
func WithStdout(w io.Writer) Option {
	return func(s *settings) { s.stdout = w }
}

// WithStderr copies the script's standard error to w as it is written.
func WithStderr(w io.Writer) Option {
	return func(s *settings) { s.stderr = w }
}
