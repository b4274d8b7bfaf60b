package interp

import (
	"errors"
	"fmt"
	"reflect"
	"sync/atomic" // toolscript patch 23
)

// toolscript patches 30 and 31: a stopped program fails the native calls
// that call back into it, and the interpreter bounds the depth of calls.

// ErrStopped is the error, or else the panic value, of a script function
// that native code (or a reflect call of a closure) calls, or that is
// running, when the interpreter stops (toolscript patch 30). Upstream
// returned zero values from it instead, so a native loop calling the
// script (an io.Reader of the script given to io.Copy) spun forever once
// the script was stopped. A function whose last result is an error
// returns ErrStopped there (native code that recovers and panics again at
// each level, as encoding/json does, would take time quadratic in the
// depth to unwind a panic); any other panics with it, which unwinds the
// native call and ends the goroutine.
var ErrStopped = errors.New("interp: the program was stopped")

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// failIfStopped fails a function that returns out if the interpreter
// stopped since its frame f was made (toolscript patch 30).
func (interp *Interpreter) failIfStopped(f *frame, out []reflect.Value) {
	if f.runid() == interp.runid() {
		return
	}
	if n := len(out); n > 0 && out[n-1].Type() == errorType && out[n-1].CanSet() {
		out[n-1].Set(reflect.ValueOf(&ErrStopped).Elem())
		return
	}
	panic(ErrStopped)
}

// goroutine runs fn, the body of a go statement, for a run of id
// (toolscript patch 30): once the interpreter has stopped, whatever
// panic reaches the goroutine's top (ErrStopped, or a panic that the stop
// kept the script's deferred functions from recovering) ends the
// goroutine instead of the process.
func (interp *Interpreter) goroutine(id uint64, fn func()) {
	defer running.Add(-1) // toolscript patch 23
	// toolscript patch 47: counted for the interpreter too, from goStart.
	defer interp.goEnded(id) // toolscript patch 78
	defer func() {
		if interp.runid() == id {
			return // a panic, if any, goes on as upstream's did
		}
		_ = recover()
	}()
	fn()
}

// goStart counts the goroutine of a go statement before it starts
// (toolscript patch 47; patch 23's count too), so a session that waits
// for Live to reach zero cannot miss one that has not run yet; goroutine
// uncounts it when it ends.
func (interp *Interpreter) goStart() {
	running.Add(1)
	interp.live.Add(1)
}

// running counts the goroutines of this process in interpreted code
// (toolscript patch 23); see Running.
var running atomic.Int64

// Running returns the number of goroutines of this process that are in a
// call the interpreter made, whatever the interpreter: a program's
// Execute (its main, which ExecuteWatch runs), the body of a go statement
// (of a script or a native function), a script function that native code
// calls. A host that must know whether a script it stopped still runs
// (a native call that ignores the stop) reads it instead of searching
// goroutine stacks for the interpreter's package path (toolscript patch
// 23).
func Running() int64 { return running.Load() }

// goNative runs a go statement's native function, counted by Running
// (toolscript patch 23).
func goNative(call func(reflect.Value, []reflect.Value) []reflect.Value, fn reflect.Value, in []reflect.Value) {
	defer running.Add(-1)
	call(fn, in)
}

// runCallback runs a script function that native code called, counted by
// Running (toolscript patch 23).
func runCallback(start *node, f *frame, def, call *node) {
	running.Add(1)
	defer running.Add(-1)
	runCfg(start, f, def, call)
}

// callStopped makes a deferred call of a stopped function; its panic, if
// any (ErrStopped from a function of the script), is dropped (toolscript
// patch 30).
func callStopped(val []reflect.Value) {
	defer func() { _ = recover() }()
	val[0].Call(val[1:])
}

// enterCall counts a function body that starts running (toolscript patch
// 31); leaveCall counts it done.
func (interp *Interpreter) enterCall(def *node) {
	if interp.calls.Add(1) <= interp.opt.maxCallDepth {
		return
	}
	name := funcName(def)
	if h := interp.opt.onCallDepth; h != nil {
		h(name)
		return
	}
	interp.calls.Add(-1)
	panic(fmt.Errorf("call depth exceeds %d in function %s", interp.opt.maxCallDepth, name))
}

func (interp *Interpreter) leaveCall() { interp.calls.Add(-1) }

// funcName names the function of a declaration or literal node: its name,
// or for a literal the variable it is assigned to (f = func...).
func funcName(def *node) string {
	if def == nil {
		return "main"
	}
	switch def.kind {
	case funcDecl:
		if len(def.child) > 1 && def.child[1].kind == identExpr {
			return def.child[1].ident
		}
	case funcLit:
		if a := def.anc; a != nil && (a.kind == assignStmt || a.kind == defineStmt) && len(a.child) == 2 && a.child[1] == def && a.child[0].kind == identExpr {
			return a.child[0].ident
		}
		pos := def.interp.fset.Position(def.pos)
		return fmt.Sprintf("func literal at line %d", pos.Line)
	}
	return "main"
}
