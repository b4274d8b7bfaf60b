package interp

// toolscript patch 61: fmt's print functions see the script's types as Go
// shows them. A value of a script type is a reflect value of a type
// without methods whose unexported fields are renamed (X prefix), so fmt
// missed a String or Error method everywhere but on a direct argument (a
// call's result, a slice element, a struct field, a map value), printed
// a struct for %d of a named integer with a String method, printed an
// interface value the interpreter had wrapped as its internal record,
// and named unexported fields Xname in %+v. The arguments of fmt's and
// log's print functions are converted for printing: a value whose method
// set has Error or String becomes a fmt.Formatter that calls it for the
// verbs Go calls it for (and formats the value itself for the others), a
// struct with such a field or with unexported fields becomes a struct of
// the script's field names, a slice, array or map with such elements a
// slice or map of converted elements, a pointer to such a value (as an
// argument) a pointer to its conversion.

import (
	"fmt"
	"reflect"
	"sort"
	"strings" // toolscript patch 42
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// fmtPrintArgs gives, for the print functions of fmt and log, the index
// of the first argument printed.
var fmtPrintArgs = map[string]map[string]int{
	"fmt": {
		"Print": 0, "Println": 0, "Printf": 1, "Sprint": 0, "Sprintln": 0, "Sprintf": 1,
		"Fprint": 1, "Fprintln": 1, "Fprintf": 2, "Errorf": 1, "Append": 1, "Appendln": 1, "Appendf": 2,
	},
	"log": {
		"Print": 0, "Println": 0, "Printf": 1, "Fatal": 0, "Fatalln": 0, "Fatalf": 1,
		"Panic": 0, "Panicln": 0, "Panicf": 1,
	},
}

// fmtArgsStart returns the index of the first printed argument of the
// call n of a print function of fmt or log, or -1 for another call.
func fmtArgsStart(n *node) int {
	c0 := n.child[0]
	if c0.kind != selectorExpr || len(c0.child) != 2 {
		return -1
	}
	pkg := c0.child[0]
	if pkg.sym == nil || pkg.sym.typ == nil || pkg.sym.typ.cat != binPkgT {
		return loggerPrintStart(c0) // toolscript patch 157: l.Printf
	}
	start, ok := fmtPrintArgs[pkg.sym.typ.path][c0.child[1].ident]
	if !ok {
		start, ok = escaperPrintArgs[pkg.sym.typ.path][c0.child[1].ident] // toolscript patch 198
	}
	if !ok {
		return -1
	}
	return start
}

// escaperPrintArgs are text/template's escapers, which print their
// arguments as fmt.Sprint does (toolscript patch 198): a script value's
// String or Error method is called, a value held in an interface is not
// the interpreter's record. Unlike fmtPrintArgs' functions they may be
// function values (a FuncMap's), which get the arguments unconverted.
var escaperPrintArgs = map[string]map[string]int{
	"text/template": {"HTMLEscaper": 0, "JSEscaper": 0, "URLQueryEscaper": 0},
}

// fmtConvFunc converts a value for printing in the frame of the call.
type fmtConvFunc func(f *frame, v reflect.Value) reflect.Value

var anyType = reflect.TypeOf((*interface{})(nil)).Elem()

// fmtConverters caches the conversion of each script type, nil for a
// type printed as it is.
type fmtConverters struct {
	sync.Mutex
	conv  map[*itype]*fmtConvEntry
	plain map[*itype]*fmtConvEntry // toolscript patch 127: under an unexported field
}

type fmtConvEntry struct {
	fn fmtConvFunc
}

// fmtConv returns the conversion of a value of static type t printed as
// an argument (top) or inside another value, or nil if there is none.
func (interp *Interpreter) fmtConv(t *itype, top bool) fmtConvFunc {
	if t == nil || printedAsIs(t) {
		return nil // no lookup, no allocation: the common case
	}
	interp.fmtConvs.Lock()
	defer interp.fmtConvs.Unlock()
	if interp.fmtConvs.conv == nil {
		interp.fmtConvs.conv = map[*itype]*fmtConvEntry{}
	}
	return interp.fmtConvLocked(t, top)
}

func (interp *Interpreter) fmtConvLocked(t *itype, top bool) fmtConvFunc {
	if t == nil {
		return nil
	}
	if t.cat == ptrT {
		if m := printMethod(t); m != nil {
			return interp.fmtPrintedPtr(t, m, top) // toolscript patch 153
		}
		if !top {
			return fmtBadVerbNested(t) // fmt prints the address of a nested pointer; toolscript patch 153: and *main.Row in a bad verb's text
		}
		ec := interp.fmtConvLocked(t.val, false)
		bad := fmtBadVerbNested(t) // toolscript patch 153: a nil pointer's, one to another kind's bad verb
		if ec == nil && bad == nil {
			return nil
		}
		return func(f *frame, v reflect.Value) reflect.Value {
			if v.Kind() != reflect.Ptr || v.IsNil() || ec == nil || !ampersandPrinted(v) { // toolscript patch 153
				if bad != nil && v.Kind() == reflect.Ptr {
					b := bad(f, v)
					if bv, ok := b.Interface().(fmtBadVerb); ok {
						bv.nested = false // fmt's top: &{...} for a pointer to a struct
						return reflect.ValueOf(bv)
					}
				}
				return v
			}
			e := ec(f, v.Elem())
			if e.IsValid() && e.Type().Implements(formatterType) { // toolscript patch 153: fmt would call the pointer's Format
				return reflect.ValueOf(fmtAmp{e.Interface()})
			}
			p := reflect.New(e.Type())
			p.Elem().Set(e)
			return p
		}
	}
	if nativeIface(t) { // toolscript patch 152: a wrapper's value, as an argument or inside another value
		return interp.fmtNativeIface(top)
	}
	if badVerbNamed(t) { // toolscript patch 153: inside another value, %!s(main.Level=4)
		if top {
			return nil // patch 145's
		}
		return fmtBadVerbNested(t)
	}
	if top && (isInterfaceSrc(t) || emptyBinInterface(t)) { // toolscript patch 152: a held pointer prints its value
		nativeAny := emptyBinInterface(t)
		return func(f *frame, v reflect.Value) reflect.Value {
			if nativeAny {
				return interp.fmtNativeAnyAt(f, v, true)
			}
			return interp.fmtDynamicAt(f, v, true)
		}
	}
	if e, ok := interp.fmtConvs.conv[t]; ok {
		if e.fn == nil {
			return nil
		}
		return func(f *frame, v reflect.Value) reflect.Value { return e.fn(f, v) }
	}
	// A type being converted refers to itself: the entry's function is
	// read when a value is printed.
	e := &fmtConvEntry{}
	interp.fmtConvs.conv[t] = e
	e.fn = interp.newFmtConv(t)
	if e.fn == nil {
		return nil
	}
	return e.fn
}

func (interp *Interpreter) newFmtConv(t *itype) fmtConvFunc {
	if isInterfaceSrc(t) {
		return interp.fmtDynamic
	}
	if emptyBinInterface(t) { // toolscript patch 112: a native function's any
		return interp.fmtNativeAny
	}
	if m := printMethod(t); m != nil {
		return interp.fmtPrintedShown(t, m) // toolscript patch 153
	}
	switch t.cat {
	case linkedT:
		return interp.fmtConvLocked(t.val, false)
	case arrayT, sliceT, variadicT:
		ec := interp.fmtConvLocked(t.val, false)
		if ec == nil {
			return nil
		}
		bytes := t.val.TypeOf() != nil && t.val.TypeOf().Kind() == reflect.Uint8 // toolscript patch 126
		return func(f *frame, v reflect.Value) reflect.Value {
			if v.Kind() == reflect.Slice && v.IsNil() {
				return v
			}
			out := make([]interface{}, v.Len())
			for i := range out {
				out[i] = ifaceOf(ec(f, v.Index(i)))
			}
			if bytes { // toolscript patch 126: %s, %q, %x and %X print the bytes
				return reflect.ValueOf(fmtBytes{raw: v, elem: reflect.ValueOf(out)})
			}
			return reflect.ValueOf(out)
		}
	case mapT:
		ec := interp.fmtConvLocked(t.val, false)
		if kc := interp.fmtConvLocked(t.key, false); kc != nil {
			return fmtMapKeys(kc, ec)
		}
		if ec == nil {
			return nil
		}
		return func(f *frame, v reflect.Value) reflect.Value {
			if v.IsNil() {
				return v
			}
			out := reflect.MakeMapWithSize(reflect.MapOf(v.Type().Key(), anyType), v.Len())
			for it := v.MapRange(); it.Next(); {
				out.SetMapIndex(it.Key(), anyValue(ifaceOf(ec(f, it.Value())))) // toolscript patch 125: a nil element stays
			}
			return out
		}
	case structT:
		return interp.fmtStructOf(t, false) // toolscript patch 127
	}
	return nil
}

// fmtMap is a map whose keys are printed through their methods: fmt
// would order converted keys by their addresses, so the map prints itself
// in the order of its keys' values, as fmt orders them.
type fmtMap struct {
	raw        reflect.Value
	keys, vals []interface{}
}

// Format implements fmt.Formatter: map[k:v ...] in the order of the keys.
func (m fmtMap) Format(s fmt.State, verb rune) {
	if verb == 'v' && s.Flag('#') || verb == 'T' {
		fmt.Fprintf(s, fmt.FormatString(s, verb), m.raw.Interface())
		return
	}
	format := fmt.FormatString(s, verb)
	fmt.Fprint(s, "map[")
	for i := range m.keys {
		if i > 0 {
			fmt.Fprint(s, " ")
		}
		fmt.Fprintf(s, format+":"+format, m.keys[i], m.vals[i])
	}
	fmt.Fprint(s, "]")
}

// fmtMapKeys converts a map whose keys need a conversion (kc); the values
// need ec, or none when it is nil. Keys of a kind fmt orders by value
// (integers, floats, strings) are supported; another map is printed as
// it is.
func fmtMapKeys(kc, ec fmtConvFunc) fmtConvFunc {
	return func(f *frame, v reflect.Value) reflect.Value {
		if v.IsNil() {
			return v
		}
		keys := v.MapKeys()
		less, ok := rawLess(v.Type().Key().Kind())
		if !ok && v.Type().Key().Kind() == reflect.Interface { // toolscript patch 112: map[any], as fmt orders it
			for i, k := range keys {
				keys[i] = mapKeyValue(k)
			}
			less, ok = func(a, b reflect.Value) bool { return keyOrder(a, b) < 0 }, true
		}
		if !ok { // toolscript patch 126: struct, array, bool and pointer keys, as fmt orders them
			less, ok = func(a, b reflect.Value) bool { return valueCompare(a, b, 0) < 0 }, true
		}
		sort.Slice(keys, func(i, j int) bool { return less(keys[i], keys[j]) })
		m := fmtMap{raw: v, keys: make([]interface{}, len(keys)), vals: make([]interface{}, len(keys))}
		for i, k := range keys {
			m.keys[i] = ifaceOf(kc(f, k))
			val := v.MapIndex(mapKeyOf(k)) // toolscript patch 112
			if ec != nil {
				val = ec(f, val)
			}
			m.vals[i] = ifaceOf(val)
		}
		return reflect.ValueOf(m)
	}
}

// rawLess orders values of kind k as fmt orders map keys.
func rawLess(k reflect.Kind) (func(a, b reflect.Value) bool, bool) {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(a, b reflect.Value) bool { return a.Int() < b.Int() }, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(a, b reflect.Value) bool { return a.Uint() < b.Uint() }, true
	case reflect.Float32, reflect.Float64:
		return func(a, b reflect.Value) bool { return a.Float() < b.Float() }, true
	case reflect.String:
		return func(a, b reflect.Value) bool { return a.String() < b.String() }, true
	}
	return nil, false
}

