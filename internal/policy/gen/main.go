// Command gen writes internal/policy/stdlib: the symbol tables of the
// allowlisted standard packages (internal/policy/allowlist.go), taken
// from the standard library of the Go toolchain that runs it. It is run
// by go generate ./internal/policy; TestSymbols_UpToDate fails when the
// committed tables differ from what the running toolchain gives.
//
// Each package's table maps an exported name to a reflect.Value, in the
// form the interpreter (internal/yaegi/interp) reads:
//
//   - a function, as its value;
//   - a variable, as the addressable variable;
//   - a typed constant as its value, an untyped one as a constant.Value
//     (so that an untyped constant keeps its kind and exact value);
//   - a type T, as a nil *T;
//   - for an interface type I, "_I": a nil pointer to a generated
//     wrapper struct (_pkg_I) whose function fields the interpreter
//     fills with a script value's methods, so that script types can
//     implement the standard interfaces (io.Reader, sort.Interface).
//     Its unexported field node is where the interpreter records the
//     held value's script type (toolscript patch 152 of
//     internal/yaegi/interp), so that fmt's %T, %v and %#v, ==, and
//     encoding/json (through the wrapper's MarshalJSON, which every
//     wrapper but json.Marshaler's has) see the held value, not the
//     wrapper.
//
// Generic functions and types are left out: a native table cannot hold
// them (internal/policy serves the generic parts scripts need from
// source).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/constant"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"math/big"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

