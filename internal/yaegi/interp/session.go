package interp

// toolscript patch 47: an interpreter of Options.Session runs a sequence
// of programs that share their package's state (a session): function
// values outlive the run that made them, a package may be imported again,
// the source's name and the call depth bound may be set between programs.

// callID is the run id of a call of a function value made under frame f
// (toolscript patch 47): f's, or, in an interpreter of Options.Session
// while a program runs, the running program's, so that a function value
// one program stored can be called by the next while the goroutines a
// stopped program left still stop.
func (interp *Interpreter) callID(f *frame) uint64 {
	id := f.runid()
	if interp == nil || !interp.opt.session {
		return id
	}
	cur := interp.runid()
	if id == cur {
		return id
	}
	interp.mutex.RLock()
	done := interp.done
	interp.mutex.RUnlock()
	select {
	case <-done:
		return id // no program runs: a stopped goroutine stays stopped
	default:
		return cur
	}
}

// SetMaxCallDepth changes Options.MaxCallDepth (toolscript patch 47), for
// the next program of a session. The interpreter must not be running.
func (interp *Interpreter) SetMaxCallDepth(n int) {
	interp.opt.maxCallDepth = int64(n)
}

// SetSourceName names the source of the programs compiled from strings
// (toolscript patch 47): the file name of the positions before any line
// directive, which the interpreter scopes imports by. A session's
// statements, which the interpreter wraps in a function of its own, then
// see the imports of its declarations.
func (interp *Interpreter) SetSourceName(name string) {
	interp.name = name
}