// fmtStructOf converts a script struct with unexported fields, or with an
// exported field that needs a conversion, to a struct of the script's
// field names (fmt reads unexported fields as they are, as Go does).
//
// toolscript patch 127: plain is true for a struct under an unexported
// field, whose fields are converted without their methods; so are the
// values of unexported fields.
func (interp *Interpreter) fmtStructOf(t *itype, plain bool) fmtConvFunc {
	n := len(t.field)
	convs := make([]fmtConvFunc, n)
	needed := false
	for i, fl := range t.field {
		if !isExportedName(fl.name) || plain { // toolscript patch 127
			needed = needed || !isExportedName(fl.name)
			if convs[i] = interp.fmtPlainLocked(fl.typ); convs[i] != nil {
				needed = true
			}
			continue
		}
		if convs[i] = interp.fmtConvLocked(fl.typ, false); convs[i] != nil {
			needed = true
		}
	}
	for _, fl := range t.field { // toolscript patch 153: fmt calls no method of an unexported field's values
		if (plain || !isExportedName(fl.name)) && fmtNeedsFormat(fl.typ, map[*itype]bool{}) {
			return fmtStructViewOf(t, convs, plain)
		}
	}
	if !needed && !fmtRepPromotes(t) { // toolscript patch 188: nor a native field's method
		return nil
	}
	var once sync.Once
	var st reflect.Type
	return func(f *frame, v reflect.Value) reflect.Value {
		if v.Kind() != reflect.Struct || v.NumField() != n {
			return v
		}
		once.Do(func() {
			fields := make([]reflect.StructField, n)
			for i, fl := range t.field {
				fields[i] = reflect.StructField{Name: fl.name, Type: v.Type().Field(i).Type}
				if !isExportedName(fl.name) {
					fields[i].PkgPath = "main"
				}
				if convs[i] != nil {
					fields[i].Type = anyType
				}
			}
			st = reflect.StructOf(fields)
		})
		out := reflect.New(st).Elem()
		for i := 0; i < n; i++ {
			dst := out.Field(i)
			dst = reflect.NewAt(dst.Type(), unsafe.Pointer(dst.UnsafeAddr())).Elem()
			src := v.Field(i)
			if convs[i] != nil {
				if c := convs[i](f, src); c.IsValid() {
					dst.Set(anyValue(ifaceOf(c))) // toolscript patch 125: a nil interface field
				}
				continue
			}
			dst.Set(src)
		}
		return out
	}
}

