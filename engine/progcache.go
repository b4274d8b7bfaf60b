package engine

import (
	"container/list"
	"context"
	"sync"
	"sync/atomic"

	"github.com/toolscript/toolscript/internal/policy"
	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

// A script run again (a retry, a model's repeated script, a benchmark's
// loop) skips the interpreter's set-up and the compilation: the
// interpreter that ran it last, if that run ended cleanly, is kept with
// its compiled program and run again after interp.Reset, which gives
// its globals fresh slots and forgets the run's values. Nothing of an
// execution is shared with another:
//
//   - An idle interpreter is taken out of the cache for the execution
//     that reuses it: two executions never hold one at once.
//   - Every per-execution binding of an interpreter is bound to its
//     *execution: the output writers (Options.Stdout and every print
//     replacement), the limits' hooks (policy.Exports over hooks{x}), the
//     tool functions and typed forms (surf.exports, ownedCall, mapForm,
//     directCall), the rt exports, and the interp.Options callbacks
//     (OnCallDepth, PrintCheck, MakeCheck, TypeCheck, BinMethod,
//     Deadlock). The reuse re-initialises that *execution in place for the
//     new execution (execution.init): its context, limits, trace, counts,
//     and its two capWriters, whose pointers the interpreter holds. The
//     *execution is the indirection the bindings read.
//   - The state the per-execution symbols hold themselves (os.Stdout,
//     os.Stderr and os.Args, log's standard logger) is put back as a new
//     execution's by policy.Bind's function (keptProg.fresh) when the
//     interpreter is kept.
//   - Only programs without per-execution state outside that struct are
//     kept (cacheable): no WithExtraGlobals (their values are bound at
//     set-up), and no deep copy of a package variable that a run could
//     change (unicode's tables, base64's encodings, crc32's tables:
//     policy.Rerunnable). Source packages (slices, maps, cmp, iter) and
//     extensions declare no package variables, so what they hold is
//     fixed at compile time.
//   - An interpreter goes back only after a clean end (execution.clean):
//     CodeOK, main returned, no limit, panic, exit, deadlock or
//     timeout, no goroutine or function body of the script left
//     (interp.Reset refuses otherwise), and no timer or context
//     callback made (time.AfterFunc, context.AfterFunc: one that fired
//     as the run ended must not start in the next).
//
// The cache holds at most maxProgInterps interpreters, one per key, of
// scripts of at most maxProgBytes together (a kept interpreter costs
// about what the execution allocated: 30 KB for a trivial script, some
// 600 KB for a 108-line one); the least recently used goes first.
const (
	maxProgInterps = 64
	maxProgBytes   = 64 << 10
	maxProgScript  = 8 << 10
)

// progKey is a kept program's key: what its normalisation depends on
// (normKey, globals always false) and every setting that changes its
// compilation or its interpreter's options.
type progKey struct {
	surf   *surface
	code   string
	limits Limits
}

// keptProg is an idle interpreter, its compiled program and the
// *execution its bindings read.
type keptProg struct {
	key  progKey
	it   *interp.Interpreter
	prog *interp.Program
	x    *execution
	// fresh puts the per-execution symbols' own state back
	// (policy.Bind).
	fresh func()
	elem  *list.Element
}

// progs is the process's cache of kept programs.
var progs struct {
	mu    sync.Mutex
	byKey map[progKey]*keptProg
	lru   list.List // front: most recently kept
	bytes int
}

// progHits counts the executions that reused a kept interpreter.
var progHits atomic.Int64

// progCacheOff turns the cache off for the process (tests compare).
var progCacheOff atomic.Bool

// cacheable reports whether an execution of prog may be kept.
func (s *settings) cacheable(prog *program, code string) bool {
	if progCacheOff.Load() || s.noProgCache || len(s.globals) > 0 || len(code) > maxProgScript {
		return false
	}
	return policy.Rerunnable(prog.imports, prog.src)
}

// takeProg returns the idle interpreter of key, taken out of the cache,
// or nil.
func takeProg(key progKey) *keptProg {
	progs.mu.Lock()
	defer progs.mu.Unlock()
	k := progs.byKey[key]
	if k == nil {
		return nil
	}
	delete(progs.byKey, key)
	progs.lru.Remove(k.elem)
	progHits.Add(1)
	progs.bytes -= len(key.code)
	return k
}

// keepProg puts k back, reset, if its execution ended cleanly.
func keepProg(k *keptProg) {
	if !k.x.clean() || k.it.Reset() != nil {
		return
	}
	k.fresh()
	k.x.scrub()
	progs.mu.Lock()
	defer progs.mu.Unlock()
	if progs.byKey == nil {
		progs.byKey = map[progKey]*keptProg{}
	}
	if _, dup := progs.byKey[k.key]; dup {
		return // a concurrent execution of the same script kept its own
	}
	for len(progs.byKey) >= maxProgInterps || (progs.bytes+len(k.key.code) > maxProgBytes && progs.lru.Len() > 0) {
		old := progs.lru.Remove(progs.lru.Back()).(*keptProg)
		delete(progs.byKey, old.key)
		progs.bytes -= len(old.key.code)
	}
	k.elem = progs.lru.PushFront(k)
	progs.byKey[k.key] = k
	progs.bytes += len(k.key.code)
}

// clean reports whether the ended execution left nothing running and
// ended by its main's return alone.
func (x *execution) clean() bool {
	if context.Cause(x.ctx) != errEnded || x.goroutines.Load() != 0 || x.toolsBusy.Load() != 0 {
		return false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return !x.aborting && !x.halted && x.goPanic == nil && !x.timers.Load()
}

// scrub drops what an ended execution holds, so that an idle
// interpreter keeps none of its values.
func (x *execution) scrub() {
	stdout, stderr := x.stdout, x.stderr
	*x = execution{stdout: stdout, stderr: stderr}
	*stdout, *stderr = capWriter{closed: true}, capWriter{closed: true}
}
