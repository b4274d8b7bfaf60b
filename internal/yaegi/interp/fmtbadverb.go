package interp // toolscript patch 145

// toolscript patch 145: a printf verb that does not apply to a value of a
// named script type of a basic kind (%s of type Level int) prints the
// type's name in fmt's %!verb(type=value), as Go does; fmt saw the
// value's representation and printed %!s(int=4) for %!s(main.Level=4).

import (
	"fmt"
	"io"
	"reflect"
	"strings"
)

// fmtBadVerb prints a value of a named script type of a basic kind as fmt
// prints its representation, v, with name, the type's Go name, in place
// of the representation's, rep, in a bad verb's %!verb(rep=value).
type fmtBadVerb struct {
	v         interface{}
	rep, name string
	nested    bool // toolscript patch 153: printed as a value inside another (a pointer's address)
}

// Format implements fmt.Formatter.
func (b fmtBadVerb) Format(s fmt.State, verb rune) {
	out := fmt.Sprintf(fmt.FormatString(s, verb), b.v)
	if b.nested { // toolscript patch 153
		out = fmtNested(s, verb, b.v)
	}
	if prefix := "%!" + string(verb) + "(" + b.rep + "="; strings.HasPrefix(out, prefix) {
		out = "%!" + string(verb) + "(" + b.name + "=" + out[len(prefix):]
	}
	_, _ = io.WriteString(s, out)
}

// badVerbNamed tells whether t is a named script type of a basic kind
// without a method fmt calls, whose bad verbs fmtBadVerb prints.
func badVerbNamed(t *itype) bool {
	if t == nil || isInterface(t) || isBin(t) || t.name == "" || t.path == "" || !hasScriptName(t, map[*itype]bool{}) {
		return false
	}
	rt := t.TypeOf()
	if rt == nil {
		return false
	}
	switch rt.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
	default:
		return false
	}
	return printMethod(t) == nil
}

// verbAt is the verb that prints argument arg of format, 0 when none
// does (an argument of a width or a precision, an extra one, a format
// with explicit argument indexes).
func verbAt(format string, arg int) rune {
	var verb rune
	printfVerbs(format, func(at, a int) bool {
		if a == arg {
			verb = rune(format[at])
			return false
		}
		return a < arg
	})
	return verb
}

// badVerbArg is the value printed for argument arg of format, raw, of
// static type t (named static), when a verb that may not apply to it
// prints it and it is, or its interface holds, a value of a type
// badVerbNamed: a fmtBadVerb; ok is false otherwise.
func badVerbArg(t *itype, static string, raw reflect.Value, format string, arg int) (reflect.Value, bool) {
	name := static
	if isInterface(t) {
		ht, held, ok := heldScriptValue(raw)
		if !ok || !badVerbNamed(ht) {
			return raw, false
		}
		raw, name = held, goTypeString(ht, 0)
	}
	if !raw.IsValid() || !raw.CanInterface() {
		return raw, false
	}
	// fmt prints %p before it calls a Formatter; %v never is a bad verb.
	if verb := verbAt(format, arg); verb == 0 || verb == 'v' || verb == 'p' {
		return raw, false
	}
	return reflect.ValueOf(fmtBadVerb{v: raw.Interface(), rep: raw.Type().String(), name: name}), true
}
