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
)

// Limits bound one execution. A zero field takes the package default; the
// constant Unlimited (or any negative value) disables that limit. Limits
// are plain data, enforced in one place, and a tripped limit ends the
// execution with a *LimitError naming the field (ReturnCode CodeLimit).
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
}

// withDefaults fills zero fields with the package defaults.
func (l Limits) withDefaults() Limits {
	if l.Timeout == 0 {
		l.Timeout = DefaultTimeout
	}
	if l.MaxToolCalls == 0 {
		l.MaxToolCalls = DefaultMaxToolCalls
	}
	if l.MaxOutputBytes == 0 {
		l.MaxOutputBytes = DefaultMaxOutputBytes
	}
	return l
}

// merge overlays the non-zero fields of o on l.
func (l Limits) merge(o Limits) Limits {
	if o.Timeout != 0 {
		l.Timeout = o.Timeout
	}
	if o.MaxToolCalls != 0 {
		l.MaxToolCalls = o.MaxToolCalls
	}
	if o.MaxOutputBytes != 0 {
		l.MaxOutputBytes = o.MaxOutputBytes
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
}

// WithTimeout bounds the execution's wall time; it overrides
// Limits.Timeout. A non-positive d means no timeout.
func WithTimeout(d time.Duration) Option {
	return func(s *settings) {
		if d <= 0 {
			s.limits.Timeout = Unlimited
		} else {
			s.limits.Timeout = d
		}
	}
}

// WithLimits sets the limits of the execution; its zero fields keep the
// engine's (or the package's) defaults.
func WithLimits(l Limits) Option {
	return func(s *settings) { s.limits = s.limits.merge(l) }
}

// WithExtraGlobals makes non-tool values available to the script as
// package-level identifiers (a dot-imported package). Names must be Go
// identifiers; a name that a tool package also uses is dropped: the tool
// wins, as in the seeds.
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
