package policy

import (
	"embed"
	"encoding"
	"encoding/json"
	"fmt"
	"io/fs"
	"log"
	"reflect"
	"strings"
	"sync"

	"github.com/toolscript/toolscript/internal/policy/stdlib"
	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

//go:generate go run ./gen -o stdlib -allowlist allowlist.go

//go:embed all:_gosrc
var goSource embed.FS

// sourceFS is the interpreter's only source file system: the embedded
// generic packages under src/. Relative imports and everything else on the
// host's disk are out of reach.
var sourceFS = func() fs.FS {
	sub, err := fs.Sub(goSource, "_gosrc")
	if err != nil {
		panic(err)
	}
	return sub
}()

// SourceFS returns the interpreter's source file system
// (interp.Options.SourcecodeFilesystem, with GoPath "."): the embedded
// slices, maps, cmp and iter, and nothing else.
func SourceFS() fs.FS { return sourceFS }

// symbolTable is the allowlisted packages' symbols (package stdlib,
// generated from the toolchain's standard library by go generate), with
// settable package variables replaced by read-only copies and the symbols
// replaced per execution left out. It is built once per process and
// shared, read-only, by every interpreter.
type symbolTable struct {
	pkgs     map[string]interp.Exports  // import path -> {"path/./name": symbols}
	mapTypes interp.Exports             // the interface wrappers fmt, log and json see (mapTypes)
	hostOnly map[string]interp.Exports  // import path -> the symbols of a package only source packages import
	wrapDeps map[string][]string        // import path -> the packages whose interfaces its functions take (wrapperdeps.go)
	wrappers map[string]interp.Exports  // import path -> its interface wrappers alone
	byName   map[string]string          // package name -> import path, for auto-imports
	vars     map[string]map[string]bool // package name -> its variables, read-only to scripts
	// copies are the package variables scripts get deep copies of, per
	// execution (see pkgstate.go): import path -> name -> host value;
	// copyNames indexes them by name.
	copies    map[string]map[string]reflect.Value
	copyNames map[string][]copyVar
}

var (
	symbolsOnce sync.Once
	symbols     *symbolTable
)

// Load builds the process's symbol table, if it is not built yet: the
// first execution need not pay for it.
func Load() { table() }

// table returns the process's symbol table, built on first use.
func table() *symbolTable {
	symbolsOnce.Do(func() { symbols = buildTable() })
	return symbols
}

// exportKey is the key of path's symbols in interp.Exports. "fmt/fmt"
// makes yaegi redirect stdio and compile its own generic sources on every
// interpreter, which costs milliseconds; the equivalent key "fmt/./fmt"
// does not, and the replacements of fmt's printing functions (exports.go)
// redirect output themselves.
func exportKey(path string) string {
	return path + "/./" + path[strings.LastIndex(path, "/")+1:]
}

func buildTable() *symbolTable {
	t := &symbolTable{pkgs: map[string]interp.Exports{}, byName: map[string]string{}, vars: map[string]map[string]bool{},
		copies: map[string]map[string]reflect.Value{}, copyNames: map[string][]copyVar{}}
	perExecution := replacedNames()
	for _, path := range allowlist {
		name := path[strings.LastIndex(path, "/")+1:]
		src, ok := stdlib.Symbols[path]
		if !ok {
			panic("policy: allowlisted package has no generated symbols (run go generate ./internal/policy): " + path)
		}
		if own, ok := replacedTables[path]; ok {
			src = own // see pkgstate.go
		}
		skip := perExecution[path] // replaced per execution, see exports.go
		if skip == nil {
			skip = map[string]bool{}
		}
		for _, s := range append(copiedFuncs[path], removedSymbols[path]...) {
			skip[s] = true // per execution or absent, see pkgstate.go
		}
		syms := make(map[string]reflect.Value, len(src))
		for s, v := range src {
			if skip[s] {
				continue
			}
			if v.CanSet() {
				// A package variable: export a copy, so a script
				// can read it but not assign the host's.
				v = reflect.ValueOf(v.Interface())
				if t.vars[name] == nil {
					t.vars[name] = map[string]bool{}
				}
				t.vars[name][s] = true
				if !sharedVar(src[s]) {
					// Copied per execution for the scripts that
					// name it (see pkgstate.go).
					if t.copies[path] == nil {
						t.copies[path] = map[string]reflect.Value{}
					}
					t.copies[path][s] = src[s]
					t.copyNames[s] = append(t.copyNames[s], copyVar{path: path, name: s, host: src[s]})
					continue
				}
			}
			syms[s] = v
		}
		for s, v := range replacedSymbols[path] {
			syms[s] = v // see pkgstate.go
		}
		t.pkgs[path] = interp.Exports{exportKey(path): syms}
		t.byName[name] = path
	}
	for _, path := range ownPackages {
		t.byName[path] = path
	}
	// fmt's and log's printing functions, which must see the script's
	// Error methods too, are replaced per execution and get theirs there
	// (exports.go).
	t.mapTypes = interp.Exports{".": {"MapTypes": reflect.ValueOf(mapTypes())}}
	allowed := map[string]bool{}
	for _, path := range allowlist {
		allowed[path] = true
	}
	t.wrapDeps = wrapperDeps(allowed)
	t.wrappers = map[string]interp.Exports{}
	for _, deps := range t.wrapDeps {
		for _, dep := range deps {
			if _, ok := t.wrappers[dep]; !ok {
				t.wrappers[dep] = wrapperTable(dep)
			}
		}
	}
	t.hostOnly = map[string]interp.Exports{}
	for path, syms := range hostOnly {
		t.hostOnly[path] = interp.Exports{exportKey(path): syms}
	}
	return t
}

// mapTypes are the interfaces the interpreter implements on a script
// value passed to a native function that takes any but does something
// special when its argument implements one of them (String on fmt.Sprint's
// argument, MarshalJSON on json.Marshal's): native function -> those
// interfaces.
func mapTypes() map[reflect.Value][]reflect.Type {
	printing := []reflect.Type{reflect.TypeFor[fmt.Formatter](), reflect.TypeFor[fmt.Stringer]()}
	scanning := []reflect.Type{reflect.TypeFor[fmt.Scanner]()}
	mt := map[reflect.Value][]reflect.Type{}
	for _, f := range []any{fmt.Errorf, fmt.Fprint, fmt.Fprintf, fmt.Fprintln, fmt.Print, fmt.Printf, fmt.Println,
		fmt.Sprint, fmt.Sprintf, fmt.Sprintln, log.Fatal, log.Fatalf, log.Fatalln, log.Panic, log.Panicf, log.Panicln} {
		mt[reflect.ValueOf(f)] = printing
	}
	// All of fmt's scanning functions (toolscript patch 172: Sscan and
	// Fscan too).
	for _, f := range []any{fmt.Scan, fmt.Scanf, fmt.Scanln, fmt.Sscan, fmt.Sscanf, fmt.Sscanln, fmt.Fscan, fmt.Fscanf, fmt.Fscanln} {
		mt[reflect.ValueOf(f)] = scanning
	}
	mt[reflect.ValueOf(json.Marshal)] = []reflect.Type{reflect.TypeFor[json.Marshaler](), reflect.TypeFor[encoding.TextMarshaler]()}
	mt[reflect.ValueOf(json.Unmarshal)] = []reflect.Type{reflect.TypeFor[json.Unmarshaler](), reflect.TypeFor[encoding.TextUnmarshaler]()}
	return mt
}

// UseShared gives use (an interpreter's UseShared) the shared tables a
// script importing imports needs: each allowlisted package, the host
// packages of the source packages, and the interface wrappers (mapTypes) when
// it prints. The tables are prepared once per process and shared by every
// interpreter, not copied into each.
func UseShared(imports []string, use func(interp.Exports) error) error {
	t := table()
	wrappers := false
	for _, path := range imports {
		switch path {
		case "fmt", "log", "encoding/json":
			wrappers = true
		}
	}
	if wrappers {
		if err := use(t.mapTypes); err != nil {
			return err
		}
	}
	loaded := map[string]bool{}
	for _, path := range imports {
		if pkg, ok := t.pkgs[path]; ok {
			if err := use(pkg); err != nil {
				return err
			}
		}
		loaded[path] = true
		for _, dep := range sourceDeps[path] {
			syms, ok := t.pkgs[dep]
			if !ok {
				syms = t.hostOnly[dep]
			}
			if err := use(syms); err != nil {
				return err
			}
			loaded[dep] = true
		}
	}
	// The interface wrappers of the packages not imported whose
	// interfaces the imported packages' functions take (wrapperdeps.go).
	for _, path := range imports {
		for _, dep := range t.wrapDeps[path] {
			if loaded[dep] || t.wrappers[dep] == nil {
				continue
			}
			loaded[dep] = true
			if err := use(t.wrappers[dep]); err != nil {
				return err
			}
		}
	}
	return nil
}
