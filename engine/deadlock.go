package engine

// DeadlockError ends an execution whose goroutines were all blocked on
// the script's own channels, mutexes, WaitGroups and Conds with no tool
// call running, as Go's runtime ends such a program ("fatal error: all
// goroutines are asleep - deadlock!"), with return code CodeDeadlock,
// instead of waiting for the timeout. The interpreter proves the deadlock
// before reporting it (see the yaegi fork's README, patches 78 and 108): a
// script that something outside it could still wake (time.Sleep, a
// timer's or a context's channel, a tool call, a native callback such as
// time.AfterFunc, a blocked read) is never reported.
type DeadlockError struct {
	// Report is Go's message and, for each goroutine, its state and the
	// line where it waits ("goroutine [chan receive]:\n\tline 7").
	Report string
}

// Error implements error.
func (e *DeadlockError) Error() string { return e.Report }

// deadlock is the interpreter's hook for a proven deadlock: it ends the
// execution as Go's runtime ends the program.
func (x *execution) deadlock(report string) { x.abort(&DeadlockError{Report: report}) }

// deadlockHook is interp.Options.Deadlock for an execution: none in a
// session, whose goroutines outlive one input.
func (x *execution) deadlockHook(session bool) func(string) {
	if session {
		return nil
	}
	return x.deadlock
}
