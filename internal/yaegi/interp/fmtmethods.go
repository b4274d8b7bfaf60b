package interp // toolscript patch 126

// toolscript patch 126: fmt calls the methods of a script value that Go's
// fmt calls, wherever the value is printed: Format (for every verb),
// GoString (for %#v), Error and String (for %v, %s, %q, %x and %X), each
// only when it is in the method set of the value's type (a method with a
// pointer receiver is not called on a struct printed by value), also when
// promoted from an embedded pointer or interface, and on a nil pointer
// when its receiver is that pointer. A method that panics prints as Go's
// fmt prints it (%!v(PANIC=String method: ...), <nil> for a nil pointer).

import (
	"fmt"
	"io"
	"reflect"
	"strings"
)

// fmtPrinted is a value printed through the methods fmt calls on it.
type fmtPrinted struct {
	raw      reflect.Value
	text     func() string // Error or String, nil if the value has neither
	textName string        // "Error" or "String"
	format   func(s fmt.State, verb rune)
	goString func() string
	name     string        // toolscript patch 153: the script's name of a basic kind's type, for a bad verb's text
	shown    reflect.Value // toolscript patch 153: raw converted for printing by its kind (a struct's fields)
	nested   bool          // toolscript patch 153: a pointer inside another value, printed as its address
}

// Format implements fmt.Formatter as fmt's handleMethods calls the
// methods of a value: Format for every verb but %T and %p, GoString for
// %#v, Error or String for %v, %s, %q, %x and %X; the value itself is
// formatted otherwise.
func (p fmtPrinted) Format(s fmt.State, verb rune) {
	if verb != 'T' && verb != 'p' {
		switch {
		case p.format != nil:
			p.call(s, verb, "Format", func() { p.format(s, verb) })
			return
		case verb == 'v' && s.Flag('#'):
			if p.goString != nil {
				p.call(s, verb, "GoString", func() { io.WriteString(s, p.goString()) })
				return
			}
		case p.text != nil && (verb == 'v' || verb == 's' || verb == 'q' || verb == 'x' || verb == 'X'):
			var text string
			if p.call(s, verb, p.textName, func() { text = p.text() }) {
				fmt.Fprintf(s, fmt.FormatString(s, verb), text)
			}
			return
		}
	}
	if !p.raw.IsValid() || !p.raw.CanInterface() {
		fmt.Fprintf(s, fmt.FormatString(s, verb), nil)
		return
	}
	if p.name != "" || p.shown.IsValid() || p.nested { // toolscript patch 153
		x := p.raw
		if p.shown.IsValid() && p.shown.CanInterface() {
			x = p.shown
		}
		var out string
		if p.nested {
			out = fmtNested(s, verb, x.Interface())
		} else { // toolscript patch 188: not the nested pointer's &{...}, which fmt may not print (a struct that embeds *bytes.Buffer)
			out = fmt.Sprintf(fmt.FormatString(s, verb), x.Interface())
		}
		_, _ = io.WriteString(s, fmtRename(out, verb, p.raw.Type().String(), p.name))
		return
	}
	fmt.Fprintf(s, fmt.FormatString(s, verb), p.raw.Interface())
}

// call runs the method call fn, and tells whether it returned; a panic
// prints as fmt's catchPanic prints it.
func (p fmtPrinted) call(s fmt.State, verb rune, method string, fn func()) (ok bool) {
	defer func() {
		if ok {
			return
		}
		err := recover()
		if p.raw.Kind() == reflect.Ptr && p.raw.IsNil() {
			fmt.Fprintf(s, fmt.FormatString(s, 's'), "<nil>")
			return
		}
		fmt.Fprintf(s, "%%!%c(PANIC=%s method: %v)", verb, method, err)
	}()
	fn()
	return true
}

// fmtMethod is a method fmt calls found in a type's method set.
type fmtMethod struct {
	m       *node
	index   []int
	ptrRecv bool
	embIfc  []int // the path to the embedded interface that has the method, when m is nil

	native     []int // toolscript patch 187: the path to the embedded native field whose method it is
	nativeAddr bool  // toolscript patch 187: the native method has a pointer receiver, the field is addressed
}

// fmtMethodOf looks up the method name of type t, with arg arguments, as
// fmt sees it: in t's method set.
func fmtMethodOf(t *itype, name string, ok func(m *itype) bool) *fmtMethod {
	if fm, decided := fmtNativeMethodOf(t, name); decided { // toolscript patch 187
		return fm
	}
	m, index := t.lookupMethod(name)
	if m == nil || m.typ == nil || !ok(m.typ) {
		if m == nil {
			if path := embeddedIfaceWith(t, name, 0); path != nil {
				return &fmtMethod{embIfc: path}
			}
		}
		return nil
	}
	ptrRecv := m.typ.recv != nil && m.typ.recv.cat == ptrT
	if ptrRecv && t.cat != ptrT && !embeddedViaPointer(t, index) {
		return nil // not in a value's method set
	}
	return &fmtMethod{m: m, index: index, ptrRecv: ptrRecv}
}

