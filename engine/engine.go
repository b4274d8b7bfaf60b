package engine

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"io"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolscript/toolscript/internal/policy"
	"github.com/toolscript/toolscript/internal/yaegi/interp"
	"golang.org/x/sync/semaphore"

	"github.com/toolscript/toolscript/projection"
)

// CodeRuntime runs scripts against a namespace of tools. The error is only
// for misuse (an invalid namespace, a closed runtime); every failure of the
// script itself is reported inside the CodeResult.
type CodeRuntime interface {
	Execute(ctx context.Context, code string, ns map[string]projection.ToolProjection, opts ...Option) (CodeResult, error)
}

// Config holds an Engine's long-lived settings. Its zero value works.
type Config struct {
	// Limits are the defaults of every execution; zero fields take the
	// package defaults (DefaultTimeout, DefaultMaxToolCalls,
	// DefaultMaxOutputBytes). Per-call options override them.
	Limits Limits
	// MaxConcurrent bounds the executions running at once; further
	// calls wait for a slot (or for their context). Zero means no bound.
	MaxConcurrent int
	// DisableProgramCache turns off the reuse of compiled programs
	// (WithProgramCache) for the engine's executions; an execution's
	// WithProgramCache(true) turns it on again.
	DisableProgramCache bool
}

// Engine is the in-process CodeRuntime: each execution gets a fresh yaegi
// interpreter, built from a symbol table prepared once per process, and
// discarded afterwards. An Engine is safe for concurrent use.
type Engine struct {
	cfg    Config
	sem    *semaphore.Weighted
	closed atomic.Bool
}

var _ CodeRuntime = (*Engine)(nil)

// New returns an Engine with the given configuration.
func New(cfg Config) *Engine {
	e := &Engine{cfg: cfg}
	if cfg.MaxConcurrent > 0 {
		e.sem = semaphore.NewWeighted(int64(cfg.MaxConcurrent))
	}
	policy.Load()
	return e
}

// Close marks the engine closed: later Executes return ErrClosed. Running
// executions finish normally.
func (e *Engine) Close() error {
	e.closed.Store(true)
	return nil
}

// defaultEngine is built on first use, so importing the package costs
// nothing at start-up.
var defaultEngine = sync.OnceValue(func() *Engine { return New(Config{}) })

// Execute runs code against ns on the package's default Engine.
func Execute(ctx context.Context, code string, ns map[string]projection.ToolProjection, opts ...Option) (CodeResult, error) {
	return defaultEngine().Execute(ctx, code, ns, opts...)
}

// Execute runs one script. code is a full program (package main with func
// main) or bare statements; imports are optional. Tools of ns appear as
// functions of Go packages named after their namespaces (see PackageName
// and FuncName). A nil ctx panics.
func (e *Engine) Execute(ctx context.Context, code string, ns map[string]projection.ToolProjection, opts ...Option) (CodeResult, error) {
	s, limits, err := prepare(ctx, e.closed.Load(), e.cfg.Limits, e.cfg.DisableProgramCache, ns, opts)
	if err != nil {
		return CodeResult{}, err
	}
	if e.sem != nil {
		if err := e.sem.Acquire(ctx, 1); err != nil {
			return CodeResult{ReturnCode: CodeTimeout, Error: "engine: gave up waiting for a free execution slot: " + err.Error(), Err: err}, nil
		}
		defer e.sem.Release(1)
	}
	return run(ctx, code, ns, limits, s), nil
}

// prepare is the common start of every runtime's Execute: it checks for
// misuse and applies the options over the runtime's default limits.
func prepare(ctx context.Context, closed bool, defaults Limits, noProgCache bool, ns map[string]projection.ToolProjection, opts []Option) (*settings, Limits, error) {
	if ctx == nil {
		panic("engine: nil context")
	}
	if closed {
		return nil, Limits{}, ErrClosed
	}
	surf, err := surfaceFor(ns) // validates ns (tools.go)
	if err != nil {
		return nil, Limits{}, err
	}
	s := &settings{limits: defaults, surf: surf, noProgCache: noProgCache}
	for _, o := range opts {
		o(s)
	}
	if err := checkGlobals(s.globals); err != nil {
		return nil, Limits{}, err
	}
	return s, s.limits.withDefaults(), nil
}

