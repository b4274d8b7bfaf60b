package engine

import (
	"embed"
	"fmt"
	"io/fs"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/toolscript/toolscript/internal/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// Packages is the allowlist of standard packages a script may import, by
// import path. None of them reaches the file system, the network, the
// process environment or other processes, and none can change the host:
// their package variables are exported as read-only copies.
//
// Three more names are provided by toolscript itself: "os" (only Exit,
// Stdout, Stderr, Args and Getenv, all confined to the execution), and
// "slices", "maps" and "cmp" (generic helpers interpreted from source,
// compiled only when a script imports them).
//
// Deliberately absent: os (the real one), os/exec, net, net/http, syscall,
// unsafe, reflect, runtime, plugin, io/fs, io/ioutil, path/filepath,
// crypto/rand, database/sql, log/syslog, testing.
var Packages = []string{
	"bufio", "bytes", "container/heap", "container/list", "container/ring",
	"context", "crypto/md5", "crypto/sha1", "crypto/sha256", "crypto/sha512",
	"encoding/base64", "encoding/csv", "encoding/hex", "encoding/json",
	"errors", "fmt", "hash/crc32", "hash/fnv", "html", "io", "log", "math",
	"math/big", "math/bits", "math/rand", "net/url", "path", "regexp", "sort",
	"strconv", "strings", "sync", "sync/atomic", "text/tabwriter",
	"text/template", "time", "unicode", "unicode/utf16", "unicode/utf8",
}

// sourcePackages are packages interpreted from embedded source.
var sourcePackages = map[string]bool{"slices": true, "maps": true, "cmp": true}

// sourceDeps are the host packages each source package imports.
var sourceDeps = map[string][]string{"slices": {"sort"}}

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

// symbolTable is the allowlisted subset of yaegi's stdlib symbols, with
// settable package variables replaced by read-only copies. It is built once
// per process and shared, read-only, by every interpreter.
type symbolTable struct {
	pkgs     map[string]interp.Exports  // import path -> {"path/name": symbols}
	mapTypes interp.Exports             // interface wrappers for fmt and friends
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

// printMapTypes are the interfaces the interpreter implements on script
// values passed to fmt's functions.
var printMapTypes = []reflect.Type{
	reflect.TypeFor[fmt.Formatter](),
	reflect.TypeFor[fmt.Stringer](),
	reflect.TypeFor[error](),
}

// replaced per execution (see runtime.go); absent from the shared table.
var perExecution = map[string][]string{
	"fmt":     {"Print", "Printf", "Println", "Scan", "Scanf", "Scanln", "Sprint", "Sprintf", "Sprintln", "Errorf", "Fprint", "Fprintf", "Fprintln", "Append", "Appendf", "Appendln"},
	"log":     {"Fatal", "Fatalf", "Fatalln", "Flags", "Output", "Panic", "Panicf", "Panicln", "Prefix", "Print", "Printf", "Println", "SetFlags", "SetOutput", "SetPrefix", "Writer", "Default"},
	"time":    {"Sleep", "AfterFunc"},
	"context": {"AfterFunc", "WithCancel", "WithCancelCause", "WithDeadline", "WithDeadlineCause", "WithTimeout", "WithTimeoutCause", "WithValue", "WithoutCancel"},
	"errors":  {"As"},
	"strings": {"Repeat"},
	"bytes":   {"Repeat"},
}

func loadSymbols() *symbolTable {
	symbolsOnce.Do(func() {
		t := &symbolTable{pkgs: map[string]interp.Exports{}, byName: map[string]string{}, vars: map[string]map[string]bool{},
			copies: map[string]map[string]reflect.Value{}, copyNames: map[string][]copyVar{}}
		for _, path := range Packages {
			name := path[strings.LastIndex(path, "/")+1:]
			key := path + "/" + name
			src, ok := stdlib.Symbols[key]
			if !ok {
				panic("engine: allowlisted package missing from yaegi stdlib: " + path)
			}
			if own, ok := replacedTables[path]; ok {
				src = own // see pkgstate.go
			}
			skip := map[string]bool{}
			for _, s := range perExecution[path] {
				skip[s] = true
			}
			for s := range guardedFuncs[path] {
				skip[s] = true // replaced per execution, see guards_alloc.go
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
			// "fmt/fmt" makes yaegi redirect stdio and compile its own
			// generic sources on every interpreter, which costs
			// milliseconds; the equivalent key "fmt/./fmt" does not,
			// and toolscript redirects output itself.
			exportKey := path + "/./" + name
			t.pkgs[path] = interp.Exports{exportKey: syms}
			t.byName[name] = path
		}
		for path := range sourcePackages {
			t.byName[path] = path
		}
		t.byName["os"] = "os"
		// yaegi's own interface wrappers; fmt's and log's printing
		// functions, which must see the script's Error methods too, are
		// replaced per execution and get theirs there (runtime.go).
		mt := make(map[reflect.Value][]reflect.Type, len(stdlib.MapTypes))
		for k, v := range stdlib.MapTypes {
			mt[k] = v
		}
		t.mapTypes = interp.Exports{".": {"MapTypes": reflect.ValueOf(mt)}}
		symbols = t
	})
	return symbols
}

// allowedPackages returns the sorted import paths a script may use besides
// its tool packages.
func allowedPackages() []string {
	out := append([]string(nil), Packages...)
	out = append(out, "os", "slices", "maps", "cmp")
	sort.Strings(out)
	return out
}
