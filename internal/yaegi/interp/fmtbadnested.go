package interp // toolscript patch 153

// toolscript patch 153: a printf verb that does not apply to a value of
// a script type names the script's type wherever the value is, as Go
// does: patch 145 renamed the type in fmt's %!s(int=4) for a value given
// directly only. A value of a named script type of a basic kind inside
// another (a struct field, a slice, array or map element, a value in an
// interface) is given to fmt as a fmtBadVerb too, a pointer of a script
// type below the top (or a nil one) as one printing it as fmt prints a
// nested pointer; a struct whose unexported fields hold such values,
// where fmt calls no method, prints itself field by field
// (fmtStructView). A value whose type has a String or Error method names
// its type in a verb fmt formats the value itself for (%d of type Name
// string). In a printf call, %p of a value of a script type, an extra
// argument (%!(EXTRA main.Level=4)) and an argument of a format with
// explicit argument indexes are printed by the interpreter directive by
// directive (fmtprerender.go), as fmt prints them with the script's type
// names.

import (
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
)

// fmtBadVerbNested is the conversion for printing of a value of type t,
// a named script type of a basic kind or a pointer of a script type,
// inside another value; nil for another type.
func fmtBadVerbNested(t *itype) fmtConvFunc {
	switch {
	case badVerbNamed(t):
		name := goTypeString(t, 0)
		return func(_ *frame, v reflect.Value) reflect.Value {
			if !v.IsValid() || !v.CanInterface() {
				return v
			}
			return reflect.ValueOf(fmtBadVerb{v: v.Interface(), rep: v.Type().String(), name: name})
		}
	case badVerbPointer(t):
		name := goTypeString(t, 0)
		return func(_ *frame, v reflect.Value) reflect.Value {
			if !v.IsValid() || !v.CanInterface() || v.Kind() != reflect.Ptr {
				return v
			}
			return reflect.ValueOf(fmtBadVerb{v: v.Interface(), rep: v.Type().String(), name: name, nested: true})
		}
	}
	return nil
}

// badVerbPointer tells whether t is a pointer type whose Go name is not
// its reflect type's (*main.Row, not *struct { L int }), without a method
// fmt calls.
func badVerbPointer(t *itype) bool {
	if t == nil || t.cat != ptrT || isBin(t) || printMethod(t) != nil {
		return false
	}
	return hasScriptName(t, map[*itype]bool{}) || hasHiddenField(t, map[*itype]bool{})
}

// fmtNested prints x with verb and the flags of s as fmt prints a value
// inside another (a pointer as its address, not &{...}): as the element
// of a slice, without the brackets.
func fmtNested(s fmt.State, verb rune, x interface{}) string {
	out := fmt.Sprintf(fmt.FormatString(s, verb), []interface{}{x})
	if len(out) >= 2 && out[0] == '[' && out[len(out)-1] == ']' {
		return out[1 : len(out)-1]
	}
	return out
}

// fmtNeedsFormat tells whether the conversion for printing of a value of
// type t, below an unexported field, holds a fmt.Formatter that fmt must
// call (a value of a type badVerbNamed, a struct printing itself, a value
// in an interface, which may be one): fmt calls no method there, so the
// struct holding it prints itself (fmtStructView).
func fmtNeedsFormat(t *itype, seen map[*itype]bool) bool {
	if t == nil || seen[t] || isBin(t) && !nativeIface(t) {
		return false
	}
	seen[t] = true
	if badVerbNamed(t) || isInterface(t) || badVerbPointer(t) || t.cat == ptrT && !isBin(t) && hasScriptName(t, map[*itype]bool{}) {
		return true
	}
	switch t.cat {
	case linkedT, arrayT, sliceT, variadicT:
		return fmtNeedsFormat(t.val, seen)
	case mapT:
		return fmtNeedsFormat(t.key, seen) || fmtNeedsFormat(t.val, seen)
	case structT:
		for _, fl := range t.field {
			if fmtNeedsFormat(fl.typ, seen) {
				return true
			}
		}
	}
	return false
}

// fmtStructView prints a struct as fmt prints one: the values of its
// exported fields (converted for printing) as fmt prints a value inside
// another, those of its unexported fields (all of them for a struct
// below an unexported field: plain) as fmt prints them there, without
// their methods (fmtPlainPrint) but with the script's type names in a bad
// verb's text.
type fmtStructView struct {
	t     *itype
	raw   reflect.Value
	conv  []interface{} // the exported fields' values, converted; nil for a plain one
	plain []bool
}

// Format implements fmt.Formatter.
func (sv fmtStructView) Format(s fmt.State, verb rune) {
	if verb == 'v' && s.Flag('#') || verb == 'T' || verb == 'p' {
		fmt.Fprintf(s, fmt.FormatString(s, verb), ifaceOf(sv.raw))
		return
	}
	var b strings.Builder
	fmtPrintStruct(&b, s, verb, sv.t, func(i int) {
		if sv.plain[i] {
			fmtPlainPrint(&b, s, verb, sv.t.field[i].typ, sv.raw.Field(i), 1)
			return
		}
		b.WriteString(fmtNested(s, verb, sv.conv[i]))
	})
	_, _ = s.Write([]byte(b.String()))
}