// checkGlobals validates the names of WithExtraGlobals.
func checkGlobals(g map[string]any) error {
	for name := range g {
		if !token.IsIdentifier(name) {
			return fmt.Errorf("engine: extra global %q is not a Go identifier", name)
		}
	}
	return nil
}

// imports says what a script of one execution may import (see
// normalizeScript).
type imports struct {
	surf *surface
}

func (im imports) allowed(path string) bool {
	if _, ok := im.surf.pkgs[path]; ok {
		return true
	}
	return policy.Allowed(path)
}

func (im imports) isPackageVar(pkg, name string) bool {
	if _, tool := im.surf.pkgs[pkg]; tool {
		return false
	}
	return policy.IsVar(pkg, name)
}

func (im imports) autoImport(ident string) (string, bool) {
	if _, ok := im.surf.pkgs[ident]; ok {
		return ident, true
	}
	return policy.PathOf(ident)
}

func run(ctx context.Context, code string, ns map[string]projection.ToolProjection, limits Limits, s *settings) CodeResult {
	start := time.Now()
	ctx, cancelCause := context.WithCancelCause(ctx)
	defer cancelCause(nil)
	if limits.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limits.Timeout)
		defer cancel()
	}
	x := &execution{}
	x.init(ctx, cancelCause, limits, s)
	surf := s.surf
	var res CodeResult
	if limits.MaxSourceBytes >= 0 && len(code) > limits.MaxSourceBytes {
		res = x.result(CodeLimit, &LimitError{Limit: "MaxSourceBytes", Value: int64(limits.MaxSourceBytes),
			Detail: fmt.Sprintf("(the script has %d bytes)", len(code))})
		res.Duration = time.Since(start)
		return res
	}
	prog, err := normalizeScript(code, imports{surf: surf}, len(s.globals) > 0)
	switch {
	case err != nil:
		res = x.result(CodeError, err)
	case s.cacheable(prog, code):
		// A script run again reuses the interpreter of its last clean
		// run (progcache.go).
		key := progKey{surf: surf, code: code, limits: limits}
		k := takeProg(key)
		if k != nil {
			k.x.init(ctx, cancelCause, limits, s)
			res = k.x.rerun(k, prog)
		} else {
			k = &keptProg{key: key, x: x}
			res = x.interpret(prog, surf, s.globals, k)
		}
		if res.ReturnCode == CodeOK && k.it != nil {
			keepProg(k)
		}
	default:
		res = x.interpret(prog, surf, s.globals, nil)
	}
	res.Duration = time.Since(start)
	return res
}

// init makes x a new execution under ctx (cancelled by cancel) with
// limits and s's output copies. An *execution reused by a kept
// interpreter keeps its two capWriters, which the interpreter holds
// (progcache.go).
func (x *execution) init(ctx context.Context, cancel context.CancelCauseFunc, limits Limits, s *settings) {
	stdout, stderr := x.stdout, x.stderr
	if stdout == nil {
		stdout, stderr = new(capWriter), new(capWriter)
	}
	*x = execution{ctx: ctx, cancel: cancel, limits: limits, stdout: stdout, stderr: stderr}
	if limits.MaxParallelTools > 0 {
		x.toolSem = make(chan struct{}, limits.MaxParallelTools)
	}
	outLimit := limits.MaxOutputBytes
	*x.stdout = capWriter{limit: outLimit, tee: s.stdout, onOverflow: func() {
		x.fail(&LimitError{Limit: "MaxOutputBytes", Value: int64(outLimit)})
	}}
	*x.stderr = capWriter{limit: outLimit, tee: s.stderr, onOverflow: func() {
		x.fail(&LimitError{Limit: "MaxOutputBytes", Value: int64(outLimit)})
	}}
}

