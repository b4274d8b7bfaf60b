package interp // toolscript patch 172

// toolscript patch 172: a value of a script type held in an interface
// (`var y any = &S{}`, a `[]any` element, a `map[string]any` value, a
// variable of a script or native interface type) is the interpreter's
// record of it (patches 38, 112, 118) or a native interface's wrapper
// (patch 152), and a native function that takes it as an `any` got that
// record: json.Unmarshal and (*json.Decoder).Decode failed with
// "Unmarshal(non-pointer interp.valueInterface)", sort.Slice panicked
// ("call of Swapper on struct Value"), fmt's scanning functions failed
// with "type not a pointer: interp.valueInterface" and text/template's
// IsTrue found every such value true. The functions that inspect their
// argument by reflection now get the value the record holds (its reflect
// type is the representation, as for `&S{}` given directly); the
// elements of a spread `[]any` given to a scanning function too. A held
// type with a method the function would call (UnmarshalJSON,
// UnmarshalText, Scan), which the value's reflect type does not have,
// fails the call naming it. Other natives keep getting the record, so
// what they give back (sync.Map, atomic.Value, container/list,
// context.WithValue, heap.Push's call of the script's Push) keeps its
// type.

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"text/template"
)

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	fmtScannerType      = reflect.TypeFor[fmt.Scanner]()
)

// plainCallKind tells what a native function that inspects its
// arguments by reflection does with them.
type plainCallKind int

const (
	plainReflect plainCallKind = iota // sort.Slice, template.IsTrue: no method matters
	plainJSON                         // json decoding: UnmarshalJSON, UnmarshalText
	plainScan                         // fmt scanning: Scan
)

// plainArgsOf returns, for the call n of a native function that inspects
// its interface arguments by reflection, the index of the first such
// argument, whether the later ones are too (a variadic ...any), and what
// the function does with them; first is -1 for any other call.
func plainArgsOf(n *node) (first int, rest bool, kind plainCallKind) {
	if len(n.child) == 0 {
		return -1, false, 0
	}
	c0 := n.child[0]
	if c0.kind != selectorExpr || len(c0.child) != 2 {
		return -1, false, 0
	}
	name := c0.child[1].ident
	if path, _, ok := binSymbol(n); ok {
		switch path + "." + name {
		case "encoding/json.Unmarshal":
			return 1, false, plainJSON
		case "sort.Slice", "sort.SliceStable", "sort.SliceIsSorted", "text/template.IsTrue":
			return 0, false, plainReflect
		case "fmt.Scan", "fmt.Scanln":
			return 0, true, plainScan
		case "fmt.Scanf", "fmt.Sscan", "fmt.Sscanln", "fmt.Fscan", "fmt.Fscanln":
			return 1, true, plainScan
		case "fmt.Sscanf", "fmt.Fscanf":
			return 2, true, plainScan
		}
		return -1, false, 0
	}
	if rt := c0.child[0].typ; rt != nil && rt.cat == valueT && rt.rtype == jsonDecoderType && name == "Decode" {
		return 0, false, plainJSON
	}
	return -1, false, 0
}

// plainSpec is what plainArgsOf returns.
type plainSpec struct {
	first int
	rest  bool
	kind  plainCallKind
}

// plainFuncs are the functions of plainArgsOf by their code, for a call
// through a function value (f := json.Unmarshal).
var plainFuncs = func() map[uintptr]plainSpec {
	m := map[uintptr]plainSpec{}
	add := func(s plainSpec, fns ...any) {
		for _, f := range fns {
			m[reflect.ValueOf(f).Pointer()] = s
		}
	}
	add(plainSpec{1, false, plainJSON}, json.Unmarshal)
	add(plainSpec{0, false, plainReflect}, sort.Slice, sort.SliceStable, sort.SliceIsSorted, template.IsTrue)
	add(plainSpec{0, true, plainScan}, fmt.Scan, fmt.Scanln)
	add(plainSpec{1, true, plainScan}, fmt.Scanf, fmt.Sscan, fmt.Sscanln, fmt.Fscan, fmt.Fscanln)
	add(plainSpec{2, true, plainScan}, fmt.Sscanf, fmt.Fscanf)
	return m
}()

// plainArgsAt is plainArgsOf for the call n, whose function value is fv
// when n calls a function value of a native function type (dynamic).
func plainArgsAt(n *node, fv reflect.Value, dynamic bool) (first int, rest bool, kind plainCallKind) {
	if !dynamic {
		return plainArgsOf(n)
	}
	if !fv.IsValid() || fv.Kind() != reflect.Func || fv.IsNil() {
		return -1, false, 0
	}
	s, ok := plainFuncs[fv.Pointer()]
	if !ok || s.first >= len(n.child)-1 {
		return -1, false, 0
	}
	return s.first, s.rest, s.kind
}

