package policy

import (
	"io/fs"
	"reflect"
)

// Declared returns every symbol a script importing the standard package
// path can name, for a type checker (internal/typecheck): the shared
// table's and the per-execution replacements and copies (bound to hooks
// that do nothing: only their types matter). Package variables are
// addressable values; a type is a nil pointer to it, as in yaegi's
// tables. It returns nil for a path that is not a package of the symbol
// tables (a source package, or one scripts cannot import).
func Declared(path string) map[string]reflect.Value {
	t := table()
	pkg, ok := t.pkgs[path]
	if !ok {
		pkg, ok = t.hostOnly[path]
	}
	if !ok && path != "os" {
		return nil
	}
	out := map[string]reflect.Value{}
	for _, syms := range pkg {
		for name, v := range syms {
			out[name] = v
		}
	}
	for name, v := range t.copies[path] {
		out[name] = v // copied per execution; the host's has the type
	}
	for key, syms := range Exports([]string{path}, "", nopHooks{}) {
		if key == "." {
			continue
		}
		for name, v := range syms {
			out[name] = v
		}
	}
	return out
}

// Source returns the Go source files of the source package path
// (slices, maps, cmp, iter: interpreted from SourceFS), nil for another
// path.
func Source(path string) map[string][]byte {
	if !sourcePackages[path] {
		return nil
	}
	return sourceFiles(path)
}

// sourceFiles returns the Go source files of the package path of
// SourceFS, by name.
func sourceFiles(path string) map[string][]byte {
	dir := "src/" + path
	entries, err := fs.ReadDir(sourceFS, dir)
	if err != nil {
		return nil
	}
	out := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := fs.ReadFile(sourceFS, dir+"/"+e.Name())
		if err == nil {
			out[e.Name()] = data
		}
	}
	return out
}
