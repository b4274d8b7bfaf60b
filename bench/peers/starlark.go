package peers

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"reflect"
	"slices"
	"strings"

	"go.starlark.net/lib/json"
	"go.starlark.net/lib/math"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/toolscript/toolscript/bench/harness"
)

// MaxStarlarkSteps is the step limit of a Starlark run
// (Thread.SetMaxExecutionSteps): far above what any workload takes, it
// stops a runaway script the timeout has not stopped yet.
const MaxStarlarkSteps = 1 << 30

// starlarkOptions are the dialect: while loops, control flow and
// reassignment at the top level and recursion, as a script (not a
// configuration file) needs them.
var starlarkOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}

// Starlark is the Starlark peer: go.starlark.net, a fresh Thread and
// globals per run. A script calls call_tool(name, args) with args a dict;
// the result comes back as Starlark values (dicts with sorted keys,
// lists, int, float, string, bool, None), a tool's error as the call's
// error. print prints; the json and math modules are predeclared. The
// timeout cancels the thread (Thread.Cancel), MaxStarlarkSteps bounds its
// steps. Starlark has no threads: a workload that fans out from
// goroutines has no Starlark script.
type Starlark struct{}

// NewStarlark returns the Starlark peer.
func NewStarlark() *Starlark { return &Starlark{} }

// Name implements harness.Engine.
func (*Starlark) Name() string { return "starlark" }

// Close implements harness.Engine.
func (*Starlark) Close() error { return nil }

// Prepare implements harness.Engine. Nothing is kept across runs but the
// source: each run compiles it.
func (*Starlark) Prepare(w *harness.Workload) (func(ctx context.Context) (string, error), error) {
	src, err := script("star", ".star", w)
	if err != nil {
		var ok bool
		if src, ok = curveScript("star", w); !ok {
			return nil, err
		}
	}
	fns := tools(w)
	return func(ctx context.Context) (string, error) {
		ctx, cancel := deadline(ctx, w)
		defer cancel()
		return runStarlark(ctx, w.Name+".star", src, fns)
	}, nil
}

func runStarlark(ctx context.Context, name, src string, fns map[string]func(context.Context, map[string]any) (any, error)) (string, error) {
	var out output
	thread := &starlark.Thread{
		Name:  name,
		Print: func(_ *starlark.Thread, msg string) { out.WriteString(msg + "\n") },
	}
	thread.SetMaxExecutionSteps(MaxStarlarkSteps)
	stop := context.AfterFunc(ctx, func() { thread.Cancel(ctx.Err().Error()) })
	defer stop()

	callTool := starlark.NewBuiltin("call_tool", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var tool string
		var targs *starlark.Dict
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &tool, &targs); err != nil {
			return nil, err
		}
		fn := fns[tool]
		if fn == nil {
			return nil, fmt.Errorf("call_tool: unknown tool %q", tool)
		}
		m := map[string]any{}
		if targs != nil {
			for _, kv := range targs.Items() {
				k, ok := starlark.AsString(kv[0])
				if !ok {
					return nil, fmt.Errorf("call_tool %s: argument names must be strings, not %s", tool, kv[0].Type())
				}
				v, err := fromStarlark(kv[1])
				if err != nil {
					return nil, fmt.Errorf("call_tool %s: %s: %v", tool, k, err)
				}
				m[k] = v
			}
		}
		v, err := fn(ctx, m)
		if err != nil {
			return nil, err
		}
		return toStarlark(v)
	})
	predeclared := starlark.StringDict{"call_tool": callTool, "json": json.Module, "math": math.Module}

	_, prog, err := starlark.SourceProgramOptions(starlarkOptions, name, src, predeclared.Has)
	if err != nil {
		return "", fmt.Errorf("%w: %v", harness.ErrCompile, err)
	}
	_, err = prog.Init(thread, predeclared)
	return out.String(), timedOut(ctx, err)
}

// fromStarlark converts an argument to what a Go script passes: int,
// float64, string, bool, nil, []any and map[string]any.
func fromStarlark(v starlark.Value) (any, error) {
	switch v := v.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(v), nil
	case starlark.Int:
		if i, ok := v.Int64(); ok {
			return int(i), nil
		}
		return nil, fmt.Errorf("integer %s out of range", v)
	case starlark.Float:
		return float64(v), nil
	case starlark.String:
		return string(v), nil
	case *starlark.List, starlark.Tuple:
		it := v.(starlark.Iterable).Iterate()
		defer it.Done()
		s := []any{}
		var e starlark.Value
		for it.Next(&e) {
			x, err := fromStarlark(e)
			if err != nil {
				return nil, err
			}
			s = append(s, x)
		}
		return s, nil
	case *starlark.Dict:
		m := make(map[string]any, v.Len())
		for _, kv := range v.Items() {
			k, ok := starlark.AsString(kv[0])
			if !ok {
				return nil, fmt.Errorf("dict keys must be strings, not %s", kv[0].Type())
			}
			x, err := fromStarlark(kv[1])
			if err != nil {
				return nil, err
			}
			m[k] = x
		}
		return m, nil
	}
	return nil, fmt.Errorf("cannot pass a %s to a tool", v.Type())
}

// toStarlark converts a stub's result: maps become dicts (keys in sorted
// order), slices and arrays lists, numbers int or float, nil None.
func toStarlark(x any) (starlark.Value, error) {
	switch x := x.(type) {
	case nil:
		return starlark.None, nil
	case string:
		return starlark.String(x), nil
	case bool:
		return starlark.Bool(x), nil
	case int:
		return starlark.MakeInt(x), nil
	case int64:
		return starlark.MakeInt64(x), nil
	case float64:
		return starlark.Float(x), nil
	case *big.Int:
		return starlark.MakeBigInt(x), nil
	case map[string]any:
		d := starlark.NewDict(len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			v, err := toStarlark(x[k])
			if err != nil {
				return nil, err
			}
			if err := d.SetKey(starlark.String(k), v); err != nil {
				return nil, err
			}
		}
		return d, nil
	case []any:
		items := make([]starlark.Value, len(x))
		for i, e := range x {
			v, err := toStarlark(e)
			if err != nil {
				return nil, err
			}
			items[i] = v
		}
		return starlark.NewList(items), nil
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			break
		}
		d := starlark.NewDict(rv.Len())
		keys := rv.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			v, err := toStarlark(rv.MapIndex(k).Interface())
			if err != nil {
				return nil, err
			}
			if err := d.SetKey(starlark.String(k.String()), v); err != nil {
				return nil, err
			}
		}
		return d, nil
	case reflect.Slice, reflect.Array:
		items := make([]starlark.Value, rv.Len())
		for i := range items {
			v, err := toStarlark(rv.Index(i).Interface())
			if err != nil {
				return nil, err
			}
			items[i] = v
		}
		return starlark.NewList(items), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return starlark.MakeInt64(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return starlark.MakeUint64(rv.Uint()), nil
	case reflect.Float32, reflect.Float64:
		return starlark.Float(rv.Float()), nil
	case reflect.String:
		return starlark.String(rv.String()), nil
	case reflect.Bool:
		return starlark.Bool(rv.Bool()), nil
	}
	return nil, fmt.Errorf("cannot convert a tool's %T to Starlark", x)
}
