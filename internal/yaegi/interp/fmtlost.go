package interp // toolscript patch 89

// toolscript patch 89: %T and %#v never print a wrong type name for a
// value held in an interface. A value of a script type converted to an
// empty interface is held as the reflect value of its type's
// representation (a struct, slice or basic type without a name) unless
// the type has methods, so a methodless main.Point in an any, a
// []main.Point or a *main.Point anywhere in one, was printed by %T and
// %#v as struct { X int; Y int }. The interpreter cannot tell such a
// value from one of the unnamed type itself, so fmt's %T and %#v of a
// value held in an interface whose type is, or is made of, the
// representation of a script type fail at run time with an error that
// names the verb and the script type; a value whose type no script type
// shares prints as in Go, as does every other verb.

import (
	"go/constant"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic" // toolscript patch 217
)

// namedTypes are the script's named types and, once the program is
// compiled, their representations.
type namedTypes struct {
	sync.RWMutex
	types   []*itype
	indexed int
	byType  map[reflect.Type][]namedRep
	inst    map[*itype]string       // the name of each instance of a generic type
	bin     map[string]bool         // the native packages whose type names are recorded (toolscript patch 91)
	given   map[reflect.Type]string // the Go names of named native types given by their packages (toolscript patch 121)

	// toolscript patch 122: the types noteJSONHeld recorded, and their
	// representations (jsonHeldReps), computed when len(jsonHeld) was
	// jsonRepsAt.
	jsonHeld     []*itype
	jsonHeldSeen map[*itype]bool
	jsonReps     map[reflect.Type]string
	jsonRepsAt   int

	// toolscript patch 112: the script's unnamed struct types and, once
	// indexed, their representations.
	unnamed        []*itype
	unnamedIndexed int
	unnamedReps    map[reflect.Type]bool
	// The script types without methods whose values the script puts in
	// interfaces and, once indexed, their representations that a value
	// of another type may have, with their names.
	held        []*itype
	heldSeen    map[*itype]bool
	heldIndexed int
	heldReps    map[reflect.Type]string
	// toolscript patch 112: the script types with methods whose values
	// the script gives to native functions in interfaces (as their
	// representations) and, once indexed, by representation.
	native        []*itype
	nativeSeen    map[*itype]bool
	nativeIndexed int
	nativeReps    map[reflect.Type][]*itype

	// toolscript patch 217: quiet tells that every type recorded is
	// indexed and that no representation is held or given back
	// (heldReps and nativeReps are empty); a type recorded clears it.
	quiet atomic.Bool
}

// namedRep is a script type that a reflect type represents; kept tells
// that a value of the type, or a pointer to one, converted to an
// interface keeps its type (the type has methods).
type namedRep struct {
	name string
	kept bool
	// top: only a value of the type itself, not one of a type made of it
	// (a typed tool's enum, a string: every map[string]any would be one).
	top bool
}

// noteNamed records t, a named type the script declares or instantiates.
func (interp *Interpreter) noteNamed(t *itype) {
	if t == nil || t.name == "" || t.cat == valueT || t.cat == interfaceT {
		return
	}
	interp.named.Lock()
	interp.named.types = append(interp.named.types, t)
	interp.named.quiet.Store(false) // toolscript patch 217
	interp.named.Unlock()
}

// TypeNamesSymbol is the symbol of a native package whose value, a
// map[reflect.Type]string, gives Go's names of the package's types that
// their reflect types do not have (a typed tool's result struct, built
// with reflect.StructOf; its enum, a string): %T and %#v of a value of
// one fail at run time, naming the type, rather than print its
// representation (toolscript patch 91). A script cannot name it (it is
// no symbol of the package for a selector or a dot-import), so the map,
// which a host may share between interpreters, is only read.
const TypeNamesSymbol = "_typeNames"

// noteBinTypes records the type names of the native package ipath
// (TypeNamesSymbol) when a program imports it (toolscript patch 91).
func (interp *Interpreter) noteBinTypes(ipath string, pkg map[string]reflect.Value) {
	v, ok := pkg[TypeNamesSymbol]
	if !ok || !v.IsValid() || !v.CanInterface() {
		return
	}
	names, ok := v.Interface().(map[reflect.Type]string)
	if !ok {
		return
	}
	interp.named.Lock()
	defer interp.named.Unlock()
	if interp.named.bin[ipath] {
		return
	}
	if interp.named.bin == nil {
		interp.named.bin = map[string]bool{}
	}
	interp.named.bin[ipath] = true
	if interp.named.byType == nil {
		interp.named.byType = map[reflect.Type][]namedRep{}
	}
	for rt, name := range names {
		if interp.noteGivenLocked(rt, name) { // toolscript patch 121: a name of a type of its own
			continue
		}
		if reps := interp.named.byType[rt]; !containsRep(reps, name) {
			k := rt.Kind()
			basic := k != reflect.Struct && k != reflect.Slice && k != reflect.Array && k != reflect.Map &&
				k != reflect.Ptr && k != reflect.Func && k != reflect.Chan
			interp.named.byType[rt] = append(reps, namedRep{name: name, top: basic})
		}
	}
}

