package interp // toolscript patch 121

import (
	"reflect"
	"strconv"
	"strings"
)

// toolscript patch 121: a named native type whose package gives it
// another Go name (TypeNamesSymbol: a typed tool's enum, a type of its
// own whose reflect name is the host's) prints with that name: %T of a
// value of it, or of a pointer, slice, array, map or channel of it,
// whether its static type says so or an interface holds it, prints the
// given name (orders.Status, []orders.Status). %#v of a composite value
// made of one, which fmt would print with the host's name, fails at run
// time naming the type; %#v of the value itself prints as Go's (a basic
// value prints no type name).

// noteGiven records name as the Go name of the named native type rt
// when it is the only one given; it reports whether it did. The caller
// holds interp.named's lock.
func (interp *Interpreter) noteGivenLocked(rt reflect.Type, name string) bool {
	if rt.Name() == "" || rt.PkgPath() == "" || strings.Contains(name, " or ") {
		return false
	}
	if interp.named.given == nil {
		interp.named.given = map[reflect.Type]string{}
	}
	interp.named.given[rt] = name
	return true
}

// givenTypeString spells rt as Go's %T does, with the given names of
// the named native types it is made of, and reports whether it has any
// (false: rt.String() is its name). A struct or function type made of
// one is not spelled ("", true): its field and parameter names are not
// all the interpreter's to print.
func (interp *Interpreter) givenTypeString(rt reflect.Type) (string, bool) {
	if rt == nil {
		return "", false
	}
	interp.named.RLock()
	defer interp.named.RUnlock()
	if len(interp.named.given) == 0 {
		return "", false
	}
	s, given := interp.spellGivenLocked(rt, 0)
	return s, given
}

func (interp *Interpreter) spellGivenLocked(rt reflect.Type, depth int) (string, bool) {
	if depth > 32 {
		return "", false
	}
	if name, ok := interp.named.given[rt]; ok {
		return name, true
	}
	if rt.Name() != "" {
		return rt.String(), false
	}
	elem := func(prefix string, e reflect.Type) (string, bool) {
		s, given := interp.spellGivenLocked(e, depth+1)
		if !given {
			return rt.String(), false
		}
		if s == "" {
			return "", true
		}
		return prefix + s, true
	}
	switch rt.Kind() {
	case reflect.Ptr:
		return elem("*", rt.Elem())
	case reflect.Slice:
		return elem("[]", rt.Elem())
	case reflect.Array:
		return elem("["+strconv.Itoa(rt.Len())+"]", rt.Elem())
	case reflect.Chan:
		switch rt.ChanDir() {
		case reflect.SendDir:
			return elem("chan<- ", rt.Elem())
		case reflect.RecvDir:
			return elem("<-chan ", rt.Elem())
		}
		return elem("chan ", rt.Elem())
	case reflect.Map:
		k, kg := interp.spellGivenLocked(rt.Key(), depth+1)
		v, vg := interp.spellGivenLocked(rt.Elem(), depth+1)
		if !kg && !vg {
			return rt.String(), false
		}
		if k == "" || v == "" {
			return "", true
		}
		return "map[" + k + "]" + v, true
	case reflect.Struct:
		for i := 0; i < rt.NumField(); i++ {
			if _, g := interp.spellGivenLocked(rt.Field(i).Type, depth+1); g {
				return "", true
			}
		}
	case reflect.Func:
		for i := 0; i < rt.NumIn(); i++ {
			if _, g := interp.spellGivenLocked(rt.In(i), depth+1); g {
				return "", true
			}
		}
		for i := 0; i < rt.NumOut(); i++ {
			if _, g := interp.spellGivenLocked(rt.Out(i), depth+1); g {
				return "", true
			}
		}
	}
	return rt.String(), false
}

// givenIn returns the given name of a named native type that rt, a
// composite type, is made of, or "": %#v of a value of rt would print
// the host's name of it.
func (interp *Interpreter) givenIn(rt reflect.Type) string {
	if rt == nil {
		return ""
	}
	switch rt.Kind() {
	case reflect.Ptr, reflect.Slice, reflect.Array, reflect.Chan, reflect.Map, reflect.Struct, reflect.Func:
	default:
		return ""
	}
	interp.named.RLock()
	defer interp.named.RUnlock()
	if len(interp.named.given) == 0 {
		return ""
	}
	var found string
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		if t == nil || found != "" || seen[t] || len(seen) > 256 {
			return
		}
		seen[t] = true
		if name, ok := interp.named.given[t]; ok {
			found = name
			return
		}
		if t.Name() != "" {
			return
		}
		switch t.Kind() {
		case reflect.Ptr, reflect.Slice, reflect.Array, reflect.Chan:
			walk(t.Elem())
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
		case reflect.Struct:
			for i := 0; i < t.NumField(); i++ {
				walk(t.Field(i).Type)
			}
		case reflect.Func:
			for i := 0; i < t.NumIn(); i++ {
				walk(t.In(i))
			}
			for i := 0; i < t.NumOut(); i++ {
				walk(t.Out(i))
			}
		}
	}
	walk(rt)
	return found
}

// givenGoSyntax returns the given name of a named native type that %#v
// of v would print with the host's name (v, or a value its interfaces,
// elements or fields hold, is of a composite type made of one), or "".
func (interp *Interpreter) givenGoSyntax(v reflect.Value, depth int) string {
	if !v.IsValid() || depth > 64 {
		return ""
	}
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return ""
		}
		e := v.Elem()
		if vi, ok := ifaceOf(e).(valueInterface); ok {
			e = vi.value
		}
		return interp.givenGoSyntax(e, depth+1)
	}
	if s := interp.givenIn(v.Type()); s != "" {
		return s
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() != reflect.Interface {
			return ""
		}
		for i := 0; i < v.Len() && i < 1024; i++ {
			if s := interp.givenGoSyntax(v.Index(i), depth+1); s != "" {
				return s
			}
		}
	case reflect.Map:
		if v.Type().Elem().Kind() != reflect.Interface {
			return ""
		}
		for it, i := v.MapRange(), 0; it.Next() && i < 1024; i++ {
			if s := interp.givenGoSyntax(it.Value(), depth+1); s != "" {
				return s
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).Type.Kind() == reflect.Interface {
				if s := interp.givenGoSyntax(v.Field(i), depth+1); s != "" {
					return s
				}
			}
		}
	}
	return ""
}

// givenError is the run-time error of %#v of v, whose value is made of
// the named native type name.
func givenError(n *node, name string, v reflect.Value) error {
	return n.cfgErrorf("%%#v of a value made of type %s is not supported (the interpreter sees %s, which prints another name)",
		name, v.Type())
}
