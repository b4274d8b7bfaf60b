package engine

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/toolscript/toolscript/internal/yaegi/interp"

	"github.com/toolscript/toolscript/projection"
)

// toolsPackage is the package of tools without a namespace, and of the
// dynamic tools.Call.
const toolsPackage = "tools"

// surface is how a namespace appears to scripts: Go packages of functions.
// It is derived from the namespace map on each Execute (cheaply: names
// only) and cached by the engine per namespace map identity... not yet;
// see Engine.surfaceFor.
type surface struct {
	pkgs   map[string][]toolFunc // package name -> functions, sorted
	index  map[string]projection.ToolProjection
	search projection.ToolProjection // the namespace's RoleSearch entry, nil if none
	names  []string                  // what tools.Names returns: the plain tools, sorted

	typedSurface // the typed tools, built on first use (typed.go)
}

// SearchLimit is the number of tools a script's tools.Search returns at
// most.
const SearchLimit = 10

// SearchResult is one tool found by a script's tools.Search: its name
// (for tools.Call), its Go signature and its description.
type SearchResult struct {
	Name        string
	Signature   string
	Description string
}

// toolFunc is one tool as a function of a script package.
type toolFunc struct {
	goName string // exported Go identifier, e.g. "Multiply"
	tool   projection.ToolProjection
}

// splitName returns the namespace and method of a tool: from the
// projection when it implements projection.Namespaced, else by cutting the
// name at its first "-" or ".".
func splitName(p projection.ToolProjection) (ns, method string) {
	if n, ok := p.(projection.Namespaced); ok {
		return n.Namespace(), n.MethodName()
	}
	name := p.Name()
	if i := strings.IndexAny(name, "-."); i > 0 && i < len(name)-1 {
		return name[:i], name[i+1:]
	}
	return "", name
}

// PackageName returns the Go package name under which a script sees the
// tools of namespace ns: ns with every character that cannot appear in a
// Go identifier replaced by "_", "tools" for the empty namespace, and
// "ns" followed by the underscores for a namespace of underscores only
// (the blank identifier cannot name a package). It is
// projection.GoPackageName.
func PackageName(ns string) string { return projection.GoPackageName(ns) }

// FuncName returns the exported Go identifier of a tool's method name:
// "get_user_info" -> "GetUserInfo", "multiply" -> "Multiply". It is
// projection.GoFuncName.
func FuncName(method string) string { return projection.GoFuncName(method) }

// buildSurface groups a namespace into script packages. Two tools whose
// names map to the same function keep the first by name; the other stays
// reachable through tools.Call.
func buildSurface(ns map[string]projection.ToolProjection) *surface {
	s := &surface{pkgs: map[string][]toolFunc{}, index: ns}
	names := make([]string, 0, len(ns))
	for name := range ns {
		names = append(names, name)
	}
	sort.Strings(names)
	taken := map[string]bool{}
	plain := names[:0:0]
	for _, name := range names {
		if r, ok := ns[name].(projection.Roled); ok {
			switch r.Role() {
			case projection.RoleSearch:
				if s.search == nil {
					s.search = r
				}
				continue
			case projection.RoleWithheld:
				continue // reachable by tools.Call only
			}
		}
		plain = append(plain, name)
	}
	s.names = plain
	for _, name := range plain {
		p := ns[name]
		nsName, method := splitName(p)
		pkg := PackageName(nsName)
		fn := FuncName(method)
		if pkg == toolsPackage && (fn == "Call" || fn == "Names" || fn == "Decode" || fn == "Search" && s.search != nil) {
			continue // reserved for the dynamic API
		}
		key := pkg + "." + fn
		if taken[key] {
			continue
		}
		taken[key] = true
		s.pkgs[pkg] = append(s.pkgs[pkg], toolFunc{goName: fn, tool: p})
	}
	if _, ok := s.pkgs[toolsPackage]; !ok {
		s.pkgs[toolsPackage] = nil
	}
	return s
}

// searchTools is a script's tools.Search: a call of the namespace's search
// entry (in the trace, like any tool call; in the isolated runtime it runs
// in the host), whose result becomes SearchResults.
func (x *execution) searchTools(p projection.ToolProjection, query string) ([]SearchResult, error) {
	v, err := x.callTool(p, map[string]any{"query": query, "limit": SearchLimit})
	if err != nil {
		return nil, err
	}
	var items []map[string]any
	switch l := v.(type) {
	case nil:
	case []map[string]any:
		items = l
	case []any:
		for _, e := range l {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, &ToolError{Tool: p.Name(), Err: fmt.Errorf("engine: a tool search result is a %T, not a map", e)}
			}
			items = append(items, m)
		}
	default:
		return nil, &ToolError{Tool: p.Name(), Err: fmt.Errorf("engine: a tool search returned a %T, not a list", v)}
	}
	out := make([]SearchResult, len(items))
	for i, m := range items {
		out[i].Name, _ = m["name"].(string)
		out[i].Signature, _ = m["signature"].(string)
		out[i].Description, _ = m["description"].(string)
	}
	return out, nil
}

// kwargsFunc is the script-side signature of a tool without typed
// arguments.
type kwargsFunc = func(args map[string]any) (any, error)

// ownedCall returns the interpreter's OwnedCall hook for an execution
// whose script imports imports, or nil when it imports no tool package: a
// tool called with a map literal written in the call gets that map as its
// own (callOwned), instead of a copy.
func (s *surface) ownedCall(x *execution, imports []string) func(pkgPath, name string) func(map[string]any) (any, error) {
	uses := false
	for _, path := range imports {
		if _, ok := s.pkgs[path]; ok {
			uses = true
			break
		}
	}
	if !uses {
		return nil
	}
	return func(pkgPath, name string) func(map[string]any) (any, error) {
		for _, f := range s.pkgs[pkgPath] {
			if f.goName == name {
				tool := f.tool
				return func(args map[string]any) (any, error) { return x.callOwned(tool, args) }
			}
		}
		return nil
	}
}

// exports returns the host packages for the tool packages the program
// imports, bound to this execution.
func (s *surface) exports(x *execution, imports []string) interp.Exports {
	ex := interp.Exports{}
	for _, path := range imports {
		funcs, ok := s.pkgs[path]
		if !ok {
			continue
		}
		syms := make(map[string]reflect.Value, len(funcs)+2)
		for _, f := range funcs {
			tool := f.tool
			var fn kwargsFunc = func(args map[string]any) (any, error) { return x.callTool(tool, args) }
			syms[f.goName] = reflect.ValueOf(fn)
		}
		if tp := s.typed(path); tp != nil {
			tp.symbols(s, x, syms) // typed.go
		}
		if path == toolsPackage {
			syms["Decode"] = reflect.ValueOf(decodeInto)
			syms["Call"] = reflect.ValueOf(func(name string, args map[string]any) (any, error) {
				p, ok := s.index[name]
				if !ok {
					return nil, &ToolError{Tool: name, Err: fmt.Errorf("%w: %q is not in the namespace (tools.Names() lists them)", ErrUnknownTool, name)}
				}
				return x.callTool(p, args)
			})
			syms["Names"] = reflect.ValueOf(func() []string {
				return append([]string(nil), s.names...)
			})
			if s.search != nil {
				syms["Search"] = reflect.ValueOf(func(query string) ([]SearchResult, error) {
					return x.searchTools(s.search, query)
				})
				syms["SearchResult"] = reflect.ValueOf((*SearchResult)(nil))
			}
		}
		ex[path+"/"+path] = syms
	}
	return ex
}
