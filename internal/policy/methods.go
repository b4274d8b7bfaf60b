package policy

import (
	"errors"
	"fmt"
	"io"
	"log"
	"reflect"
	"strings"
	"sync"

	texttemplate "github.com/toolscript/toolscript/internal/texttemplate"
)

// Method returns the per-execution replacement of the method name of the
// native type t, or nil when scripts get the standard one: given the
// execution's Hooks and the receiver, it returns a function of the
// method's signature. It is the interpreter's BinMethod hook, bound by
// the engine to each execution.
func Method(t reflect.Type, name string) func(h Hooks, recv reflect.Value) reflect.Value {
	k := methodKey{t, name}
	if g := guardedMethods[k]; g != nil {
		return g
	}
	return hostMethods[k]
}

type methodKey struct {
	recv reflect.Type
	name string
}

// hostMethods replace native methods, per execution, for the guards other
// than allocation bounds (those are guardedMethods, alloc.go): the
// goroutine and counts of (*sync.WaitGroup).Go, Add and Done, the printing
// and Fatal methods of loggers, and the Execute methods of templates.
var hostMethods = func() map[methodKey]func(h Hooks, recv reflect.Value) reflect.Value {
	m := map[methodKey]func(h Hooks, recv reflect.Value) reflect.Value{}
	wg := reflect.TypeFor[*sync.WaitGroup]()
	m[methodKey{wg, "Go"}] = func(h Hooks, r reflect.Value) reflect.Value {
		wg := r.Interface().(*sync.WaitGroup)
		return reflect.ValueOf(func(f func()) { h.WaitGroupGo(wg, f) })
	}
	m[methodKey{wg, "Add"}] = func(h Hooks, r reflect.Value) reflect.Value {
		wg := r.Interface().(*sync.WaitGroup)
		return reflect.ValueOf(func(delta int) { h.WaitGroupAdd(wg, delta) })
	}
	m[methodKey{wg, "Done"}] = func(h Hooks, r reflect.Value) reflect.Value {
		wg := r.Interface().(*sync.WaitGroup)
		return reflect.ValueOf(func() { h.WaitGroupAdd(wg, -1) })
	}
	for name, bind := range templateMethods() {
		m[methodKey{reflect.TypeFor[*texttemplate.Template](), name}] = bind
	}
	for name, bind := range loggerBinds {
		m[methodKey{reflect.TypeFor[*log.Logger](), name}] = func(h Hooks, r reflect.Value) reflect.Value {
			return reflect.ValueOf(bind(h, r.Interface().(outputter)))
		}
	}
	return m
}()

// outputter is a logger: *log.Logger (log.Default, log.New).
type outputter interface {
	Output(calldepth int, s string) error
}

// loggerBinds replace the printing methods of the loggers (and log's
// printing functions, over the execution's logger): arguments checked
// for cycles, and Fatal ends the execution with exit code 1 (the method
// of *log.Logger exits the process).
var loggerBinds = func() map[string]func(h Hooks, l outputter) any {
	m := map[string]func(h Hooks, l outputter) any{}
	for _, name := range []string{"Print", "Println", "Panic", "Panicln", "Fatal", "Fatalln"} {
		m[name] = func(h Hooks, l outputter) any {
			return func(a ...any) {
				h.CheckPrint("(*log.Logger)."+name, a)
				s := fmt.Sprint(a...)
				if name == "Println" || name == "Panicln" || name == "Fatalln" {
					s = fmt.Sprintln(a...)
				}
				_ = l.Output(2, s)
				switch name {
				case "Panic", "Panicln":
					panic(s)
				case "Fatal", "Fatalln":
					h.Exit(1)
				}
			}
		}
	}
	for _, name := range []string{"Printf", "Panicf", "Fatalf"} {
		m[name] = func(h Hooks, l outputter) any {
			return func(f string, a ...any) {
				h.CheckPrint("(*log.Logger)."+name, a)
				s := fmt.Sprintf(f, a...)
				_ = l.Output(2, s)
				switch name {
				case "Panicf":
					panic(s)
				case "Fatalf":
					h.Exit(1)
				}
			}
		}
	}
	return m
}()

// templateMethods replace the Execute methods of the scripts' templates:
// a template prints with fmt what its actions reach in the data.
func templateMethods() map[string]func(h Hooks, r reflect.Value) reflect.Value {
	return map[string]func(h Hooks, r reflect.Value) reflect.Value{
		"Execute": func(h Hooks, r reflect.Value) reflect.Value {
			t := r.Interface().(*texttemplate.Template)
			return reflect.ValueOf(func(w io.Writer, data any) error {
				return failUnsupported(t.Execute(w, h.CheckTemplate(data)))
			})
		},
		"ExecuteTemplate": func(h Hooks, r reflect.Value) reflect.Value {
			t := r.Interface().(*texttemplate.Template)
			return reflect.ValueOf(func(w io.Writer, name string, data any) error {
				return failUnsupported(t.ExecuteTemplate(w, name, h.CheckTemplate(data)))
			})
		},
	}
}

// failUnsupported returns err, the error of a template's execution, or
// panics with it when the template could not run as Go runs it: a printf
// that could not print as Go does (texttemplate.UnsupportedError), or a
// field the template could not find, which may be a method of a script
// type (the template sees the type's representation, without its
// methods). The script fails at its Execute call even if it ignores the
// error, instead of printing output cut short.
func failUnsupported(err error) error {
	var u *texttemplate.UnsupportedError
	if errors.As(err, &u) {
		panic(err)
	}
	var x texttemplate.ExecError
	if errors.As(err, &x) && strings.Contains(x.Error(), " in type interp._") {
		// The interpreter's wrapper of a script value in an interface
		// (an error holding a script error): the template sees its
		// Error method alone, not the value's fields and other methods.
		panic(fmt.Errorf("%w (a template sees only the Error method of a script error held in an error; pass its fields instead)", err))
	}
	if errors.As(err, &x) && mayBeScriptMethod(x.Error()) {
		panic(fmt.Errorf("%w (a method of a script type is not seen by a template)", err))
	}
	return err
}

// mayBeScriptMethod tells whether msg, a template's execution error,
// says that a field was not found in a type that may be a script type's
// representation (a struct, map, slice or basic type without a name of
// a Go package's): the field may be one of the script type's methods.
// In a type of a Go package ("*template.Template") it is not there in Go
// either.
func mayBeScriptMethod(msg string) bool {
	_, t, found := strings.Cut(msg, "can't evaluate field ")
	if !found {
		return false
	}
	_, t, found = strings.Cut(t, " in type ")
	if !found {
		return false
	}
	t = strings.TrimLeft(t, "*")
	if strings.HasPrefix(t, "struct {") || strings.HasPrefix(t, "map[") || strings.HasPrefix(t, "[]") || strings.HasPrefix(t, "[") {
		return true
	}
	name, _, _ := strings.Cut(t, " ")
	return !strings.Contains(name, ".") // a predeclared type: the representation of a named one
}