// embeddedIfaceWith returns the path of fields to an embedded interface
// of struct type t whose method set has name, nil if there is none.
func embeddedIfaceWith(t *itype, name string, depth int) []int {
	for t.cat == linkedT && t.val != nil || t.cat == ptrT {
		t = t.val
	}
	if depth > 8 || t.cat != structT {
		return nil
	}
	for i, fl := range t.field {
		if !fl.embed {
			continue
		}
		if isInterface(fl.typ) {
			if _, has := fl.typ.methods()[name]; has {
				return []int{i}
			}
			if rt := fl.typ.TypeOf(); rt != nil && rt.Kind() == reflect.Interface {
				if _, has := rt.MethodByName(name); has {
					return []int{i}
				}
			}
			continue
		}
		if p := embeddedIfaceWith(fl.typ, name, depth+1); p != nil {
			return append([]int{i}, p...)
		}
	}
	return nil
}

// bind returns the method of v, a value of the type the method was found
// in, as a function value, or nil when the value is a nil pointer that
// the call would dereference (fmt prints <nil>).
func (fm *fmtMethod) bind(f *frame, v reflect.Value, name string) reflect.Value {
	if fm.native != nil { // toolscript patch 187
		return fm.bindNative(v, name)
	}
	nilPtr := v.Kind() == reflect.Ptr && v.IsNil()
	if fm.m == nil {
		if nilPtr {
			return reflect.Value{}
		}
		fv := v
		for _, i := range fm.embIfc {
			for fv.Kind() == reflect.Ptr {
				if fv.IsNil() {
					return reflect.Value{}
				}
				fv = fv.Elem()
			}
			fv = fv.Field(i)
		}
		return embeddedIfaceMethod(f, fv, name)
	}
	if nilPtr && (!fm.ptrRecv || len(fm.index) > 0) {
		return reflect.Value{}
	}
	nod := *fm.m
	nod.val = &nod
	nod.recv = &receiver{val: v, index: fm.index}
	return genFuncValue(&nod)(f)
}

// embeddedIfaceMethod returns the method name of the value of fv, an
// interface field, as a function value; calling it panics as Go's call
// panics when the interface is nil.
func embeddedIfaceMethod(f *frame, fv reflect.Value, name string) reflect.Value {
	nilCall := reflect.ValueOf(func() string {
		var e error
		return e.Error() // the nil interface's method: a run-time error, as in Go
	})
	for fv.Kind() == reflect.Interface {
		if fv.IsNil() {
			return nilCall
		}
		fv = fv.Elem()
	}
	if !fv.CanInterface() {
		return nilCall
	}
	if vi, ok := fv.Interface().(valueInterface); ok {
		if vi.node == nil || vi.node.typ == nil || !vi.value.IsValid() {
			return nilCall
		}
		if fm := fmtMethodOf(vi.node.typ, name, func(*itype) bool { return true }); fm != nil {
			if m := fm.bind(f, vi.value, name); m.IsValid() {
				return m
			}
		}
		return nilCall
	}
	if m := fv.MethodByName(name); m.IsValid() {
		return m
	}
	return nilCall
}

func isTextMethod(m *itype) bool {
	return len(m.arg) == 0 && len(m.ret) == 1 && m.ret[0].cat == stringT
}

func isFormatMethod(m *itype) bool {
	return len(m.arg) == 2 && len(m.ret) == 0 && m.arg[1].cat == int32T
}

// printMethod returns the conversion of a type whose method set has a
// script method fmt calls: Format, GoString, Error or String.
func printMethod(t *itype) fmtConvFunc {
	format := fmtMethodOf(t, "Format", isFormatMethod)
	goString := fmtMethodOf(t, "GoString", isTextMethod)
	textName := "Error"
	text := fmtMethodOf(t, textName, isTextMethod)
	if text == nil {
		textName = "String"
		text = fmtMethodOf(t, textName, isTextMethod)
	}
	if format == nil && goString == nil && text == nil {
		return nil
	}
	return func(f *frame, v reflect.Value) reflect.Value {
		if !v.CanInterface() {
			return v
		}
		p := fmtPrinted{raw: v, textName: textName}
		nilText := func() string { var e error; return e.Error() } // a run-time error, as Go's call of the method
		if format != nil {
			if fn := format.bind(f, v, "Format"); fn.IsValid() {
				p.format = func(s fmt.State, verb rune) {
					fn.Call([]reflect.Value{reflect.ValueOf(&s).Elem(), reflect.ValueOf(verb)})
				}
			} else {
				p.format = func(fmt.State, rune) { nilText() }
			}
		}
		if goString != nil {
			if fn := goString.bind(f, v, "GoString"); fn.IsValid() {
				p.goString = func() string { return fn.Call(nil)[0].String() }
			} else {
				p.goString = nilText
			}
		}
		if text != nil {
			if fn := text.bind(f, v, textName); fn.IsValid() {
				p.text = func() string { return fn.Call(nil)[0].String() }
			} else {
				p.text = nilText
			}
		}
		return reflect.ValueOf(p)
	}
}

