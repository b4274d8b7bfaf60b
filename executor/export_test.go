package executor

// ChildPIDs returns the process ids of the live children, for tests.
func (b *ProcessBackend) ChildPIDs() []int { return b.pool.PIDs() }

// Serve is the child side of the process backend, for tests.
var Serve = serve

// CanTransition is the table of legal status transitions, for tests.
var CanTransition = canTransition

// DefaultMaxWorkers is the goroutine backend's default bound, for tests.
var DefaultMaxWorkers = defaultMaxWorkers
