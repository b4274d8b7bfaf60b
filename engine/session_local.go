package engine

import (
	"context"
	"errors"
	"fmt"
	"go/types"
	"path"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/toolscript/toolscript/internal/normalize"
	"github.com/toolscript/toolscript/internal/policy"
	"github.com/toolscript/toolscript/internal/yaegi/interp"

	"github.com/toolscript/toolscript/projection"
)

// sessionPackage is the interpreter's package of a session's state.
const sessionPackage = "main"

// quiesceGrace bounds the wait, after an input ended, for the goroutines
// and tool calls it left to return; past it the session is lost.
const quiesceGrace = 2 * time.Second

// sessionCore is what both runtimes' sessions share: one input at a
// time, the clocks of SessionLimits, Reset, Close and a lost state; the
// backend runs the inputs and holds the state.
type sessionCore struct {
	be     sessionBackend
	limits SessionLimits
	clock  sessionClock

	mu     sync.Mutex
	lost   error // why the state was lost (ErrSessionLost, ErrSessionExpired), or nil
	closed bool
	runs   chan struct{} // closed when the running input returns; nil when idle
	cancel context.CancelCauseFunc
}

// sessionBackend is a runtime's side of a session.
type sessionBackend interface {
	// defaults are the runtime's default limits of an execution.
	defaults() Limits
	// run runs one input; lost is non-nil when the state is gone or can
	// no longer be trusted (the result says what happened).
	run(ctx context.Context, code string, limits Limits, set *settings, sl SessionLimits) (res CodeResult, lost error, err error)
	// drop releases the state: the next run starts from nothing.
	drop()
}

func newSessionCore(be sessionBackend, limits SessionLimits) *sessionCore {
	s := &sessionCore{be: be, limits: limits}
	s.clock.start(limits, s.expire)
	return s
}

// errAged is the cause that ends an input running when the session
// reaches SessionLimits.MaxAge.
var errAged = fmt.Errorf("engine: the session reached its SessionLimits.MaxAge: %w", context.DeadlineExceeded)

// expire ends the session when a clock of SessionLimits runs out.
func (s *sessionCore) expire(aged bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expireLocked(aged)
}

// expireLocked is expire under the session's lock.
func (s *sessionCore) expireLocked(aged bool) {
	if s.closed {
		return
	}
	if s.runs != nil {
		if !aged {
			return // idle: an input started meanwhile
		}
		s.cancel(errAged)
	}
	s.closed = true
	s.lost = ErrSessionExpired
	s.clock.stop()
	if s.runs == nil {
		s.be.drop()
	}
}

// begin marks the session busy, or says why no input can run.
func (s *sessionCore) begin() (chan struct{}, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.runs == nil && s.clock.left() == 0 {
		// MaxAge has passed, and its timer may not have run yet (an
		// input cut short at MaxAge by its own deadline ended first).
		s.expireLocked(true)
	}
	switch {
	case s.closed && s.lost == ErrSessionExpired:
		return nil, ErrSessionExpired
	case s.closed:
		return nil, ErrSessionClosed
	case s.runs != nil:
		return nil, ErrSessionBusy
	case s.lost != nil:
		return nil, s.lost
	}
	s.clock.busy()
	s.runs = make(chan struct{})
	return s.runs, nil
}

// finish marks the session idle again, and releases the state of a
// session closed or expired meanwhile.
func (s *sessionCore) finish(runs chan struct{}) {
	s.mu.Lock()
	s.runs, s.cancel = nil, nil
	if s.closed {
		s.be.drop()
	} else {
		s.clock.idle()
	}
	s.mu.Unlock()
	close(runs)
}

func (s *sessionCore) execute(ctx context.Context, code string, opts []Option) (CodeResult, error) {
	set := &settings{limits: s.be.defaults()}
	for _, o := range opts {
		o(set)
	}
	if set.globals != nil {
		return CodeResult{}, errors.New("engine: WithExtraGlobals is not an option of a session's input")
	}
	limits := set.limits.withDefaults()
	runs, err := s.begin()
	if err != nil {
		return CodeResult{}, err
	}
	defer s.finish(runs)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	if left := s.clock.left(); left >= 0 && (limits.Timeout < 0 || left < limits.Timeout) {
		var stop context.CancelFunc
		ctx, stop = context.WithDeadlineCause(ctx, time.Now().Add(left), errAged)
		defer stop()
	}
	res, lost, err := s.be.run(ctx, code, limits, set, s.limits)
	if err != nil {
		return CodeResult{}, err
	}
	if lost != nil {
		s.mu.Lock()
		s.lost = lost
		s.be.drop()
		s.mu.Unlock()
	}
	return res, nil
}