// plainDynamic tells whether the call n calls a function value (not a
// package's function or a method) of a native function type with an
// interface parameter, which may be one of plainFuncs.
func plainDynamic(n *node) bool {
	if len(n.child) == 0 {
		return false
	}
	c0 := n.child[0]
	if c0.kind == selectorExpr || c0.typ == nil || c0.typ.cat != valueT || c0.typ.rtype == nil || c0.typ.rtype.Kind() != reflect.Func {
		return false
	}
	for i := 0; i < c0.typ.rtype.NumIn(); i++ {
		if in := c0.typ.rtype.In(i); in.Kind() == reflect.Interface || in.Kind() == reflect.Slice && in.Elem().Kind() == reflect.Interface {
			return true
		}
	}
	return false
}

// plainArgsCall returns callFn for the call n of a native function that
// inspects its interface arguments by reflection, giving it the values
// that records and wrappers in them hold; nil for any other call.
func plainArgsCall(n *node, callFn func(reflect.Value, []reflect.Value) []reflect.Value) func(reflect.Value, []reflect.Value) []reflect.Value {
	first, _, _ := plainArgsOf(n)
	dynamic := first < 0 && plainDynamic(n)
	if (first < 0 || first >= len(n.child)-1) && !dynamic {
		return nil
	}
	spread := n.action == aCallSlice
	return func(v reflect.Value, in []reflect.Value) []reflect.Value {
		first, rest, kind := plainArgsAt(n, v, dynamic)
		if first < 0 {
			return callFn(v, in)
		}
		last := first
		if rest {
			last = len(in) - 1
		}
		for i := first; i <= last && i < len(in); i++ {
			if spread && rest && i == len(in)-1 {
				in[i] = plainSpread(n, in[i], kind)
				continue
			}
			in[i] = plainHeldArg(n, in[i], kind)
		}
		return callFn(v, in)
	}
}

// plainHeldArg is v, an argument of an interface type, or the value the
// record or the wrapper it holds holds.
func plainHeldArg(n *node, v reflect.Value, kind plainCallKind) reflect.Value {
	e := v
	for e.IsValid() && e.Kind() == reflect.Interface && !e.IsNil() {
		e = e.Elem()
	}
	if !e.IsValid() || !e.CanInterface() || e.Kind() == reflect.Interface {
		return v
	}
	if _, ok := e.Interface().(valueInterface); !ok {
		if e.Kind() != reflect.Struct || wrapperNode(e) == nil && (e.NumField() == 0 || e.Type().Field(0).Name != "IValue") {
			return v // no record, no wrapper: the value itself
		}
		// A wrapper made for a method the function calls (a
		// json.Unmarshaler, a fmt.Scanner) is what it needs.
		for _, it := range [...]reflect.Type{jsonUnmarshalerType, textUnmarshalerType, fmtScannerType} {
			if !e.Type().Implements(it) {
				continue
			}
			if kind != plainJSON {
				return v
			}
			// json decodes into a pointer only: a pointer to the
			// wrapper of a non-nil pointer, whose method json calls;
			// any other held value as itself, for json's error.
			if _, held, ok := heldScriptValue(v); ok && held.IsValid() && held.Kind() == reflect.Ptr && !held.IsNil() {
				p := reflect.New(e.Type())
				p.Elem().Set(e)
				return p
			}
			break
		}
	}
	t, held, ok := heldScriptValue(v)
	if !ok || !held.IsValid() || !held.CanInterface() {
		return v
	}
	if t != nil {
		plainMethodCheck(n, t, kind)
	}
	return held
}

// plainSpread is v, a spread []any, with the records and wrappers in its
// elements replaced by the values they hold, in a copy.
func plainSpread(n *node, v reflect.Value, kind plainCallKind) reflect.Value {
	if !v.IsValid() || v.Kind() != reflect.Slice || v.Type().Elem().Kind() != reflect.Interface {
		return v
	}
	var out reflect.Value
	for i := 0; i < v.Len(); i++ {
		e := v.Index(i)
		p := plainHeldArg(n, e, kind)
		if p.Kind() == reflect.Interface { // unchanged
			if out.IsValid() {
				out.Index(i).Set(e)
			}
			continue
		}
		if !out.IsValid() {
			out = reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(out, v)
		}
		out.Index(i).Set(p)
	}
	if out.IsValid() {
		return out
	}
	return v
}

// plainMethodCheck panics with an error naming the method when t, the
// script type of a value given to a native function of kind, has a
// method the function would call on it (its reflect type has none).
func plainMethodCheck(n *node, t *itype, kind plainCallKind) {
	c0 := n.child[0]
	name := c0.ident // a function value, by the script's name of it
	if c0.kind == selectorExpr && len(c0.child) == 2 {
		name = c0.child[1].ident
		switch kind {
		case plainJSON:
			name = "json." + name
		case plainScan:
			name = "fmt." + name
		}
	}
	switch kind {
	case plainJSON:
		if m, at := jsonMethodIn(t, false, false, map[*itype]bool{}); m != "" {
			panic(n.cfgErrorf("%s: the interpreter does not call the %s method of %s (in an interface value); decode that value yourself", name, m, at))
		}
	case plainScan:
		if scriptHasMethod(t, "Scan", "func(fmt.ScanState, int32) error") {
			panic(n.cfgErrorf("%s: the interpreter does not call the Scan method of %s (in an interface value); scan that value yourself", name, t.str))
		}
	}
}
