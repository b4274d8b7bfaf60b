package peers

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/toolscript/toolscript/bench/harness"
	"github.com/toolscript/toolscript/engine"
)

// Yaegi is the upstream yaegi peer: github.com/traefik/yaegi as released,
// without toolscript's patches, a fresh interpreter per run with the
// standard library (stdlib.Symbols) and the workload's tools exported as
// Go functions: the tool "get_customer" is tools.GetCustomer(args
// map[string]any) (any, error), as toolscript names it, and tools.Call(name,
// args) calls any tool. The script is the workload's own Go source, made a
// program upstream accepts by Adapt, with the fixes of yaegiFixes where
// upstream fails on valid Go. The timeout cancels the
// evaluation's context (Interpreter.EvalWithContext).
type Yaegi struct{}

// NewYaegi returns the upstream yaegi peer.
func NewYaegi() *Yaegi { return &Yaegi{} }

// Name implements harness.Engine.
func (*Yaegi) Name() string { return "yaegi" }

// Close implements harness.Engine.
func (*Yaegi) Close() error { return nil }

// Prepare implements harness.Engine. Nothing is kept across runs but the
// adapted source: each run builds an interpreter and compiles it.
func (*Yaegi) Prepare(w *harness.Workload) (func(ctx context.Context) (string, error), error) {
	if w.Go == "" {
		return nil, fmt.Errorf("%w: %s has no Go script", harness.ErrUnsupported, w.Name)
	}
	if why, ok := yaegiFails[w.Name]; ok {
		return nil, fmt.Errorf("%w: upstream yaegi fails %s: %s", harness.ErrUnsupported, w.Name, why)
	}
	src := w.Go
	for _, f := range yaegiFixes[w.Name] {
		if !strings.Contains(src, f.old) {
			return nil, fmt.Errorf("the upstream yaegi fix of %s no longer applies: %q is gone", w.Name, f.old)
		}
		src = strings.ReplaceAll(src, f.old, f.new)
	}
	src, err := Adapt(src, w.Tools)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", harness.ErrUnsupported, err)
	}
	return func(ctx context.Context) (string, error) {
		ctx, cancel := deadline(ctx, w)
		defer cancel()
		return runYaegi(ctx, src, w.Tools)
	}, nil
}

func runYaegi(ctx context.Context, src string, specs []harness.ToolSpec) (string, error) {
	var out output
	i := interp.New(interp.Options{Stdout: &out, Stderr: &out})
	if err := i.Use(stdlib.Symbols); err != nil {
		return "", err
	}
	if err := i.Use(toolExports(ctx, specs)); err != nil {
		return "", err
	}
	// EvalWithContext compiles and runs at once, as code-mode engines
	// built on yaegi call it. (ExecuteWithContext, which would tell the
	// compiler's errors apart by itself, writes its results from its
	// goroutine after it has returned on the deadline: a data race.)
	_, err := i.EvalWithContext(ctx, src)
	var p interp.Panic
	switch {
	case err == nil, errors.As(err, &p):
	case ctx.Err() != nil:
		return out.String(), timedOut(ctx, err)
	default:
		// Neither a panic of the script nor the deadline: the compiler's.
		err = fmt.Errorf("%w: %v", harness.ErrCompile, err)
	}
	return out.String(), err
}

// yaegiFixes are the changes a workload's Go script needs to run on
// upstream yaegi, where it fails on valid Go: each is a bug of upstream's
// that toolscript's fork fixes, and the benchmark works around rather than
// drop the row.
var yaegiFixes = map[string][]struct{ old, new, why string }{
	"agent_shop": {{
		old: `switch o["status"] {`,
		new: `switch o["status"].(string) {`,
		why: "a switch on an interface value with string cases panics (reflect.Value.Convert: value of type interface {} cannot be converted to type string)",
	}},
	"fanout_100": {{
		old: "for i := 0; i < 100; i++ {\n\twg.Add(1)\n\tgo func(i int) {",
		new: "work := func(i int) {",
		why: "a function literal started as a goroutine in a loop races with the goroutines already started: " +
			"the literal's frame slot is read unlocked (getFunc) while each returning closure writes it back, " +
			"so a go statement can call a nil function (panic: reflect.Value.Call: call of nil function, " +
			"in a goroutine, which kills the process); declared once before the loop, the function is made before any goroutine runs",
	}, {
		old: "\t\tmu.Unlock()\n\t}(i)\n}",
		new: "\t\tmu.Unlock()\n\t}\nfor i := 0; i < 100; i++ {\n\twg.Add(1)\n\tgo work(i)\n}",
		why: "the loop of the same fix",
	}},
}

// yaegiFails are the workloads upstream yaegi (v0.16.1, on the Go that
// builds the benchmark) fails on, with no change a user would make: the
// column shows no figure for them (TestYaegi_Fails checks they still fail).
var yaegiFails = map[string]string{
	"corpus_100":  "a method promoted through an embedded struct is not found at run time (panic: method not found: Label)",
	"slices_sort": "its generic slices source is built for Go 1.21 and 1.22 only (undefined selector: slices.Sort)",
}