// fmtDynamic converts the value of an interface: the interpreter's record
// of a script value in an interface by the value's own type.
func (interp *Interpreter) fmtDynamic(f *frame, v reflect.Value) reflect.Value {
	return interp.fmtDynamicAt(f, v, false) // toolscript patch 152
}

// fmtDynamicAt is fmtDynamic of an argument's value (top: a pointer held
// prints the value it points to, converted) or of a value inside
// another (toolscript patch 152).
func (interp *Interpreter) fmtDynamicAt(f *frame, v reflect.Value, top bool) reflect.Value {
	for v.IsValid() && v.Kind() == reflect.Interface {
		if v.IsNil() {
			return v
		}
		v = v.Elem()
	}
	if !v.IsValid() || !v.CanInterface() {
		return v
	}
	if sk, ok := v.Interface().(scriptKey); ok { // toolscript patch 112: a map[any] key
		v = reflect.ValueOf(sk.record())
	}
	if c, ok := interp.fmtWrapped(f, v, top); ok { // toolscript patch 152: a native interface's wrapper
		return c
	}
	vi, ok := v.Interface().(valueInterface)
	if !ok {
		if c, converted := interp.fmtHolders(f, v, 0); converted { // toolscript patch 115: a []any of records
			return c
		}
		if names := interp.fmtLostMethods(v.Type()); names != "" { // toolscript patch 126: []V in an any
			panic(&AmbiguousTypeError{Representation: v.Type().String(), HeldTypes: names, Op: "printing"})
		}
		return interp.fmtUnwrapped(f, v) // toolscript patch 112: a native function gave it back
	}
	if vi.node == nil || vi.node.typ == nil || !vi.value.IsValid() {
		return reflect.Zero(anyType) // a nil interface
	}
	if isInterfaceSrc(vi.node.typ) {
		return interp.fmtDynamicAt(f, vi.value, top) // toolscript patch 152
	}
	if recordCycle(vi.value) { // toolscript patch 118: left to the print function's check of such values
		return vi.value
	}
	if c := interp.fmtConv(vi.node.typ, top); c != nil { // toolscript patch 152: top
		return c(f, vi.value)
	}
	return vi.value
}