// toolConst tells whether c is a selector of a constant of a native
// package with type names (a typed tool's enum value, which the
// interpreter holds as a string) (toolscript patch 91).
func (interp *Interpreter) toolConst(c *node) bool {
	if c.kind != selectorExpr || len(c.child) != 2 {
		return false
	}
	p := c.child[0]
	if p.sym == nil || p.sym.typ == nil || p.sym.typ.cat != binPkgT {
		return false
	}
	interp.named.RLock()
	named := interp.named.bin[p.sym.typ.path]
	interp.named.RUnlock()
	if !named {
		return false
	}
	v := interp.binPkg[p.sym.typ.path][c.child[1].ident]
	if !v.IsValid() || !v.CanInterface() {
		return false
	}
	_, ok := v.Interface().(constant.Value)
	return ok
}

// toolTypeError is the run-time error of verb (%T, %#v) of a value whose
// static type is a native type without a name of its own: of what
// ("type orders.Order", "the constant orders.StatusPaid") (toolscript
// patch 91).
func toolTypeError(n *node, verb, what string, rt reflect.Type) error {
	return n.cfgErrorf("%s of a value of %s is not supported (the interpreter sees %s, which has no name)",
		verb, what, rt)
}

// instanceIn returns the name of an instance of a generic type that t is
// or is made of, or "" (toolscript patch 92).
func (interp *Interpreter) instanceIn(t *itype, seen map[*itype]bool) string {
	if t == nil || seen[t] || t.cat == valueT {
		return ""
	}
	seen[t] = true
	interp.named.RLock()
	name, ok := interp.named.inst[t]
	interp.named.RUnlock()
	if ok && !interp.goNamedInstance(t, name, 0) { // toolscript patch 226: one named as Go names it is printed
		return name
	}
	switch t.cat {
	case ptrT, sliceT, arrayT, variadicT, linkedT, chanT:
		return interp.instanceIn(t.val, seen)
	case mapT:
		if s := interp.instanceIn(t.key, seen); s != "" {
			return s
		}
		return interp.instanceIn(t.val, seen)
	case structT:
		for _, fl := range t.field {
			if s := interp.instanceIn(fl.typ, seen); s != "" {
				return s
			}
		}
	}
	return ""
}

// noteNamedAs records t, an instance of a generic type, by its name.
func (interp *Interpreter) noteNamedAs(t *itype, name string) {
	if t == nil || t.cat == valueT || t.cat == interfaceT {
		return
	}
	interp.named.Lock()
	interp.named.types = append(interp.named.types, t)
	interp.named.quiet.Store(false) // toolscript patch 217
	if interp.named.inst == nil {
		interp.named.inst = map[*itype]string{}
	}
	interp.named.inst[t] = name
	interp.named.Unlock()
}

// indexNamed maps the representation of each named type recorded since
// the last call to the type's name (at the end of a compilation).
func (interp *Interpreter) indexNamed() {
	if interp.namedIndexed() { // toolscript patch 112: run-time checks call it
		return
	}
	interp.named.Lock()
	defer interp.named.Unlock()
	interp.indexUnnamedLocked() // toolscript patch 112
	for ; interp.named.indexed < len(interp.named.types); interp.named.indexed++ {
		t := interp.named.types[interp.named.indexed]
		kept := keepsMethods(t)
		name := t.str
		if s, ok := interp.named.inst[t]; ok {
			name = s
		}
		for _, rt := range namedReps(t) {
			if interp.named.byType == nil {
				interp.named.byType = map[reflect.Type][]namedRep{}
			}
			reps := interp.named.byType[rt]
			if !containsRep(reps, name) {
				interp.named.byType[rt] = append(reps, namedRep{name: name, kept: kept})
			}
		}
	}
}

// namedReps returns the reflect types of values of t; none for a type
// that cannot be completed.
func namedReps(t *itype) (rts []reflect.Type) {
	defer func() {
		if recover() != nil {
			rts = nil
		}
	}()
	if t.incomplete {
		return nil
	}
	rt := t.TypeOf()
	if rt == nil {
		return nil
	}
	rts = append(rts, rt)
	if ft := t.frameType(); ft != nil && ft != rt {
		rts = append(rts, ft)
	}
	return rts
}