// outOfMethodSet tells whether a method of the interface type rt that t
// has is a script method with a pointer receiver not in the method set
// of t, a type that is not a pointer: a value of t does not implement rt.
func outOfMethodSet(t *itype, rt reflect.Type) bool {
	if t == nil || t.cat == ptrT || rt.Kind() != reflect.Interface {
		return false
	}
	for i := 0; i < rt.NumMethod(); i++ {
		m, index := t.lookupMethod(rt.Method(i).Name)
		if m != nil && m.typ != nil && m.typ.recv != nil && m.typ.recv.cat == ptrT && !embeddedViaPointer(t, index) {
			return true
		}
	}
	return false
}

// byMethod is %#v of v, a value of type t, by its Format or GoString
// method, if its method set has one and fmt calls it there.
func (g goSyntaxer) byMethod(t *itype, v reflect.Value) (string, bool) {
	if g.hidden || g.f == nil || !v.IsValid() || !v.CanInterface() {
		return "", false
	}
	if fmtMethodOf(t, "Format", isFormatMethod) == nil && fmtMethodOf(t, "GoString", isTextMethod) == nil {
		return "", false
	}
	conv := printMethod(t)
	if conv == nil {
		return "", false
	}
	return fmt.Sprintf("%#v", ifaceOf(conv(g.f, v))), true
}

// fmtBytes is a slice or array of a script type of kind uint8 with a
// method fmt calls on its elements: fmt prints it as bytes for %s, %q,
// %x and %X, and element by element otherwise.
type fmtBytes struct {
	raw  reflect.Value
	elem reflect.Value
}

// Format implements fmt.Formatter.
func (b fmtBytes) Format(s fmt.State, verb rune) {
	switch verb {
	case 's', 'q', 'x', 'X':
		out := make([]byte, b.raw.Len())
		for i := range out {
			out[i] = byte(b.raw.Index(i).Uint())
		}
		fmt.Fprintf(s, fmt.FormatString(s, verb), out)
		return
	}
	fmt.Fprintf(s, fmt.FormatString(s, verb), ifaceOf(b.elem))
}

// embedsErrorOnly tells whether t's method set has Error only from an
// embedded interface, which the interpreter's error wrapper does not
// call: such a value is printed, not wrapped, by Errorf.
func embedsErrorOnly(t *itype) bool {
	if t == nil || isInterface(t) || isBin(t) {
		return false
	}
	fm := fmtMethodOf(t, "Error", func(*itype) bool { return true })
	return fm != nil && fm.m == nil && fm.native == nil // toolscript patch 187: not a native field's Error
}

// loudWrapVerb fails, at run time, Errorf's %w of the argument arg, of
// type t, a value whose Error comes from an embedded interface: Go wraps
// it, the interpreter could only print it.
func loudWrapVerb(n, format *node, t *itype, value func(*frame) reflect.Value, arg int) func(*frame) reflect.Value {
	fv := genValue(format)
	return func(f *frame) reflect.Value {
		fs := fv(f)
		if fs.Kind() == reflect.String && wrapVerbAt(fs.String(), arg) {
			panic(n.cfgErrorf("%%w of a value of type %s, whose Error method is promoted from an embedded interface, is not supported by the interpreter", t.str))
		}
		return value(f)
	}
}

// wrapVerbAt tells whether the verb of the argument arg of format is %w.
func wrapVerbAt(format string, arg int) bool {
	found := false
	printfVerbs(format, func(at, a int) bool {
		if a == arg {
			found = format[at] == 'w'
			return false
		}
		return a < arg
	})
	return found
}

// fmtLostMethods returns the names of the types made of script types
// that the script puts in interfaces, whose representation is rt and
// that fmt prints through methods below them ([]V, V with String), or
// "": such a value held in an interface is its representation, which
// prints without the methods.
func (interp *Interpreter) fmtLostMethods(rt reflect.Type) string {
	switch rt.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map, reflect.Ptr, reflect.Struct:
	default:
		return ""
	}
	interp.named.RLock()
	held := interp.named.held
	interp.named.RUnlock()
	var names []string
	for _, t := range held {
		if interp.fmtConv(t, false) == nil {
			continue
		}
		for _, r := range namedReps(t) {
			if r == rt {
				names = append(names, t.str)
				break
			}
		}
	}
	return strings.Join(names, " or ")
}
