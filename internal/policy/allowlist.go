package policy

import (
	"cmp"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unsafe"
)

// allowlist are the standard packages a script may import, by import path,
// with their symbols generated from the toolchain's standard library
// (package stdlib, go generate ./internal/policy). None of them reaches the
// file system, the network, the process environment or other processes,
// and none can change the host: their package variables are exported as
// read-only copies (table.go, pkgstate.go).
//
// Deliberately absent: os (the real one), os/exec, net, net/http, syscall,
// unsafe, reflect, runtime, plugin, io/fs, io/ioutil, path/filepath,
// crypto/rand, database/sql, log/syslog, testing.
var allowlist = []string{
	"bufio", "bytes", "container/heap", "container/list", "container/ring",
	"context", "crypto/md5", "crypto/sha1", "crypto/sha256", "crypto/sha512",
	"encoding/base64", "encoding/csv", "encoding/hex", "encoding/json",
	"errors", "fmt", "hash/crc32", "hash/fnv", "html", "io", "log", "math",
	"math/big", "math/bits", "math/rand", "net/url", "path", "regexp", "sort",
	"strconv", "strings", "sync", "sync/atomic", "text/tabwriter",
	"text/template", "time", "unicode", "unicode/utf16", "unicode/utf8",
}

// ownPackages are the packages toolscript provides itself: "os" (Exit,
// Stdout, Stderr, Args, Getenv and Environ, all confined to the execution;
// see exports.go) and the source packages.
var ownPackages = []string{"os", "slices", "maps", "cmp", "iter"}

// sourcePackages are packages interpreted from embedded source (_gosrc),
// compiled only when a script imports them.
var sourcePackages = map[string]bool{"slices": true, "maps": true, "cmp": true, "iter": true}

// extensions are the source packages that extend a native package of
// the allowlist with its generic functions and types, which a native
// symbol table cannot hold: native import path -> source import path
// (under _gosrc, not importable by scripts). A script importing errors
// gets errors.AsType from toolscript/errors, one importing sync gets
// sync.OnceValue and sync.OnceValues from toolscript/sync, one importing
// sync/atomic gets the type atomic.Pointer from toolscript/sync/atomic.
var extensions = map[string]string{"errors": "toolscript/errors", "sync": "toolscript/sync",
	"sync/atomic": "toolscript/sync/atomic"}

// extensionNames are the exported functions and types of each
// extension, by native import path (TestExtensions checks them against
// the sources).
var extensionNames = map[string][]string{"errors": {"AsType"}, "sync": {"OnceValue", "OnceValues"},
	"sync/atomic": {"Pointer"}}

// BinaryExtensions returns the extensions of native packages
// (interp.Options.BinaryExtensions) that a program of source src can
// reach: those whose functions or types src names, all of them when src is "" (a
// session, whose later inputs may name them). An extension is compiled
// for each program that gets it, so a script that does not name
// errors.AsType does not pay for it. The maps are shared by every
// interpreter: do not modify them.
func BinaryExtensions(src string) map[string]string {
	if src == "" {
		return extensions
	}
	var out map[string]string
	for path, names := range extensionNames {
		if slices.ContainsFunc(names, func(n string) bool { return strings.Contains(src, n) }) {
			if out == nil {
				out = map[string]string{}
			}
			out[path] = extensions[path]
		}
	}
	return out
}

// Extension returns the import path and the Go source files of the
// source extension of the native package path (errors: AsType), or ""
// and nil when it has none.
func Extension(path string) (string, map[string][]byte) {
	ext, ok := extensions[path]
	if !ok {
		return "", nil
	}
	return ext, sourceFiles(ext)
}

// sourceDeps are the host packages each source package imports: packages
// of the allowlist, or toolscript's own (hostOnly).
var sourceDeps = map[string][]string{"slices": {"sort", nativePath}}

// nativePath is the import path of the native helpers of the source
// packages, which scripts cannot import (hostOnly).
const nativePath = "toolscript/native"

// hostOnly are the native packages only the source packages import: import
// path -> symbols. The slices source cannot tell a negative zero of a type
// parameter's type itself (its value cannot be converted to a float where
// the type may be a string), so its Max and Min ask NegZero; its Sort has
// SortOrdered sort natively what it can.
var hostOnly = map[string]map[string]reflect.Value{
	nativePath: {"NegZero": reflect.ValueOf(NegZero), "SortOrdered": reflect.ValueOf(SortOrdered)},
}

// NegZero reports whether v is a floating-point negative zero, of any type
// whose underlying type is float32 or float64: what the min and max
// builtins need (min(0.0, -0.0) is -0.0, max(-0.0, 0.0) is 0.0).
func NegZero(v any) bool {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		return f == 0 && math.Signbit(f)
	}
	return false
}

// SortOrdered sorts s, a slice whose elements are of a basic ordered
// kind (an integer, a float or a string type, named or not), as the
// standard library's slices.Sort does, natively, and reports true; for any
// other value it does nothing and reports false. Ordering by the kind is
// Go's for a type parameter constrained by cmp.Ordered: < of the
// underlying type, NaNs first. The slices source's Sort calls it, so that
// sorting a slice of numbers or strings costs no call back into the
// interpreter per comparison (sort.Slice's less).
func SortOrdered(s any) bool {
	rv := reflect.ValueOf(s)
	if rv.Kind() != reflect.Slice {
		return false
	}
	switch rv.Type().Elem().Kind() {
	case reflect.Int:
		sortAs[int](rv)
	case reflect.Int8:
		sortAs[int8](rv)
	case reflect.Int16:
		sortAs[int16](rv)
	case reflect.Int32:
		sortAs[int32](rv)
	case reflect.Int64:
		sortAs[int64](rv)
	case reflect.Uint:
		sortAs[uint](rv)
	case reflect.Uint8:
		sortAs[uint8](rv)
	case reflect.Uint16:
		sortAs[uint16](rv)
	case reflect.Uint32:
		sortAs[uint32](rv)
	case reflect.Uint64:
		sortAs[uint64](rv)
	case reflect.Uintptr:
		sortAs[uintptr](rv)
	case reflect.Float32:
		sortAs[float32](rv)
	case reflect.Float64:
		sortAs[float64](rv)
	case reflect.String:
		sortAs[string](rv)
	default:
		return false
	}
	return true
}

// sortAs sorts rv, a slice whose element type has T's kind, so T's
// layout, as a []T.
func sortAs[T cmp.Ordered](rv reflect.Value) {
	if rv.Len() < 2 {
		return
	}
	slices.Sort(unsafe.Slice((*T)(rv.UnsafePointer()), rv.Len()))
}

// paths is the sorted list of every standard import path a script may use.
var paths = func() []string {
	out := append(slices.Clone(allowlist), ownPackages...)
	sort.Strings(out)
	return out
}()

// Paths returns the sorted import paths a script may use besides its tool
// packages: the allowlist and toolscript's own os, slices, maps, cmp and
// iter.
// The slice is the caller's.
func Paths() []string { return slices.Clone(paths) }

// Allowed reports whether a script may import the standard package path.
func Allowed(path string) bool {
	_, ok := table().pkgs[path]
	return ok || path == "os" || sourcePackages[path]
}

// PathOf returns the import path of the standard package a script names
// name without importing it (auto-import), as "json" names
// "encoding/json".
func PathOf(name string) (string, bool) {
	path, ok := table().byName[name]
	return path, ok
}

// IsVar reports whether name is a package variable of the standard package
// named pkg (read-only to scripts: they cannot assign it).
func IsVar(pkg, name string) bool {
	return table().vars[pkg][name]
}