func containsRep(list []namedRep, s string) bool {
	for _, x := range list {
		if x.name == s {
			return true
		}
	}
	return false
}

// lostName returns the names of the script types whose name a value of
// type rt may have lost (rt or a type it is made of is the
// representation of a script type), or "". held tells that the value is
// the one an interface holds, which a type with methods (or a pointer to
// one) would have kept.
func (interp *Interpreter) lostName(rt reflect.Type, held bool) string {
	if s := iterName(rt); s != "" { // toolscript patch 92
		return s
	}
	interp.indexNamed() // toolscript patch 112: the types given to native functions
	interp.named.RLock()
	defer interp.named.RUnlock()
	if len(interp.named.byType) == 0 {
		return ""
	}
	return interp.lostNameLocked(rt, held, true, map[reflect.Type]bool{})
}

// iterName returns the name of the iterator type rt may be, or "": the
// interpreted iter, maps and slices type iter.Seq[V] and iter.Seq2[K, V]
// as the function types they are (toolscript patch 92).
func iterName(rt reflect.Type) string {
	if rt == nil || rt.Kind() != reflect.Func || rt.NumIn() != 1 || rt.NumOut() != 0 {
		return ""
	}
	y := rt.In(0)
	if y.Kind() != reflect.Func || y.NumOut() != 1 || y.Out(0).Kind() != reflect.Bool {
		return ""
	}
	switch y.NumIn() {
	case 1:
		return "iter.Seq[" + y.In(0).String() + "] (an iterator's function type)"
	case 2:
		return "iter.Seq2[" + y.In(0).String() + ", " + y.In(1).String() + "] (an iterator's function type)"
	}
	return ""
}

func (interp *Interpreter) lostNameLocked(rt reflect.Type, held, top bool, seen map[reflect.Type]bool) string {
	if rt == nil || seen[rt] {
		return ""
	}
	seen[rt] = true
	var names []string
	for _, r := range interp.named.byType[rt] {
		if (!held || !r.kept || top && interp.nativeNamedLocked(rt, r.name)) && (top || !r.top) { // toolscript patch 112: or a native function gave it back
			names = append(names, r.name)
		}
	}
	if len(names) > 0 {
		sort.Strings(names)
		return strings.Join(names, " or ")
	}
	if rt.Name() != "" {
		return "" // a native named type prints its own name
	}
	held = held && rt.Kind() == reflect.Ptr // *T with T's methods is kept too
	switch rt.Kind() {
	case reflect.Ptr, reflect.Slice, reflect.Array, reflect.Chan:
		return interp.lostNameLocked(rt.Elem(), held, false, seen)
	case reflect.Map:
		if s := interp.lostNameLocked(rt.Key(), false, false, seen); s != "" {
			return s
		}
		return interp.lostNameLocked(rt.Elem(), false, false, seen)
	case reflect.Func:
		for i := 0; i < rt.NumIn(); i++ {
			if s := interp.lostNameLocked(rt.In(i), false, false, seen); s != "" {
				return s
			}
		}
		for i := 0; i < rt.NumOut(); i++ {
			if s := interp.lostNameLocked(rt.Out(i), false, false, seen); s != "" {
				return s
			}
		}
	case reflect.Struct:
		for i := 0; i < rt.NumField(); i++ {
			if s := interp.lostNameLocked(rt.Field(i).Type, false, false, seen); s != "" {
				return s
			}
		}
	}
	return ""
}

// lostGoSyntax returns the names of the script types whose name %#v of v,
// a value without script types of its own, would not print, or "": the
// type of each struct, slice, array, map, pointer, func and channel it
// prints (a basic value prints no type name), through the values its
// interfaces hold.
func (interp *Interpreter) lostGoSyntax(v reflect.Value, top, held bool, depth int) string {
	if !v.IsValid() || depth > 64 {
		return ""
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return ""
		}
		e := v.Elem()
		if e.CanInterface() {
			if vi, ok := e.Interface().(valueInterface); ok {
				e = vi.value // printed through its node, by goSyntax
				if vi.node != nil && vi.node.typ != nil && !isInterfaceSrc(vi.node.typ) {
					return ""
				}
			}
		}
		return interp.lostGoSyntax(e, top, true, depth+1)
	case reflect.Struct:
		if v.CanInterface() {
			if _, ok := v.Interface().(interface{ scriptNode() *node }); ok {
				return "" // a wrapper keeps its value's script type
			}
		}
		if s := interp.lostName(v.Type(), held); s != "" {
			return s
		}
		for i := 0; i < v.NumField(); i++ {
			if s := interp.lostGoSyntax(v.Field(i), false, false, depth+1); s != "" {
				return s
			}
		}
	case reflect.Slice, reflect.Array:
		if s := interp.lostName(v.Type(), held); s != "" {
			return s
		}
		for i := 0; i < v.Len(); i++ {
			if s := interp.lostGoSyntax(v.Index(i), false, false, depth+1); s != "" {
				return s
			}
		}
	case reflect.Map:
		if s := interp.lostName(v.Type(), held); s != "" {
			return s
		}
		for it := v.MapRange(); it.Next(); {
			if s := interp.lostGoSyntax(it.Key(), false, false, depth+1); s != "" {
				return s
			}
			if s := interp.lostGoSyntax(it.Value(), false, false, depth+1); s != "" {
				return s
			}
		}
	case reflect.Ptr:
		if s := interp.lostName(v.Type(), held); s != "" {
			return s
		}
		if top && !v.IsNil() {
			return interp.lostGoSyntax(v.Elem(), false, false, depth+1)
		}
	case reflect.Func, reflect.Chan:
		return interp.lostName(v.Type(), held)
	}
	return ""
}