func (s *sessionCore) reset() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed && s.lost == ErrSessionExpired:
		return ErrSessionExpired
	case s.closed:
		return ErrSessionClosed
	case s.runs != nil:
		return ErrSessionBusy
	}
	s.be.drop()
	s.lost = nil
	return nil
}

func (s *sessionCore) close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.clock.stop()
	runs := s.runs
	if runs != nil {
		s.cancel(ErrSessionClosed)
	} else {
		s.be.drop()
	}
	s.mu.Unlock()
	if runs != nil {
		<-runs // finish drops the state
	}
	return nil
}

// localBackend is a session in process: one interpreter, one execution
// value reused by every input (the interpreter's host functions are bound
// to it), and the checkpoint of the last completed input.
type localBackend struct {
	e    *Engine
	surf *surface
	st   *localState // nil until the first input, and after drop; under the core's lock
	mu   sync.Mutex
}

// localState is the interpreter of a session and what it holds.
type localState struct {
	it       *interp.Interpreter
	x        *execution
	saved    *interp.State // after the last completed input
	size     int64         // of the saved state
	used     map[string]bool
	mapTypes bool
	depth    int // the interpreter's MaxCallDepth, -1 before the first input
	// defined holds the names the inputs so far declared at their top
	// level (inputNames), kept also for an input that failed. The
	// type-checking pass checks an input alone: a name an earlier input
	// declared is undefined there (and the pass then gives way), except
	// one that is also the universe's or a package's (len := 3 in one
	// input, len + 1 in the next), which the pass would take for that:
	// an input that mentions one is not refused by the pass.
	defined map[string]bool
	consts  sessionConsts // the const declarations of the inputs that completed
}

func newLocalSession(e *Engine, ns map[string]projection.ToolProjection, limits SessionLimits) (sessionImpl, error) {
	if e.closed.Load() {
		return nil, ErrClosed
	}
	policy.Load()
	surf, err := surfaceFor(ns)
	if err != nil {
		return nil, err
	}
	return newSessionCore(&localBackend{e: e, surf: surf}, limits), nil
}

func (b *localBackend) defaults() Limits { return b.e.cfg.Limits }

func (b *localBackend) drop() {
	b.mu.Lock()
	b.st = nil
	b.mu.Unlock()
}

func (b *localBackend) run(ctx context.Context, code string, limits Limits, set *settings, sl SessionLimits) (CodeResult, error, error) {
	if b.e.closed.Load() {
		return CodeResult{}, nil, ErrClosed
	}
	if b.e.sem != nil {
		if err := b.e.sem.Acquire(ctx, 1); err != nil {
			return CodeResult{ReturnCode: CodeTimeout, Error: "engine: gave up waiting for a free execution slot: " + err.Error(), Err: err}, nil, nil
		}
		defer b.e.sem.Release(1)
	}
	b.mu.Lock()
	if b.st == nil {
		b.st = b.newState()
	}
	st := b.st
	b.mu.Unlock()
	res, lost := st.run(ctx, code, limits, set, b.surf, sl)
	return res, lost, nil
}

// newState makes the interpreter of a session, with the tool packages.
func (b *localBackend) newState() *localState {
	x := &execution{ctx: context.Background()}
	paths := make([]string, 0, len(b.surf.pkgs))
	for p := range b.surf.pkgs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	it := interp.New(x.interpOptions(b.surf, paths, true))
	x.stop = it.Stop
	x.panicIt = it
	it.SetSourceName(scriptFile)
	rt := x.rtExports()
	// A return at the top level of an input ends it as os.Exit(0) does
	// (normalize.Session).
	rt[rtImportPath+"/rt"]["Exit"] = reflect.ValueOf(x.exit)
	if err := it.Use(rt); err != nil {
		panic(err)
	}
	if err := it.Use(b.surf.exports(x, paths, "")); err != nil { // the tools each input names: use
		panic(err)
	}
	st := &localState{it: it, x: x, used: map[string]bool{}, depth: -1}
	for _, p := range paths {
		st.used[p] = true
	}
	st.saved = it.SaveState(sessionPackage, newStateCopier(-1).copy)
	return st
}

