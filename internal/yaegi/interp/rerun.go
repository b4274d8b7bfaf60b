package interp // toolscript patch 201

// toolscript patch 201: a compiled program run again in the same
// interpreter, as if in a fresh one. A program's globals live in the
// interpreter's global frame and its package-level declarations are
// executed by Execute (the root, then the global variables' wiring,
// then the init functions and main), so giving the frame fresh slots
// and forgetting what the last run left in the interpreter's value
// caches makes the next Execute start from a fresh interpreter's state.
// Only a run that ended cleanly may be rerun: nothing of the program
// runs any more (no goroutine, no function body).

import (
	"errors"
	"go/token"
	"reflect"
)

// ErrBusy is returned by Reset while a goroutine or a function body of
// the last run of the interpreter still runs (toolscript patch 201).
var ErrBusy = errors.New("interp: the program still runs")

// Reset makes the interpreter's run state that of a fresh interpreter
// which compiled the same programs: every global variable gets a new
// zero slot (Execute initialises it again), the stop channel, panic
// sites and caches of the last run's values are forgotten, and the
// next ExecuteWatch or Execute runs the program's declarations, init
// functions and main again (toolscript patch 201). The symbols, types
// and generated code are kept. It returns ErrBusy, and changes
// nothing, unless the last run has ended entirely. Values the last run
// handed out (its globals' old slots) are not touched.
//
// Reset is for an interpreter whose programs are all of package main:
// a source package's globals are initialised when it is imported, at
// compile time, and are not initialised again, so the source packages a
// program imports must declare no variables (its functions and types are
// fixed once compiled).
func (interp *Interpreter) Reset() error {
	if interp.live.Load() != 0 || interp.calls.Load() != 0 {
		return ErrBusy
	}
	interp.mutex.Lock()
	defer interp.mutex.Unlock()
	interp.frame.mutex.Lock()
	data := make([]reflect.Value, len(interp.universe.types), cap(interp.frame.data))
	for i, t := range interp.universe.types {
		data[i] = reflect.New(t).Elem()
	}
	interp.frame.data = data
	interp.frame.deferred = nil
	interp.frame.recovered = nil
	interp.frame.mutex.Unlock()
	interp.done = nil

	interp.panicMu.Lock()
	interp.panicValue, interp.panicFrames = nil, nil
	interp.panicPos, interp.panicFunc = token.Position{}, ""
	interp.panicMu.Unlock()

	// Caches whose entries depend on the last run's values: map keys'
	// records, and the representation native code first saw.
	interp.keyRecords.Clear()
	interp.nativeKeys.Clear()

	d := &interp.deadlock
	d.mu.Lock()
	clear(d.blocked)
	d.done = false
	d.mu.Unlock()
	return nil
}
