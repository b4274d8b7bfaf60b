package engine

import (
	"errors"
	"reflect"
	"sync"

	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

// Cyclic values: fmt prints maps, slices, arrays, structs and interface
// values by printing what they hold, so a map or slice that holds itself
// (m["m"] = m) makes it recurse until the goroutine's stack overflows, a
// fatal error of the Go runtime that no recover or guard survives (a Go
// program dies the same way). The printing functions of fmt and log, and
// the Execute methods of templates (replaced per execution by
// internal/policy), check their arguments first (checkPrint,
// checkTemplate) and end the execution with a MaxCallDepth error instead.

// cycleFree caches, per type, whether no value of the type can hold
// itself as fmt walks it: no interface, and no type that contains itself.
var cycleFree sync.Map // reflect.Type -> bool

// canCycle reports whether a value of type t can hold itself.
func canCycle(t reflect.Type) bool {
	if v, ok := cycleFree.Load(t); ok {
		return !v.(bool)
	}
	c := typeCanCycle(t, map[reflect.Type]bool{})
	cycleFree.Store(t, !c)
	return c
}

func typeCanCycle(t reflect.Type, path map[reflect.Type]bool) bool {
	if path[t] {
		return true // a type that contains itself
	}
	path[t] = true
	defer delete(path, t)
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Map:
		return typeCanCycle(t.Key(), path) || typeCanCycle(t.Elem(), path)
	case reflect.Slice, reflect.Array, reflect.Pointer:
		return typeCanCycle(t.Elem(), path)
	case reflect.Struct:
		for i := range t.NumField() {
			if typeCanCycle(t.Field(i).Type, path) {
				return true
			}
		}
	}
	return false
}

// printCycle reports whether fmt, printing args, would meet a map or
// slice inside itself.
func printCycle(args []any) bool {
	var c cycleWalk
	for _, a := range args {
		if a != nil && canCycle(reflect.TypeOf(a)) && c.walk(reflect.ValueOf(a), 0) {
			return true
		}
	}
	return false
}

// cycleWalk walks a value as fmt prints it, with the maps and slices on
// the current path.
type cycleWalk struct {
	onPath map[[2]uintptr]bool // data pointer, kind
	// deep follows pointers at every level, as a template's field and
	// index actions can before they print: a cycle of pointers alone
	// ends the walk of its branch, a map or slice cycle is reported.
	deep bool
	// records tells that the walk met the interpreter's record of a
	// script value of a type with methods held in an interface; plain,
	// one of a type without methods, whose value alone prints as Go
	// prints it.
	records, plain bool
}

func (c *cycleWalk) enter(v reflect.Value) (key [2]uintptr, cycle bool) {
	key = [2]uintptr{v.Pointer(), uintptr(v.Kind())}
	if c.onPath == nil {
		c.onPath = map[[2]uintptr]bool{}
	}
	if c.onPath[key] {
		return key, true
	}
	c.onPath[key] = true
	return key, false
}

