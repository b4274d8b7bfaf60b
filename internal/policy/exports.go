package policy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"reflect"
	"strings"
	"sync"
	"time"

	osfile "github.com/toolscript/toolscript/internal/policy/os"
	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

// errNoStdin is the error of fmt's Scan functions: scripts have no
// standard input.
var errNoStdin = errors.New("fmt: scripts have no standard input")

// Hooks are what the per-execution replacements need of the execution
// they serve: its output, its limits, its deadline and its goroutines.
// The engine implements them; the replacements (this file, alloc.go) say
// which symbols use which hook.
type Hooks interface {
	// Stdout and Stderr are the execution's output streams: fmt's
	// printing, os.Stdout (Stdout), log and os.Stderr (Stderr).
	Stdout() io.Writer
	Stderr() io.Writer
	// CheckPrint ends the execution when printing args would recurse
	// without end (a map or slice that holds itself); fn names the
	// call. CheckTemplate is CheckPrint for a template's data, and
	// returns the data to execute the template with (the data, or a
	// copy of it the interpreter's values print in as Go prints them).
	CheckPrint(fn string, args []any)
	CheckTemplate(data any) any
	// CheckAlloc ends the execution when call would allocate size
	// bytes, over MaxAllocBytes; MaxAllocBytes is that limit, negative
	// for none. CheckRepeat bounds a Repeat of count units of unit bytes
	// (MaxAllocLen and MaxAllocBytes).
	CheckAlloc(call string, size uint64)
	MaxAllocBytes() int64
	CheckRepeat(unit, count int)
	// Sleep is time.Sleep, which the end of the execution wakes; Exit
	// is os.Exit: it ends the execution with code.
	Sleep(d time.Duration)
	Exit(code int)
	// AfterFunc and ContextAfterFunc are time.AfterFunc and
	// context.AfterFunc running f as a goroutine of the script; Parent
	// guards a context of the script given to package context as a
	// parent (its methods run on the package's goroutines).
	AfterFunc(d time.Duration, f func()) *time.Timer
	ContextAfterFunc(ctx context.Context, f func()) (stop func() bool)
	Parent(ctx context.Context) context.Context
	// WaitGroupAdd and WaitGroupGo are (*sync.WaitGroup).Add (Done is
	// Add(-1)) and Go, counted by the execution.
	WaitGroupAdd(wg *sync.WaitGroup, delta int)
	WaitGroupGo(wg *sync.WaitGroup, f func())
}

// builder gathers an execution's own symbols.
type builder struct {
	h   Hooks
	src string // the program's source; "" when not known
	ex  interp.Exports
	mt  map[reflect.Value][]reflect.Type // interface wrappers of the printing functions
	// The package last added to, and its symbols.
	path string
	syms map[string]reflect.Value
	// fresh puts the state the replacements hold (os's variables, log's
	// standard logger) back as a new execution's (Bind).
	fresh []func()
	// stderr is os.Stderr, which is also log's output (stderrFile).
	stderr *osfile.File
}

// stderrFile returns the execution's os.Stderr, made on first use: log
// writes to it, so that log.Writer() == os.Stderr, as in Go.
func (b *builder) stderrFile() *osfile.File {
	if b.stderr == nil {
		b.stderr = osfile.NewFile(b.h.Stderr(), "/dev/stderr")
	}
	return b.stderr
}

// exportKeys are the keys in interp.Exports of the packages of paths,
// made once (Exports runs for every execution).
var exportKeys = func() map[string]string {
	m := map[string]string{"os": "os/os"}
	for _, path := range allowlist {
		m[path] = exportKey(path)
	}
	return m
}()

func (b *builder) add(path, name string, v reflect.Value) {
	if b.syms == nil || path != b.path {
		key, ok := exportKeys[path]
		if !ok {
			key = exportKey(path)
		}
		b.path, b.syms = path, b.ex[key]
		if b.syms == nil {
			b.syms = map[string]reflect.Value{}
			b.ex[key] = b.syms
		}
	}
	b.syms[name] = v
}

