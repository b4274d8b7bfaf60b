package interp

// toolscript patch 117: text/template and html/template reach the data of
// Execute by reflection, and a script type's reflect type has no methods:
// a template printed a value whose type has a String, Error, Format or
// GoString method with its fields ({t}, where Go calls String and prints
// L:t), and read a field or a map key where Go calls a method of that
// name ({{.Total}}). A call of Execute or ExecuteTemplate whose data's
// static type reaches such a type is a compile error naming the type, the
// method and the line; so is a script function of a FuncMap whose result
// reaches one, and Execute used as a function value (its data unseen).
// Data of an interface type is checked when the call runs (the engine
// refuses a script value with methods held in an interface).

import (
	"fmt"
	"go/constant"
	"reflect"
	"sort"
	"strings"
)

// templateFmtMethods are the methods fmt calls to print a value, with
// their signatures: a template prints with fmt what its actions reach.
var templateFmtMethods = [...]struct{ name, sig string }{
	{"String", "func() string"},
	{"Error", "func() string"},
	{"Format", "func(fmt.State, int32)"},
	{"GoString", "func() string"},
}

// templatePackages are the packages whose Template's Execute methods are
// checked.
var templatePackages = [...]string{"text/template", "html/template"}

// templateCallCheck returns a compile error for the call n of the Execute
// or ExecuteTemplate method of a template whose data has a script type
// with a method the template would call where the interpreter cannot.
func templateCallCheck(n *node) error {
	c0 := n.child[0]
	if c0.kind != selectorExpr || len(c0.child) != 2 || c0.child[0].typ == nil {
		return nil
	}
	name := c0.child[1].ident
	arg := -1
	switch name {
	case "Execute":
		arg = 1
	case "ExecuteTemplate":
		arg = 2
	}
	if arg < 0 || arg+1 >= len(n.child) || n.child[arg+1].typ == nil {
		return nil
	}
	pkg := n.interp.templateReceiver(c0.child[0].typ, name)
	if pkg == "" {
		return nil
	}
	w := templateWalk{seen: map[templateSeen]bool{}}
	if msg := w.walk(n.child[arg+1].typ, false, ""); msg != "" {
		return n.cfgErrorf("%s.%s: %s does not call methods of script types: %s; give the template strings or values of types without these methods instead", pkg[strings.IndexByte(pkg, '/')+1:], name, pkg, msg)
	}
	return nil
}

// templateReceiver returns the package of the Template whose method name
// a value of type t calls (directly, or promoted from an embedded field),
// "" if it is not a template's.
func (interp *Interpreter) templateReceiver(t *itype, name string) string {
	if t == nil || t.cat == binPkgT || t.cat == srcPkgT {
		return ""
	}
	if m, _ := t.lookupMethod(name); m != nil || t.TypeOf() == nil {
		return "" // a script method
	}
	rm, _, _, ok := t.lookupBinMethod(name)
	if !ok || rm.Type == nil || rm.Type.NumIn() == 0 {
		return ""
	}
	recv := rm.Type.In(0)
	for _, pkg := range templatePackages {
		if s, ok := interp.binPkg[pkg]["Template"]; ok && isBinType(s) && (s.Type() == recv || s.Type().Elem() == recv) {
			return pkg
		}
	}
	return ""
}

// templateMethodValueCheck returns a compile error for the selector n of
// a template's Execute or ExecuteTemplate method that is not called at
// once (a method value or expression): its data would not be checked.
func templateMethodValueCheck(n *node) error {
	if len(n.child) != 2 || n.child[0].typ == nil {
		return nil
	}
	name := n.child[1].ident
	if name != "Execute" && name != "ExecuteTemplate" || n.anc != nil && n.anc.kind == callExpr && n.anc.child[0] == n || toBlank(n) {
		return nil
	}
	pkg := n.interp.templateReceiver(n.child[0].typ, name)
	if pkg == "" {
		return nil
	}
	short := pkg[strings.IndexByte(pkg, '/')+1:]
	return n.cfgErrorf("%s.%s as a function value is not supported by the interpreter, which checks a template's data for methods of script types only in a direct call: call %s directly", short, name, name)
}

