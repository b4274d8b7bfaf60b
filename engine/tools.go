package engine

import (
	"fmt"
	"hash/maphash"
	"reflect"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/toolscript/toolscript/internal/typecheck"
	"github.com/toolscript/toolscript/internal/yaegi/interp"

	"github.com/toolscript/toolscript/projection"
)

// toolsPackage is the package of tools without a namespace, and of the
// dynamic tools.Call.
const toolsPackage = "tools"

// surface is how a namespace appears to scripts: Go packages of functions.
// It is built once per namespace (surfaceFor) and shared by every
// execution given that namespace: it holds only immutable data (the
// typed packages are built on first use, under their lock, and never
// change after), and nothing of an execution; what an execution binds
// to itself (exports, ownedCall, directCall, mapForm) is made for it.
type surface struct {
	pkgs   map[string][]toolFunc                // package name -> functions, sorted
	funcs  map[string]map[string]toolFunc       // package name -> Go name -> function
	index  map[string]projection.ToolProjection // a copy of the namespace
	search projection.ToolProjection            // the namespace's RoleSearch entry, nil if none
	names  []string                             // what tools.Names returns: the plain tools, sorted

	typedSurface // the typed tools, built on first use (typed.go)

	check struct { // the type checker, found on first use (typecheck.go)
		once sync.Once
		c    *typecheck.Checker

		mu      sync.Mutex
		results map[string]checked // by script: checkResult's cache
		bytes   int                // the scripts' bytes results holds
	}
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

// surfaces caches the surface of each namespace map executions are given,
// by the map's identity: a host that keeps its namespace and gives it to
// every Execute pays for the surface once. A map given again may have
// been changed in between (a tool added, removed or replaced): the entry
// keeps the map's entries as they were (the projections' identities),
// and surfaceFor uses it only when the map holds exactly those, one
// lookup per entry; a changed map gets a new surface.
// A host that builds a new map for every execution from the same
// projections (the registry's ScriptNamespace does) finds its surface by
// the entries' sum (entriesKey), again used only when the map holds
// exactly the cached entries: the sum finds a candidate, never decides.
var surfaces struct {
	sync.Mutex
	m         map[unsafe.Pointer]*cachedSurface
	byEntries map[entriesKey]*cachedSurface
}

// entriesKey finds the cached surface of a map with the same entries: its
// length and an order-independent sum over its entries (entrySum).
type entriesKey struct {
	n   int
	sum uint64
}

// entrySeed seeds entrySum's hashes for the process.
var entrySeed = maphash.MakeSeed()

// entrySum is the sum, over ns's entries, of a hash of each entry's name
// and its projection's identity.
func entrySum(ns map[string]projection.ToolProjection) entriesKey {
	var sum uint64
	for name, p := range ns {
		id := identity(p)
		sum += maphash.String(entrySeed, name) ^ (uint64(uintptr(id[0]))*0x9e3779b97f4a7c15 + uint64(uintptr(id[1])))
	}
	return entriesKey{len(ns), sum}
}

// maxSurfaces bounds surfaces; past it the cache starts again (as
// typedCache does).
const maxSurfaces = 16

// cachedSurface is the surface of a namespace map and the entries it was
// built from.
type cachedSurface struct {
	entries []nsEntry
	surf    *surface
}

// nsEntry is one entry of a namespace map: the tool's name and the
// identity of its projection (the interface's type and data words), so
// that a projection of a type == cannot compare (or whose == panics)
// compares too.
type nsEntry struct {
	name string
	p    [2]unsafe.Pointer
}

// identity returns the type and data words of p.
func identity(p projection.ToolProjection) [2]unsafe.Pointer {
	return *(*[2]unsafe.Pointer)(unsafe.Pointer(&p))
}

// holds reports whether ns holds exactly c's entries.
func (c *cachedSurface) holds(ns map[string]projection.ToolProjection) bool {
	if len(ns) != len(c.entries) {
		return false
	}
	for _, e := range c.entries {
		p, ok := ns[e.name]
		if !ok || identity(p) != e.p {
			return false
		}
	}
	return true // as many entries, each one of c's: the same map
}

// surfaceFor returns the surface of ns, validated
// (projection.ValidateNamespace): the cached one when ns is a map given
// before and unchanged since, else a new one, then cached. A projection's
// name, role and schemas are read when its surface is built: a
// projection must not change them (replace it by another in the map).
func surfaceFor(ns map[string]projection.ToolProjection) (*surface, error) {
	key := *(*unsafe.Pointer)(unsafe.Pointer(&ns)) // the map's identity
	surfaces.Lock()
	c := surfaces.m[key]
	surfaces.Unlock()
	if c != nil && c.holds(ns) {
		return c.surf, nil
	}
	ek := entrySum(ns)
	surfaces.Lock()
	c = surfaces.byEntries[ek]
	surfaces.Unlock()
	if c != nil && c.holds(ns) {
		if key != nil {
			surfaces.Lock()
			if surfaces.m == nil || len(surfaces.m) >= maxSurfaces {
				surfaces.m = map[unsafe.Pointer]*cachedSurface{}
			}
			surfaces.m[key] = c
			surfaces.Unlock()
		}
		return c.surf, nil
	}
	if err := projection.ValidateNamespace(ns); err != nil {
		return nil, err
	}
	c = &cachedSurface{entries: make([]nsEntry, 0, len(ns)), surf: buildSurface(ns)}
	for name, p := range c.surf.index {
		c.entries = append(c.entries, nsEntry{name: name, p: identity(p)})
	}
	surfaces.Lock()
	if surfaces.byEntries == nil || len(surfaces.byEntries) >= maxSurfaces {
		surfaces.byEntries = map[entriesKey]*cachedSurface{}
	}
	surfaces.byEntries[ek] = c
	if key != nil { // a nil map has no identity to key by
		if surfaces.m == nil || len(surfaces.m) >= maxSurfaces {
			surfaces.m = map[unsafe.Pointer]*cachedSurface{}
		}
		surfaces.m[key] = c
	}
	surfaces.Unlock()
	return c.surf, nil
}

// buildSurface groups a namespace into script packages. Two tools whose
// names map to the same function keep the first by name; the other stays
// reachable through tools.Call.
func buildSurface(ns map[string]projection.ToolProjection) *surface {
	s := &surface{pkgs: map[string][]toolFunc{}, funcs: map[string]map[string]toolFunc{}, index: make(map[string]projection.ToolProjection, len(ns))}
	names := make([]string, 0, len(ns))
	for name, p := range ns {
		names = append(names, name)
		s.index[name] = p
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
		if s.funcs[pkg] == nil {
			s.funcs[pkg] = map[string]toolFunc{}
		}
		s.funcs[pkg][fn] = toolFunc{goName: fn, tool: p}
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
		if f, ok := s.funcs[pkgPath][name]; ok {
			tool := f.tool
			site := new(argKeys) // the interpreter asks once per call site
			return func(args map[string]any) (any, error) { return x.callOwnedAt(tool, args, site) }
		}
		return nil
	}
}

// exports returns the host packages for the tool packages the program
// imports, bound to this execution: of each, only the names src, the
// program's source, names (scriptNames), so that binding costs what the
// script uses, not the size of the namespace. The interpreter looks a
// package's symbols up when it compiles a selector, so a name src does
// not hold is never asked for; a package src dot-imports is bound whole.
func (s *surface) exports(x *execution, imports []string, src string) interp.Exports {
	ex := interp.Exports{}
	var named map[string]bool // nil until a tool package is imported
	var dotted map[string]bool
	for _, path := range imports {
		funcs, ok := s.pkgs[path]
		if !ok {
			continue
		}
		if named == nil {
			named, dotted = scriptNames(src)
		}
		tp := s.typed(path)
		var syms map[string]reflect.Value
		if dotted[path] {
			syms = make(map[string]reflect.Value, len(funcs)+4)
			for _, f := range funcs {
				syms[f.goName] = x.toolFunction(f.tool)
			}
			if tp != nil {
				tp.symbols(s, x, syms, nil) // typed.go
			}
		} else {
			syms = map[string]reflect.Value{}
			byName := s.funcs[path]
			for name := range named {
				if f, ok := byName[name]; ok {
					syms[name] = x.toolFunction(f.tool)
				}
			}
			if tp != nil {
				tp.symbols(s, x, syms, named) // typed.go
			}
		}
		if tp != nil && len(tp.names) > 0 {
			syms[interp.TypeNamesSymbol] = reflect.ValueOf(tp.names) // fork patch 91
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

// toolFunction is the map form of tool, bound to x: a script's
// func(args map[string]any) (any, error).
func (x *execution) toolFunction(tool projection.ToolProjection) reflect.Value {
	var fn kwargsFunc = func(args map[string]any) (any, error) { return x.callTool(tool, args) }
	return reflect.ValueOf(fn)
}

// scriptNames returns the identifiers of src that can name a member of
// an imported package (each identifier after a "."; comments and blanks
// between them allowed, as Go allows them), and the import paths src
// dot-imports (a "." followed by a string literal). Both are supersets
// (a field, a method, a name in a string or comment count too), which
// only binds a name that is never used.
func scriptNames(src string) (names, dotted map[string]bool) {
	names = map[string]bool{}
	for i := 0; i < len(src); i++ {
		if src[i] != '.' {
			continue
		}
		j := skipBlank(src, i+1)
		if j < len(src) && (src[j] == '"' || src[j] == '`') { // Go takes a raw string as an import path too
			if k := strings.IndexByte(src[j+1:], src[j]); k >= 0 {
				if dotted == nil {
					dotted = map[string]bool{}
				}
				dotted[src[j+1:j+1+k]] = true
			}
			continue
		}
		k := j
		for k < len(src) {
			r, size := utf8.DecodeRuneInString(src[k:])
			if r != '_' && !unicode.IsLetter(r) && (k == j || !unicode.IsDigit(r)) {
				break
			}
			k += size
		}
		if k > j {
			names[src[j:k]] = true
		}
	}
	return names, dotted
}

// skipBlank returns the index of the first byte of src at or after i that
// is neither white space nor in a comment.
func skipBlank(src string, i int) int {
	for i < len(src) {
		switch {
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r':
			i++
		case strings.HasPrefix(src[i:], "//"):
			k := strings.IndexByte(src[i:], '\n')
			if k < 0 {
				return len(src)
			}
			i += k + 1
		case strings.HasPrefix(src[i:], "/*"):
			k := strings.Index(src[i+2:], "*/")
			if k < 0 {
				return len(src)
			}
			i += k + 4
		default:
			return i
		}
	}
	return i
}