// print adds a printing function: fmt must still see the script's String
// and Error methods through it.
func (b *builder) print(path, name string, v reflect.Value) {
	b.add(path, name, v)
	if b.mt == nil {
		b.mt = map[reflect.Value][]reflect.Type{}
	}
	b.mt[v] = printMapTypes
}

// named reports whether the program's source names name, so that a
// replacement it cannot reach need not be made.
func (b *builder) named(name string) bool { return b.src == "" || strings.Contains(b.src, name) }

// printMapTypes are the interfaces the interpreter implements on script
// values passed to fmt's functions.
var printMapTypes = []reflect.Type{
	reflect.TypeFor[fmt.Formatter](),
	reflect.TypeFor[fmt.Stringer](),
	reflect.TypeFor[error](),
}

// replacements are the symbols of the allowlist every execution gets its
// own of, by import path: absent from the shared table, made per
// execution over the Hooks. The allocation-bounded functions are in
// alloc.go, the copied package variables in pkgstate.go.
var replacements = map[string]func(b *builder){
	// Printing checked for cycles, to the execution's output; no input.
	"fmt": func(b *builder) {
		for name, bind := range printBinds {
			if b.named(name) {
				b.print("fmt", name, reflect.ValueOf(bind(b.h)))
			}
		}
		noScan := func(...any) (int, error) { return 0, errNoStdin }
		b.add("fmt", "Scan", reflect.ValueOf(noScan))
		b.add("fmt", "Scanln", reflect.ValueOf(noScan))
		b.add("fmt", "Scanf", reflect.ValueOf(func(string, ...any) (int, error) {
			return 0, errNoStdin
		}))
	},
	// The standard logger of the execution, to its Stderr; Fatal ends
	// the execution with code 1; SetOutput has no effect.
	"log": func(b *builder) {
		stderr := b.stderrFile()
		logger := log.New(stderr, "", log.LstdFlags)
		b.fresh = append(b.fresh, func() {
			logger.SetOutput(stderr) // log.Default().SetOutput is the logger's own
			logger.SetPrefix("")
			logger.SetFlags(log.LstdFlags)
		})
		b.add("log", "Flags", reflect.ValueOf(logger.Flags))
		b.add("log", "SetFlags", reflect.ValueOf(logger.SetFlags))
		b.add("log", "Prefix", reflect.ValueOf(logger.Prefix))
		b.add("log", "SetPrefix", reflect.ValueOf(logger.SetPrefix))
		b.add("log", "Writer", reflect.ValueOf(logger.Writer))
		b.add("log", "Output", reflect.ValueOf(logger.Output))
		b.add("log", "Default", reflect.ValueOf(func() *log.Logger { return logger }))
		b.add("log", "SetOutput", reflect.ValueOf(func(any) {}))
		for name, bind := range loggerBinds {
			if b.named(name) {
				b.print("log", name, reflect.ValueOf(bind(b.h, logger)))
			}
		}
	},
	// Sleep under the execution's deadline; callbacks as goroutines of
	// the script.
	"time": func(b *builder) {
		b.add("time", "Sleep", reflect.ValueOf(b.h.Sleep))
		b.add("time", "AfterFunc", reflect.ValueOf(b.h.AfterFunc))
	},
	"context": contextFuncs,
	// errors.As and errors.Is that see the script's own error types.
	"errors": func(b *builder) {
		b.add("errors", "As", reflect.ValueOf(errorsAs))
		b.add("errors", "Is", reflect.ValueOf(errorsIs))
	},
	// toolscript's os: the execution's exit and streams, no arguments,
	// no environment. Stdout and Stderr are *os.File as in Go (the
	// package os here: they write to the execution's streams).
	"os": func(b *builder) {
		h := b.h
		stdoutFile, stderrFile := osfile.NewFile(h.Stdout(), "/dev/stdout"), b.stderrFile()
		stdout, stderr := stdoutFile, stderrFile
		args := []string{"script"}
		b.fresh = append(b.fresh, func() {
			// The files themselves too: *os.Stdout = *os.Stderr
			// changes what the variable points to.
			*stdoutFile, *stderrFile = *osfile.NewFile(h.Stdout(), "/dev/stdout"), *osfile.NewFile(h.Stderr(), "/dev/stderr")
			stdout, stderr = stdoutFile, stderrFile
			args[0] = "script"
		})
		b.add("os", "File", reflect.ValueOf((*osfile.File)(nil)))
		b.add("os", "Exit", reflect.ValueOf(b.h.Exit))
		b.add("os", "Stdout", reflect.ValueOf(&stdout).Elem())
		b.add("os", "Stderr", reflect.ValueOf(&stderr).Elem())
		b.add("os", "Args", reflect.ValueOf(args))
		b.add("os", "Getenv", reflect.ValueOf(func(string) string { return "" }))
		b.add("os", "Environ", reflect.ValueOf(func() []string { return nil }))
	},
}

