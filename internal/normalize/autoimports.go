package normalize

import (
	"go/ast"
	"sort"
	"strconv"
	"strings"
)

// autoImports returns the import paths of the packages the file selects
// from (fmt.Println, math_ops.Multiply) without importing them, as
// Config.AutoImport maps their names, sorted; imported holds the names
// the script's own imports bind. The generated import declaration
// (importDecl) imports them after the package clause: models often leave
// their imports out, and Go would refuse the program for it.
//
// Pinned by every corpus script without imports, e.g.
// scripts/testdata/echo_types.gos and dynamic_tool_calls.gos (tool
// packages), customer_order_history.gos and norm_package_clause.gos (a
// full program), and scripts/testdata/adversarial/import_os_readfile.gos
// (the script's "os" is toolscript's).
func (p *Program) autoImports(file ast.Node, imported map[string]bool) []string {
	if p.cfg.AutoImport == nil {
		return nil
	}
	var paths []string
	seen := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || imported[id.Name] || seen[id.Name] {
			return true
		}
		seen[id.Name] = true
		if path, ok := p.cfg.AutoImport(id.Name); ok {
			paths = append(paths, path)
		}
		return true
	})
	sort.Strings(paths)
	return paths
}

// runtimePlaceholder stands for the import of RuntimePath until the
// whole program is known: it is imported only when generated code uses
// it (finishImports), since an unused import is a compile error.
const runtimePlaceholder = "\x00rt\x00"

// runtimeSpec is the import of the runtime package in the generated
// import declaration.
var runtimeSpec = RuntimeAlias + " " + strconv.Quote(RuntimePath) + "; "

// importDecl is the generated import declaration: the runtime package's
// placeholder, the globals when Config.Globals, and paths.
func (p *Program) importDecl(paths []string) string {
	var b strings.Builder
	b.WriteString("import (" + runtimePlaceholder)
	if p.cfg.Globals {
		b.WriteString(". " + strconv.Quote(GlobalsPath) + "; ")
	}
	for _, path := range paths {
		b.WriteString(strconv.Quote(path))
		b.WriteString("; ")
	}
	b.WriteString(");")
	return b.String()
}

// finishImports puts the runtime package's import in place of its
// placeholder when the program uses it.
func (p *Program) finishImports(src string) string {
	spec := ""
	if strings.Contains(src, RuntimeAlias+".") {
		spec = runtimeSpec
		p.UsesRuntime = true
	}
	return strings.Replace(src, runtimePlaceholder, spec, 1)
}
