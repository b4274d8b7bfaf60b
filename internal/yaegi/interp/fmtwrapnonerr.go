package interp // toolscript patch 156

// toolscript patch 156: Errorf's %w of a script value that is not an
// error prints %!w(main.Level=1), the value's type named as Go names it,
// the value printed without its methods (fmt's badVerb); fmt saw the
// interpreter's conversion of it (%!w(interp.fmtBadVerb={...})) or its
// representation (%!w(struct { A int }={2})). Such an argument is passed
// as a marker, a value that is no error either (the error Errorf makes
// does not wrap it, as in Go) and that fmt prints as a text found in the
// error's message, which is then replaced by Go's text.

import (
	"fmt"
	"reflect"
	"strings"
	"unsafe"
)

// fmtWrapMark is an argument of Errorf printed by a %w that is no error:
// fmt prints it as %!w(interp.fmtWrapMark={0xc...}), unique by the
// pointer, which text replaces in the error's message.
type fmtWrapMark struct{ p *fmtWrapText }

type fmtWrapText struct {
	dir  string // the directive, as fmt.Sprintf's format
	text string // what Go prints for it
}

// errorfNonErrors makes each argument of the call n of fmt.Errorf (the
// values from start, child the arguments) that may be a value of a script
// type that is no error a fmtWrapMark where a %w prints it.
func (interp *Interpreter) errorfNonErrors(n *node, values []func(*frame) reflect.Value, child []*node, start int) {
	if start < 1 || start > len(child) || child[start-1].typ == nil {
		return
	}
	if ft := child[start-1].typ.TypeOf(); ft == nil || ft.Kind() != reflect.String {
		return
	}
	format := genValue(child[start-1])
	if n.action == aCallSlice {
		k := len(child) - 1
		if k != start || child[k].typ == nil || child[k].typ.val == nil || !isInterface(child[k].typ.val) {
			return
		}
		prior, raw := values[k], genValue(child[k])
		values[k] = func(f *frame) reflect.Value {
			pv, rv := prior(f), raw(f)
			for pv.Kind() == reflect.Interface && !pv.IsNil() {
				pv = pv.Elem()
			}
			fs := format(f).String()
			if strings.IndexByte(fs, 'w') < 0 || pv.Kind() != reflect.Slice || rv.Kind() != reflect.Slice || pv.Len() != rv.Len() {
				return pv
			}
			pl := parsePrintf(fs, rv.Len(), func(i int) (int, bool) { return pfStar(rv.Index(i)) })
			var out []interface{}
			for i := 0; i < rv.Len(); i++ {
				e, changed := interp.wrapNonError(n, f, fs, pl, i, nil, "", rv.Index(i), pv.Index(i))
				if out == nil && changed {
					out = make([]interface{}, pv.Len())
					for j := range out {
						out[j] = ifaceOf(pv.Index(j))
					}
				}
				if out != nil {
					out[i] = ifaceOf(e)
				}
			}
			if out == nil {
				return pv
			}
			return reflect.ValueOf(out)
		}
		return
	}
	nargs := len(child) - start
	raws := make([]func(*frame) reflect.Value, nargs)
	for k := range raws {
		raws[k] = genValue(child[start+k])
	}
	for k := 0; k < nargs; k++ {
		t := child[start+k].typ
		if t == nil || t.cat == variadicT {
			continue
		}
		static := ""
		if !isInterface(t) {
			if isWrappable(t) || embedsErrorOnly(t) || !hasScriptName(t, map[*itype]bool{}) && !hasHiddenField(t, map[*itype]bool{}) {
				continue // an error, or a value fmt names as Go does
			}
			static = goTypeString(t, 0)
		}
		prior, arg := values[start+k], k
		values[start+k] = func(f *frame) reflect.Value {
			pv := prior(f)
			fs := format(f).String()
			if strings.IndexByte(fs, 'w') < 0 {
				return pv
			}
			pl := parsePrintf(fs, nargs, func(i int) (int, bool) { return pfStar(raws[i](f)) })
			v, _ := interp.wrapNonError(n, f, fs, pl, arg, t, static, raws[arg](f), pv)
			return v
		}
	}
}