// Exports returns the symbols an execution whose program has source src
// and imports imports gets of its own: the replacements (exports.go,
// alloc.go) bound to h, and the copies of the package variables the
// source names (pkgstate.go). Only the replacements the source names are made
// (all when src is ""): a script cannot reach the others.
func Exports(imports []string, src string, h Hooks) interp.Exports {
	ex, _ := Bind(imports, src, h)
	return ex
}

// Bind is Exports, and a function that puts the state those symbols
// hold back as Exports made it, for an interpreter that runs its
// program again (interp.Reset) with the same Hooks: os.Stdout, os.Stderr
// and os.Args, and the prefix, flags and output of log's standard
// logger, whatever the last run assigned. Every other replacement
// reads its execution's state through h alone. The function must not
// be called while the program runs; programs whose symbols Bind cannot
// put back are those Rerunnable refuses.
func Bind(imports []string, src string, h Hooks) (interp.Exports, func()) {
	t := table()
	b := &builder{h: h, src: src, ex: make(interp.Exports, len(imports)+1)}
	packageCopies(b, imports, t)
	for _, path := range imports {
		if r := replacements[path]; r != nil {
			r(b)
		}
		for name, bind := range guardedFuncs[path] {
			b.add(path, name, reflect.ValueOf(bind(h)))
		}
	}
	if len(b.mt) > 0 {
		b.ex["."] = map[string]reflect.Value{"MapTypes": reflect.ValueOf(b.mt)}
	}
	fresh := b.fresh
	return b.ex, func() {
		for _, f := range fresh {
			f()
		}
	}
}

// replacedNames returns, by import path, the names Exports replaces:
// the shared table leaves them out.
func replacedNames() map[string]map[string]bool {
	b := &builder{h: nopHooks{}, ex: interp.Exports{}}
	for _, r := range replacements {
		r(b)
	}
	out := map[string]map[string]bool{}
	for key, syms := range b.ex {
		path := key[:strings.Index(key, "/")]
		if key != "os/os" {
			path = key[:strings.Index(key, "/./")]
		}
		out[path] = map[string]bool{}
		for name := range syms {
			out[path][name] = true
		}
	}
	for path, funcs := range guardedFuncs {
		if out[path] == nil {
			out[path] = map[string]bool{}
		}
		for name := range funcs {
			out[path][name] = true
		}
	}
	return out
}

// nopHooks are Hooks that do nothing: replacedNames builds the
// replacements with them to learn their names, and the audit to learn
// their types.
type nopHooks struct{}

