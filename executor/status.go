package executor

import "strconv"

// Status is the state of one execution. The legal transitions are
//
//	Pending -> Running    a worker started it
//	Pending -> Cancelled  Cancel, or Shutdown(false), before it started
//	Pending -> Failed     rejected before it started (bad function, backend shut down, no worker)
//	Running -> Completed  the function returned a nil error
//	Running -> Failed     it returned an error, panicked, timed out or its child process died
//	Running -> Cancelled  Cancel, or Shutdown(false), while it ran
//
// and no others: Completed, Failed and Cancelled are final.
type Status int

// The statuses of an execution, named as the Python ToolRegistry names
// them (PENDING, RUNNING, COMPLETED, FAILED, CANCELLED).
const (
	Pending Status = iota
	Running
	Completed
	Failed
	Cancelled
)

// String returns the upper-case name of s, such as "RUNNING".
func (s Status) String() string {
	switch s {
	case Pending:
		return "PENDING"
	case Running:
		return "RUNNING"
	case Completed:
		return "COMPLETED"
	case Failed:
		return "FAILED"
	case Cancelled:
		return "CANCELLED"
	}
	return "Status(" + strconv.Itoa(int(s)) + ")"
}

// Terminal reports whether s is final: Completed, Failed or Cancelled.
func (s Status) Terminal() bool { return s == Completed || s == Failed || s == Cancelled }

// canTransition reports whether an execution may move from one status to
// another, following the table in the documentation of [Status].
func canTransition(from, to Status) bool {
	switch from {
	case Pending:
		return to == Running || to == Cancelled || to == Failed
	case Running:
		return to == Completed || to == Failed || to == Cancelled
	}
	return false
}
