package normalize

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// checkImports checks the script's own imports against Config.Allowed,
// records them in p.Imports, and returns the names they bind (the
// package's last path element, or the import's own name).
//
// The packages of the generated code, RuntimePath and GlobalsPath, are
// refused whatever Config.Allowed says: importing them would let a
// script switch its guards off (call GoEnd without GoStart, set its
// result behind the host's back). The first refused import is an Error
// of kind ImportRefused at its path.
//
// Pinned by scripts/testdata/adversarial/import_*.gos (import_unsafe.gos,
// import_os_exec.gos, import_reflect.gos, import_relative.gos, ...),
// guardrt_import.gos, guardrt_import_renamed.gos and
// guardrt_globals_import.gos.
func (p *Program) checkImports(fset *token.FileSet, specs []*ast.ImportSpec) (map[string]bool, error) {
	seen := map[string]bool{}
	for _, s := range specs {
		path, err := strconv.Unquote(s.Path.Value)
		if err != nil {
			continue
		}
		if path == RuntimePath || path == GlobalsPath {
			return nil, p.errorAt(ImportRefused, fset.Position(s.Path.Pos()), "%q is reserved by toolscript", path)
		}
		if p.cfg.Allowed == nil || !p.cfg.Allowed(path) {
			var list []string
			if p.cfg.Importable != nil {
				list = p.cfg.Importable()
			}
			return nil, p.errorAt(ImportRefused, fset.Position(s.Path.Pos()),
				"%q is not available to scripts; they can import %s and their tool packages", path, strings.Join(list, ", "))
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if s.Name != nil {
			name = s.Name.Name
		}
		seen[name] = true
		p.Imports = append(p.Imports, path)
	}
	return seen, nil
}