func main() {
	out := flag.String("o", "stdlib", "directory of the generated package")
	list := flag.String("allowlist", "allowlist.go", "Go file declaring the allowlist variable")
	flag.Parse()
	if err := run(*list, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// run writes the tables of the packages allowlistFile's allowlist names
// into dir, removing the generated files of packages no longer named.
func run(allowlistFile, dir string) error {
	paths, err := allowlist(allowlistFile)
	if err != nil {
		return err
	}
	files, err := generate(paths)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if _, keep := files[filepath.Base(f)]; !keep && !strings.HasSuffix(f, "_test.go") {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// allowlist reads the string literals of the variable allowlist declared
// in the Go file name (parsed, not imported: the generator must run when
// the tables it replaces do not compile).
func allowlist(name string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var paths []string
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "allowlist" || len(vs.Values) != 1 {
			return true
		}
		lit, ok := vs.Values[0].(*ast.CompositeLit)
		if !ok {
			return true
		}
		found = true
		for _, e := range lit.Elts {
			bl, ok := e.(*ast.BasicLit)
			if !ok || bl.Kind != token.STRING {
				err = fmt.Errorf("%s: allowlist element %T is not a string literal", name, e)
				return false
			}
			p, uerr := strconv.Unquote(bl.Value)
			if uerr != nil {
				err = uerr
				return false
			}
			paths = append(paths, p)
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("%s declares no allowlist = []string{...}", name)
	}
	return paths, nil
}

// goRelease is the Go release (go1.N) whose standard library the tables
// are generated from: patch releases do not change exported APIs.
func goRelease() string {
	v := runtime.Version()
	if parts := strings.SplitN(v, ".", 3); len(parts) >= 2 && strings.HasPrefix(v, "go") {
		minor := parts[1]
		if i := strings.IndexAny(minor, "abcdefghijklmnopqrstuvwxyz"); i > 0 {
			minor = minor[:i] // go1.27rc1
		}
		return parts[0] + "." + minor
	}
	return v
}

// generate returns the generated package's files by name.
func generate(paths []string) (map[string][]byte, error) {
	release := goRelease()
	imp := importer.ForCompiler(token.NewFileSet(), "source", nil)
	files := map[string][]byte{}
	for _, path := range paths {
		pkg, err := imp.Import(path)
		if err != nil {
			return nil, fmt.Errorf("import %s: %w", path, err)
		}
		src, err := packageFile(release, path, pkg)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		files[fileName(path)] = src
	}
	doc, err := docFile(release, paths)
	if err != nil {
		return nil, err
	}
	files["symbols.go"] = doc
	return files, nil
}

// fileName is the generated file of the package path.
func fileName(path string) string {
	return "pkg_" + strings.ReplaceAll(path, "/", "_") + ".go"
}

// header is the first line of every generated file.
func header(release string) string {
	return "// Code generated by go generate ./internal/policy from the " + release + " standard library. DO NOT EDIT.\n\n"
}

func docFile(release string, paths []string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header(release))
	b.WriteString(`// Package stdlib holds the interpreter's symbol tables of the standard
// packages scripts may import (internal/policy's allowlist), generated by
// internal/policy/gen from the standard library of the Go toolchain that
// builds toolscript. internal/policy builds the tables scripts get from
// them; nothing else imports this package.
package stdlib

import (
	"encoding/json"
	"reflect"
)

`)
	fmt.Fprintf(&b, "// GoRelease is the Go release whose standard library the tables are\n// generated from.\nconst GoRelease = %q\n\n", release)
	b.WriteString("// Symbols are the tables by import path: exported name -> value, in the\n// form the interpreter's Exports hold (see internal/policy/gen).\nvar Symbols = make(map[string]map[string]reflect.Value, " + strconv.Itoa(len(paths)) + ")\n")
	b.WriteString(`
// marshalWrapped is the JSON of v, the script value an interface wrapper
// holds: node, the record of v's script type the interpreter keeps in the
// wrapper, marshals it as the interpreter marshals a value of that type
// (its own MarshalJSON method, its fields' methods).
func marshalWrapped(node, v interface{}) ([]byte, error) {
	if m, ok := node.(interface {
		MarshalWrapped(interface{}) ([]byte, error)
	}); ok {
		return m.MarshalWrapped(v)
	}
	return json.Marshal(v)
}
`)
	return format.Source(b.Bytes())
}

// importNames gives each package a generated file refers to a local name
// unique in the file.
type importNames struct {
	self  string
	names map[string]string // path -> local name
	used  map[string]string // local name -> path
}

func newImportNames(self *types.Package) *importNames {
	n := &importNames{self: self.Path(), names: map[string]string{}, used: map[string]string{}}
	for _, reserved := range []string{"reflect", "constant", "token", "W"} {
		n.used[reserved] = reserved
	}
	n.name(self)
	return n
}

// name returns pkg's local name in the file, recording the import.
func (n *importNames) name(pkg *types.Package) string {
	if local, ok := n.names[pkg.Path()]; ok {
		return local
	}
	local := pkg.Name()
	for i := 2; n.used[local] != ""; i++ {
		local = pkg.Name() + strconv.Itoa(i)
	}
	n.names[pkg.Path()] = local
	n.used[local] = pkg.Path()
	return local
}

func (n *importNames) qualifier(pkg *types.Package) string { return n.name(pkg) }

// wrapperName is the name of the interface wrapper of the interface name
// of the package path.
func wrapperName(path, name string) string {
	return "_" + strings.NewReplacer("/", "_", ".", "_", "-", "_").Replace(path) + "_" + name
}

func packageFile(release, path string, pkg *types.Package) ([]byte, error) {
	names := newImportNames(pkg)
	self := names.name(pkg)
	var entries, wrappers bytes.Buffer
	usesConstant := false
	scope := pkg.Scope()
	for _, name := range scope.Names() { // sorted
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		q := self + "." + name
		switch o := obj.(type) {
		case *types.Const:
			v := q
			if b, ok := o.Type().(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
				if lit, ok := untypedConst(o.Val()); ok {
					v, usesConstant = lit, true
				}
			}
			fmt.Fprintf(&entries, "\t\t%q: reflect.ValueOf(%s),\n", name, v)
		case *types.Func:
			if sig := o.Type().(*types.Signature); sig.TypeParams().Len() > 0 {
				continue // generic
			}
			fmt.Fprintf(&entries, "\t\t%q: reflect.ValueOf(%s),\n", name, q)
		case *types.Var:
			fmt.Fprintf(&entries, "\t\t%q: reflect.ValueOf(&%s).Elem(),\n", name, q)
		case *types.TypeName:
			if generic(o.Type()) {
				continue
			}
			iface, isIface := o.Type().Underlying().(*types.Interface)
			if isIface && iface.NumMethods() == 0 && iface.NumEmbeddeds() != 0 {
				continue // a constraint
			}
			fmt.Fprintf(&entries, "\t\t%q: reflect.ValueOf((*%s)(nil)),\n", name, q)
			if isIface {
				w := wrapperName(path, name)
				fmt.Fprintf(&entries, "\t\t%q: reflect.ValueOf((*%s)(nil)),\n", "_"+name, w)
				writeWrapper(&wrappers, w, path+"."+name, iface, names)
			}
		}
	}
	var b bytes.Buffer
	b.WriteString(header(release))
	b.WriteString("package stdlib\n\nimport (\n")
	var imports []string
	for p := range names.names {
		imports = append(imports, p)
	}
	if usesConstant {
		imports = append(imports, "go/constant", "go/token")
	}
	imports = append(imports, "reflect")
	sort.Strings(imports)
	for _, p := range imports {
		local, ok := names.names[p]
		if ok && local != p[strings.LastIndex(p, "/")+1:] {
			fmt.Fprintf(&b, "\t%s %q\n", local, p)
		} else {
			fmt.Fprintf(&b, "\t%q\n", p)
		}
	}
	b.WriteString(")\n\nfunc init() {\n")
	fmt.Fprintf(&b, "\tSymbols[%q] = map[string]reflect.Value{\n", path)
	b.Write(entries.Bytes())
	b.WriteString("\t}\n}\n")
	b.Write(wrappers.Bytes())
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("format: %w\n%s", err, b.Bytes())
	}
	return src, nil
}

// generic reports whether t is a generic named type or alias.
func generic(t types.Type) bool {
	switch t := t.(type) {
	case *types.Named:
		return t.TypeParams().Len() > 0
	case *types.Alias:
		return t.TypeParams().Len() > 0
	}
	return false
}

// untypedConst returns the constant.Value expression of an untyped
// constant, so that it keeps its exact value (math.MaxUint64 does not fit
// an int).
func untypedConst(v constant.Value) (string, bool) {
	switch v.Kind() {
	case constant.String:
		return fmt.Sprintf("constant.MakeFromLiteral(%q, token.STRING, 0)", v.ExactString()), true
	case constant.Int:
		return fmt.Sprintf("constant.MakeFromLiteral(%q, token.INT, 0)", v.ExactString()), true
	case constant.Float:
		f, ok := constant.Val(v).(*big.Float)
		if !ok {
			f = new(big.Float).SetRat(constant.Val(v).(*big.Rat))
		}
		return fmt.Sprintf("constant.MakeFromLiteral(%q, token.FLOAT, 0)", f.Text('g', int(f.Prec()))), true
	}
	return "", false
}

// writeWrapper writes the interface wrapper w of the interface iface (of
// the qualified name what): a struct holding the script value and one
// function per exported method, with the methods calling them.
func writeWrapper(b *bytes.Buffer, w, what string, iface *types.Interface, names *importNames) {
	type method struct{ name, params, results, args string }
	var methods []method
	for i := range iface.NumMethods() { // sorted by name
		f := iface.Method(i)
		if !f.Exported() {
			continue
		}
		sig := f.Type().(*types.Signature)
		params := make([]string, sig.Params().Len())
		args := make([]string, len(params))
		for j := range params {
			t := types.TypeString(sig.Params().At(j).Type(), names.qualifier)
			args[j] = "a" + strconv.Itoa(j)
			if sig.Variadic() && j == len(params)-1 {
				params[j] = args[j] + " ..." + strings.TrimPrefix(t, "[]")
				args[j] += "..."
			} else {
				params[j] = args[j] + " " + t
			}
		}
		results := make([]string, sig.Results().Len())
		for j := range results {
			results[j] = types.TypeString(sig.Results().At(j).Type(), names.qualifier)
		}
		res := strings.Join(results, ", ")
		if len(results) > 1 {
			res = "(" + res + ")"
		}
		methods = append(methods, method{f.Name(), "(" + strings.Join(params, ", ") + ")", res, "(" + strings.Join(args, ", ") + ")"})
	}
	fmt.Fprintf(b, "\n// %s is the interface wrapper of %s.\ntype %s struct {\n\tIValue interface{}\n", w, what, w)
	marshals := false
	for _, m := range methods {
		fmt.Fprintf(b, "\tW%s func%s %s\n", m.name, m.params, m.results)
		marshals = marshals || m.name == "MarshalJSON"
	}
	b.WriteString("\tnode   interface{} // the interpreter's record of IValue's script type\n}\n")
	if !marshals {
		// encoding/json would marshal the wrapper's fields (its W
		// functions: "unsupported type"), not the value it holds.
		fmt.Fprintf(b, "\n// MarshalJSON marshals the script value W holds.\nfunc (W %s) MarshalJSON() ([]byte, error) {\n\treturn marshalWrapped(W.node, W.IValue)\n}\n", w)
	}
	for _, m := range methods {
		fmt.Fprintf(b, "\nfunc (W %s) %s%s %s {\n", w, m.name, m.params, m.results)
		if m.name == "String" && m.results == "string" {
			fmt.Fprintf(b, "\tif W.WString == nil {\n\t\treturn \"\"\n\t}\n")
		}
		ret := "return "
		if m.results == "" {
			ret = ""
		}
		fmt.Fprintf(b, "\t%sW.W%s%s\n}\n", ret, m.name, m.args)
	}
}