// reset makes x ready for the next input: the fields of one execution
// start afresh, the pointer stays (the interpreter's host functions hold
// it).
func (x *execution) reset(ctx context.Context, cancel context.CancelCauseFunc, limits Limits, stdout, stderr *capWriter) {
	x.ctx, x.cancel, x.limits = ctx, cancel, limits
	x.stdout, x.stderr = stdout, stderr
	x.ncalls.Store(0)
	x.ended.Store(false)
	x.goroutines.Store(0)
	x.toolsBusy.Store(0)
	x.toolSem = nil
	if limits.MaxParallelTools > 0 {
		x.toolSem = make(chan struct{}, limits.MaxParallelTools)
	}
	x.mu.Lock()
	x.goPanic = nil
	x.stops, x.stopped = nil, false
	x.aborting, x.halted, x.haltCh = false, false, nil
	x.calls, x.starts = nil, nil
	x.value, x.hasValue = nil, false
	x.resultAt, x.traceBytes, x.traceCut = [3]int{}, 0, false
	x.mu.Unlock()
	x.waits.reset()
}

// run runs one input on the session's interpreter. lost is non-nil when
// the session's state can no longer be trusted.
func (st *localState) run(ctx context.Context, code string, limits Limits, set *settings, surf *surface, sl SessionLimits) (res CodeResult, lost error) {
	start := time.Now()
	ctx, cancelCause := context.WithCancelCause(ctx)
	defer cancelCause(nil)
	if limits.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limits.Timeout)
		defer cancel()
	}
	x := st.x
	outLimit := limits.MaxOutputBytes
	stdout := &capWriter{limit: outLimit, tee: set.stdout, onOverflow: func() {
		x.fail(&LimitError{Limit: "MaxOutputBytes", Value: int64(outLimit)})
	}}
	stderr := &capWriter{limit: outLimit, tee: set.stderr, onOverflow: func() {
		x.fail(&LimitError{Limit: "MaxOutputBytes", Value: int64(outLimit)})
	}}
	x.reset(ctx, cancelCause, limits, stdout, stderr)
	defer func() { res.Duration = time.Since(start) }()
	if limits.MaxSourceBytes >= 0 && len(code) > limits.MaxSourceBytes {
		return x.result(CodeLimit, &LimitError{Limit: "MaxSourceBytes", Value: int64(limits.MaxSourceBytes),
			Detail: fmt.Sprintf("(the script has %d bytes)", len(code))}), nil
	}
	prog, err := normalizeSession(code, imports{surf: surf}, &st.consts)
	if err != nil {
		return x.result(CodeError, err), nil
	}
	st.use(prog, surf)
	// Set only when it changes: a goroutine an earlier input left running
	// reads it (the session waits for such goroutines, but not before
	// the next input starts compiling).
	if d := max(limits.MaxCallDepth, 0); d != st.depth {
		st.it.SetMaxCallDepth(d)
		st.depth = d
	}
	declared, mentioned, consts := prog.names.Declared, prog.names.Mentioned, prog.names.Consts
	for _, n := range mentioned {
		prog.earlier = prog.earlier || st.defined[n] && surf.ambient(n)
	}
	watchdog.add(x)
	res, running := st.interpret(prog, surf)
	watchdog.remove(x)
	if st.defined == nil {
		st.defined = map[string]bool{}
	}
	for _, n := range declared {
		st.defined[n] = true
	}
	if res.ReturnCode == CodeOK {
		st.consts.add(consts, declared)
	}
	if err := st.quiesce(running); err != nil {
		return res, err
	}
	if res.ReturnCode == CodeOK {
		c := newStateCopier(sl.MaxMemoryBytes)
		saved := st.it.SaveState(sessionPackage, c.copy)
		if !c.over {
			st.saved, st.size = saved, c.size
			return res, nil
		}
		res.ReturnCode = CodeLimit
		res.Err = &LimitError{Limit: "SessionLimits.MaxMemoryBytes", Value: sl.MaxMemoryBytes,
			Detail: "(the session's variables would hold more; the input's effects are undone)"}
		res.Error, res.ErrorTruncated = cutMessage(res.Err.Error(), MaxErrorBytes)
	}
	st.it.RestoreState(st.saved, newStateCopier(-1).copy)
	return res, nil
}