// templateFuncMapCheck returns a compile error for the composite literal
// n of a template's FuncMap (its elements child) whose script function
// returns a value of a type with a method the template would call.
func templateFuncMapCheck(n *node, child []*node) error {
	pkg := n.interp.funcMapPackage(n.typ)
	if pkg == "" {
		return nil
	}
	if tn := n.child[0]; n.nleft > 0 && tn.kind == selectorExpr && len(tn.child) == 2 && tn.child[0].sym != nil && tn.child[0].sym.typ != nil && tn.child[0].sym.typ.cat == binPkgT {
		pkg = tn.child[0].sym.typ.path // html/template's FuncMap is text/template's
	}
	for _, c := range child {
		if c.kind == keyValueExpr && len(c.child) == 2 {
			if err := templateFuncResults(c, pkg, c.child[0], c.child[1].typ); err != nil {
				return err
			}
		}
	}
	return nil
}

// templateFuncMapAssign returns a compile error for the assignment of src
// to dest, an element of a template's FuncMap (fm["name"] = f), when src
// is a script function whose result has a method the template would call.
func templateFuncMapAssign(dest, src *node) error {
	if dest.kind != indexExpr || len(dest.child) != 2 || dest.child[0].typ == nil {
		return nil
	}
	pkg := dest.interp.funcMapPackage(dest.child[0].typ)
	if pkg == "" {
		return nil
	}
	return templateFuncResults(src, pkg, dest.child[1], src.typ)
}

// funcMapPackage returns the package whose FuncMap t is, "" if none.
func (interp *Interpreter) funcMapPackage(t *itype) string {
	if t == nil || t.cat != valueT {
		return ""
	}
	for _, p := range templatePackages {
		if s, ok := interp.binPkg[p]["FuncMap"]; ok && isBinType(s) && s.Type().Elem() == t.rtype {
			return p
		}
	}
	return ""
}

// templateFuncResults returns a compile error at n when ft, the type of
// the function a FuncMap holds at the key node key, is a script function
// whose result has a method the template would call.
func templateFuncResults(n *node, pkg string, key *node, ft *itype) error {
	if ft == nil || ft.cat != funcT {
		return nil
	}
	name := "a FuncMap function"
	if k := key.rval; k.IsValid() && k.CanInterface() {
		if v, ok := k.Interface().(constant.Value); ok && v.Kind() == constant.String {
			name = fmt.Sprintf("FuncMap function %q", constant.StringVal(v))
		} else if k.Kind() == reflect.String {
			name = fmt.Sprintf("FuncMap function %q", k.String())
		}
	}
	w := templateWalk{seen: map[templateSeen]bool{}}
	for _, r := range ft.ret {
		if msg := w.walk(r, false, "result of "+name); msg != "" {
			return n.cfgErrorf("%s.FuncMap: %s does not call methods of script types: %s; return strings or values of types without these methods instead", pkg[strings.IndexByte(pkg, '/')+1:], pkg, msg)
		}
	}
	return nil
}

type templateSeen struct {
	t    *itype
	addr bool
}

// templateWalk walks the types a template can reach from its data.
type templateWalk struct {
	seen map[templateSeen]bool
}

