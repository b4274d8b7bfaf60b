package peers

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/dop251/goja"

	"github.com/toolscript/toolscript/bench/harness"
)

// Goja is the JavaScript peer: github.com/dop251/goja, a fresh Runtime per
// run. A script calls call_tool(name, args), which runs the tool's stub and
// returns its result as JavaScript values (a thrown Error for the tool's
// error), or call_tool_async(name, args), which runs the stub on a
// goroutine of its own and returns a Promise that the run's event loop
// settles; console.log prints. The timeout interrupts the runtime
// (Runtime.Interrupt).
type Goja struct{}

// NewGoja returns the goja peer.
func NewGoja() *Goja { return &Goja{} }

// Name implements harness.Engine.
func (*Goja) Name() string { return "goja" }

// Close implements harness.Engine.
func (*Goja) Close() error { return nil }

// Prepare implements harness.Engine. Nothing is kept across runs but the
// source: each run compiles it in a fresh Runtime.
func (*Goja) Prepare(w *harness.Workload) (func(ctx context.Context) (string, error), error) {
	src, err := script("js", ".js", w)
	if err != nil {
		var ok bool
		if src, ok = curveScript("js", w); !ok {
			return nil, err
		}
	}
	fns := tools(w)
	return func(ctx context.Context) (string, error) {
		ctx, cancel := deadline(ctx, w)
		defer cancel()
		return runGoja(ctx, w.Name+".js", src, fns)
	}, nil
}

// settled is a finished call_tool_async: its result, delivered to the
// event loop.
type settled struct {
	resolve, reject func(any) error
	v               any
	err             error
}

func runGoja(ctx context.Context, name, src string, fns map[string]func(context.Context, map[string]any) (any, error)) (string, error) {
	var out output
	vm := goja.New()
	stop := context.AfterFunc(ctx, func() { vm.Interrupt(ctx.Err()) })
	defer stop()

	call := func(c goja.FunctionCall) (func(context.Context, map[string]any) (any, error), map[string]any) {
		tool := c.Argument(0).String()
		fn := fns[tool]
		if fn == nil {
			panic(vm.NewTypeError("call_tool: unknown tool %q", tool))
		}
		args, err := jsArgs(c.Argument(1))
		if err != nil {
			panic(vm.NewTypeError("call_tool %s: %v", tool, err))
		}
		return fn, args
	}
	must(vm.Set("call_tool", func(c goja.FunctionCall) goja.Value {
		fn, args := call(c)
		v, err := fn(ctx, args)
		if err != nil {
			panic(vm.NewGoError(err))
		}
		return toJS(vm, v)
	}))
	done := make(chan settled)
	pending := 0
	must(vm.Set("call_tool_async", func(c goja.FunctionCall) goja.Value {
		fn, args := call(c)
		p, resolve, reject := vm.NewPromise()
		pending++
		go func() {
			v, err := fn(ctx, args)
			select {
			case done <- settled{resolve, reject, v, err}:
			case <-ctx.Done():
			}
		}()
		return vm.ToValue(p)
	}))
	console := vm.NewObject()
	must(console.Set("log", func(c goja.FunctionCall) goja.Value {
		parts := make([]string, len(c.Arguments))
		for i, a := range c.Arguments {
			parts[i] = a.String()
		}
		out.WriteString(strings.Join(parts, " ") + "\n")
		return goja.Undefined()
	}))
	must(vm.Set("console", console))
	// Rejections no handler has taken by the end fail the run.
	unhandled := map[*goja.Promise]struct{}{}
	vm.SetPromiseRejectionTracker(func(p *goja.Promise, op goja.PromiseRejectionOperation) {
		if op == goja.PromiseRejectionReject {
			unhandled[p] = struct{}{}
		} else {
			delete(unhandled, p)
		}
	})

	prg, err := goja.Compile(name, src, true)
	if err != nil {
		return "", fmt.Errorf("%w: %v", harness.ErrCompile, err)
	}
	res, err := vm.RunProgram(prg)
	// The event loop: settle each call_tool_async on the runtime's
	// goroutine (its reactions run as the resolving function returns).
	for ; err == nil && pending > 0; pending-- {
		select {
		case s := <-done:
			if s.err != nil {
				err = s.reject(vm.NewGoError(s.err))
			} else {
				err = s.resolve(toJS(vm, s.v))
			}
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	if err == nil {
		if p, ok := res.Export().(*goja.Promise); ok && p.State() == goja.PromiseStateRejected {
			err = fmt.Errorf("script rejected: %v", p.Result())
		}
	}
	for p := range unhandled {
		if err == nil {
			err = fmt.Errorf("unhandled rejection: %v", p.Result())
		}
	}
	return out.String(), timedOut(ctx, err)
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// jsArgs converts call_tool's second argument (an object, or nothing) to
// the stubs' map[string]any: integral numbers become int as a Go script
// writes them, other numbers float64, arrays []any, objects map[string]any.
func jsArgs(v goja.Value) (map[string]any, error) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return map[string]any{}, nil
	}
	m, ok := fromJS(v.Export()).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("arguments must be an object, not %s", v.ExportType())
	}
	return m, nil
}

// fromJS normalises what goja.Value.Export returns.
func fromJS(x any) any {
	switch x := x.(type) {
	case int64:
		return int(x)
	case []any:
		for i, e := range x {
			x[i] = fromJS(e)
		}
		return x
	case map[string]any:
		for k, e := range x {
			x[k] = fromJS(e)
		}
		return x
	}
	return x
}

// toJS converts a stub's result to JavaScript values: maps become plain
// objects (keys in sorted order, so printing them is deterministic),
// slices and arrays become arrays, numbers, strings and booleans their
// JavaScript kind, nil null. The result is the script's own: nothing it
// does reaches the stub's data.
func toJS(vm *goja.Runtime, x any) goja.Value {
	switch x := x.(type) {
	case nil:
		return goja.Null()
	case string, bool, int, int64, float64:
		return vm.ToValue(x)
	case map[string]any:
		o := vm.NewObject()
		for _, k := range slices.Sorted(maps.Keys(x)) {
			must(o.Set(k, toJS(vm, x[k])))
		}
		return o
	case []any:
		items := make([]any, len(x))
		for i, e := range x {
			items[i] = toJS(vm, e)
		}
		return vm.NewArray(items...)
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			break
		}
		o := vm.NewObject()
		keys := rv.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			must(o.Set(k.String(), toJS(vm, rv.MapIndex(k).Interface())))
		}
		return o
	case reflect.Slice, reflect.Array:
		items := make([]any, rv.Len())
		for i := range items {
			items[i] = toJS(vm, rv.Index(i).Interface())
		}
		return vm.NewArray(items...)
	}
	return vm.ToValue(x)
}
