package engine

import (
	"errors"

	"github.com/toolscript/toolscript/projection"
)

// newLocalSession starts an in-process session on e.
func newLocalSession(e *Engine, ns map[string]projection.ToolProjection, limits SessionLimits) (sessionImpl, error) {
	return nil, errors.New("engine: in-process sessions are not implemented yet")
}
