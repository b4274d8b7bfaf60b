package policy

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/internal/tzdb"
	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/script_symbols.golden from the symbol table")

// goldenSymbols is the reviewed list of every symbol scripts can reach.
const goldenSymbols = "testdata/script_symbols.golden"

// deniedPackages are packages whose types in a signature mean the function
// can reach files, the environment, standard input, the network, other
// processes or reflection.
var deniedPackages = map[string]bool{
	"os": true, "os/exec": true, "os/signal": true, "io/fs": true, "io/ioutil": true, "net": true,
	"net/http": true, "syscall": true, "path/filepath": true, "reflect": true, "unsafe": true,
	"runtime": true, "runtime/debug": true, "plugin": true, "embed": true, "testing/fstest": true,
}

// deniedNames are names of package functions that reach the host (or
// its global state) whatever their signature.
var deniedNames = map[string]bool{
	"ParseFiles": true, "ParseGlob": true, "ParseFS": true, "ReadFile": true, "WriteFile": true,
	"ReadDir": true, "Glob": true, "Open": true, "OpenFile": true, "Create": true,
	"Getenv": true, "LookupEnv": true, "Environ": true, "Setenv": true, "Dial": true, "Listen": true,
	"StartProcess": true, "Command": true, "Exec": true, "Executable": true, "Hostname": true,
	"LoadLocation": true, "Seed": true, "SetOutput": true, "Stdin": true,
}

// deniedMethods are names of methods that reach the host's files.
var deniedMethods = map[string]bool{
	"ParseFiles": true, "ParseGlob": true, "ParseFS": true, "ReadFile": true, "ReadDir": true, "Glob": true,
}

// allowedDenied are the denied names scripts do get, each toolscript's own
// confined version: key "package.Name", value the function it must be.
func allowedDenied() map[string]reflect.Value {
	return map[string]reflect.Value{
		"time.LoadLocation": reflect.ValueOf(tzdb.LoadLocation),   // the embedded database
		"math/rand.Seed":    replacedSymbols["math/rand"]["Seed"], // no effect
		"os.Getenv":         {},                                   // per execution: always ""
		"os.Environ":        {},                                   // per execution: always nil
		"log.SetOutput":     {},                                   // per execution: no effect
	}
}

// scriptSymbols returns every symbol scripts can import: the shared table,
// the per-execution copies and replacements, by "package.Name".
func scriptSymbols(t *testing.T) map[string]reflect.Value {
	t.Helper()
	syms := table()
	out := map[string]reflect.Value{}
	add := func(ex interp.Exports) {
		for key, m := range ex {
			if key == "." {
				continue
			}
			path := key[:strings.Index(key+"/./", "/./")]
			if i := strings.LastIndex(key, "/"); !strings.Contains(key, "/./") && i > 0 {
				path = key[:i]
			}
			for name, v := range m {
				out[path+"."+name] = v
			}
		}
	}
	for _, ex := range syms.pkgs {
		add(ex)
	}
	for path, vars := range syms.copies {
		for name, v := range vars {
			out[path+"."+name] = v
		}
	}
	for name, v := range crc32Funcs(newCopier()) {
		out["hash/crc32."+name] = v
	}
	add(Exports(Paths(), "", nopHooks{}))
	return out
}