func (nopHooks) Stdout() io.Writer                        { return io.Discard }
func (nopHooks) Stderr() io.Writer                        { return io.Discard }
func (nopHooks) CheckPrint(string, []any)                 {}
func (nopHooks) CheckTemplate(data any) any               { return data }
func (nopHooks) CheckAlloc(string, uint64)                {}
func (nopHooks) MaxAllocBytes() int64                     { return -1 }
func (nopHooks) CheckRepeat(int, int)                     {}
func (nopHooks) Sleep(time.Duration)                      {}
func (nopHooks) Exit(int)                                 {}
func (nopHooks) Parent(c context.Context) context.Context { return c }
func (nopHooks) WaitGroupAdd(*sync.WaitGroup, int)        {}
func (nopHooks) WaitGroupGo(*sync.WaitGroup, func())      {}
func (nopHooks) AfterFunc(time.Duration, func()) *time.Timer {
	return nil
}
func (nopHooks) ContextAfterFunc(context.Context, func()) func() bool {
	return func() bool { return false }
}

// contextFuncs are the functions of package context that take a parent:
// each guards a parent of the script's (Hooks.Parent), and AfterFunc
// runs its function as a goroutine of the script.
func contextFuncs(b *builder) {
	h := b.h
	add := func(name string, fn any) { b.add("context", name, reflect.ValueOf(fn)) }
	add("AfterFunc", func(ctx context.Context, f func()) func() bool {
		return h.ContextAfterFunc(h.Parent(ctx), f)
	})
	add("WithCancel", func(p context.Context) (context.Context, context.CancelFunc) {
		return context.WithCancel(h.Parent(p))
	})
	add("WithCancelCause", func(p context.Context) (context.Context, context.CancelCauseFunc) {
		return context.WithCancelCause(h.Parent(p))
	})
	add("WithDeadline", func(p context.Context, d time.Time) (context.Context, context.CancelFunc) {
		return context.WithDeadline(h.Parent(p), d)
	})
	add("WithDeadlineCause", func(p context.Context, d time.Time, cause error) (context.Context, context.CancelFunc) {
		return context.WithDeadlineCause(h.Parent(p), d, cause)
	})
	add("WithTimeout", func(p context.Context, d time.Duration) (context.Context, context.CancelFunc) {
		return context.WithTimeout(h.Parent(p), d)
	})
	add("WithTimeoutCause", func(p context.Context, d time.Duration, cause error) (context.Context, context.CancelFunc) {
		return context.WithTimeoutCause(h.Parent(p), d, cause)
	})
	add("WithValue", func(p context.Context, key, val any) context.Context {
		return context.WithValue(h.Parent(p), key, val)
	})
	add("WithoutCancel", func(p context.Context) context.Context {
		return context.WithoutCancel(h.Parent(p))
	})
}

// printBinds make fmt's printing functions for an execution: each checks
// its arguments for cycles first.
var printBinds = map[string]func(h Hooks) any{
	"Print": func(h Hooks) any {
		return func(a ...any) (int, error) { h.CheckPrint("fmt.Print", a); return fmt.Fprint(h.Stdout(), a...) }
	},
	"Printf": func(h Hooks) any {
		return func(f string, a ...any) (int, error) {
			h.CheckPrint("fmt.Printf", a)
			return fmt.Fprintf(h.Stdout(), f, a...)
		}
	},
	"Println": func(h Hooks) any {
		return func(a ...any) (int, error) { h.CheckPrint("fmt.Println", a); return fmt.Fprintln(h.Stdout(), a...) }
	},
	"Sprint": func(h Hooks) any {
		return func(a ...any) string { h.CheckPrint("fmt.Sprint", a); return fmt.Sprint(a...) }
	},
	"Sprintf": func(h Hooks) any {
		return func(f string, a ...any) string { h.CheckPrint("fmt.Sprintf", a); return fmt.Sprintf(f, a...) }
	},
	"Sprintln": func(h Hooks) any {
		return func(a ...any) string { h.CheckPrint("fmt.Sprintln", a); return fmt.Sprintln(a...) }
	},
	"Errorf": func(h Hooks) any {
		return func(f string, a ...any) error { h.CheckPrint("fmt.Errorf", a); return fmt.Errorf(f, a...) }
	},
	"Fprint": func(h Hooks) any {
		return func(w io.Writer, a ...any) (int, error) { h.CheckPrint("fmt.Fprint", a); return fmt.Fprint(w, a...) }
	},
	"Fprintf": func(h Hooks) any {
		return func(w io.Writer, f string, a ...any) (int, error) {
			h.CheckPrint("fmt.Fprintf", a)
			return fmt.Fprintf(w, f, a...)
		}
	},
	"Fprintln": func(h Hooks) any {
		return func(w io.Writer, a ...any) (int, error) {
			h.CheckPrint("fmt.Fprintln", a)
			return fmt.Fprintln(w, a...)
		}
	},
	"Append": func(h Hooks) any {
		return func(b []byte, a ...any) []byte { h.CheckPrint("fmt.Append", a); return fmt.Append(b, a...) }
	},
	"Appendf": func(h Hooks) any {
		return func(b []byte, f string, a ...any) []byte {
			h.CheckPrint("fmt.Appendf", a)
			return fmt.Appendf(b, f, a...)
		}
	},
	"Appendln": func(h Hooks) any {
		return func(b []byte, a ...any) []byte { h.CheckPrint("fmt.Appendln", a); return fmt.Appendln(b, a...) }
	},
}