// use gives the interpreter the symbols of the packages prog imports: the
// shared tables once per package, the execution's own ones (bound to the
// session's execution) for each input, as its source decides which, and
// the tools the input names (surface.exports).
func (st *localState) use(prog *program, surf *surface) {
	var fresh []string
	for _, p := range prog.imports {
		if !st.used[p] {
			fresh = append(fresh, p)
		}
	}
	must := func(err error) {
		if err != nil {
			panic(err) // the export tables are built by this package
		}
	}
	if len(fresh) > 0 {
		must(policy.UseShared(fresh, func(ex interp.Exports) error {
			if _, ok := ex["."]; ok {
				if st.mapTypes {
					return nil
				}
				st.mapTypes = true
			}
			return st.it.UseShared(ex)
		}))
		for _, p := range fresh {
			st.used[p] = true
		}
	}
	if len(prog.imports) > 0 {
		must(st.it.Use(policy.Exports(prog.imports, prog.src+prog.body, hooks{st.x})))
		must(st.it.Use(surf.exports(st.x, prog.imports, prog.src+"\n"+prog.body)))
	}
}

// interpret compiles and runs the two parts of an input: its
// declarations, then its statements.
func (st *localState) interpret(prog *program, surf *surface) (CodeResult, <-chan struct{}) {
	x, it := st.x, st.it
	x.mu.Lock()
	x.lines = prog.lines // a goroutine of an earlier input may read them
	x.mu.Unlock()
	var runErr error
	var running <-chan struct{} = closedChan
	finishedFirst := true
	// The type-checking pass, beside the compilation as for a one-shot
	// script (typecheck.go); an input that names what an earlier one
	// declared is not refused by it (prog.earlier, typeErrors).
	check := surf.startCheck(prog)
	defer check.wait(x.ctx)
	checked := !prog.check || prog.earlier
	for _, src := range []string{prog.src, prog.body} {
		compiled, err := compile(x.ctx, it, src)
		if err != nil {
			if strings.HasPrefix(err.Error(), internalCompilerError) {
				// Where the interpreter crashes at package level (see
				// TestSession_Corpus's sessionGaps), say what helps.
				err = fmt.Errorf("%w (at the top level of a session input: a definition whose type the interpreter cannot work out there; declare the variable first, var x T, or work in a function)", err)
			}
			res := x.compileError(err, prog, surf, check)
			x.end(it, running, true)
			return res, running
		}
		if !checked {
			checked = true
			if te, _ := check.result(x.ctx); te != nil {
				res := x.result(CodeError, te)
				x.end(it, running, true)
				return res, running
			}
		}
		_, running, runErr = it.ExecuteWatch(x.ctx, compiled)
		finishedFirst = x.ctx.Err() == nil
		if runErr != nil || !finishedFirst {
			break
		}
	}
	x.end(it, running, finishedFirst)
	return x.outcome(prog, runErr, finishedFirst), running
}

// internalCompilerError starts the message of a compile error that is a
// crash of the interpreter's compiler (see compile).
const internalCompilerError = "internal compiler error"

// closedChan is a closed channel.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// quiesce waits for the program, the goroutines and the tool calls of
// the last input to return (running is closed once its program has
// unwound): nothing of it may change the state once it is saved or
// restored. Past quiesceGrace the session is lost.
func (st *localState) quiesce(running <-chan struct{}) error {
	t := time.NewTimer(quiesceGrace)
	defer t.Stop()
	select {
	case <-running:
	case <-t.C:
		return fmt.Errorf("%w: the last input did not stop within %v (a long native call?); Reset starts afresh", ErrSessionLost, quiesceGrace)
	}
	for d := 50 * time.Microsecond; st.it.Live() > 0 || st.x.toolsBusy.Load() > 0; d = min(2*d, 10*time.Millisecond) {
		select {
		case <-t.C:
			return fmt.Errorf("%w: goroutines or tool calls of the last input did not stop within %v; Reset starts afresh", ErrSessionLost, quiesceGrace)
		default:
		}
		time.Sleep(d)
	}
	return nil
}

