package policy

import (
	"reflect"
	"strings"

	"github.com/toolscript/toolscript/internal/policy/stdlib"
	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

// The interface wrappers of the packages a script does not import: a
// script value given to a native function as an interface of another
// package (a script Writer to fmt.Fprintf's io.Writer, a script Reader to
// bufio.NewScanner's io.Reader) is converted to that package's wrapper
// (the _Writer symbol of io), which the interpreter looks up among the
// packages loaded. Without io imported the conversion crashed with a nil
// pointer dereference naming no line. A package's wrapper dependencies
// are the packages of the interfaces with methods its functions and its
// types' methods take; only their wrappers ("_Name" symbols) are loaded,
// which a script cannot name.

// wrapperDeps returns, for each allowlisted package, the other
// allowlisted packages whose interface types its functions take.
func wrapperDeps(allowed map[string]bool) map[string][]string {
	deps := map[string][]string{}
	for path := range allowed {
		seen := map[string]bool{}
		add := func(ft reflect.Type) {
			for i := 0; i < ft.NumIn(); i++ {
				in := ft.In(i)
				if ft.IsVariadic() && i == ft.NumIn()-1 {
					in = in.Elem()
				}
				if in.Kind() != reflect.Interface || in.NumMethod() == 0 {
					continue
				}
				p := in.PkgPath()
				if p == "" || p == path || seen[p] || !allowed[p] {
					continue
				}
				seen[p] = true
				deps[path] = append(deps[path], p)
			}
		}
		for name, v := range stdlib.Symbols[path] {
			if strings.HasPrefix(name, "_") || !v.IsValid() {
				continue
			}
			t := v.Type()
			switch {
			case t.Kind() == reflect.Func:
				add(t)
			case t.Kind() == reflect.Ptr && v.IsNil(): // a type, as (*T)(nil)
				for _, mt := range []reflect.Type{t.Elem(), t} {
					if mt.Kind() == reflect.Interface {
						continue
					}
					for i := 0; i < mt.NumMethod(); i++ {
						add(mt.Method(i).Type)
					}
				}
			}
		}
	}
	return deps
}

// wrapperTable returns the interface wrappers of the package path only.
func wrapperTable(path string) interp.Exports {
	syms := map[string]reflect.Value{}
	for name, v := range stdlib.Symbols[path] {
		if strings.HasPrefix(name, "_") {
			syms[name] = v
		}
	}
	if len(syms) == 0 {
		return nil
	}
	return interp.Exports{exportKey(path): syms}
}
