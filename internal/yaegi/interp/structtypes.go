package interp // toolscript patch 170

import (
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/toolscript/toolscript/internal/yaegi/unsafe2"
)

// structTypes orders the interpreters' writes to the struct types of
// recursive script types with reflect.StructOf's reads of them: refType
// builds such a type with a placeholder field type and then writes the
// real one into the reflect type (unsafe2.SetFieldType), but StructOf
// keeps the types it made in a cache shared by the whole process, so
// two interpreters that compile the same recursive type at once (one
// script run twice concurrently) get the same reflect type, one reading
// its fields in StructOf's cache lookup while the other writes them.
var structTypes sync.Mutex

// reflectStructOf is reflect.StructOf under structTypes.
func reflectStructOf(fields []reflect.StructField) reflect.Type {
	structTypes.Lock()
	defer structTypes.Unlock()
	return reflect.StructOf(fields)
}

// fieldOfStruct is rt.Field(i) under structTypes.
func fieldOfStruct(rt reflect.Type, i int) reflect.StructField {
	structTypes.Lock()
	defer structTypes.Unlock()
	return rt.Field(i)
}

// setFieldType is unsafe2.SetFieldType under structTypes, done only
// when the field's type is not ft already: a type another interpreter
// fixed and runs with (reading its fields in reflect.Value.Field, under
// no lock) is not written again (toolscript patch 189).
func setFieldType(rt reflect.Type, i int, ft reflect.Type) {
	structTypes.Lock()
	defer structTypes.Unlock()
	if rt.Field(i).Type == ft {
		return
	}
	unsafe2.SetFieldType(rt, i, ft)
}

// typeBuild serialises the interpreters' builds of reflect types (a
// refType call without a context, and everything it calls; toolscript
// patch 189): a recursive struct type is made with placeholder fields,
// which the same build then writes, and another interpreter building the
// same structure at once got that type from reflect.StructOf's cache
// half written (its values failed "*unsafe2.dummy is not assignable to
// ..."). The lock is re-entrant for the goroutine that holds it, since a
// build may start another (TypeOf of a field's type). A type already
// built (the common case) takes no lock.
var typeBuild struct {
	mu    sync.Mutex
	owner atomic.Int64 // the holding goroutine's id, 0 when free
	depth int          // the holder's nested builds; read by the holder only
}

// lockTypeBuild takes typeBuild for the calling goroutine and returns
// its release.
func lockTypeBuild() (unlock func()) {
	id := currentGoid()
	if typeBuild.owner.Load() == id {
		typeBuild.depth++
		return func() { typeBuild.depth-- }
	}
	typeBuild.mu.Lock()
	typeBuild.owner.Store(id)
	typeBuild.depth = 1
	return func() {
		if typeBuild.depth--; typeBuild.depth == 0 {
			typeBuild.owner.Store(0)
			typeBuild.mu.Unlock()
		}
	}
}