// rerun runs k's compiled program again for x, the re-initialised
// execution its interpreter's bindings read (progcache.go); prog is the
// script's normalisation.
func (x *execution) rerun(k *keptProg, prog *program) CodeResult {
	x.stop = k.it.Stop
	x.panicIt = k.it
	x.lines = prog.lines
	watchdog.add(x)
	defer watchdog.remove(x)
	_, running, runErr := k.it.ExecuteWatch(x.ctx, k.prog)
	finishedFirst := x.ctx.Err() == nil
	x.end(k.it, running, finishedFirst)
	return x.outcome(prog, runErr, finishedFirst)
}

// interpret compiles and runs a normalised program. A non-nil keep gets
// the interpreter and its compiled program once it ran (progcache.go).
func (x *execution) interpret(prog *program, surf *surface, globals map[string]any, keep *keptProg) CodeResult {
	opts := x.interpOptions(surf, prog.imports, false)
	opts.BinaryExtensions = policy.BinaryExtensions(prog.src) // only those the script names: each is a compile
	opts.SourcecodeFilesystem = policy.SourceFSFor(prog.src)  // slices, maps, ...: only the functions the script can reach
	opts.FileSet = prog.fset                                  // the normaliser's parse, when prog.parsed is set
	it := interp.New(opts)
	must := func(err error) {
		if err != nil {
			panic(err) // the export tables are built by this package
		}
	}
	// The standard-library tables are prepared once per process and
	// shared by every interpreter, not copied into each; the execution's
	// own symbols (package-variable copies, output, limits) are bound to
	// it (internal/policy).
	must(policy.UseShared(prog.imports, it.UseShared))
	x.stop = it.Stop
	x.panicIt = it
	x.lines = prog.lines
	own, fresh := policy.Bind(prog.imports, prog.src, hooks{x})
	must(it.Use(own))
	if prog.usesRT {
		must(it.Use(x.rtExports()))
	}
	must(it.Use(surf.exports(x, prog.imports, prog.src)))
	if len(globals) > 0 {
		syms := map[string]reflect.Value{}
		for name, v := range globals {
			if _, clash := surf.pkgs[name]; clash {
				continue // a tool wins a name clash
			}
			syms[name] = reflect.ValueOf(v)
		}
		must(it.Use(interp.Exports{globalsPath + "/globals": syms}))
	}

	// The type-checking pass runs beside the compilation, on another
	// core when one is free, for a script with a construct the
	// interpreter may accept where Go refuses it (typecheck.go).
	check := surf.startCheck(prog)
	defer check.wait(x.ctx) // the pass ends with the execution, or soon after its deadline
	// Compilation runs under the execution's deadline and memory limit.
	watchdog.add(x)
	defer watchdog.remove(x)
	compiled, err := compileProgram(x.ctx, it, prog)
	if err != nil {
		return x.compileError(err, prog, surf, check)
	}
	if prog.check {
		if te, _ := check.result(x.ctx); te != nil {
			return x.result(CodeError, te)
		}
	}
	// Run until the script's main returns or the execution's context
	// ends (timeout, limit, caller, a panicking goroutine).
	_, running, runErr := it.ExecuteWatch(x.ctx, compiled)
	finishedFirst := x.ctx.Err() == nil
	x.end(it, running, finishedFirst)
	if keep != nil && finishedFirst && runErr == nil {
		keep.it, keep.prog, keep.fresh = it, compiled, fresh
	}
	return x.outcome(prog, runErr, finishedFirst)
}

