package interp

// toolscript patch 78: deadlock detection.

import (
	"bytes"
	"fmt"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// deadlockQuiet is how long the set of blocked goroutines must stay the
// same before the goroutines' states are read: a goroutine woken by the
// last channel operation has not always left its select yet.
const deadlockQuiet = 20 * time.Millisecond

// deadlockState finds a program whose goroutines are all blocked on
// channel operations of the program's own channels, as Go's runtime
// reports "all goroutines are asleep". It claims a deadlock only when it
// can prove one: every goroutine of the program (main and those of its go
// statements, Live) is registered as blocked in a channel operation, the
// registrations have not changed for deadlockQuiet, and Go's runtime says
// each of those goroutines is parked in that operation. A program that
// could be woken by anything else is never checked: one whose code holds
// a channel of a native type (time.After, a context's Done, a tool's
// result) or passes a function to a native one (time.AfterFunc,
// WaitGroup.Go, which run script code on goroutines of their own).
// A goroutine in a native call (time.Sleep, a tool call, a mutex, a
// WaitGroup) is not registered, so nothing is reported while it waits.
type deadlockState struct {
	report func(string) // Options.Deadlock; nil: no detection

	mu       sync.Mutex
	off      bool              // the program could be woken by native code
	blocked  map[uint64]waiter // by registration
	next     uint64            // the next registration
	gen      uint64            // counts registrations and their ends
	checking bool              // a checker goroutine runs
	done     bool              // reported
}

// waiter is a goroutine blocked in a channel operation.
type waiter struct {
	goid  int64  // the goroutine's id
	n     *node  // the operation
	state string // as Go's runtime names it: "chan receive", "chan send", "select"
}

// scanDeadlock turns detection off for good when the program root
// could be woken by native code (see deadlockState).
func (interp *Interpreter) scanDeadlock(root *node) {
	d := &interp.deadlock
	if d.report == nil {
		return
	}
	off := false
	// toolscript patch 168: an instance of a generic function is the
	// callee node of its calls, so mutually recursive ones (Even[int]
	// calling Odd[int] calling Even[int]) make a cycle; each is scanned
	// once (the walk overflowed the stack, a fatal error of the process).
	instances := map[*node]bool{}
	root.Walk(func(n *node) bool {
		if off {
			return false
		}
		if n.kind == funcDecl && n != root {
			if instances[n] {
				return false
			}
			instances[n] = true
		}
		if t := n.typ; t != nil {
			if t.cat == valueT && t.rtype != nil && t.rtype.Kind() == reflect.Chan {
				off = true // a channel of a native type
			}
			if n.kind == typeAssertExpr && t.cat == chanT {
				off = true // a channel out of an interface may be native
			}
		}
		if n.kind == callExpr && len(n.child) > 0 {
			if c0 := n.child[0]; c0.typ != nil && c0.typ.cat == valueT {
				for _, a := range n.child[1:] {
					if a.typ != nil && (a.typ.cat == funcT || (a.typ.cat == valueT && a.typ.rtype != nil && a.typ.rtype.Kind() == reflect.Func)) {
						off = true // a native function given script code
					}
				}
			}
		}
		return !off
	}, nil)
	if off {
		d.mu.Lock()
		d.off = true
		d.mu.Unlock()
	}
}

// chanSelect is reflect.Select for a channel operation of the program at
// n (cases never hold a default), registering the goroutine as blocked
// while it waits.
func (interp *Interpreter) chanSelect(f *frame, n *node, state string, cases []reflect.SelectCase) (int, reflect.Value, bool) {
	d := &interp.deadlock
	if d.report == nil {
		return reflect.Select(cases)
	}
	try := make([]reflect.SelectCase, len(cases)+1)
	copy(try, cases)
	try[len(cases)].Dir = reflect.SelectDefault
	if i, v, ok := reflect.Select(try); i < len(cases) {
		return i, v, ok
	}
	return interp.chanWait(f, n, state, cases)
}

// enter registers a goroutine as blocked; false when detection is off.
func (d *deadlockState) enter(interp *Interpreter, w waiter) (uint64, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.off || d.done {
		return 0, false
	}
	if d.blocked == nil {
		d.blocked = map[uint64]waiter{}
	}
	d.next++
	id := d.next
	d.blocked[id] = w
	d.gen++
	if !d.checking && int64(len(d.blocked)) >= interp.live.Load()+1 {
		d.checking = true
		go d.check(interp)
	}
	return id, true
}

// goEnded uncounts a goroutine of a go statement of run id that ended,
// and looks for a deadlock among the goroutines left while the run goes
// on: the last one that could have woken the others may end after they
// blocked, when no registration starts a check.
func (interp *Interpreter) goEnded(id uint64) {
	interp.live.Add(-1)
	d := &interp.deadlock
	if d.report == nil || interp.runid() != id {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.off || d.done || d.checking || len(d.blocked) == 0 {
		return
	}
	if int64(len(d.blocked)) >= interp.live.Load()+1 {
		d.checking = true
		go d.check(interp)
	}
}

func (d *deadlockState) leave(id uint64) {
	d.mu.Lock()
	delete(d.blocked, id)
	d.gen++
	d.mu.Unlock()
}

// check waits while every goroutine is registered as blocked and reports
// a deadlock once Go's runtime confirms it.
func (d *deadlockState) check(interp *Interpreter) {
	id := interp.runid()
	for {
		d.mu.Lock()
		gen := d.gen
		if d.done || int64(len(d.blocked)) < interp.live.Load()+1 || interp.runid() != id {
			d.checking = false
			d.mu.Unlock()
			return
		}
		d.mu.Unlock()
		time.Sleep(deadlockQuiet)
		d.mu.Lock()
		if d.gen != gen || int64(len(d.blocked)) != interp.live.Load()+1 || interp.runid() != id {
			d.mu.Unlock()
			continue
		}
		parked := parked(d.blocked)
		if !parked || d.gen != gen {
			d.mu.Unlock()
			continue
		}
		d.done, d.checking = true, false
		report := d.describe(interp)
		d.mu.Unlock()
		d.report(report)
		return
	}
}

// describe is the report of a deadlock, as Go's runtime writes it, with
// the line of each goroutine's operation (called with d.mu held).
func (d *deadlockState) describe(interp *Interpreter) string {
	ids := make([]uint64, 0, len(d.blocked))
	for id := range d.blocked {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	var b strings.Builder
	b.WriteString("fatal error: all goroutines are asleep - deadlock!\n")
	for _, id := range ids {
		w := d.blocked[id]
		n := w.n
		if n.kind == blockStmt && n.anc != nil {
			n = n.anc // a select statement's body
		}
		pos := interp.fset.Position(n.pos)
		// The line alone, as Go's runtime gives it: a column could point
		// into what a source rewrite added to the line.
		fmt.Fprintf(&b, "\ngoroutine [%s]:\n\tline %d\n", w.state, pos.Line)
	}
	return b.String()
}

// parked reports whether Go's runtime shows every goroutine of blocked
// parked in a channel operation (state "select", "chan receive", ...): a
// goroutine woken by an operation is runnable until it has left its
// select.
func parked(blocked map[uint64]waiter) bool {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	states := map[int64][]byte{}
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		header, _, _ := bytes.Cut(g, []byte("\n"))
		header = bytes.TrimPrefix(header, []byte("goroutine "))
		id, st, ok := bytes.Cut(header, []byte(" ["))
		if !ok {
			continue
		}
		if n, err := strconv.ParseInt(string(id), 10, 64); err == nil {
			states[n] = st
		}
	}
	for _, w := range blocked {
		st, ok := states[w.goid]
		if !ok || !parkedIn(w.state, st) { // toolscript patch 108
			return false
		}
	}
	return true
}

// toolscript patch 108: parkedIn tells whether st, the state Go's runtime
// gives a goroutine, is the wait of a goroutine registered as blocked in
// state: a channel operation, or one of the sync calls of
// syncWaitMethod (RWMutex.Lock first takes a Mutex).
func parkedIn(state string, st []byte) bool {
	switch state {
	case "sync.RWMutex.Lock":
		return bytes.HasPrefix(st, []byte(state)) || bytes.HasPrefix(st, []byte("sync.Mutex.Lock"))
	case "sync.Mutex.Lock", "sync.RWMutex.RLock", "sync.WaitGroup.Wait", "sync.Cond.Wait":
		return bytes.HasPrefix(st, []byte(state))
	}
	return bytes.HasPrefix(st, []byte("select")) || bytes.HasPrefix(st, []byte("chan "))
}

// toolscript patch 108: syncWaitMethod binds the methods of package sync
// that block until another goroutine acts (Mutex.Lock, RWMutex.Lock and
// RLock, WaitGroup.Wait, Cond.Wait) so that a goroutine waiting in one
// counts as blocked for the deadlock detection, as Go's runtime counts
// it: a Lock that TryLock gets at once registers nothing. It returns nil
// for any other method, or when detection is off.
func (interp *Interpreter) syncWaitMethod(n *node, t reflect.Type, name string) func(reflect.Value) reflect.Value {
	if interp.deadlock.report == nil {
		return nil
	}
	// Only a method called where it is selected, on the goroutine that
	// selects it: a go statement's native call runs on a goroutine the
	// detection does not count, and a method value may be called anywhere.
	if a := n.anc; a == nil || a.kind != callExpr || a.child[0] != n || a.anc == nil || a.anc.kind == goStmt {
		return nil
	}
	switch {
	case t == reflect.TypeFor[*sync.Mutex]() && name == "Lock":
		return func(r reflect.Value) reflect.Value {
			mu := r.Interface().(*sync.Mutex)
			return reflect.ValueOf(func() {
				if !mu.TryLock() {
					interp.syncWait(n, "sync.Mutex.Lock", mu.Lock)
				}
			})
		}
	case t == reflect.TypeFor[*sync.RWMutex]() && name == "Lock":
		return func(r reflect.Value) reflect.Value {
			mu := r.Interface().(*sync.RWMutex)
			return reflect.ValueOf(func() {
				if !mu.TryLock() {
					interp.syncWait(n, "sync.RWMutex.Lock", mu.Lock)
				}
			})
		}
	case t == reflect.TypeFor[*sync.RWMutex]() && name == "RLock":
		return func(r reflect.Value) reflect.Value {
			mu := r.Interface().(*sync.RWMutex)
			return reflect.ValueOf(func() {
				if !mu.TryRLock() {
					interp.syncWait(n, "sync.RWMutex.RLock", mu.RLock)
				}
			})
		}
	case t == reflect.TypeFor[*sync.WaitGroup]() && name == "Wait":
		return func(r reflect.Value) reflect.Value {
			wg := r.Interface().(*sync.WaitGroup)
			return reflect.ValueOf(func() { interp.syncWait(n, "sync.WaitGroup.Wait", wg.Wait) })
		}
	case t == reflect.TypeFor[*sync.Cond]() && name == "Wait":
		return func(r reflect.Value) reflect.Value {
			c := r.Interface().(*sync.Cond)
			return reflect.ValueOf(func() { interp.syncWait(n, "sync.Cond.Wait", c.Wait) })
		}
	}
	return nil
}

// toolscript patch 108: syncWait runs wait, the blocking sync call at n,
// with the goroutine registered as blocked in state meanwhile.
func (interp *Interpreter) syncWait(n *node, state string, wait func()) {
	id, ok := interp.deadlock.enter(interp, waiter{currentGoid(), n, state})
	if !ok {
		wait()
		return
	}
	defer interp.deadlock.leave(id)
	wait()
}

// toolscript patch 108: currentGoid is the id of the calling goroutine,
// from its stack header ("goroutine 18 [running]:").
func currentGoid() int64 {
	var buf [64]byte
	s := buf[:runtime.Stack(buf[:], false)]
	s = bytes.TrimPrefix(s, []byte("goroutine "))
	if i := bytes.IndexByte(s, ' '); i > 0 {
		s = s[:i]
	}
	id, _ := strconv.ParseInt(string(s), 10, 64)
	return id
}

// goid is the id of the goroutine running frame f, read once per frame
// from the goroutine's stack header ("goroutine 18 [running]:"): a frame
// runs on one goroutine.
func goid(f *frame) int64 {
	if f.goid != 0 {
		return f.goid
	}
	f.goid = currentGoid() // toolscript patch 108
	return f.goid
}

// chanWait is reflect.Select for a channel operation at n found not to
// proceed at once, registering the goroutine as blocked while it waits.
func (interp *Interpreter) chanWait(f *frame, n *node, state string, cases []reflect.SelectCase) (int, reflect.Value, bool) {
	d := &interp.deadlock
	if d.report == nil {
		return reflect.Select(cases)
	}
	id, ok := d.enter(interp, waiter{goid(f), n, state})
	if !ok {
		return reflect.Select(cases)
	}
	defer d.leave(id)
	return reflect.Select(cases)
}

// selectWaitState is how Go's runtime names a goroutine blocked in a
// select statement of these cases (the last one, the cancellation, is
// not the script's), "" for a select with a default clause, which never
// blocks.
func selectWaitState(cases []reflect.SelectCase) string {
	if len(cases) == 1 {
		return "select (no cases)"
	}
	for _, c := range cases {
		if c.Dir == reflect.SelectDefault {
			return ""
		}
	}
	return "select"
}

// selectCases runs a select statement at n.
func (interp *Interpreter) selectCases(f *frame, n *node, state string, cases []reflect.SelectCase) (int, reflect.Value, bool) {
	if state == "" {
		return reflect.Select(cases)
	}
	return interp.chanSelect(f, n, state, cases)
}
