package engine

import (
	"errors"

	"github.com/toolscript/toolscript/projection"
)

// newIsolatedSession starts a session that pins one worker of r.
func newIsolatedSession(r *Isolated, ns map[string]projection.ToolProjection, limits SessionLimits) (sessionImpl, error) {
	return nil, errors.New("engine: isolated sessions are not implemented yet")
}