// walk returns what a template would call on a value of type t that the
// interpreter's cannot, "" if nothing: addr tells whether the template
// reaches the value addressable (through a pointer or a slice), so that
// the methods of *t count too; at says where the value is in the data.
func (w templateWalk) walk(t *itype, addr bool, at string) string {
	if t == nil || t.cat == nilT || isBin(t) || isInterface(t) || w.seen[templateSeen{t, addr}] {
		return ""
	}
	w.seen[templateSeen{t, addr}] = true
	if t.cat != ptrT {
		where := t.str
		if at != "" {
			where += " (" + at + ")"
		}
		for _, m := range templateFmtMethods {
			if scriptHasMethod(t, m.name, m.sig) || addr && scriptHasMethod(ptrOf(t), m.name, m.sig) {
				return fmt.Sprintf("%s has %s, which the template calls to print it", where, m.name)
			}
		}
		if msg := templateByName(t, addr, where); msg != "" {
			return msg
		}
	}
	in := func(s string) string {
		if at == "" {
			return s
		}
		return s + " in " + at
	}
	switch t.cat {
	case linkedT:
		return w.walk(t.val, addr, at)
	case ptrT:
		return w.walk(t.val, true, at)
	case sliceT, variadicT:
		return w.walk(t.val, true, in("element of "+t.str))
	case arrayT:
		return w.walk(t.val, addr, in("element of "+t.str))
	case chanT, chanRecvT, chanSendT:
		return w.walk(t.val, false, in("element of "+t.str))
	case mapT:
		if msg := w.walk(t.key, false, in("key of "+t.str)); msg != "" {
			return msg
		}
		return w.walk(t.val, false, in("value of "+t.str))
	case funcT:
		for _, r := range t.ret {
			if msg := w.walk(r, false, in("result of "+t.str)); msg != "" {
				return msg
			}
		}
	case structT:
		for _, f := range t.field {
			if !f.embed && !canExport(f.name) {
				continue // neither a template nor fmt calls its methods
			}
			if msg := w.walk(f.typ, addr, in("field "+f.name+" of "+t.str)); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// templateByName returns the exported method of t that Go's template
// would call for .Name where the interpreter's reads a field or a map key
// of that name instead, "" if none.
func templateByName(t *itype, addr bool, where string) string {
	rt := t.TypeOf()
	if rt == nil || rt.Kind() != reflect.Struct && rt.Kind() != reflect.Map {
		return ""
	}
	for _, name := range methodNames(t, map[*itype]bool{}) {
		if !canExport(name) || !inMethodSet(t, name, addr) {
			continue
		}
		if rt.Kind() == reflect.Map {
			return fmt.Sprintf("%s has %s, which the template calls for .%s where the interpreter's reads the map key %q", where, name, name, name)
		}
		if _, ok := rt.FieldByName(name); ok {
			return fmt.Sprintf("%s has %s, which the template calls for .%s where the interpreter's reads the field %s", where, name, name, name)
		}
	}
	return ""
}

// methodNames returns the names of the methods declared on t and on the
// types embedded in it, sorted.
func methodNames(t *itype, seen map[*itype]bool) []string {
	set := map[string]bool{}
	var collect func(t *itype)
	collect = func(t *itype) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		for _, m := range t.method {
			set[m.ident] = true
		}
		switch {
		case t.cat == valueT && t.rtype != nil:
			for _, rt := range []reflect.Type{t.rtype, reflect.PointerTo(t.rtype)} {
				for i := 0; i < rt.NumMethod(); i++ {
					set[rt.Method(i).Name] = true
				}
			}
			return
		case t.cat == linkedT || t.cat == ptrT:
			collect(t.val)
		}
		for _, f := range t.field {
			if f.embed {
				collect(f.typ)
			}
		}
	}
	collect(t)
	names := make([]string, 0, len(set))
	for name := range set {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// inMethodSet tells whether the method name is in the method set of t,
// or of *t when addr is set.
func inMethodSet(t *itype, name string, addr bool) bool {
	if m, index := t.lookupMethod(name); m != nil && m.typ != nil {
		return addr || t.cat == ptrT || m.typ.recv == nil || m.typ.recv.cat != ptrT || embeddedViaPointer(t, index)
	}
	_, index, isPtr, ok := t.lookupBinMethod(name)
	if !ok || len(index) == 0 {
		return false // a script type's own reflect type has no methods
	}
	return addr || t.cat == ptrT || !isPtr || embeddedViaPointer(t, index)
}