func (c *cycleWalk) walk(v reflect.Value, depth int) bool {
	switch v.Kind() {
	case reflect.Interface:
		return !v.IsNil() && c.walk(v.Elem(), depth+1)
	case reflect.Pointer:
		// fmt follows a pointer at the top level only; deeper, it
		// prints the address.
		if v.IsNil() {
			return false
		}
		if !c.deep {
			return depth == 0 && c.walk(v.Elem(), depth+1)
		}
		key, seen := c.enter(v)
		if seen {
			return false // a cycle of pointers: nothing prints it whole
		}
		defer delete(c.onPath, key)
		return c.walk(v.Elem(), depth+1)
	case reflect.Map:
		if v.IsNil() || v.Len() == 0 || !canCycle(v.Type()) {
			return false
		}
		key, cycle := c.enter(v)
		if cycle {
			return true
		}
		for it := v.MapRange(); it.Next(); {
			if c.walk(it.Key(), depth+1) || c.walk(it.Value(), depth+1) {
				return true
			}
		}
		delete(c.onPath, key)
	case reflect.Slice:
		if v.Len() == 0 || !canCycle(v.Type()) {
			return false
		}
		key, cycle := c.enter(v)
		if cycle {
			return true
		}
		for i := range v.Len() {
			if c.walk(v.Index(i), depth+1) {
				return true
			}
		}
		delete(c.onPath, key)
	case reflect.Array:
		if !canCycle(v.Type()) {
			return false
		}
		for i := range v.Len() {
			if c.walk(v.Index(i), depth+1) {
				return true
			}
		}
	case reflect.Struct:
		if !canCycle(v.Type()) {
			return false
		}
		if interp.IsErrorWrapper(v.Type()) {
			// The interpreter's wrapper of a script error: fmt and a
			// template print its Error(); its fields hold the
			// interpreter's syntax tree, which the walk must not follow
			// (a template on such an error ran until the timeout).
			return false
		}
		if interp.IsRecord(v.Type()) && v.CanInterface() {
			// The interpreter's record of a script value in an
			// interface: what it holds prints, not the interpreter's
			// nodes (a template walked its syntax tree without end).
			if p, ok := interp.PlainValue(v.Interface()); ok {
				if interp.RecordHasMethods(v.Interface()) {
					c.records = true
				} else {
					c.plain = true
				}
				return p != nil && c.walk(reflect.ValueOf(p), depth)
			}
		}
		for i := range v.NumField() {
			if c.walk(v.Field(i), depth+1) {
				return true
			}
		}
	}
	return false
}

// checkPrint ends the execution if printing args would recurse forever.
func (x *execution) checkPrint(fn string, args []any) {
	if printCycle(args) {
		x.limit(&LimitError{Limit: "MaxCallDepth", Value: int64(x.limits.MaxCallDepth),
			Detail: "(" + fn + " of a map or slice that holds itself: printing it would recurse without end)"})
	}
}

// checkBuiltinPrint is the interpreter's hook for the builtins print and
// println, which format their arguments with fmt.
func (x *execution) checkBuiltinPrint(args []reflect.Value) {
	as := make([]any, 0, len(args))
	for _, a := range args {
		if a.IsValid() && a.CanInterface() {
			as = append(as, a.Interface())
		}
	}
	x.checkPrint("println", as)
}

// checkTemplate ends the execution if a template's data holds a map or
// slice inside itself: a template prints with fmt what its actions reach
// in the data. It returns the data the template executes: data, or a
// copy whose interfaces hold the values of a script's types without
// methods rather than the interpreter's records of them.
func (x *execution) checkTemplate(data any) any {
	c := cycleWalk{deep: true}
	if data != nil && canCycle(reflect.TypeOf(data)) && c.walk(reflect.ValueOf(data), 0) {
		x.limit(&LimitError{Limit: "MaxCallDepth", Value: int64(x.limits.MaxCallDepth),
			Detail: "(template data that holds a map or slice inside itself: printing it would recurse without end)"})
	}
	if c.records {
		// A template prints such a value as the interpreter's record of
		// it ({0xc000... {...}}), not as Go prints it.
		panic(errors.New("text/template: data that holds a value of a script type with methods in an interface ([]any, map[string]any) is not supported by the interpreter; pass the values' fields or strings instead"))
	}
	if !c.plain {
		return data
	}
	// A value of a type without methods prints as its value, which a
	// copy holds; the copy does not follow pointers, so records a
	// pointer reaches remain, and are refused.
	data = interp.Plain(data)
	left := cycleWalk{deep: true}
	if left.walk(reflect.ValueOf(data), 0); data != nil && (left.records || left.plain) {
		panic(errors.New("text/template: data that holds a value of a script type in an interface behind a pointer is not supported by the interpreter; pass the values' fields or strings instead"))
	}
	return data
}