// errorsAs is errors.As that also sees the script's own error types, which
// reach the host wrapped by the interpreter (a struct whose IValue field
// holds the script's value) and so defeat the standard errors.As. Its
// error parameter makes the interpreter convert a script value to error,
// with its Unwrap and As methods, as Go's errors.As takes it.
func errorsAs(err error, target any) bool {
	var errv any = err
	if target == nil {
		panic("errors: target cannot be nil")
	}
	tv := reflect.ValueOf(target)
	if tv.Kind() != reflect.Pointer || tv.IsNil() {
		panic("errors: target must be a non-nil pointer")
	}
	tt := tv.Type().Elem()
	if errv == nil {
		return false
	}
	if v := reflect.ValueOf(errv); v.Type().AssignableTo(tt) {
		tv.Elem().Set(v)
		return true
	}
	return asChain(err, tv, tt)
}

// errorsIs is errors.Is that compares the script's own error values by
// the values the interpreter's wrappers hold (a wrapper is not
// comparable, so the standard errors.Is never finds a script error value
// equal to its target) and follows the script's Unwrap and Is methods.
func errorsIs(err, target error) bool {
	if err == nil || target == nil {
		return err == target
	}
	tv := scriptErrorValue(target)
	return isChain(err, target, tv)
}

func isChain(err, target error, tv reflect.Value) bool {
	for {
		if ev := scriptErrorValue(err); ev.Type() == tv.Type() && ev.Type().Comparable() && ev.Interface() == tv.Interface() {
			return true
		}
		if x, ok := err.(interface{ Is(error) bool }); ok && x.Is(target) {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
			if err == nil {
				return false
			}
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if e != nil && isChain(e, target, tv) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
}

// scriptErrorValue is the value an error is compared by: the script's
// value an interpreter's wrapper holds, or the error's own.
func scriptErrorValue(err error) reflect.Value {
	v := reflect.ValueOf(err)
	if v.Kind() == reflect.Struct && v.NumField() > 0 && v.Type().Field(0).Name == "IValue" {
		if f := v.Field(0); f.Kind() == reflect.Interface && !f.IsNil() {
			return f.Elem()
		}
	}
	return v
}

func asChain(err error, tv reflect.Value, tt reflect.Type) bool {
	for err != nil {
		v := reflect.ValueOf(err)
		cands := []reflect.Value{v}
		s := v
		if s.Kind() == reflect.Pointer && !s.IsNil() {
			s = s.Elem()
		}
		if s.Kind() == reflect.Struct {
			if f := s.FieldByName("IValue"); f.IsValid() && f.Kind() == reflect.Interface && !f.IsNil() {
				cands = append(cands, f.Elem())
			}
		}
		for _, c := range cands {
			if c.Type().AssignableTo(tt) {
				tv.Elem().Set(c)
				return true
			}
		}
		if x, ok := err.(interface{ As(any) bool }); ok && x.As(tv.Interface()) {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if asChain(e, tv, tt) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}