// TestScriptSymbols_Audit walks every symbol scripts get, and the method
// sets (pointer and value receivers) of every type reachable from them
// through signatures and exported fields (not through the fields the
// interpreter hides), and fails on a function or method that can reach
// files, the environment, standard input, the network or processes: a
// type of a denied package in its signature, or a denied name. It also
// compares the whole list with a reviewed golden file, so that a new
// symbol (a newer symbol table) fails until reviewed: go test
// ./internal/policy -run TestScriptSymbols_Audit -update rewrites it.
func TestScriptSymbols_Audit(t *testing.T) {
	syms := scriptSymbols(t)
	allowed := allowedDenied()
	var lines, bad []string
	seen := map[reflect.Type]bool{}
	var walkType func(rt reflect.Type, from string)
	check := func(what, name string, ft reflect.Type, method bool) {
		for _, pt := range funcTypes(ft) {
			if deniedType(pt) {
				bad = append(bad, fmt.Sprintf("%s has %s in its signature", what, pt))
			}
		}
		if method && deniedMethods[name] {
			bad = append(bad, what+" is a denied method")
		}
		if !method && deniedNames[name] {
			if _, ok := allowed[what]; !ok {
				bad = append(bad, what+" is a denied name")
			}
		}
	}
	walkType = func(rt reflect.Type, from string) {
		if seen[rt] {
			return
		}
		seen[rt] = true
		if deniedPackages[rt.PkgPath()] {
			bad = append(bad, fmt.Sprintf("type %s reachable from %s", rt, from))
			return
		}
		switch rt.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
			walkType(rt.Elem(), from)
		case reflect.Map:
			walkType(rt.Key(), from)
			walkType(rt.Elem(), from)
		case reflect.Func:
			for _, pt := range funcTypes(rt) {
				walkType(pt, from)
			}
		case reflect.Struct:
			for i := 0; i < rt.NumField(); i++ {
				if f := rt.Field(i); f.IsExported() && !HiddenFieldType(f.Type) {
					walkType(f.Type, from+"."+f.Name)
				}
			}
		}
		recvs := []reflect.Type{rt}
		if rt.Kind() != reflect.Pointer && rt.Kind() != reflect.Interface {
			recvs = append(recvs, reflect.PointerTo(rt))
		}
		for _, r := range recvs {
			for i := 0; i < r.NumMethod(); i++ {
				m := r.Method(i)
				if !m.IsExported() {
					continue
				}
				what := fmt.Sprintf("(%s).%s", r, m.Name)
				if rt.Name() != "" || rt.Kind() == reflect.Pointer {
					lines = append(lines, fmt.Sprintf("method %s %s", what, m.Type))
				}
				check(what, m.Name, m.Type, true)
				walkType(m.Type, what)
			}
		}
	}
	for name, v := range syms {
		dot := strings.LastIndex(name, ".")
		short := name[dot+1:]
		rt := v.Type()
		kind := "func"
		switch {
		case v.Kind() == reflect.Pointer && v.IsNil():
			kind, rt = "type", rt.Elem()
		case v.Kind() != reflect.Func:
			kind = "value"
		}
		lines = append(lines, fmt.Sprintf("%s %s %s", kind, name, rt))
		if kind == "func" {
			check(name, short, rt, false)
			if want, ok := allowed[name]; ok && want.IsValid() {
				assert.Equal(t, want.Pointer(), v.Pointer(), "%s must be toolscript's confined version", name)
			}
		}
		walkType(rt, name)
	}
	sort.Strings(bad)
	bad = dedup(bad)
	assert.Empty(t, bad, "symbols scripts can reach that touch the host")

	sort.Strings(lines)
	got := strings.Join(dedup(lines), "\n") + "\n"
	if *updateGolden {
		require.NoError(t, os.WriteFile(goldenSymbols, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(goldenSymbols)
	require.NoError(t, err, "run with -update to create it")
	if string(want) != got {
		w := map[string]bool{}
		for _, l := range strings.Split(string(want), "\n") {
			w[l] = true
		}
		g := map[string]bool{}
		var added, removed []string
		for _, l := range strings.Split(got, "\n") {
			g[l] = true
			if !w[l] {
				added = append(added, l)
			}
		}
		for l := range w {
			if !g[l] {
				removed = append(removed, l)
			}
		}
		sort.Strings(removed)
		t.Fatalf("the symbols scripts get changed; review them, then run with -update.\nnew:\n  %s\ngone:\n  %s",
			strings.Join(added, "\n  "), strings.Join(removed, "\n  "))
	}
}

// deniedType reports whether t is, or is made of, a type of a denied
// package (an unsafe pointer included).
func deniedType(t reflect.Type) bool {
	for {
		if t.Kind() == reflect.UnsafePointer || deniedPackages[t.PkgPath()] {
			return true
		}
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
			t = t.Elem()
		case reflect.Map:
			if deniedType(t.Key()) {
				return true
			}
			t = t.Elem()
		case reflect.Func:
			for _, pt := range funcTypes(t) {
				if deniedType(pt) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
}

// funcTypes returns the parameter and result types of a function type.
func funcTypes(ft reflect.Type) []reflect.Type {
	var out []reflect.Type
	for i := 0; i < ft.NumIn(); i++ {
		out = append(out, ft.In(i))
	}
	for i := 0; i < ft.NumOut(); i++ {
		out = append(out, ft.Out(i))
	}
	return out
}

func dedup(s []string) []string {
	out := s[:0]
	for i, l := range s {
		if i == 0 || l != s[i-1] {
			out = append(out, l)
		}
	}
	return out
}

// TestScriptSymbols_DenylistCatches checks that the audit's checks fail on
// what they must: the standard text/template, time.LoadLocation and a
// function taking an fs.FS.
func TestScriptSymbols_DenylistCatches(t *testing.T) {
	for _, tt := range []struct {
		name string
		fn   any
	}{
		{"ParseFS", func(fsys fs.FS) {}},
		{"Open", func(p string) (*os.File, error) { return nil, nil }},
		{"LoadLocation", func(string) {}},
	} {
		ft := reflect.TypeOf(tt.fn)
		denied := deniedNames[tt.name]
		for _, pt := range funcTypes(ft) {
			denied = denied || deniedType(pt)
		}
		assert.True(t, denied, tt.name)
	}
}