// isWrappable tells whether a value of type t may be an error that
// Errorf's %w wraps: an interface, or a type with an Error method.
func isWrappable(t *itype) bool {
	if t == nil || isInterface(t) {
		return true
	}
	fm := fmtMethodOf(t, "Error", func(*itype) bool { return true }) // toolscript patch 126: in t's method set
	return fm != nil && (fm.m != nil || fm.native != nil)            // toolscript patch 187: or a native field's Error
}

// printedAsIs tells whether fmt prints a value of type t right as it is:
// a native type, or a basic type without methods of the script's.
func printedAsIs(t *itype) bool {
	switch t.cat {
	case valueT:
		return !emptyBinInterface(t) && !nativeIface(t) // toolscript patch 112: a native function's any may hold what a script gave it; 152: a wrapper
	case nilT, funcT, chanT:
		return true
	case boolT, stringT, intT, int8T, int16T, int32T, int64T, uintT, uint8T, uint16T, uint32T, uint64T, uintptrT,
		float32T, float64T, complex64T, complex128T:
		return len(t.method) == 0 && !badVerbNamed(t) // toolscript patch 153: a named type's name in a bad verb
	}
	return false
}

// ifaceOf is the value of v as an interface{}, nil for the zero Value.
// anyValue is x as a value of type any, the zero any for nil (reflect's
// ValueOf(nil) is no value: a map store deleted the key, a field's Set
// panicked; toolscript patch 125).
func anyValue(x interface{}) reflect.Value {
	if x == nil {
		return reflect.Zero(anyType)
	}
	return reflect.ValueOf(x)
}

func ifaceOf(v reflect.Value) interface{} {
	if !v.IsValid() || !v.CanInterface() {
		return nil
	}
	return v.Interface()
}