// fmtPrintStruct writes the struct of type t as fmt prints one, each
// field by field(i).
func fmtPrintStruct(b *strings.Builder, s fmt.State, verb rune, t *itype, field func(i int)) {
	b.WriteByte('{')
	for i, fl := range t.field {
		if i > 0 {
			b.WriteByte(' ')
		}
		if verb == 'v' && s.Flag('+') {
			b.WriteString(fl.name)
			b.WriteByte(':')
		}
		field(i)
	}
	b.WriteByte('}')
}

// fmtStructViewOf is the conversion of a struct of type t to a
// fmtStructView; convs are the conversions of its exported fields, plain
// tells that it is below an unexported field.
func fmtStructViewOf(t *itype, convs []fmtConvFunc, plain bool) fmtConvFunc {
	n := len(t.field)
	plainField := make([]bool, n)
	for i, fl := range t.field {
		plainField[i] = plain || !isExportedName(fl.name)
	}
	return func(f *frame, v reflect.Value) reflect.Value {
		if v.Kind() != reflect.Struct || v.NumField() != n || !v.CanInterface() {
			return v
		}
		sv := fmtStructView{t: t, raw: v, conv: make([]interface{}, n), plain: plainField}
		for i := range plainField {
			if plainField[i] {
				continue
			}
			fv := v.Field(i)
			if convs[i] != nil {
				fv = convs[i](f, fv)
			}
			sv.conv[i] = ifaceOf(fv)
		}
		return reflect.ValueOf(sv)
	}
}

// fmtHidden prints x with verb and the flags of s as fmt prints a value
// below an unexported field: without calling its methods (a native
// value's String, Error).
func fmtHidden(s fmt.State, verb rune, x reflect.Value) string {
	var box hiddenBox
	if x.IsValid() && x.CanInterface() {
		box.v = x.Interface()
	}
	out := fmt.Sprintf(fmt.FormatString(s, verb), box)
	prefix := "{"
	if verb == 'v' && s.Flag('+') {
		prefix = "{v:"
	}
	if strings.HasPrefix(out, prefix) && strings.HasSuffix(out, "}") {
		return out[len(prefix) : len(out)-1]
	}
	return out
}

// hiddenBox holds a value in an unexported field, where fmt calls none of
// its methods.
type hiddenBox struct{ v interface{} }

// fmtRename is out, fmt's text of a value of a type whose reflect name is
// rep, with name in place of rep in a bad verb's %!verb(rep=...).
func fmtRename(out string, verb rune, rep, name string) string {
	if rep == name {
		return out
	}
	if prefix := "%!" + string(verb) + "(" + rep + "="; strings.HasPrefix(out, prefix) {
		return "%!" + string(verb) + "(" + name + "=" + out[len(prefix):]
	}
	return out
}

// fmtPlainPrint writes v, a value of type t below an unexported field, as
// fmt prints it there (depth > 0): no method is called, a bad verb's text
// names the script's types.
func fmtPlainPrint(b *strings.Builder, s fmt.State, verb rune, t *itype, v reflect.Value, depth int) {
	if depth > 64 || !v.IsValid() {
		b.WriteString(fmtHidden(s, verb, v))
		return
	}
	if t == nil || isBin(t) && !isInterface(t) {
		b.WriteString(fmtHidden(s, verb, v))
		return
	}
	if isInterface(t) {
		_, ht, held, ok := heldRecord(v)
		switch {
		case !ok || !held.IsValid():
			b.WriteString(fmtHidden(s, verb, reflect.Value{}))
		case ht == nil:
			b.WriteString(fmtHidden(s, verb, held))
		default:
			fmtPlainPrint(b, s, verb, ht, held, depth+1)
		}
		return
	}
	for t.cat == linkedT && t.val != nil && !badVerbNamed(t) {
		t = t.val
	}
	switch v.Kind() {
	case reflect.Struct:
		if t.cat == structT && len(t.field) == v.NumField() {
			fmtPrintStruct(b, s, verb, t, func(i int) {
				fmtPlainPrint(b, s, verb, t.field[i].typ, v.Field(i), depth+1)
			})
			return
		}
	case reflect.Slice, reflect.Array:
		if t.val == nil || (verb == 's' || verb == 'q' || verb == 'x' || verb == 'X') && v.Type().Elem().Kind() == reflect.Uint8 {
			break
		}
		if v.Kind() == reflect.Slice && v.IsNil() && verb == 'v' {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmtPlainPrint(b, s, verb, t.val, v.Index(i), depth+1)
		}
		b.WriteByte(']')
		return
	case reflect.Map:
		if t.cat != mapT || t.key == nil || t.val == nil {
			break
		}
		if v.IsNil() {
			b.WriteString("map[]")
			return
		}
		keys := v.MapKeys()
		sortMapKeys(keys)
		b.WriteString("map[")
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmtPlainPrint(b, s, verb, t.key, k, depth+1)
			b.WriteByte(':')
			fmtPlainPrint(b, s, verb, t.val, v.MapIndex(k), depth+1)
		}
		b.WriteByte(']')
		return
	}
	b.WriteString(fmtRename(fmtHidden(s, verb, v), verb, v.Type().String(), goTypeString(t, 0)))
}

