package interp // toolscript patches 113 and 114

import (
	"path"
	"reflect"
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
	if t.binName != "" { // toolscript patch 114
		return t.binName
	}
	if t.name != "" && t.path != "" || !hasScriptName(t, map[*itype]bool{}) && !hasHiddenField(t, map[*itype]bool{}) { // toolscript patch 127: struct { y int }
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
		list := func(ts []*itype) string {
			names := make([]string, len(ts))
			for i, a := range ts {
				names[i] = elem(a)
			}
			return strings.Join(names, ", ")
		}
		var b strings.Builder
		b.WriteString("func(" + list(t.arg) + ")")
		switch len(t.ret) {
		case 0:
		case 1:
			b.WriteString(" " + elem(t.ret[0]))
		default:
			b.WriteString(" (" + list(t.ret) + ")")
		}
		return b.String()
	}
	return t.str
}

// binTypeName is Go's name of the type symbol name of the native package
// ipath, v, when its reflect type is unnamed or predeclared (a string
// for an enum) and the package gives the names of its types (TypeNamesSymbol: a typed tool's struct or enum),
// or "" (toolscript patch 114). %T of a value whose static type the
// script wrote with it ([]orders.Status, orders.Order) prints it.
func (interp *Interpreter) binTypeName(ipath, name string, v reflect.Value) string {
	if isBinType(v) && v.Type().Elem().PkgPath() != "" { // toolscript patch 121: a type whose package gives it another name
		interp.named.RLock()
		given := interp.named.given[v.Type().Elem()]
		interp.named.RUnlock()
		return given
	}
	if !isBinType(v) || v.Type().Elem().PkgPath() != "" {
		return "" // a type with a name of its own (time.Duration)
	}
	interp.named.RLock()
	named := interp.named.bin[ipath]
	interp.named.RUnlock()
	if !named {
		return ""
	}
	return path.Base(ipath) + "." + name
}

// basicNamesIn returns the names that native packages give their types
// of a basic kind (a typed tool's enum, a string) whose reflect type rt,
// a composite type, is made of, or "" (toolscript patch 114): %T of a
// []string may be of a []orders.Status, which the interpreter cannot
// tell.
func (interp *Interpreter) basicNamesIn(rt reflect.Type) string {
	var names []string
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type, top bool)
	walk = func(t reflect.Type, top bool) {
		if t == nil || seen[t] || len(seen) > 256 {
			return
		}
		seen[t] = true
		if !top {
			for _, r := range interp.named.byType[t] {
				if r.top && !containsString(names, r.name) {
					names = append(names, r.name)
				}
			}
		}
		switch t.Kind() {
		case reflect.Ptr, reflect.Slice, reflect.Array, reflect.Chan:
			walk(t.Elem(), false)
		case reflect.Map:
			walk(t.Key(), false)
			walk(t.Elem(), false)
		}
	}
	interp.named.RLock()
	walk(rt, true)
	interp.named.RUnlock()
	return strings.Join(names, " or ")
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
