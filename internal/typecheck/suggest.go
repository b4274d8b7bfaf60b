package typecheck

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"sort"
	"strings"

	"github.com/toolscript/toolscript/internal/suggest"
)

// Suggestions: a name the script got wrong (an undefined identifier, a
// package member, a field or method, a struct literal's field) gets a
// "did you mean" with the nearest name that exists, when one is near
// enough (Nearest).

var (
	reUndefined     = regexp.MustCompile(`^undefined: ([A-Za-z_][A-Za-z0-9_]*)$`)
	reUndefinedQual = regexp.MustCompile(`^undefined: ([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)$`)
	reNoField       = regexp.MustCompile(`\.([A-Za-z_][A-Za-z0-9_]*) undefined \(type .* has no field or method [A-Za-z_][A-Za-z0-9_]*\)$`)
	reUnknownField  = regexp.MustCompile(`^unknown field ([A-Za-z_][A-Za-z0-9_]*) in struct literal`)
)

// maxListed bounds the names an undefined package member's error lists
// when none is near: a package that small (toolscript's os) is listed
// whole, so that the model sees what it has.
const maxListed = 12

// suggest returns msg, the message of an error at pos, with a "did you
// mean" when it names a name that does not exist and a near one does.
func (c *Checker) suggest(msg string, pos token.Pos, f *ast.File, info *types.Info, pkg *types.Package) string {
	if strings.Contains(msg, "but does have") {
		return msg // go/types found it (a name differing in case)
	}
	if m := reUndefinedQual.FindStringSubmatch(msg); m != nil {
		p := packageAt(f, info, pos)
		if p == nil {
			return msg
		}
		var names []string
		for _, n := range p.Scope().Names() {
			if token.IsExported(n) && !strings.HasSuffix(n, mapSuffix) {
				names = append(names, n)
			}
		}
		if best := suggest.Nearest(m[2], names); best != "" {
			return msg + ", did you mean " + m[1] + "." + best + "?"
		}
		if _, tool := c.imp.decls[p.Path()]; tool {
			// A tool package is small: name what it has.
			var funcs []string
			for _, n := range names {
				if _, ok := p.Scope().Lookup(n).(*types.Func); ok {
					funcs = append(funcs, n)
				}
			}
			sort.Strings(funcs)
			return msg + " (package " + m[1] + " has " + strings.Join(funcs, ", ") + ")"
		}
		if len(names) <= maxListed {
			// A package scripts get a small part of (os): what it has.
			sort.Strings(names)
			return msg + " (package " + m[1] + " has only " + strings.Join(names, ", ") + ")"
		}
		return msg
	}
	if m := reUndefined.FindStringSubmatch(msg); m != nil {
		names := c.packageNames()
		if pkg != nil {
			for s := pkg.Scope().Innermost(pos); s != nil; s = s.Parent() {
				for _, n := range s.Names() {
					if o := s.Lookup(n); o != nil && (!o.Pos().IsValid() || o.Pos() < pos || s == pkg.Scope()) && !strings.HasPrefix(n, "_") {
						names = append(names, n)
					}
				}
			}
		}
		if best := suggest.Nearest(m[1], names); best != "" {
			return msg + ", did you mean " + best + "?"
		}
		return msg
	}
	if m := reNoField.FindStringSubmatch(msg); m != nil {
		sel := selectorAt(f, pos)
		if sel == nil {
			return msg
		}
		tv, ok := info.Types[sel.X]
		if !ok || tv.Type == nil {
			return msg
		}
		if best := suggest.Nearest(m[1], members(tv.Type)); best != "" {
			return msg + ", did you mean " + best + "?"
		}
		return msg
	}
	if m := reUnknownField.FindStringSubmatch(msg); m != nil {
		lit := literalAt(f, pos)
		if lit == nil {
			return msg
		}
		tv, ok := info.Types[lit]
		if !ok || tv.Type == nil {
			return msg
		}
		var names []string
		if st, ok := deref(tv.Type).Underlying().(*types.Struct); ok {
			for i := 0; i < st.NumFields(); i++ {
				names = append(names, st.Field(i).Name())
			}
		}
		if best := suggest.Nearest(m[1], names); best != "" {
			return msg + ", did you mean " + best + "?"
		}
	}
	return msg
}

func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// members are the fields and methods a selector on a value of type t can
// name.
func members(t types.Type) []string {
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	var fields func(t types.Type, depth int)
	fields = func(t types.Type, depth int) {
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok || depth > 3 {
			return
		}
		for i := 0; i < st.NumFields(); i++ {
			add(st.Field(i).Name())
			if st.Field(i).Embedded() {
				fields(st.Field(i).Type(), depth+1)
			}
		}
	}
	fields(t, 0)
	for _, mt := range []types.Type{t, types.NewPointer(deref(t))} {
		ms := types.NewMethodSet(mt)
		for i := 0; i < ms.Len(); i++ {
			add(ms.At(i).Obj().Name())
		}
	}
	return out
}

// packageAt is the package the qualified identifier at pos selects from.
func packageAt(f *ast.File, info *types.Info, pos token.Pos) *types.Package {
	sel := selectorAt(f, pos)
	if sel == nil {
		return nil
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil
	}
	if pn, ok := info.Uses[id].(*types.PkgName); ok {
		return pn.Imported()
	}
	return nil
}

// selectorAt is the selector expression whose selected name, or whole
// expression, starts at pos.
func selectorAt(f *ast.File, pos token.Pos) *ast.SelectorExpr {
	var found *ast.SelectorExpr
	ast.Inspect(f, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if s, ok := n.(*ast.SelectorExpr); ok && (s.Sel.Pos() == pos || s.Pos() == pos) {
			found = s
			return false
		}
		return n == nil || n.Pos() <= pos && pos <= n.End()
	})
	return found
}

// literalAt is the composite literal with a key at pos.
func literalAt(f *ast.File, pos token.Pos) *ast.CompositeLit {
	var found *ast.CompositeLit
	ast.Inspect(f, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if cl, ok := n.(*ast.CompositeLit); ok {
			for _, e := range cl.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok && kv.Key.Pos() == pos {
					found = cl
					return false
				}
			}
		}
		return n == nil || n.Pos() <= pos && pos <= n.End()
	})
	return found
}
