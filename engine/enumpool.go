package engine

import (
	"reflect"
	"sync"
	"sync/atomic"
)

// The host types of typed tools' string enums. reflect cannot make a
// named type, and an enum given the type string would be a string to the
// interpreter: in an interface, a value of orders.Status would be taken
// for a string and a string for it, and `s := orders.StatusPaid` would
// declare a string. So each enum, by its package and name
// (orders.Status), is given a type of its own among the named string
// types of enumpool_types.go, once per process: a script sees it as a
// type distinct from string and from every other enum, as Go does, and
// the package's type names (interp.TypeNamesSymbol) tell the interpreter
// its Go name for %T. Enums of the same package and name in other
// namespaces share the type; no value crosses from one execution to
// another. Values of these types leave a script (a tool's arguments,
// CodeResult.Value) as strings (plainEnums), as JSON would carry them.
//
// Past len(enumTypes) enums in a process, an enum is generated as a
// string with its values in its doc comment, as an enum of another type
// is (the interpreter then sees what Describe declares).
var enumPool struct {
	sync.Mutex
	byName map[string]reflect.Type // "orders.Status" -> its type
	limit  int                     // the number of types to hand out; 0: len(enumTypes)
}

// enumOwners maps each enum type to true, for plainEnums.
var enumOwners = func() map[reflect.Type]bool {
	m := make(map[reflect.Type]bool, len(enumTypes))
	for _, t := range enumTypes {
		m[t] = true
	}
	return m
}()

// enumType returns the type of the enum name of package pkg, nil when
// the pool is used up.
func enumType(pkg, name string) reflect.Type {
	key := pkg + "." + name
	enumPool.Lock()
	defer enumPool.Unlock()
	if t, ok := enumPool.byName[key]; ok {
		return t
	}
	limit := enumPool.limit
	if limit <= 0 || limit > len(enumTypes) {
		limit = len(enumTypes)
	}
	if len(enumPool.byName) >= limit {
		return nil
	}
	if enumPool.byName == nil {
		enumPool.byName = map[string]reflect.Type{}
	}
	t := enumTypes[len(enumPool.byName)]
	enumPool.byName[key] = t
	enumsInUse.Store(true)
	return t
}

// enumsInUse tells that an enum type has been handed out: until then no
// value can be of one, and plainEnums has nothing to look for.
var enumsInUse atomic.Bool

// isEnumType tells whether t is one of the enum types.
func isEnumType(t reflect.Type) bool { return enumOwners[t] }

// plainEnumTypes caches plainEnumType.
var plainEnumTypes sync.Map // reflect.Type -> reflect.Type

// plainEnumType returns t with string in place of each enum type it is
// made of through pointers, slices, arrays and maps ([]orders.Status is
// []string), or t itself when it has none there. A struct or a named
// type keeps its fields' types.
func plainEnumType(t reflect.Type) reflect.Type {
	if !enumsInUse.Load() {
		return t
	}
	if p, ok := plainEnumTypes.Load(t); ok {
		return p.(reflect.Type)
	}
	p := plainEnumTypeOf(t, 0)
	plainEnumTypes.Store(t, p)
	return p
}

func plainEnumTypeOf(t reflect.Type, depth int) reflect.Type {
	if isEnumType(t) {
		return reflect.TypeFor[string]()
	}
	if t.Name() != "" || depth > MaxValueDepth {
		return t
	}
	switch t.Kind() {
	case reflect.Pointer:
		if e := plainEnumTypeOf(t.Elem(), depth+1); e != t.Elem() {
			return reflect.PointerTo(e)
		}
	case reflect.Slice:
		if e := plainEnumTypeOf(t.Elem(), depth+1); e != t.Elem() {
			return reflect.SliceOf(e)
		}
	case reflect.Array:
		if e := plainEnumTypeOf(t.Elem(), depth+1); e != t.Elem() {
			return reflect.ArrayOf(t.Len(), e)
		}
	case reflect.Map:
		k, e := plainEnumTypeOf(t.Key(), depth+1), plainEnumTypeOf(t.Elem(), depth+1)
		if k != t.Key() || e != t.Elem() {
			return reflect.MapOf(k, e)
		}
	}
	return t
}

// plainEnums returns v as a value of pt, plainEnumType(v.Type()): a copy
// with the enum values it is made of as strings.
func plainEnums(v reflect.Value, pt reflect.Type) reflect.Value {
	if v.Type() == pt {
		return v
	}
	switch pt.Kind() {
	case reflect.String:
		return reflect.ValueOf(v.String())
	case reflect.Pointer:
		if v.IsNil() {
			return reflect.Zero(pt)
		}
		p := reflect.New(pt.Elem())
		p.Elem().Set(plainEnums(v.Elem(), pt.Elem()))
		return p
	case reflect.Slice:
		if v.IsNil() {
			return reflect.Zero(pt)
		}
		n := reflect.MakeSlice(pt, v.Len(), v.Len())
		for i := range v.Len() {
			n.Index(i).Set(plainEnums(v.Index(i), pt.Elem()))
		}
		return n
	case reflect.Array:
		n := reflect.New(pt).Elem()
		for i := range v.Len() {
			n.Index(i).Set(plainEnums(v.Index(i), pt.Elem()))
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			return reflect.Zero(pt)
		}
		n := reflect.MakeMapWithSize(pt, v.Len())
		for it := v.MapRange(); it.Next(); {
			n.SetMapIndex(plainEnums(it.Key(), pt.Key()), plainEnums(it.Value(), pt.Elem()))
		}
		return n
	}
	return v
}
