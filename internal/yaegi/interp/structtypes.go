package interp // toolscript patch 170

import (
	"reflect"
	"sync"

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

// setFieldType is unsafe2.SetFieldType under structTypes.
func setFieldType(rt reflect.Type, i int, ft reflect.Type) {
	structTypes.Lock()
	defer structTypes.Unlock()
	unsafe2.SetFieldType(rt, i, ft)
}
