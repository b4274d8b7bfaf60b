package interp // toolscript patch 217

import (
	"reflect"
	"sync/atomic"
)

// toolscript patch 217: a type assertion of a type that is not an
// interface on an any (r.(float64) of a tool's result) asks what it asks
// of the interpreter's records of script types at a lower cost: whether
// the asserted type keeps its methods (keptType) is kept by the
// assertion once known, and the representations held or given back by
// native code (heldAs, nativeAs) are read under one read lock, not four.

// assertCache is what a type assertion keeps of its asserted type across
// its runs; its zero value knows nothing yet.
type assertCache struct {
	kept atomic.Int32 // 0: not known yet, 1: interp.keptType is false, 2: true
}

// keptType is interp.keptType(typ), which does not change once computed
// (the interpreter keeps it per type), asked of the interpreter once.
// A nil c asks the interpreter every time.
func (c *assertCache) keptType(interp *Interpreter, typ *itype) bool {
	if c == nil {
		return interp.keptType(typ)
	}
	switch c.kept.Load() {
	case 1:
		return false
	case 2:
		return true
	}
	k := interp.keptType(typ)
	if k {
		c.kept.Store(2)
	} else {
		c.kept.Store(1)
	}
	return k
}

// heldAndNativeAs returns interp.heldAs(rt) and interp.nativeAs(rt):
// without a lock when the interpreter's records are quiet (every type
// recorded is indexed, no representation is held or given back), under
// one read lock when every type recorded is indexed, else as they do.
func (interp *Interpreter) heldAndNativeAs(rt reflect.Type) (string, []*itype) {
	if interp == nil || rt == nil || interp.named.quiet.Load() {
		return "", nil
	}
	interp.named.RLock()
	if interp.namedIndexedLocked() {
		var held string
		var stripped []*itype
		if len(interp.named.heldReps) == 0 && len(interp.named.nativeReps) == 0 {
			// No type can be recorded while the read lock is held.
			interp.named.quiet.Store(true)
		} else {
			held, stripped = interp.named.heldReps[rt], interp.named.nativeReps[rt]
		}
		interp.named.RUnlock()
		return held, stripped
	}
	interp.named.RUnlock()
	return interp.heldAs(rt), interp.nativeAs(rt)
}

// namedIndexedLocked is namedIndexed with interp.named locked.
func (interp *Interpreter) namedIndexedLocked() bool {
	return interp.named.indexed == len(interp.named.types) && interp.named.unnamedIndexed == len(interp.named.unnamed) &&
		interp.named.heldIndexed == len(interp.named.held) && interp.named.nativeIndexed == len(interp.named.native)
}
