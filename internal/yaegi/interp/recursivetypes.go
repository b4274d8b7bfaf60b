package interp // toolscript patch 177

// toolscript patch 177: the field types of mutually recursive struct
// types (type List struct{ head *Cell }; type Cell struct{ next *Cell;
// list *List }, and their generic forms List[T], Cell[T]) are completed
// from the fields' own types: refType replaced every placeholder of the
// recursion by the reflect type of the last struct it met (fixDummy of
// ctx.rect), so Cell's next became a *List and storing a *Cell in it
// panicked in reflect.Set at run time.

import (
	"reflect"

	"github.com/toolscript/toolscript/internal/yaegi/unsafe2"
)

// recursiveFieldType returns the reflect type of field i of the struct s
// of a recursion whose struct types all have their reflect types (in
// ctx.defined), ft being the field's type with placeholders.
func recursiveFieldType(ctx *refTypeContext, s *itype, i int, ft reflect.Type) reflect.Type {
	if i < len(s.field) && s.field[i].typ != nil {
		rt := s.field[i].typ.refType(&refTypeContext{defined: ctx.defined, refs: map[string][]*itype{}, rebuilding: true})
		if rt != nil && rt != unsafe2.DummyType {
			return rt
		}
	}
	return ctx.rect.fixDummy(ft)
}

// inProgressByValue tells whether the struct t holds, by value (as a
// field, an array's elements or a field of such a struct), a named struct
// type whose reflect type is being built in ctx: t is then reached
// through a pointer, a slice, a map, a channel or a function from that
// type, and its reflect type, which needs the other's layout, is made once
// the other's is (recursiveFieldType), a placeholder standing for it
// meanwhile. Upstream built it with the placeholder, of size zero, in
// place of the field, and completed the field's type but not the layout:
// in type List struct{ root Elem; len int }; type Elem struct{ next *Elem;
// list *List }, an Elem's list.len read List's root.
func inProgressByValue(ctx *refTypeContext, t *itype, depth int) bool {
	if depth > 16 {
		return false
	}
	for _, f := range t.field {
		ft := f.typ
		for ft != nil && (ft.cat == linkedT || ft.cat == arrayT) && ft.val != nil {
			ft = ft.val
		}
		if ft == nil || ft.cat != structT {
			continue
		}
		if ft.name != "" {
			if dt := ctx.defined[ft.path+"/"+ft.name]; dt != nil {
				if dt.rtype == nil {
					return true
				}
				continue
			}
		}
		if inProgressByValue(ctx, ft, depth+1) {
			return true
		}
	}
	return false
}