// toolExports makes the tools Go functions of their packages (tools for a
// name without namespace, as toolscript does), bound to the run's context.
func toolExports(ctx context.Context, specs []harness.ToolSpec) interp.Exports {
	exports := interp.Exports{}
	byName := map[string]func(context.Context, map[string]any) (any, error){}
	for _, t := range specs {
		pkg, fn := toolFunc(t.Name)
		path := pkg + "/" + pkg
		if exports[path] == nil {
			exports[path] = map[string]reflect.Value{}
		}
		stub := t.Fn
		exports[path][fn] = reflect.ValueOf(func(args map[string]any) (any, error) { return stub(ctx, args) })
		byName[t.Name] = t.Fn
	}
	if exports["tools/tools"] == nil {
		exports["tools/tools"] = map[string]reflect.Value{}
	}
	exports["tools/tools"]["Call"] = reflect.ValueOf(func(name string, args map[string]any) (any, error) {
		fn := byName[name]
		if fn == nil {
			return nil, fmt.Errorf("unknown tool %q", name)
		}
		return fn(ctx, args)
	})
	return exports
}

// toolFunc names a tool's package and function as toolscript does:
// "ns-method" or "ns.method" is ns.Method, a name without namespace
// tools.Name.
func toolFunc(name string) (pkg, fn string) {
	if i := strings.IndexAny(name, "-."); i > 0 && i < len(name)-1 {
		return engine.PackageName(name[:i]), engine.FuncName(name[i+1:])
	}
	return "tools", engine.FuncName(name)
}

// goPackages are the import paths of the standard packages a workload's
// script may use without importing them (toolscript imports them when
// used), by package name.
var goPackages = map[string]string{}

func init() {
	for _, p := range strings.Fields(`bufio bytes cmp container/heap container/list container/ring context
		crypto/md5 crypto/sha1 crypto/sha256 crypto/sha512 encoding/base64 encoding/csv encoding/hex
		encoding/json errors fmt hash/crc32 hash/fnv html io log maps math math/big math/bits math/rand
		net/url os path regexp slices sort strconv strings sync sync/atomic text/tabwriter text/template
		time unicode unicode/utf16 unicode/utf8`) {
		goPackages[p[strings.LastIndex(p, "/")+1:]] = p
	}
}

// Adapt turns a workload's toolscript script into a program upstream yaegi
// compiles, and changes nothing else: a script of bare statements becomes
// the body of func main, and the packages it uses (standard ones and the
// tools' packages), which toolscript imports by itself, are imported. A
// script with a package clause gets the imports of the tools' packages it
// uses, and is otherwise returned as it is. Scripts that declare
// functions or types at the top level among statements, or use
// toolscript's result(), are not adapted (an error says so).
func Adapt(src string, specs []harness.ToolSpec) (string, error) {
	fset := token.NewFileSet()
	toolPkgs := map[string]bool{"tools": true}
	for _, t := range specs {
		pkg, _ := toolFunc(t.Name)
		toolPkgs[pkg] = true
	}
	if f, err := parser.ParseFile(fset, "", src, parser.PackageClauseOnly); err == nil && f.Name != nil {
		full, err := parser.ParseFile(fset, "", src, 0)
		if err != nil {
			return src, nil // upstream reports it
		}
		var imports []string
		for _, id := range full.Unresolved {
			if toolPkgs[id.Name] && !slices.Contains(imports, id.Name) {
				imports = append(imports, id.Name)
			}
		}
		slices.Sort(imports)
		at := fset.Position(full.Name.End()).Offset
		var b strings.Builder
		b.WriteString(src[:at])
		for _, p := range imports {
			fmt.Fprintf(&b, "\n\nimport %q", p)
		}
		b.WriteString(src[at:])
		return b.String(), nil
	}
	wrapped := "package main\n\nfunc main() {\n" + src + "\n}\n"
	f, err := parser.ParseFile(fset, "", wrapped, 0)
	if err != nil {
		return "", fmt.Errorf("not bare statements: %v", err)
	}
	known := maps.Clone(goPackages)
	for pkg := range toolPkgs {
		known[pkg] = pkg
	}
	var imports []string
	for _, id := range f.Unresolved {
		if id.Name == "result" {
			return "", fmt.Errorf("uses toolscript's result()")
		}
		if p, ok := known[id.Name]; ok && !slices.Contains(imports, p) {
			imports = append(imports, p)
		}
	}
	slices.Sort(imports)
	var b strings.Builder
	b.WriteString("package main\n\n")
	for _, p := range imports {
		fmt.Fprintf(&b, "import %q\n", p)
	}
	b.WriteString("\nfunc main() {\n" + src + "\n}\n")
	return b.String(), nil
}