func isExportedName(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// fmtTypeVerbs makes %T of the printf function call n print the script's
// names of its types, as Go does: the verb of an argument whose type is
// a script type (or an interface holding one) becomes %s of the type's
// name. fmtIdx is the index of the format among the call's arguments.
func (interp *Interpreter) fmtTypeVerbs(n *node, values []func(*frame) reflect.Value, child []*node, fmtIdx int) {
	if fmtIdx < 0 || child[fmtIdx].typ == nil {
		return
	}
	if ft := child[fmtIdx].typ.TypeOf(); ft == nil || ft.Kind() != reflect.String {
		return
	}
	format := genValue(child[fmtIdx])
	var named []bool
	var call *pfCall // toolscript patch 153
	spread := -1
	if n.action == aCallSlice && len(child) > fmtIdx+1 { // toolscript patch 90: fmt.Printf(format, args...)
		spread = len(child) - 1
	}
	for k := fmtIdx + 1; k < len(child); k++ {
		t := child[k].typ
		if k == spread { // toolscript patch 90
			if named == nil {
				named = make([]bool, len(child)-fmtIdx-1)
			}
			values[k] = interp.fmtSpreadTypes(n, format, child[k], values[k], k-fmtIdx-1)
			continue
		}
		lostBin := ""
		if t != nil && isBin(t) && !isInterface(t) && !hasScriptName(t, map[*itype]bool{}) { // toolscript patch 91: a typed tool's type; 114: unless named by the script
			if lostBin = interp.lostName(t.TypeOf(), false); lostBin != "" {
				lostBin = "type " + lostBin
			} else if names := interp.basicNamesIn(t.TypeOf()); names != "" { // toolscript patch 114: []orders.Status
				lostBin = "a type made of " + names
			}
		}
		if t != nil && lostBin == "" && interp.toolConst(child[k]) { // toolscript patch 91: orders.StatusPaid
			lostBin = "the constant " + child[k].child[0].ident + "." + child[k].child[1].ident
		}
		givenStatic := ""
		if t != nil && lostBin == "" && isBin(t) && !isInterface(t) { // toolscript patch 121: orders.Status
			if s, given := interp.givenTypeString(t.TypeOf()); given {
				if givenStatic = s; s == "" {
					lostBin = "a type made of " + interp.givenIn(t.TypeOf())
				}
			}
		}
		lostInst := ""
		if t != nil && !isInterface(t) {
			lostInst = interp.instanceIn(t, map[*itype]bool{}) // toolscript patch 92: Pair[int]
			if lostInst == "" && t.cat == funcT {
				lostInst = iterName(t.TypeOf()) // toolscript patch 92: maps.Keys(m)
			}
		}
		if t == nil || (!isInterface(t) && !hasScriptName(t, map[*itype]bool{}) && !holdsInterface(t, map[*itype]bool{}) && !hasHiddenField(t, map[*itype]bool{}) /* toolscript patch 127 */ && lostBin == "" && lostInst == "" && givenStatic == "") { // toolscript patches 42, 89, 91, 92 and 121
			continue
		}
		if named == nil {
			named = make([]bool, len(child)-fmtIdx-1)
		}
		named[k-fmtIdx-1] = true
		raw, prior, arg := genValue(child[k]), values[k], k-fmtIdx-1
		static := ""
		if !isInterface(t) { // toolscript patch 42
			static = t.str
			if !hasScriptName(t, map[*itype]bool{}) && !hasHiddenField(t, map[*itype]bool{}) { // toolscript patch 89: []any; 127: struct { y int }
				static = t.TypeOf().String()
			} else { // toolscript patch 113: Go's spelling (func(*main.Acc, int))
				static = goTypeString(t, 0)
			}
			if givenStatic != "" { // toolscript patch 121
				static = givenStatic
			}
		}
		badVerb := static != "" && badVerbNamed(t) // toolscript patch 145
		// toolscript patch 153: the value for the format fs, where it is
		// argument arg, for the interpreter's printing of one directive.
		at := func(f *frame, fs string, arg int) reflect.Value {
			if lostInst != "" && (typeVerbAt(fs, arg) || goSyntaxVerbAt(fs, arg)) { // toolscript patch 92
				panic(n.cfgErrorf("%%T and %%#v of a value of type %s, or of a type made of it, are not supported "+
					"(the interpreter does not name an instance of a generic type)", lostInst))
			}
			if !typeVerbAt(fs, arg) {
				if goSyntaxVerbAt(fs, arg) { // toolscript patch 42
					return reflect.ValueOf(fmtText(goSyntaxer{interp: interp, n: n, f: f}.goSyntax(t, raw(f), true))) // toolscript patches 89 and 126
				}
				if badVerb || static == "" { // toolscript patch 145: %!s(main.Level=4)
					if b, ok := badVerbArg(t, static, raw(f), fs, arg); ok {
						return b
					}
				}
				return prior(f)
			}
			if lostBin != "" { // toolscript patch 91
				panic(toolTypeError(n, "%T", lostBin, t.TypeOf()))
			}
			if static != "" {
				return reflect.ValueOf(static)
			}
			return reflect.ValueOf(interp.dynamicTypeName(n, raw(f))) // toolscript patch 89
		}
		values[k] = func(f *frame) reflect.Value { return at(f, format(f).String(), arg) } // toolscript patch 153
		if spread < 0 {
			if call == nil {
				call = &pfCall{interp: interp, n: n, args: make([]*pfArg, len(child)-fmtIdx-1)}
			}
			call.args[arg] = &pfArg{at: at, raw: raw, t: t}
		}
	}
	if named == nil {
		return
	}
	from := -1
	if spread >= 0 {
		from = spread - fmtIdx - 1
	}
	values[fmtIdx] = func(f *frame) reflect.Value {
		s := format(f).String()
		if !printfVerbs(s, func(int, int) bool { return true }) && hasTypeVerb(s) { // toolscript patch 90
			panic(n.cfgErrorf("%%T or %%#v in a format with explicit argument indexes (%q) is not supported "+
				"when an argument is of a script type or held in an interface", s))
		}
		return reflect.ValueOf(rewriteTypeVerbs(s, named, from))
	}
	if call != nil { // toolscript patch 153: %p, an extra argument, explicit indexes
		for i, a := range call.args {
			if a == nil {
				call.args[i] = &pfArg{prior: values[fmtIdx+1+i]}
			}
		}
		call.errorf = n.child[0].child[1].ident == "Errorf"
		call.wrap(values, fmtIdx, format)
	}
	if spread == fmtIdx+1 && child[spread].typ != nil && child[spread].typ.val != nil && isInterface(child[spread].typ.val) { // toolscript patch 153
		interp.wrapSpread(n, values, fmtIdx, spread, format, genValue(child[spread]), child[spread].typ.val)
	}
}

// hasScriptName tells whether the type t names a type of the script.
func hasScriptName(t *itype, seen map[*itype]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if t.cat == valueT {
		return t.binName != "" // toolscript patch 114: orders.Status
	}
	if t.name != "" && t.path != "" {
		return true
	}
	switch t.cat {
	case ptrT, sliceT, arrayT, variadicT, linkedT, chanT:
		return hasScriptName(t.val, seen)
	case chanSendT, chanRecvT: // toolscript patch 113
		return hasScriptName(t.val, seen)
	case mapT:
		return hasScriptName(t.key, seen) || hasScriptName(t.val, seen)
	case structT:
		for _, fl := range t.field {
			if hasScriptName(fl.typ, seen) {
				return true
			}
		}
	case funcT: // toolscript patch 113: %T of a function value names the script's types in its signature
		for _, a := range t.arg {
			if hasScriptName(a, seen) {
				return true
			}
		}
		for _, r := range t.ret {
			if hasScriptName(r, seen) {
				return true
			}
		}
	}
	return false
}

// dynamicTypeName is what %T prints for v, an interface's value, in the
// call n; a value whose script type name the interpreter lost is a
// run-time error (toolscript patch 89).
func (interp *Interpreter) dynamicTypeName(n *node, v reflect.Value) string {
	for v.IsValid() && v.Kind() == reflect.Interface {
		if v.IsNil() {
			return "<nil>"
		}
		v = v.Elem()
	}
	if !v.IsValid() {
		return "<nil>"
	}
	if nod := wrapperNode(v); nod != nil { // toolscript patch 42: a script value in an error
		return nod.typ.str
	}
	if s := goRuntimeTypeName(v); s != "" { // toolscript patch 196
		return s
	}
	if v.CanInterface() {
		if vi, ok := v.Interface().(valueInterface); ok {
			if vi.node == nil || vi.node.typ == nil || !vi.value.IsValid() {
				return "<nil>"
			}
			if isInterfaceSrc(vi.node.typ) {
				return interp.dynamicTypeName(n, vi.value)
			}
			return vi.node.typ.str
		}
	}
	if names := interp.lostName(v.Type(), true); names != "" { // toolscript patch 89
		panic(lostTypeError(n, "%T", names, v.Type()))
	}
	if s, given := interp.givenTypeString(v.Type()); given { // toolscript patch 121: orders.Status
		if s == "" {
			panic(n.cfgErrorf("%%T of a value of %s is not supported (a type made of %s)", v.Type(), interp.givenIn(v.Type())))
		}
		return s
	}
	return v.Type().String()
}

// printfVerbs calls verb for each verb of format that takes an argument,
// with the argument's index; it returns false (having stopped) for a
// format with explicit argument indexes.
func printfVerbs(format string, verb func(at, arg int) bool) bool {
	arg := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && (format[i] == '#' || format[i] == '0' || format[i] == '+' || format[i] == '-' || format[i] == ' ') {
			i++
		}
		for pass := 0; pass < 2 && i < len(format); pass++ { // width, then precision
			if pass == 1 {
				if format[i] != '.' {
					break
				}
				i++
			}
			if i < len(format) && format[i] == '*' {
				arg++
				i++
				continue
			}
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				i++
			}
		}
		if i >= len(format) {
			break
		}
		if format[i] == '[' {
			return false
		}
		if format[i] == '%' {
			continue
		}
		if !verb(i, arg) {
			return true
		}
		arg++
	}
	return true
}