// interpOptions are the options of an interpreter of the execution, for
// a program that imports imports (session: of a Session).
func (x *execution) interpOptions(surf *surface, imports []string, session bool) interp.Options {
	return interp.Options{
		Stdout:               x.stdout,
		Stderr:               io.Discard, // panics are read from interp.Panic
		Stdin:                strings.NewReader(""),
		Args:                 []string{"script"},
		Env:                  []string{},
		SourcecodeFilesystem: policy.SourceFS(),
		GoPath:               ".",
		BinaryExtensions:     policy.BinaryExtensions(""), // errors.AsType; a session may name them later
		ReadOnlyTypes:        policy.ReadOnlyTypes(),
		StandIns:             policy.StandIns(), // os.Stdout's *os.File
		HiddenFieldType:      policy.HiddenFieldType,
		MaxCallDepth:         max(x.limits.MaxCallDepth, 0), // see callDepth
		OnCallDepth:          x.callDepth,
		PrintCheck:           x.checkBuiltinPrint, // see cycles.go
		MakeCheck:            x.makeCheck,
		TypeCheck:            x.typeCheck,
		BinMethod:            x.binMethod,
		OwnedCall:            surf.ownedCall(x, imports),
		MapForm:              surf.mapForm(x, imports),    // typed.go
		DirectCall:           surf.directCall(x, imports), // typed.go
		Session:              session,
		Deadlock:             x.deadlockHook(session),
	}
}

// compileError is the CodeResult of a program that failed to compile.
func (x *execution) compileError(err error, prog *program, surf *surface, check *checkRun) CodeResult {
	if cause := context.Cause(x.ctx); x.ctx.Err() != nil {
		return x.result(codeFor(cause), fmt.Errorf("engine: while compiling: %w", x.contextError(cause)))
	}
	var le *LimitError
	if errors.As(err, &le) {
		if se, ok := prog.scriptError(err).(*ScriptError); ok && se.Line > 0 {
			le.Detail += fmt.Sprintf(" at line %d:%d", se.Line, se.Column)
		}
		return x.result(CodeLimit, le)
	}
	te, valid := check.result(x.ctx) // typecheck.go
	if te != nil {
		return x.result(CodeError, te)
	}
	se := surf.explain(err, prog.scriptError(err))
	if s, ok := se.(*ScriptError); ok && s.Line == 0 && valid {
		// An error of the interpreter's own without a position: the
		// model learns at least that its Go is valid.
		s.Msg += " (the script is valid Go: the interpreter cannot compile one of its constructs; write it another way)"
	}
	return x.result(CodeError, se)
}

// end ends the execution once its program returned (finishedFirst) or its
// context ended; running is closed when the program has unwound.
func (x *execution) end(it *interp.Interpreter, running <-chan struct{}, finishedFirst bool) {
	// End the execution: tools refuse further calls, output is frozen,
	// and the interpreter stops every goroutine the script left running.
	x.ended.Store(true)
	x.cancel(errEnded)
	it.Stop()
	x.endCallbacks()
	if !finishedFirst {
		// Give the interpreter a moment to unwind the script's main (a
		// stopped loop, a deep recursion) so that no CPU burns after
		// the result is returned; a native call that ignores the
		// context (a huge regexp) is not waited for.
		t := time.NewTimer(unwindGrace)
		select {
		case <-running:
		case <-t.C:
		}
		t.Stop()
	}
}

