package executor

// ChildPIDs returns the process ids of the live children, for tests.
func (b *ProcessBackend) ChildPIDs() []int { return b.pool.PIDs() }

// Serve is the child side of the process backend, for tests.
var Serve = serve