// typeVerbAt tells whether argument arg of format is printed by %T.
func typeVerbAt(format string, arg int) bool {
	found := false
	printfVerbs(format, func(at, a int) bool {
		if a == arg {
			found = format[at] == 'T'
			return false
		}
		return a < arg
	})
	return found
}

// rewriteTypeVerbs replaces the %T verbs of the arguments named marks,
// and of those from on when from is not -1 (the elements of a spread
// slice, toolscript patch 90), by %s; a format with explicit argument
// indexes stays as it is.
func rewriteTypeVerbs(format string, named []bool, from int) string {
	var b []byte
	ok := printfVerbs(format, func(at, a int) bool {
		if format[at] == 'T' && (a < len(named) && named[a] || from >= 0 && a >= from) {
			if b == nil {
				b = []byte(format)
			}
			b[at] = 's'
		}
		return true
	})
	if !ok || b == nil {
		return format
	}
	return string(b)
}

// fmtText prints its text for any verb (toolscript patch 42).
type fmtText string

// Format implements fmt.Formatter.
func (t fmtText) Format(s fmt.State, _ rune) { fmt.Fprint(s, string(t)) }

// goSyntaxVerbAt tells whether argument arg of format is printed by %#v.
func goSyntaxVerbAt(format string, arg int) bool {
	found := false
	printfVerbs(format, func(at, a int) bool {
		if a == arg {
			pct := strings.LastIndexByte(format[:at], '%')
			found = format[at] == 'v' && pct >= 0 && strings.IndexByte(format[pct:at], '#') >= 0
			return false
		}
		return a < arg
	})
	return found
}

