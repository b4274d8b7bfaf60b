package policy

import (
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

// TestAllowlist_Complete checks what adding a package takes (the package
// doc's steps): every import path scripts may use has symbols, lines in
// the reviewed golden file, a package name that auto-imports it, and
// compiles in a script with the interpreter set up as the engine sets it
// up (UseShared, Exports).
func TestAllowlist_Complete(t *testing.T) {
	golden, err := os.ReadFile(goldenSymbols)
	require.NoError(t, err)
	inGolden := map[string]bool{}
	for _, l := range strings.Split(string(golden), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] != "method" {
			inGolden[f[1][:strings.LastIndex(f[1], ".")]] = true
		}
	}
	require.NotEmpty(t, Paths())
	for _, path := range Paths() {
		t.Run(path, func(t *testing.T) {
			assert.True(t, Allowed(path))
			name := path[strings.LastIndex(path, "/")+1:]
			got, ok := PathOf(name)
			assert.True(t, ok, "package name %s auto-imports nothing", name)
			assert.Equal(t, path, got)
			if sourcePackages[path] {
				_, err := fs.Stat(SourceFS(), "src/"+path)
				assert.NoError(t, err, "source package without embedded source")
			} else {
				assert.True(t, inGolden[path], "no line of %s in %s: run the audit with -update and review it", path, goldenSymbols)
				ex := Exports([]string{path}, "", nopHooks{})
				n := len(ex[exportKey(path)]) + len(ex["os/os"]) + len(table().pkgs[path][exportKey(path)])
				assert.Positive(t, n, "no symbols")
			}
			it := interp.New(interp.Options{SourcecodeFilesystem: SourceFS(), GoPath: ".",
				ReadOnlyTypes: ReadOnlyTypes(), HiddenFieldType: HiddenFieldType})
			imports := []string{path}
			require.NoError(t, UseShared(imports, it.UseShared))
			require.NoError(t, it.Use(Exports(imports, "", nopHooks{})))
			_, err := it.Compile(fmt.Sprintf("package main\nimport _ %q\nfunc main() {}\n", path))
			assert.NoError(t, err, "a script cannot import it")
		})
	}
}

// TestAllowlist_Refused checks that a path outside the allowlist is
// refused and auto-imports nothing, and that Paths gives a copy.
func TestAllowlist_Refused(t *testing.T) {
	for _, path := range []string{"os/exec", "net", "net/http", "syscall", "unsafe", "reflect", "runtime", "io/fs", "path/filepath", "crypto/rand", "testing", ""} {
		assert.False(t, Allowed(path), path)
	}
	for _, name := range []string{"exec", "http", "syscall", "unsafe", "reflect", "filepath"} {
		_, ok := PathOf(name)
		assert.False(t, ok, name)
	}
	p := Paths()
	p[0] = "os/exec"
	assert.NotEqual(t, "os/exec", Paths()[0])
	assert.True(t, sort.StringsAreSorted(Paths()))
}

// internalPrefix is the import path prefix of the module's internal
// packages.
const internalPrefix = "github.com/toolscript/toolscript/internal/"

// reviewedInternalTypes are the only types of the module's internal
// packages scripts can reach: toolscript's text/template Template (the
// standard one without the methods that read files; its ExecError and
// FuncMap are the standard types) and os.File (os.Stdout and os.Stderr:
// Write, WriteString and Name to the execution's streams).
var reviewedInternalTypes = map[string]bool{
	internalPrefix + "texttemplate.Template": true,
	internalPrefix + "policy/os.File":        true,
}

// interfaceWrapper reports whether rt is one of the generated interface
// wrappers of package stdlib (_io_Reader): the interpreter's adapters of a
// script value to a standard interface, whose function fields are the
// script value's own methods. Scripts cannot name them ("_Reader" is no
// exported identifier).
func interfaceWrapper(rt reflect.Type) bool {
	return rt.PkgPath() == internalPrefix+"policy/stdlib" && strings.HasPrefix(rt.Name(), "_")
}

// reviewedInternalFuncs are the only functions of the module's internal
// packages other than this one (whose replacements are the reviewed
// script-facing versions of standard functions) that scripts get, by
// symbol: text/template's functions and the embedded time-zone database.
var reviewedInternalFuncs = map[string]string{
	"time.LoadLocation": "tzdb",
}

// TestNoInternalTypes checks that nothing of the module's internal
// packages is reachable from scripts beyond the reviewed lists: every
// type reachable from a symbol (through signatures, exported fields and
// method sets) and every function value of the table and the
// per-execution exports.
func TestNoInternalTypes(t *testing.T) {
	syms := scriptSymbols(t)
	var bad []string
	seen := map[reflect.Type]bool{}
	var walk func(rt reflect.Type, from string)
	walk = func(rt reflect.Type, from string) {
		if seen[rt] {
			return
		}
		seen[rt] = true
		if p := rt.PkgPath(); strings.HasPrefix(p, internalPrefix) && !reviewedInternalTypes[p+"."+rt.Name()] && !interfaceWrapper(rt) {
			bad = append(bad, fmt.Sprintf("type %s.%s reachable from %s", p, rt.Name(), from))
		}
		switch rt.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
			walk(rt.Elem(), from)
		case reflect.Map:
			walk(rt.Key(), from)
			walk(rt.Elem(), from)
		case reflect.Func:
			for _, pt := range funcTypes(rt) {
				walk(pt, from)
			}
		case reflect.Struct:
			for i := 0; i < rt.NumField(); i++ {
				if f := rt.Field(i); f.IsExported() && !HiddenFieldType(f.Type) {
					walk(f.Type, from+"."+f.Name)
				}
			}
		}
		recvs := []reflect.Type{rt}
		if rt.Kind() != reflect.Pointer && rt.Kind() != reflect.Interface {
			recvs = append(recvs, reflect.PointerTo(rt))
		}
		for _, r := range recvs {
			for i := 0; i < r.NumMethod(); i++ {
				if m := r.Method(i); m.IsExported() {
					walk(m.Type, fmt.Sprintf("(%s).%s", r, m.Name))
				}
			}
		}
	}
	reached := map[string]bool{}
	for name, v := range syms {
		rt := v.Type()
		if v.Kind() == reflect.Pointer && v.IsNil() {
			rt = rt.Elem() // a type symbol
		}
		walk(rt, name)
		if v.Kind() != reflect.Func || v.IsNil() {
			continue
		}
		fn := runtime.FuncForPC(v.Pointer()).Name()
		if !strings.HasPrefix(fn, internalPrefix) {
			continue
		}
		pkg := fn[len(internalPrefix):]
		pkg = pkg[:strings.IndexAny(pkg+".", "./")]
		switch {
		case pkg == "policy":
		case pkg == "texttemplate" && strings.HasPrefix(name, "text/template."):
		case reviewedInternalFuncs[name] == pkg:
			reached[name] = true
		default:
			bad = append(bad, fmt.Sprintf("%s is %s", name, fn))
		}
	}
	sort.Strings(bad)
	assert.Empty(t, bad, "internal packages reachable from scripts beyond the reviewed lists")
	for name := range reviewedInternalFuncs {
		assert.True(t, reached[name], "%s is reviewed but no longer reached: drop it from the list", name)
	}
	for name := range reviewedInternalTypes {
		found := false
		for rt := range seen {
			found = found || rt.PkgPath()+"."+rt.Name() == name
		}
		assert.True(t, found, "%s is reviewed but no longer reached: drop it from the list", name)
	}
}