// outcome is the CodeResult of an ended execution whose program returned
// runErr.
func (x *execution) outcome(prog *program, runErr error, finishedFirst bool) CodeResult {
	cause := context.Cause(x.ctx)
	if errors.Is(cause, errGoroutinePanic) {
		x.mu.Lock()
		pe := x.goPanic
		x.mu.Unlock()
		return x.result(CodeError, pe)
	}
	var dl *DeadlockError
	if errors.As(cause, &dl) {
		return x.result(CodeDeadlock, dl)
	}
	var exit *exitSignal
	if errors.As(cause, &exit) {
		if exit.code == 0 {
			return x.result(CodeOK, nil)
		}
		return x.result(exit.code, &ExitError{Code: exit.code})
	}
	var se *ScriptError
	if errors.As(cause, &se) {
		// A value result() cannot keep (trace.go).
		if se.Line > 0 && se.Line <= len(prog.lines) {
			se.Source = prog.line(se.Line)
		}
		return x.result(CodeError, se)
	}
	if !finishedFirst {
		return x.result(codeFor(cause), x.contextError(cause))
	}
	var p interp.Panic
	if !errors.As(runErr, &p) {
		if runErr != nil {
			return x.result(CodeError, prog.scriptError(runErr))
		}
		return x.result(CodeOK, nil)
	}
	raw := p.Value
	outcome := unwrapValue(raw)
	if le, ok := outcome.(*LimitError); ok {
		return x.result(CodeLimit, le)
	}
	if ex, ok := outcome.(*exitSignal); ok {
		if ex.code == 0 {
			return x.result(CodeOK, nil)
		}
		return x.result(ex.code, &ExitError{Code: ex.code})
	}
	return x.result(CodeError, prog.panicError(outcome, p, x))
}

// compile compiles src under ctx, turning an interpreter panic into an
// error.
func compile(ctx context.Context, it *interp.Interpreter, src string) (p *interp.Program, err error) {
	defer compilePanic(&err)
	return it.CompileWithContext(ctx, src)
}

// compileProgram compiles prog: the normaliser's tree when it parsed the
// program once (normalize.Program.File), else its source.
func compileProgram(ctx context.Context, it *interp.Interpreter, prog *program) (p *interp.Program, err error) {
	if prog.parsed == nil {
		return compile(ctx, it, prog.src)
	}
	defer compilePanic(&err)
	return it.CompileFileWithContext(ctx, prog.parsed.File)
}

// compilePanic, deferred, makes a panic of the compiler an error.
func compilePanic(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("internal compiler error: %v", r)
	}
}

// unwindGrace bounds the wait for a stopped script to unwind.
const unwindGrace = 250 * time.Millisecond

// Internal cancellation causes.
var (
	// errEnded ends an execution that finished.
	errEnded = errors.New("engine: execution ended")
	// errGoroutinePanic ends an execution whose goroutine panicked; the
	// panic is in execution.goPanic.
	errGoroutinePanic = errors.New("engine: a goroutine of the script panicked")
)

func codeFor(cause error) int {
	var le *LimitError
	if errors.As(cause, &le) {
		return CodeLimit
	}
	return CodeTimeout
}

func (x *execution) contextError(cause error) error {
	switch {
	case errors.Is(cause, errAged):
		return cause
	case errors.Is(cause, context.DeadlineExceeded):
		return fmt.Errorf("engine: timeout: the script did not finish within %v: %w", x.limits.Timeout, cause)
	case errors.Is(cause, context.Canceled):
		return fmt.Errorf("engine: execution cancelled: %w", cause)
	}
	return cause
}

// result freezes the execution into a CodeResult.
func (x *execution) result(code int, err error) CodeResult {
	x.ended.Store(true)
	stdout, outTrunc := x.stdout.close()
	stderr, errTrunc := x.stderr.close()
	x.mu.Lock()
	defer x.mu.Unlock()
	r := CodeResult{
		Stdout: stdout, Stderr: stderr,
		StdoutTruncated: outTrunc, StderrTruncated: errTrunc,
		ReturnCode: code,
		Err:        err,
	}
	r.ToolCallsTruncated = x.traceCut
	if n := len(x.calls); n > 0 {
		running := false
		for _, start := range x.starts {
			running = running || start >= 0
		}
		if !running {
			// No call writes to these entries any more: the trace is
			// the result's (a call that starts now is entered after
			// them, beyond the result's capacity).
			r.ToolCalls = x.calls[:n:n]
		} else {
			// A copy: calls still running keep writing to the execution's.
			r.ToolCalls = append([]ToolCall(nil), x.calls...)
			for i, start := range x.starts {
				if start >= 0 {
					r.ToolCalls[i].Duration = monoNow() - start
					r.ToolCalls[i].Error = ErrCallUnfinished.Error()
				}
			}
		}
	}
	if x.hasValue {
		r.Value = x.value
	}
	if err != nil {
		// An error may have been cut already (PanicError.Error, the
		// worker): the mark says so.
		r.Error, r.ErrorTruncated = cutMessage(err.Error(), MaxErrorBytes)
		r.ErrorTruncated = r.ErrorTruncated || strings.HasSuffix(r.Error, truncatedMark)
	}
	return r
}

