package engine

// ProgramCacheHits returns how many executions reused a kept
// interpreter so far.
func ProgramCacheHits() int64 { return progHits.Load() }

// SetProgramCacheOff turns the program cache off for the process and
// returns the previous setting.
func SetProgramCacheOff(off bool) bool {
	return progCacheOff.Swap(off)
}