// normalizeSession normalises one input of a session (normalize.Session).
// A call of min or max whose arguments may be constants, of this input's
// or of the constants earlier inputs declared (consts, nil for none), is
// folded where the type checker, given those declarations, finds its
// value a constant, as in a one-shot script.
func normalizeSession(code string, im imports, consts *sessionConsts) (*program, error) {
	cfg := normalize.Config{
		Allowed:    im.allowed,
		Importable: Packages,
		AutoImport: im.autoImport,
		ReadOnly:   im.isPackageVar,
		MaxNesting: MaxNesting,
		Consts:     consts.names(),
	}
	np, err := normalize.Session(code, cfg)
	if err != nil {
		return nil, im.importHint(normalizeError(err))
	}
	names := np.Names() // folding below changes no name, and a folded constant means the same
	if np.MinMaxConst {
		// The earlier declarations go before the input, for the checker
		// only, but for those of names the input declares again.
		prefix, lines := consts.prefix(names.Declared)
		if strings.HasPrefix(strings.TrimSpace(code), "package") {
			prefix, lines = "", 0
		}
		folds := map[normalize.MinMaxPos]int{}
		for pos, arg := range im.surf.constMinMax(prefix + code) {
			if pos.Line > lines {
				folds[normalize.MinMaxPos{Line: pos.Line - lines, Column: pos.Column}] = arg
			}
		}
		if len(folds) > 0 {
			cfg.ConstMinMax = folds
			if np, err = normalize.Session(code, cfg); err != nil {
				return nil, im.importHint(normalizeError(err))
			}
		}
	}
	return &program{src: np.Src, body: np.Body, lines: np.Lines, imports: np.Imports, usesRT: np.UsesRuntime, code: code, session: true, check: np.NeedsCheck, names: names}, nil
}

// sessionConsts are the constant declarations of a session's inputs so
// far, as Go text, for the type checker to tell which calls of min and
// max of them in a later input are constants.
type sessionConsts struct {
	decls []normalize.ConstDecl
}

// names returns the names of the constants, nil for none.
func (c *sessionConsts) names() map[string]bool {
	if c == nil || len(c.decls) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, d := range c.decls {
		for _, n := range d.Names {
			out[n] = true
		}
	}
	return out
}

// prefix returns the declarations but those that declare a name of
// except, one per line, and the number of lines.
func (c *sessionConsts) prefix(except []string) (string, int) {
	if c == nil {
		return "", 0
	}
	var b strings.Builder
	for _, d := range c.decls {
		if !slices.ContainsFunc(d.Names, func(n string) bool { return slices.Contains(except, n) }) {
			b.WriteString(d.Text)
			b.WriteString("\n")
		}
	}
	return b.String(), strings.Count(b.String(), "\n")
}

// add records an input's const declarations after dropping the earlier
// ones of names it declared again (declared: all its top-level names).
func (c *sessionConsts) add(decls []normalize.ConstDecl, declared []string) {
	c.decls = slices.DeleteFunc(c.decls, func(d normalize.ConstDecl) bool {
		return slices.ContainsFunc(d.Names, func(n string) bool { return slices.Contains(declared, n) })
	})
	c.decls = append(c.decls, decls...)
}

// sessionClock runs a session's IdleTimeout and MaxAge: expire is called
// (aged for MaxAge) when one passes. Its methods are called under the
// session's lock.
type sessionClock struct {
	limits    SessionLimits
	born      time.Time
	idleTimer *time.Timer
	ageTimer  *time.Timer
	expire    func(aged bool)
}

func (c *sessionClock) start(l SessionLimits, expire func(aged bool)) {
	c.limits, c.born, c.expire = l, time.Now(), expire
	if l.MaxAge > 0 {
		c.ageTimer = time.AfterFunc(l.MaxAge, func() { expire(true) })
	}
	c.idle()
}

// busy stops the idle clock while an input runs.
func (c *sessionClock) busy() {
	if c.idleTimer != nil {
		c.idleTimer.Stop()
	}
}

// idle starts the idle clock.
func (c *sessionClock) idle() {
	if c.limits.IdleTimeout <= 0 {
		return
	}
	if c.idleTimer == nil {
		c.idleTimer = time.AfterFunc(c.limits.IdleTimeout, func() { c.expire(false) })
		return
	}
	c.idleTimer.Reset(c.limits.IdleTimeout)
}

// left is the time to MaxAge, or -1 for none.
func (c *sessionClock) left() time.Duration {
	if c.limits.MaxAge <= 0 {
		return -1
	}
	return max(c.limits.MaxAge-time.Since(c.born), 0)
}

func (c *sessionClock) stop() {
	if c.idleTimer != nil {
		c.idleTimer.Stop()
	}
	if c.ageTimer != nil {
		c.ageTimer.Stop()
	}
}

// reset readies the counts for the next input of a session.
func (w *waitGroups) reset() {
	w.mu.Lock()
	w.n, w.released = nil, false
	w.mu.Unlock()
	w.once = sync.Once{}
}

// ambient reports whether name means something in an input that does
// not declare it: a predeclared name, a package the input may import or
// a tool package.
func (s *surface) ambient(name string) bool {
	if types.Universe.Lookup(name) != nil || s.pkgs[name] != nil {
		return true
	}
	for _, p := range Packages() {
		if path.Base(p) == name {
			return true
		}
	}
	return false
}
