package engine

// SessionWorkerPID is the process id of the worker an isolated session
// pins, 0 for none (for the tests).
func SessionWorkerPID(s *Session) int {
	if c, ok := s.impl.(*sessionCore); ok {
		if b, ok := c.be.(*isolatedBackend); ok {
			return b.pid()
		}
	}
	return 0
}