// explain adds to err, the *ScriptError of the interpreter's compile
// error cause, what the model needs to fix it: the functions a tool
// package does have.
func (s *surface) explain(cause, err error) error {
	se, ok := err.(*ScriptError)
	var ie *interp.Error
	if !ok || !errors.As(cause, &ie) || ie.Kind != interp.KindNoSymbol {
		return err
	}
	pkg, name := ie.Package, ie.Name
	funcs, ok := s.pkgs[pkg]
	if !ok {
		return err
	}
	names := make([]string, 0, len(funcs)+2)
	for _, f := range funcs {
		names = append(names, f.goName)
	}
	if pkg == toolsPackage {
		names = append(names, "Call", "Names")
	}
	sort.Strings(names)
	se.Msg = fmt.Sprintf("tool package %s has no function %s; it has %s", pkg, name, strings.Join(names, ", "))
	return se
}

// scriptError turns an interpreter error into a *ScriptError at the
// model's line and column: those of the *interp.Error it is or wraps.
func (p *program) scriptError(err error) error {
	text := err.Error()
	var ie *interp.Error
	line, col := 0, 0
	if errors.As(err, &ie) {
		text, line, col = ie.Msg, ie.Pos.Line, ie.Pos.Column
	}
	msg, _ := cutMessage(text, MaxErrorBytes)
	msg = strings.ReplaceAll(msg, rtAlias+".", "")
	if line == 0 || line > len(p.lines) {
		return &ScriptError{Msg: msg}
	}
	return &ScriptError{Line: line, Column: col, Msg: msg, Source: p.line(line)}
}

// panicError describes a panic the script did not recover: v is its value
// (unwrapped), p the interpreter's record of it, whose frames give the
// position and the stack. The interpreter raises Go's run-time errors
// (index out of range, nil dereference, failed type assertion) with Go's
// messages.
func (p *program) panicError(v any, ip interp.Panic, x *execution) error {
	pe := &PanicError{Value: v}
	if len(ip.Frames) > 0 {
		// Where the interpreter saw the panic start: the panic call, or
		// the statement that raised a run-time error.
		if pos := ip.Frames[0].Pos; pos.Filename == scriptFile && pos.Line <= len(p.lines) {
			pe.Line, pe.Column, pe.Source = pos.Line, pos.Column, p.line(pos.Line)
		}
	}
	var ie *interp.Error
	if err, ok := v.(error); ok && errors.As(err, &ie) {
		// An error the interpreter raised at run time, at its position.
		if pe.Line == 0 && ie.Pos.Line > 0 && ie.Pos.Line <= len(p.lines) {
			pe.Line, pe.Column, pe.Source = ie.Pos.Line, ie.Pos.Column, p.line(ie.Pos.Line)
		}
		msg, _ := cutMessage(ie.Msg, MaxErrorBytes)
		pe.Value = errors.New(msg)
	}
	// The script's named functions, innermost first, each where the
	// panic was in it (script frames only: no position is outside the
	// model's script).
	var frames []string
	for _, f := range ip.Frames {
		if name, ok := strings.CutPrefix(f.Func, "main."); ok && !strings.Contains(name, ".") {
			if f.Pos.Filename == scriptFile && f.Pos.Line > 0 && f.Pos.Line <= len(p.lines) {
				name += fmt.Sprintf(" (line %d:%d)", f.Pos.Line, f.Pos.Column)
			}
			frames = append(frames, name)
		}
	}
	pe.Stack = strings.Join(frames, " <- ")
	return pe
}
