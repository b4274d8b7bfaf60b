package engine

import (
	"context"
	"errors"
	"time"

	"github.com/toolscript/toolscript/projection"
)

// Errors of a Session. Execute returns them as its error (with an empty
// CodeResult), never inside a CodeResult: they say the input did not run.
var (
	// ErrSessionClosed is Execute's, Reset's error after Close.
	ErrSessionClosed = errors.New("engine: the session is closed")
	// ErrSessionLost is Execute's error once the session's state is gone
	// while the session was open: its isolated worker died (the
	// CodeResult of the input that was running says why, with ReturnCode
	// CodeCrash and an Err matching ErrSessionLost too), or an input left
	// goroutines the session could not stop. The next input would run
	// against missing state, so none runs; Reset starts afresh.
	ErrSessionLost = errors.New("engine: the session's state was lost")
	// ErrSessionBusy is Execute's (and Reset's) error while another input
	// of the same session runs: a session runs one input at a time and
	// refuses, rather than queues, a concurrent one.
	ErrSessionBusy = errors.New("engine: the session is running another input")
	// ErrSessionExpired is Execute's error once the session passed
	// SessionLimits.IdleTimeout or MaxAge: its state was dropped and the
	// session closed itself (errors.Is(err, ErrSessionClosed) holds too).
	ErrSessionExpired = &expiredError{}
)

type expiredError struct{}

func (*expiredError) Error() string {
	return "engine: the session expired (SessionLimits.IdleTimeout or MaxAge) and was closed"
}

func (*expiredError) Is(target error) bool { return target == ErrSessionClosed }

// Default session limits, used for every zero field of SessionLimits.
const (
	// DefaultSessionMaxMemoryBytes bounds the state a session keeps.
	DefaultSessionMaxMemoryBytes = 256 << 20
	// DefaultSessionIdleTimeout closes a session no input used for so long.
	DefaultSessionIdleTimeout = 30 * time.Minute
	// DefaultSessionMaxAge closes a session this long after it started.
	DefaultSessionMaxAge = 8 * time.Hour
)

// SessionLimits bound a session as a whole; Limits (Execute's options)
// still bound each input. A zero field takes the default, Unlimited (or
// any negative value) disables it: the rule of Limits.
type SessionLimits struct {
	// MaxMemoryBytes bounds the size of the session's state: the
	// variables kept between inputs and what they reach, measured after
	// each input (DefaultSessionMaxMemoryBytes). An input that leaves the
	// state larger fails with a *LimitError naming
	// "SessionLimits.MaxMemoryBytes" and the state is the one before it.
	MaxMemoryBytes int64
	// IdleTimeout closes the session when no input ran for so long
	// (DefaultSessionIdleTimeout), counted from the end of the last one.
	IdleTimeout time.Duration
	// MaxAge closes the session this long after NewSession
	// (DefaultSessionMaxAge); an input running then is cut short as by
	// its timeout (CodeTimeout), and its effects are undone.
	MaxAge time.Duration
}

// withDefaults fills zero fields with the package defaults.
func (l SessionLimits) withDefaults() SessionLimits {
	if l.MaxMemoryBytes == 0 {
		l.MaxMemoryBytes = DefaultSessionMaxMemoryBytes
	}
	if l.IdleTimeout == 0 {
		l.IdleTimeout = DefaultSessionIdleTimeout
	}
	if l.MaxAge == 0 {
		l.MaxAge = DefaultSessionMaxAge
	}
	return l
}

// SessionOption configures NewSession.
type SessionOption func(*sessionSettings)

type sessionSettings struct {
	limits SessionLimits
}

// WithSessionLimits sets the limits of the session as a whole.
func WithSessionLimits(l SessionLimits) SessionOption {
	return func(s *sessionSettings) { s.limits = l }
}

// Session runs a sequence of inputs that share their state: variables,
// functions, types, constants and imports declared by one input are there
// for the next, and the tool namespace is the one given to NewSession.
// In process the session keeps one interpreter; on an *Isolated runtime
// it pins one worker process for its life.
//
// An input that does not complete (a compile error, a panic, os.Exit, a
// timeout, a tripped limit, a cancelled context) leaves the state as the
// last completed input left it: see the package documentation (Sessions)
// for how, and for what an input may contain.
//
// A Session runs one input at a time: an Execute (or Reset) while another
// runs returns ErrSessionBusy at once. Its methods are safe to call from
// any goroutine. Close it to release the interpreter or the worker.
type Session struct {
	impl sessionImpl
	set  sessionSettings
}

// sessionImpl is a session's runtime side: in process or isolated.
type sessionImpl interface {
	execute(ctx context.Context, code string, opts []Option) (CodeResult, error)
	reset() error
	close() error
}

// NewSession starts a session on rt (an *Engine or an *Isolated; another
// CodeRuntime is an error) with the tool namespace ns, which every input
// of the session sees.
func NewSession(rt CodeRuntime, ns map[string]projection.ToolProjection, opts ...SessionOption) (*Session, error) {
	if err := projection.ValidateNamespace(ns); err != nil {
		return nil, err
	}
	s := &Session{}
	for _, o := range opts {
		o(&s.set)
	}
	if err := checkSessionLimits(s.set.limits); err != nil {
		return nil, err
	}
	limits := s.set.limits.withDefaults()
	var err error
	switch r := rt.(type) {
	case *Engine:
		s.impl, err = newLocalSession(r, ns, limits)
	case *Isolated:
		s.impl, err = newIsolatedSession(r, ns, limits)
	default:
		return nil, errors.New("engine: NewSession needs an *Engine or an *Isolated runtime")
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// checkSessionLimits refuses nothing today: every value has a meaning
// (zero the default, negative none). It is the one place to add a check.
func checkSessionLimits(SessionLimits) error { return nil }

// Execute runs one input on top of the session's state. An input is bare
// statements and declarations, as a one-shot script without a package
// clause (a full program is refused, inside the CodeResult, as a
// *ScriptError): the variables it declares at its top level (x := 1,
// var y T) are the session's, as are its func, type, const and import
// declarations; a declaration of a name the session has replaces it. The
// value of a final expression statement, or of result(v), is
// CodeResult.Value. Options are Execute's (WithTimeout, WithLimits,
// WithStdout, WithStderr); WithExtraGlobals is refused (an error).
//
// Every failure of the input is inside the CodeResult, as for a one-shot
// Execute; the error is ErrSessionClosed, ErrSessionExpired,
// ErrSessionLost or ErrSessionBusy (the input did not run), or misuse of
// the options. A nil ctx panics.
func (s *Session) Execute(ctx context.Context, code string, opts ...Option) (CodeResult, error) {
	if ctx == nil {
		panic("engine: nil context")
	}
	return s.impl.execute(ctx, code, opts)
}

// Reset drops the session's state (variables, declarations, imports) and
// keeps the session, with its namespace, limits and age: the next input
// starts from nothing. It also revives a session whose state was lost
// (ErrSessionLost), on a new worker for an isolated one. It returns
// ErrSessionBusy while an input runs and ErrSessionClosed after Close.
func (s *Session) Reset() error { return s.impl.reset() }

// Close ends the session: an input still running is cancelled and waited
// for, the interpreter (or the worker) is released, and later calls
// return ErrSessionClosed. Close is idempotent.
func (s *Session) Close() error { return s.impl.close() }
