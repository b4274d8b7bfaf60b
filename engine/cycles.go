package engine

import (
	"fmt"
	"io"
	"log"
	"reflect"
	"strings"
	"sync"

	"github.com/traefik/yaegi/stdlib"

	texttemplate "github.com/toolscript/toolscript/internal/texttemplate"
)

// Cyclic values: fmt prints maps, slices, arrays, structs and interface
// values by printing what they hold, so a map or slice that holds itself
// (m["m"] = m) makes it recurse until the goroutine's stack overflows, a
// fatal error of the Go runtime that no recover or guard survives (a Go
// program dies the same way). The printing functions of fmt and log check
// their arguments first and end the execution with a MaxCallDepth error
// instead.

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

// printFuncs are fmt's functions that print their arguments, checked for
// cycles, bound to the execution and its standard output. Only those the
// program's source names are made (all when it is not known): a script
// cannot reach the others.
func (x *execution) printFuncs(out io.Writer) map[string]reflect.Value {
	f := make(map[string]reflect.Value, 4)
	for name, bind := range printBinds {
		if x.src == "" || strings.Contains(x.src, name) {
			f[name] = reflect.ValueOf(bind(x, out))
		}
	}
	return f
}

// printBinds make fmt's printing functions for an execution.
var printBinds = map[string]func(x *execution, out io.Writer) any{
	"Print": func(x *execution, out io.Writer) any {
		return func(a ...any) (int, error) { x.checkPrint("fmt.Print", a); return fmt.Fprint(out, a...) }
	},
	"Printf": func(x *execution, out io.Writer) any {
		return func(f string, a ...any) (int, error) { x.checkPrint("fmt.Printf", a); return fmt.Fprintf(out, f, a...) }
	},
	"Println": func(x *execution, out io.Writer) any {
		return func(a ...any) (int, error) { x.checkPrint("fmt.Println", a); return fmt.Fprintln(out, a...) }
	},
	"Sprint": func(x *execution, _ io.Writer) any {
		return func(a ...any) string { x.checkPrint("fmt.Sprint", a); return fmt.Sprint(a...) }
	},
	"Sprintf": func(x *execution, _ io.Writer) any {
		return func(f string, a ...any) string { x.checkPrint("fmt.Sprintf", a); return fmt.Sprintf(f, a...) }
	},
	"Sprintln": func(x *execution, _ io.Writer) any {
		return func(a ...any) string { x.checkPrint("fmt.Sprintln", a); return fmt.Sprintln(a...) }
	},
	"Errorf": func(x *execution, _ io.Writer) any {
		return func(f string, a ...any) error { x.checkPrint("fmt.Errorf", a); return fmt.Errorf(f, a...) }
	},
	"Fprint": func(x *execution, _ io.Writer) any {
		return func(w io.Writer, a ...any) (int, error) { x.checkPrint("fmt.Fprint", a); return fmt.Fprint(w, a...) }
	},
	"Fprintf": func(x *execution, _ io.Writer) any {
		return func(w io.Writer, f string, a ...any) (int, error) {
			x.checkPrint("fmt.Fprintf", a)
			return fmt.Fprintf(w, f, a...)
		}
	},
	"Fprintln": func(x *execution, _ io.Writer) any {
		return func(w io.Writer, a ...any) (int, error) {
			x.checkPrint("fmt.Fprintln", a)
			return fmt.Fprintln(w, a...)
		}
	},
	"Append": func(x *execution, _ io.Writer) any {
		return func(b []byte, a ...any) []byte { x.checkPrint("fmt.Append", a); return fmt.Append(b, a...) }
	},
	"Appendf": func(x *execution, _ io.Writer) any {
		return func(b []byte, f string, a ...any) []byte {
			x.checkPrint("fmt.Appendf", a)
			return fmt.Appendf(b, f, a...)
		}
	},
	"Appendln": func(x *execution, _ io.Writer) any {
		return func(b []byte, a ...any) []byte { x.checkPrint("fmt.Appendln", a); return fmt.Appendln(b, a...) }
	},
}

// outputter is a logger: *log.Logger (log.Default), and the logger type
// of yaegi's log.New.
type outputter interface {
	Output(calldepth int, s string) error
}

// loggerMethods replace the printing methods of the loggers:
// arguments checked for cycles, and Fatal ends the execution with exit
// code 1 (the method of *log.Logger exits the process; yaegi's panics).
func loggerMethods() map[string]func(x *execution, l outputter) any {
	m := map[string]func(x *execution, l outputter) any{}
	for _, name := range []string{"Print", "Println", "Panic", "Panicln", "Fatal", "Fatalln"} {
		m[name] = func(x *execution, l outputter) any {
			return func(a ...any) {
				x.checkPrint("(*log.Logger)."+name, a)
				s := fmt.Sprint(a...)
				if name == "Println" || name == "Panicln" || name == "Fatalln" {
					s = fmt.Sprintln(a...)
				}
				_ = l.Output(2, s)
				switch name {
				case "Panic", "Panicln":
					panic(s)
				case "Fatal", "Fatalln":
					x.exit(1)
				}
			}
		}
	}
	for _, name := range []string{"Printf", "Panicf", "Fatalf"} {
		m[name] = func(x *execution, l outputter) any {
			return func(f string, a ...any) {
				x.checkPrint("(*log.Logger)."+name, a)
				s := fmt.Sprintf(f, a...)
				_ = l.Output(2, s)
				switch name {
				case "Panicf":
					panic(s)
				case "Fatalf":
					x.exit(1)
				}
			}
		}
	}
	return m
}

// templateMethods replace the Execute methods of the scripts' templates:
// a template prints with fmt what its actions reach in the data.
func templateMethods() map[string]func(x *execution, r reflect.Value) reflect.Value {
	check := func(x *execution, data any) {
		c := cycleWalk{deep: true}
		if data != nil && canCycle(reflect.TypeOf(data)) && c.walk(reflect.ValueOf(data), 0) {
			x.limit(&LimitError{Limit: "MaxCallDepth", Value: int64(x.limits.MaxCallDepth),
				Detail: "(template data that holds a map or slice inside itself: printing it would recurse without end)"})
		}
	}
	return map[string]func(x *execution, r reflect.Value) reflect.Value{
		"Execute": func(x *execution, r reflect.Value) reflect.Value {
			t := r.Interface().(*texttemplate.Template)
			return reflect.ValueOf(func(w io.Writer, data any) error { check(x, data); return t.Execute(w, data) })
		},
		"ExecuteTemplate": func(x *execution, r reflect.Value) reflect.Value {
			t := r.Interface().(*texttemplate.Template)
			return reflect.ValueOf(func(w io.Writer, name string, data any) error {
				check(x, data)
				return t.ExecuteTemplate(w, name, data)
			})
		},
	}
}

// loggerBinds are loggerMethods, made once.
var loggerBinds = loggerMethods()

func init() {
	loggers := []reflect.Type{reflect.TypeFor[*log.Logger]()}
	if newLogger, ok := stdlib.Symbols["log/log"]["New"]; ok {
		loggers = append(loggers, newLogger.Type().Out(0))
	}
	for name, bind := range templateMethods() {
		hostMethods[methodKey{reflect.TypeFor[*texttemplate.Template](), name}] = bind
	}
	for _, t := range loggers {
		for name, bind := range loggerBinds {
			hostMethods[methodKey{t, name}] = func(x *execution, r reflect.Value) reflect.Value {
				return reflect.ValueOf(bind(x, r.Interface().(outputter)))
			}
		}
	}
}