// goSyntax is what %#v prints for v, a value of type t, with the
// script's type names, as Go does (main.P{X:1, Y:2}); top is false
// inside another value, where a pointer prints as an address
// (toolscript patch 42).
func (g goSyntaxer) goSyntax(t *itype, v reflect.Value, top bool) string { // toolscript patch 89: a method
	if nativeIface(t) && t.cat == valueT { // toolscript patch 152: a wrapper's value, by its type
		if ht, held, ok := wrappedHeld(v); ok {
			return g.goSyntax(ht, held, top)
		}
		if !top && v.IsValid() && v.Kind() == reflect.Interface && v.IsNil() {
			return t.rtype.String() + "(nil)"
		}
		if !top && v.IsValid() && v.Kind() == reflect.Interface {
			return g.nativeNested(v.Elem())
		}
	}
	if t == nil || isBin(t) || !v.IsValid() {
		return g.nativeStatic(v) // toolscript patch 91
	}
	if isInterface(t) {
		nilName := t.str + "(nil)"
		if isEmptyInterface(t) {
			nilName = "interface {}(nil)"
		}
		if top { // toolscript patch 152: a nil interface argument is fmt's nil
			nilName = "<nil>"
		}
		if v.Kind() == reflect.Interface && v.IsNil() || !v.IsValid() {
			return nilName
		}
		nod, raw, ok := dynamicValue(v)
		if !ok {
			return nilName
		}
		if nod == nil {
			if wn := wrapperNode(raw); wn != nil {
				return g.goSyntax(wn.typ, raw.Field(0).Elem(), top)
			}
			if !top { // toolscript patch 152: a native pointer inside another value is its address
				return g.nativeNested(raw)
			}
			return g.native(raw)
		}
		return g.goSyntax(nod.typ, raw, top)
	}
	for v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if vi, ok := ifaceOf(v).(valueInterface); ok {
		v = vi.value
	}
	if s, ok := g.byMethod(t, v); ok { // toolscript patch 126: Format, GoString
		return s
	}
	switch t.cat {
	case linkedT:
		return definedGoSyntax(t, g.goSyntax(t.val, v, top)) // toolscript patch 225
	case ptrT:
		if v.Kind() != reflect.Ptr {
			return g.native(v)
		}
		// toolscript patch 148: the pointer type's name is Go's, as for
		// the other types; t.str of a pointer to a recursive struct type
		// (a field Next *Node) was "*struct {}", made before the struct's
		// fields were.
		if v.IsNil() {
			return "(" + goTypeName(t) + ")(nil)" // toolscript patch 148
		}
		if top {
			switch underlyingCat(t.val) { // toolscript patch 225: of a defined type too (&W{} with type W P)
			case structT, sliceT, arrayT, mapT:
				return "&" + g.goSyntax(t.val, v.Elem(), false)
			}
		}
		return fmt.Sprintf("(%s)(%#x)", goTypeName(t), v.Pointer()) // toolscript patch 148
	case structT:
		if v.Kind() != reflect.Struct || v.NumField() != len(t.field) {
			return g.native(v)
		}
		var b strings.Builder
		b.WriteString(goTypeName(t))
		b.WriteByte('{')
		for i, fl := range t.field {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(fl.name)
			b.WriteByte(':')
			fg := g
			fg.hidden = g.hidden || !isExportedName(fl.name) // toolscript patch 126
			b.WriteString(fg.goSyntax(fl.typ, v.Field(i), false))
		}
		b.WriteByte('}')
		return b.String()
	case sliceT, arrayT:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return goTypeName(t) + "(nil)"
		}
		if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
			return g.native(v)
		}
		var b strings.Builder
		b.WriteString(goTypeName(t))
		b.WriteByte('{')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(g.goSyntax(t.val, v.Index(i), false))
		}
		b.WriteByte('}')
		return b.String()
	case mapT:
		if v.Kind() != reflect.Map {
			return g.native(v)
		}
		if v.IsNil() {
			return goTypeName(t) + "(nil)"
		}
		keys := v.MapKeys()
		less, ok := rawLess(v.Type().Key().Kind())
		if !ok {
			less, ok = goSyntaxKeyLess(v.Type().Key().Kind()) // toolscript patch 228
		}
		if !ok {
			return g.native(v)
		}
		sort.Slice(keys, func(i, j int) bool { return less(keys[i], keys[j]) })
		var b strings.Builder
		b.WriteString(goTypeName(t))
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(g.goSyntax(t.key, k, false))
			b.WriteByte(':')
			b.WriteString(g.goSyntax(t.val, v.MapIndex(k), false))
		}
		b.WriteByte('}')
		return b.String()
	}
	return g.native(v)
}