// sortMapKeys orders keys as fmt orders a map's keys (internal/fmtsort).
func sortMapKeys(keys []reflect.Value) {
	sort.SliceStable(keys, func(i, j int) bool { return valueCompare(keys[i], keys[j], 0) < 0 })
}

// ampersandPrinted tells whether fmt prints v, a non-nil pointer given
// directly, as & and the value it points to: a pointer to an array, a
// slice, a struct or a map.
func ampersandPrinted(v reflect.Value) bool {
	switch v.Type().Elem().Kind() {
	case reflect.Array, reflect.Slice, reflect.Struct, reflect.Map:
		return true
	}
	return false
}

// fmtPrintedShown is m, the conversion of a value of type t to a
// fmtPrinted, with what the fmtPrinted prints for a verb fmt calls none
// of t's methods for: a bad verb's text names a basic kind's type, a
// struct's fields and a slice's or an array's elements are converted for
// printing.
func (interp *Interpreter) fmtPrintedShown(t *itype, m fmtConvFunc) fmtConvFunc {
	name := ""
	if t.name != "" && t.path != "" && !isBin(t) {
		if rt := t.TypeOf(); rt != nil && (reflect.Bool <= rt.Kind() && rt.Kind() <= reflect.Complex128 || rt.Kind() == reflect.String) {
			name = goTypeString(t, 0)
		}
	}
	var inner fmtConvFunc
	u := t
	for u.cat == linkedT && u.val != nil {
		u = u.val
	}
	switch u.cat {
	case structT:
		inner = interp.fmtStructOf(u, false)
	case arrayT, sliceT:
		if ec := interp.fmtConvLocked(u.val, false); ec != nil && !(u.val.TypeOf() != nil && u.val.TypeOf().Kind() == reflect.Uint8) {
			inner = fmtElems(ec)
		}
	}
	if name == "" && inner == nil {
		return m
	}
	return func(f *frame, v reflect.Value) reflect.Value {
		pv := m(f, v)
		p, ok := ifaceOf(pv).(fmtPrinted)
		if !ok {
			return pv
		}
		p.name = name
		if inner != nil && v.IsValid() && (v.Kind() == reflect.Struct || v.Kind() == reflect.Slice || v.Kind() == reflect.Array) {
			p.shown = inner(f, v)
		}
		return reflect.ValueOf(p)
	}
}

// fmtPrintedPtr is fmtPrintedShown for a pointer type t: given directly
// (top), a pointer to a struct, an array, a slice or a map prints & and
// the value converted; inside another value, its address.
func (interp *Interpreter) fmtPrintedPtr(t *itype, m fmtConvFunc, top bool) fmtConvFunc {
	name := ""
	if hasScriptName(t, map[*itype]bool{}) || hasHiddenField(t, map[*itype]bool{}) {
		name = goTypeString(t, 0)
	}
	var ec fmtConvFunc
	if top && t.val != nil {
		ec = interp.fmtConvLocked(t.val, false)
	}
	return func(f *frame, v reflect.Value) reflect.Value {
		pv := m(f, v)
		p, ok := ifaceOf(pv).(fmtPrinted)
		if !ok || v.Kind() != reflect.Ptr {
			return pv
		}
		p.name, p.nested = name, !top
		if ec != nil && !v.IsNil() && ampersandPrinted(v) {
			if e := ec(f, v.Elem()); e.IsValid() && e.CanInterface() {
				p.shown = reflect.ValueOf(fmtAmp{e.Interface()})
			}
		}
		return reflect.ValueOf(p)
	}
}

var formatterType = reflect.TypeOf((*fmt.Formatter)(nil)).Elem()

// fmtAmp prints a pointer given directly to a value converted for
// printing to a fmt.Formatter as fmt prints such a pointer: & and the
// value (fmt would call the pointer's Format, without the &).
type fmtAmp struct{ e interface{} }

// Format implements fmt.Formatter.
func (a fmtAmp) Format(s fmt.State, verb rune) {
	_, _ = io.WriteString(s, "&"+fmt.Sprintf(fmt.FormatString(s, verb), a.e))
}

// fmtSpreadConv is the conversion for printing of a slice of type t
// spread into a print call's arguments (conv, the conversion of such a
// slice inside another value): its elements are printed as arguments,
// a pointer held as & and the value it points to.
func (interp *Interpreter) fmtSpreadConv(t *itype, conv fmtConvFunc) fmtConvFunc {
	if t == nil || t.cat != sliceT && t.cat != variadicT || t.val == nil {
		return conv
	}
	ec := interp.fmtConv(t.val, true)
	if ec == nil {
		return conv
	}
	return fmtElems(ec)
}