// wrapNonError is the argument arg of the call n of Errorf with the
// format fs (parsed as pl): pv, its value as converted, or a fmtWrapMark
// when a %w prints it and it is a script value that is no error; rv is
// its raw value, t its static type (nil for an element of a spread
// slice), named static when it is no interface.
func (interp *Interpreter) wrapNonError(n *node, f *frame, fs string, pl pfPlan, arg int, t *itype, static string, rv, pv reflect.Value) (reflect.Value, bool) {
	if _, isErr := ifaceOf(pv).(error); isErr {
		return pv, false
	}
	dir, wraps, other := "", false, false
	for _, d := range pl.ds {
		if d.arg != arg {
			continue
		}
		if d.verb != 'w' {
			other = true
			continue
		}
		ds := fmt.FormatString(pfState{d}, 'w')
		other = other || wraps && ds != dir
		dir, wraps = ds, true
	}
	if !wraps {
		return pv, false
	}
	name := static
	if static == "" {
		ht, held, ok := heldScriptValue(rv)
		if !ok || !held.IsValid() {
			return pv, false // nil: %!w(<nil>)
		}
		if ht != nil && fmtMethodOf(ht, "Error", isTextMethod) != nil {
			return scriptErrorArg(f, rv, pv), true // a script error: Go wraps it
		}
		if _, isErr := ifaceOf(held).(error); ht == nil && isErr {
			return pv, false
		}
		name, rv = interp.dynamicTypeName(n, rv), held
		if ht != nil && holdsInterface(ht, map[*itype]bool{}) {
			panic(n.cfgErrorf("%%w of a value of type %s, which is not an error and holds an interface, is not supported", name))
		}
	} else if holdsInterface(t, map[*itype]bool{}) {
		panic(n.cfgErrorf("%%w of a value of type %s, which is not an error and holds an interface, is not supported", name))
	}
	for rv.IsValid() && rv.Kind() == reflect.Interface && !rv.IsNil() {
		rv = rv.Elem()
	}
	if !rv.IsValid() || !rv.CanInterface() || rv.Type().String() == name {
		return pv, false
	}
	if other {
		panic(n.cfgErrorf("%%w of a value that is not an error, with another directive of the same argument, is not supported (format %q)", fs))
	}
	if (strings.Contains(dir, "+") || strings.Contains(dir, "#")) && !basicKind(rv.Kind()) {
		panic(n.cfgErrorf("%s of a value of type %s, which is not an error, is not supported", dir, name))
	}
	text := fmt.Sprintf(dir, rv.Interface())
	prefix := "%!w(" + rv.Type().String() + "="
	if !strings.HasPrefix(text, prefix) {
		return pv, false
	}
	text = "%!w(" + name + "=" + text[len(prefix):]
	return reflect.ValueOf(fmtWrapMark{&fmtWrapText{dir: dir, text: text}}), true
}

// scriptErrorArg is the argument of Errorf for a %w of rv, a script
// interface's value that holds a script error, pv as converted: the error
// itself, as getBinValue makes it, where pv is its representation (no
// error: fmt printed it as a bad verb, and the error wrapped nothing).
func scriptErrorArg(f *frame, rv, pv reflect.Value) reflect.Value {
	if _, isErr := ifaceOf(pv).(error); isErr || !rv.IsValid() || !rv.CanInterface() {
		return pv
	}
	vi, ok := rv.Interface().(valueInterface)
	if !ok || vi.node == nil || !vi.value.IsValid() {
		return pv
	}
	if w := interfaceWrapperOf(vi.node, errorRType); w != nil {
		return w(f, vi.value)
	}
	return pv
}

func basicKind(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return true
	}
	return false
}

// errorfMarksFixed is call, the call of fmt.Errorf, with the texts of the
// fmtWrapMark arguments put in place of their printing in the message of
// the error it returns.
func errorfMarksFixed(n *node, call func(reflect.Value, []reflect.Value) []reflect.Value) func(reflect.Value, []reflect.Value) []reflect.Value {
	return func(v reflect.Value, in []reflect.Value) []reflect.Value {
		out := call(v, in)
		var marks []fmtWrapMark
		for _, a := range in {
			as := []reflect.Value{a}
			if a.IsValid() && a.Kind() == reflect.Slice && a.Type().Elem().Kind() == reflect.Interface { // a spread slice
				as = as[:0]
				for i := 0; i < a.Len(); i++ {
					as = append(as, a.Index(i))
				}
			}
			for _, e := range as {
				if e.IsValid() && e.CanInterface() {
					if m, ok := e.Interface().(fmtWrapMark); ok {
						marks = append(marks, m)
					}
				}
			}
		}
		if len(marks) == 0 || len(out) != 1 {
			return out
		}
		ev := out[0]
		for ev.Kind() == reflect.Interface && !ev.IsNil() {
			ev = ev.Elem()
		}
		var msg reflect.Value
		if ev.Kind() == reflect.Ptr && !ev.IsNil() && ev.Elem().Kind() == reflect.Struct {
			msg = ev.Elem().FieldByName("msg")
		}
		if !msg.IsValid() || msg.Kind() != reflect.String || !msg.CanAddr() {
			panic(n.cfgErrorf("%%w of a value that is not an error is not supported (Errorf returned a %s)", ev.Type()))
		}
		s := msg.String()
		for _, m := range marks {
			s = strings.ReplaceAll(s, fmt.Sprintf(m.p.dir, m), m.p.text)
		}
		reflect.NewAt(msg.Type(), unsafe.Pointer(msg.UnsafeAddr())).Elem().SetString(s)
		return out
	}
}