// fmtSpreadTypes converts the slice c spread into the arguments of the
// printf call n (prior being its conversion so far), whose first element
// is argument first of format: an element printed by %T becomes its type
// name, one printed by %#v its Go syntax (toolscript patch 90; fmt saw
// the interpreter's representation: interp.fmtPrinted, struct { ... }).
func (interp *Interpreter) fmtSpreadTypes(n *node, format func(*frame) reflect.Value, c *node,
	prior func(*frame) reflect.Value, first int) func(*frame) reflect.Value {
	raw := genValue(c)
	var elem *itype
	if c.typ != nil && c.typ.val != nil {
		elem = c.typ.val
	}
	return func(f *frame) reflect.Value {
		fs := format(f).String()
		if !hasTypeVerb(fs) {
			return prior(f)
		}
		pv, rv := prior(f), raw(f)
		for pv.Kind() == reflect.Interface && !pv.IsNil() {
			pv = pv.Elem()
		}
		if pv.Kind() != reflect.Slice || rv.Kind() != reflect.Slice || pv.Len() != rv.Len() {
			return pv
		}
		out := make([]interface{}, pv.Len())
		for i := range out {
			switch a := first + i; {
			case typeVerbAt(fs, a):
				out[i] = interp.dynamicTypeName(n, rv.Index(i))
			case goSyntaxVerbAt(fs, a):
				out[i] = fmtText(goSyntaxer{interp: interp, n: n, f: f}.goSyntax(elem, rv.Index(i), true)) // toolscript patch 126
			default:
				out[i] = ifaceOf(pv.Index(i))
			}
		}
		return reflect.ValueOf(out)
	}
}

// hasTypeVerb tells whether format has a %T or a %#v verb (toolscript
// patch 90).
func hasTypeVerb(format string) bool {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		sharp := false
		for i++; i < len(format); i++ {
			c := format[i]
			if c == '#' {
				sharp = true
			}
			if !strings.ContainsRune("#0+- .*[]0123456789", rune(c)) {
				break
			}
		}
		if i < len(format) && (format[i] == 'T' || format[i] == 'v' && sharp) {
			return true
		}
	}
	return false
}

// holdsInterface tells whether a value of type t, a type without script
// names, holds interfaces whose values %#v prints ([]any, map[string]any).
func holdsInterface(t *itype, seen map[*itype]bool) bool {
	if t == nil || seen[t] || t.cat == valueT && !nativeIface(t) { // toolscript patch 152: fmt.Stringer's wrappers
		return false
	}
	seen[t] = true
	if isInterface(t) {
		return true
	}
	switch t.cat {
	case ptrT, sliceT, arrayT, variadicT, linkedT:
		return holdsInterface(t.val, seen)
	case mapT:
		return holdsInterface(t.key, seen) || holdsInterface(t.val, seen)
	case structT:
		for _, fl := range t.field {
			if holdsInterface(fl.typ, seen) {
				return true
			}
		}
	}
	return false
}

// lostTypeError is the run-time error of %T or %#v (verb) of a value held
// in an interface that may be of the script types names, whose name the
// interpreter lost.
func lostTypeError(n *node, verb, names string, rt reflect.Type) error {
	held := "<nil>"
	if rt != nil {
		held = rt.String()
	}
	return n.cfgErrorf("%s of a value held in an interface is not supported when it may be of type %s "+ // toolscript patch 118: which values lose it
		"(a value of an unnamed type made of a script type, such as []T, or one a native function gave back, loses its type name in an interface; the interpreter sees %s)",
		verb, names, held)
}
