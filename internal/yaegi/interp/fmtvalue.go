package interp // toolscript patch 113

import (
	"strconv"
	"strings"
)

// toBlank tells whether n, an expression, is the value given to the
// blank identifier (var _ = fmt.Sprint, _ = f), which is never called.
func toBlank(n *node) bool {
	a := n.anc
	if a == nil || len(a.child) != 2 || a.child[1] != n {
		return false
	}
	switch a.kind {
	case defineStmt, assignStmt:
		return a.child[0].ident == "_"
	}
	return false
}

// goTypeString is Go's name of t, a type that names a script type, as
// %T prints it: the type's own string has no spaces in function types
// (func(*main.Acc,int)) and Go's spacing nowhere else in unnamed
// structs.
func goTypeString(t *itype, depth int) string {
	if depth > 32 {
		return t.str
	}
	if t.name != "" && t.path != "" || !hasScriptName(t, map[*itype]bool{}) {
		if t.name == "" {
			if rt := t.TypeOf(); rt != nil {
				return rt.String()
			}
		}
		return t.str
	}
	elem := func(e *itype) string { return goTypeString(e, depth+1) }
	switch t.cat {
	case ptrT:
		return "*" + elem(t.val)
	case sliceT:
		return "[]" + elem(t.val)
	case variadicT:
		return "..." + elem(t.val)
	case arrayT:
		return "[" + strconv.Itoa(t.length) + "]" + elem(t.val)
	case mapT:
		return "map[" + elem(t.key) + "]" + elem(t.val)
	case chanT:
		return "chan " + elem(t.val)
	case chanSendT:
		return "chan<- " + elem(t.val)
	case chanRecvT:
		return "<-chan " + elem(t.val)
	case linkedT:
		return elem(t.val)
	case structT:
		var b strings.Builder
		b.WriteString("struct {")
		for i, f := range t.field {
			if i > 0 {
				b.WriteString(";")
			}
			b.WriteString(" ")
			if !f.embed {
				b.WriteString(f.name + " ")
			}
			b.WriteString(elem(f.typ))
			if f.tag != "" {
				b.WriteString(" " + strconv.Quote(f.tag))
			}
		}
		if len(t.field) > 0 {
			b.WriteString(" ")
		}
		b.WriteString("}")
		return b.String()
	case funcT:
		var b strings.Builder
		b.WriteString("func(")
		for i, a := range t.arg {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(elem(a))
		}
		b.WriteString(")")
		switch len(t.ret) {
		case 0:
		case 1:
			b.WriteString(" " + elem(t.ret[0]))
		default:
			b.WriteString(" (")
			for i, r := range t.ret {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(elem(r))
			}
			b.WriteString(")")
		}
		return b.String()
	}
	return t.str
}
