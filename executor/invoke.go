package executor

import (
	"context"
	"fmt"
	"reflect"
	"runtime/debug"
	"sync"
)

// The function shapes a backend accepts, checked once at Submit.
type fnKind uint8

const (
	kindBad   fnKind = iota
	kindPlain        // func(map[string]any) (any, error)
	kindExec         // func(*ExecutionContext, map[string]any) (any, error)
	kindCtx          // func(context.Context, map[string]any) (any, error)
)

const shapes = "func(map[string]any) (any, error), func(*executor.ExecutionContext, map[string]any) (any, error), func(context.Context, map[string]any) (any, error) or executor.Named"

// kindOf returns fn's shape, kindBad for nil functions.
func kindOf(fn any) fnKind {
	switch f := fn.(type) {
	case func(map[string]any) (any, error):
		if f != nil {
			return kindPlain
		}
	case func(*ExecutionContext, map[string]any) (any, error):
		if f != nil {
			return kindExec
		}
	case func(context.Context, map[string]any) (any, error):
		if f != nil {
			return kindCtx
		}
	}
	return kindBad
}

// resolve turns what was submitted into a callable function, its shape and
// its registered name ("" when none).
func resolve(fn any) (any, fnKind, string, error) {
	if n, ok := fn.(Named); ok {
		f, ok := lookupFunc(string(n))
		if !ok {
			return nil, kindBad, "", notRegistered(n)
		}
		return f, kindOf(f), string(n), nil
	}
	k := kindOf(fn)
	if k == kindBad {
		return nil, kindBad, "", badFunc(fn)
	}
	return fn, k, "", nil
}

// badFunc is the error of a function of unsupported shape.
func badFunc(fn any) error { return fmt.Errorf("%w: %T; want %s", ErrBadFunc, fn, shapes) }

// notRegistered is the error of a Named function RegisterFunc never saw.
func notRegistered(n Named) error { return fmt.Errorf("%w: %q", ErrNotRegistered, string(n)) }

// call runs fn, turning a panic into *FuncPanicError.
func call(ec *ExecutionContext, fn any, k fnKind, kwargs map[string]any) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, &FuncPanicError{Value: r, Stack: string(debug.Stack())}
		}
	}()
	switch k {
	case kindPlain:
		return fn.(func(map[string]any) (any, error))(kwargs)
	case kindExec:
		return fn.(func(*ExecutionContext, map[string]any) (any, error))(ec, kwargs)
	default:
		return fn.(func(context.Context, map[string]any) (any, error))(ec, kwargs)
	}
}

// Invoke calls fn, of any shape Submit accepts, with kwargs, passing ec to
// functions that declare an ExecutionContext or a context.Context (nil
// means an ExecutionContext that is never cancelled). A panic in fn becomes a
// *FuncPanicError; an unsupported fn an error wrapping ErrBadFunc. Custom
// backends use it between Task.Start and Task.Finish.
func Invoke(ec *ExecutionContext, fn any, kwargs map[string]any) (any, error) {
	f, k, _, err := resolve(fn)
	if err != nil {
		return nil, err
	}
	if ec == nil {
		ec = &ExecutionContext{ctx: context.Background()}
	}
	return call(ec, f, k, kwargs)
}

// Named refers to a function registered with RegisterFunc by its name. It
// is accepted by Submit wherever a function is; the process backend needs
// registered functions, given this way or as the registered function value.
type Named string

var registry struct {
	sync.RWMutex
	byName map[string]any
	byPtr  map[uintptr]string // "" when two names share a code pointer
}

// RegisterFunc adds fn to the process-wide registry under name, so that the
// process backend's children (the same binary) can run it. Register in an
// init function or a package-level variable initializer: children only know
// what was registered before MaybeServeChild runs. It panics, like
// http.Handle, when name is empty or taken or fn has an unsupported shape.
// It is safe for concurrent use.
func RegisterFunc(name string, fn any) {
	if name == "" {
		panic("executor: RegisterFunc with an empty name")
	}
	if kindOf(fn) == kindBad {
		panic(fmt.Sprintf("%v: RegisterFunc(%q) with %T; want %s", ErrBadFunc, name, fn, shapes))
	}
	registry.Lock()
	defer registry.Unlock()
	if registry.byName == nil {
		registry.byName = map[string]any{}
		registry.byPtr = map[uintptr]string{}
	}
	if _, dup := registry.byName[name]; dup {
		panic(fmt.Sprintf("executor: RegisterFunc(%q) called twice", name))
	}
	registry.byName[name] = fn
	ptr := reflect.ValueOf(fn).Pointer()
	if _, seen := registry.byPtr[ptr]; seen {
		registry.byPtr[ptr] = "" // closures of one literal: only Named can tell them apart
	} else {
		registry.byPtr[ptr] = name
	}
}

func lookupFunc(name string) (any, bool) {
	registry.RLock()
	defer registry.RUnlock()
	f, ok := registry.byName[name]
	return f, ok
}

// registeredName returns the name fn was registered under.
func registeredName(fn any) (string, bool) {
	if kindOf(fn) == kindBad {
		return "", false
	}
	registry.RLock()
	defer registry.RUnlock()
	name := registry.byPtr[reflect.ValueOf(fn).Pointer()]
	return name, name != ""
}
