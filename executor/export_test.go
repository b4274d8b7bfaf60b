package executor

// ChildPIDs returns the process ids of the live children, for tests.
func (b *ProcessBackend) ChildPIDs() []int {
	b.mu.Lock()
	defer b.mu.Unlock()
	pids := make([]int, 0, len(b.pids))
	for pid := range b.pids {
		pids = append(pids, pid)
	}
	return pids
}