// goTypeName is Go's name of t in %#v: the reflect type's for a type
// without script names ([]interface {}, not []any) (toolscript patch 89).
func goTypeName(t *itype) string {
	if !hasScriptName(t, map[*itype]bool{}) && !hasHiddenField(t, map[*itype]bool{}) { // toolscript patch 127
		if rt := t.TypeOf(); rt != nil {
			return rt.String()
		}
	}
	return goTypeString(t, 0) // toolscript patch 121: []orders.Status
}

// goSyntaxer prints %#v for the call n (toolscript patch 89).
type goSyntaxer struct {
	interp *Interpreter
	n      *node
	f      *frame // toolscript patch 126: the frame of the call, for the methods of the values
	hidden bool   // toolscript patch 126: under an unexported field, where fmt calls no method
}

// native is fmt's %#v of v, a value without script types, or a run-time
// error where it would not print a script type's name (toolscript patch
// 89).
func (g goSyntaxer) native(v reflect.Value) string {
	if name := goRuntimeTypeName(v); name != "" { // toolscript patch 196
		return goRuntimeGoSyntax(g.n, v, name)
	}
	if name := g.interp.givenGoSyntax(v, 0); name != "" { // toolscript patch 121: []orders.Status
		panic(givenError(g.n, name, v))
	}
	if names := g.interp.lostGoSyntax(v, true, true, 0); names != "" {
		panic(lostTypeError(g.n, "%#v", names, v.Type()))
	}
	return goSyntaxNative(v)
}

// nativeStatic is native for v, a value of a native static type: one of
// a typed tool's types is named in the error (toolscript patch 91).
func (g goSyntaxer) nativeStatic(v reflect.Value) string {
	if v.IsValid() && v.Kind() != reflect.Interface {
		if names := g.interp.lostGoSyntax(v, true, false, 0); names != "" {
			panic(toolTypeError(g.n, "%#v", "type "+names, v.Type()))
		}
	}
	return g.native(v)
}

// goSyntaxNative is fmt's %#v of a value without script types.
func goSyntaxNative(v reflect.Value) string {
	if !v.IsValid() {
		return "<nil>"
	}
	if !v.CanInterface() {
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("%#v", v.Interface())
}
