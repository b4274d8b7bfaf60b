package interp

// toolscript patch 39: a script value converted to error keeps the
// methods errors.Unwrap, errors.Is and errors.As look for: its interface
// wrapper is one of the types below, chosen by the value's method set
// (Unwrap() error or Unwrap() []error, Is(error) bool, As(any) bool),
// and it records the value's script type, so that %T, %#v and a type
// switch on an error still see it. Upstream's wrapper had Error alone:
// errors.As and errors.Is stopped at a script error that wraps another.

import (
	"reflect"
	"unsafe"
)

var errorRType = reflect.TypeOf((*error)(nil)).Elem()

type _scriptError struct {
	IValue interface{}
	WError func() string
	node   *node // the script type of IValue
}

func (w _scriptError) Error() string     { return w.WError() }
func (w _scriptError) scriptNode() *node { return w.node }

type _scriptErrorAs struct {
	IValue interface{}
	WError func() string
	WAs    func(interface{}) bool
	node   *node // the script type of IValue
}

func (w _scriptErrorAs) Error() string              { return w.WError() }
func (w _scriptErrorAs) As(target interface{}) bool { return w.WAs(target) }
func (w _scriptErrorAs) scriptNode() *node          { return w.node }

type _scriptErrorIs struct {
	IValue interface{}
	WError func() string
	WIs    func(error) bool
	node   *node // the script type of IValue
}

func (w _scriptErrorIs) Error() string        { return w.WError() }
func (w _scriptErrorIs) Is(target error) bool { return w.WIs(target) }
func (w _scriptErrorIs) scriptNode() *node    { return w.node }

type _scriptErrorIsAs struct {
	IValue interface{}
	WError func() string
	WIs    func(error) bool
	WAs    func(interface{}) bool
	node   *node // the script type of IValue
}

func (w _scriptErrorIsAs) Error() string              { return w.WError() }
func (w _scriptErrorIsAs) Is(target error) bool       { return w.WIs(target) }
func (w _scriptErrorIsAs) As(target interface{}) bool { return w.WAs(target) }
func (w _scriptErrorIsAs) scriptNode() *node          { return w.node }

type _scriptErrorU struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() error
	node    *node // the script type of IValue
}

func (w _scriptErrorU) Error() string     { return w.WError() }
func (w _scriptErrorU) Unwrap() error     { return w.WUnwrap() }
func (w _scriptErrorU) scriptNode() *node { return w.node }

type _scriptErrorUAs struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() error
	WAs     func(interface{}) bool
	node    *node // the script type of IValue
}

func (w _scriptErrorUAs) Error() string              { return w.WError() }
func (w _scriptErrorUAs) Unwrap() error              { return w.WUnwrap() }
func (w _scriptErrorUAs) As(target interface{}) bool { return w.WAs(target) }
func (w _scriptErrorUAs) scriptNode() *node          { return w.node }

type _scriptErrorUIs struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() error
	WIs     func(error) bool
	node    *node // the script type of IValue
}

func (w _scriptErrorUIs) Error() string        { return w.WError() }
func (w _scriptErrorUIs) Unwrap() error        { return w.WUnwrap() }
func (w _scriptErrorUIs) Is(target error) bool { return w.WIs(target) }
func (w _scriptErrorUIs) scriptNode() *node    { return w.node }

type _scriptErrorUIsAs struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() error
	WIs     func(error) bool
	WAs     func(interface{}) bool
	node    *node // the script type of IValue
}

func (w _scriptErrorUIsAs) Error() string              { return w.WError() }
func (w _scriptErrorUIsAs) Unwrap() error              { return w.WUnwrap() }
func (w _scriptErrorUIsAs) Is(target error) bool       { return w.WIs(target) }
func (w _scriptErrorUIsAs) As(target interface{}) bool { return w.WAs(target) }
func (w _scriptErrorUIsAs) scriptNode() *node          { return w.node }

type _scriptErrorUs struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() []error
	node    *node // the script type of IValue
}

func (w _scriptErrorUs) Error() string     { return w.WError() }
func (w _scriptErrorUs) Unwrap() []error   { return w.WUnwrap() }
func (w _scriptErrorUs) scriptNode() *node { return w.node }

type _scriptErrorUsAs struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() []error
	WAs     func(interface{}) bool
	node    *node // the script type of IValue
}

func (w _scriptErrorUsAs) Error() string              { return w.WError() }
func (w _scriptErrorUsAs) Unwrap() []error            { return w.WUnwrap() }
func (w _scriptErrorUsAs) As(target interface{}) bool { return w.WAs(target) }
func (w _scriptErrorUsAs) scriptNode() *node          { return w.node }

type _scriptErrorUsIs struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() []error
	WIs     func(error) bool
	node    *node // the script type of IValue
}

func (w _scriptErrorUsIs) Error() string        { return w.WError() }
func (w _scriptErrorUsIs) Unwrap() []error      { return w.WUnwrap() }
func (w _scriptErrorUsIs) Is(target error) bool { return w.WIs(target) }
func (w _scriptErrorUsIs) scriptNode() *node    { return w.node }

type _scriptErrorUsIsAs struct {
	IValue  interface{}
	WError  func() string
	WUnwrap func() []error
	WIs     func(error) bool
	WAs     func(interface{}) bool
	node    *node // the script type of IValue
}

func (w _scriptErrorUsIsAs) Error() string              { return w.WError() }
func (w _scriptErrorUsIsAs) Unwrap() []error            { return w.WUnwrap() }
func (w _scriptErrorUsIsAs) Is(target error) bool       { return w.WIs(target) }
func (w _scriptErrorUsIsAs) As(target interface{}) bool { return w.WAs(target) }
func (w _scriptErrorUsIsAs) scriptNode() *node          { return w.node }

// scriptErrorWrappers are the wrappers by unwrap kind (0 none, 1
// Unwrap() error, 2 Unwrap() []error), Is and As.
var scriptErrorWrappers = [3][2][2]reflect.Type{
	{
		{reflect.TypeOf(_scriptError{}), reflect.TypeOf(_scriptErrorAs{})},
		{reflect.TypeOf(_scriptErrorIs{}), reflect.TypeOf(_scriptErrorIsAs{})},
	},
	{
		{reflect.TypeOf(_scriptErrorU{}), reflect.TypeOf(_scriptErrorUAs{})},
		{reflect.TypeOf(_scriptErrorUIs{}), reflect.TypeOf(_scriptErrorUIsAs{})},
	},
	{
		{reflect.TypeOf(_scriptErrorUs{}), reflect.TypeOf(_scriptErrorUsAs{})},
		{reflect.TypeOf(_scriptErrorUsIs{}), reflect.TypeOf(_scriptErrorUsIsAs{})},
	},
}

// scriptErrorWrapper returns the wrapper of a value of the script type t
// converted to error, nil for a native type.
func scriptErrorWrapper(t *itype) reflect.Type {
	if t == nil || isBin(t) || isInterface(t) || t.cat == nilT {
		return nil
	}
	u := 0
	switch {
	case scriptHasMethod(t, "Unwrap", "func() error"):
		u = 1
	case scriptHasMethod(t, "Unwrap", "func() []error"):
		u = 2
	}
	is, as := 0, 0
	if scriptHasMethod(t, "Is", "func(error) bool") {
		is = 1
	}
	if scriptHasMethod(t, "As", "func(interface {}) bool") {
		as = 1
	}
	return scriptErrorWrappers[u][is][as]
}

// wrapperMethods is the number of methods of the interface wrapper type
// w: its exported fields after IValue.
func wrapperMethods(w reflect.Type) int {
	n := 0
	for i := 1; i < w.NumField(); i++ {
		if w.Field(i).IsExported() {
			n++
		}
	}
	return n
}

// setWrapperNode records in w, a new interface wrapper, the node of its
// value's script type, if w has the field.
func setWrapperNode(w reflect.Value, n *node) {
	f := w.FieldByName("node")
	if !f.IsValid() || !f.CanAddr() {
		return
	}
	if f.Kind() == reflect.Interface { // toolscript patch 152: a generated wrapper's
		reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(wrappedScript{unsafe.Pointer(n)}))
		return
	}
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(n))
}

// wrapperNode returns the node of the script type of the value an
// interface wrapper holds, nil if v is not such a wrapper.
func wrapperNode(v reflect.Value) *node {
	if !v.IsValid() || !v.CanInterface() {
		return nil
	}
	if w, ok := v.Interface().(interface{ scriptNode() *node }); ok {
		return w.scriptNode()
	}
	return generatedWrapperNode(v) // toolscript patch 152
}

// ifaceEqual is == of two interface values: an interface wrapper of a
// script value compares by the value it holds (a wrapper, which has
// func fields, cannot be compared).
func ifaceEqual(a, b interface{}) bool {
	// toolscript patch 194: wrappers of values of two script types are
	// unequal, even with one underlying type (struct{}).
	if na, nb := wrapperNode(reflect.ValueOf(a)), wrapperNode(reflect.ValueOf(b)); na != nil && nb != nil && !sameWrappedType(na, nb) {
		return false
	}
	// toolscript patch 152: a wrapper against a record compares as a
	// record; a generated wrapper by its value too.
	_, recA := a.(valueInterface)
	_, recB := b.(valueInterface)
	if r, ok := wrappedRecord(a); recB && ok {
		a = r
	} else if w, ok := a.(interface{ scriptNode() *node }); ok {
		a = reflect.ValueOf(w).Field(0).Interface()
	} else if v := reflect.ValueOf(a); generatedWrapperNode(v) != nil {
		a = v.Field(0).Interface()
	}
	if r, ok := wrappedRecord(b); recA && ok {
		b = r
	} else if w, ok := b.(interface{ scriptNode() *node }); ok {
		b = reflect.ValueOf(w).Field(0).Interface()
	} else if v := reflect.ValueOf(b); generatedWrapperNode(v) != nil {
		b = v.Field(0).Interface()
	}
	// toolscript patch 110: two interface values holding values of one
	// script type with methods (the interpreter's record of a value and
	// its type) are equal when the values are, as in Go; the records
	// compared their reflect.Values, so two equal values were unequal
	// (var x, y any = L{"a"}, L{"a"}; x == y was false).
	if va, ok := a.(valueInterface); ok {
		if vb, ok := b.(valueInterface); ok {
			return recordsEqual(va, vb)
		}
	}
	// toolscript patch 144: two structs or arrays with interface fields
	// compare the values the fields hold, records by recordsEqual (Go's
	// == compared the records' reflect.Values: Event{"s", Status("a")}
	// == Event{"s", Status("a")} was false).
	if ta := reflect.TypeOf(a); ta != nil && holdsIface(ta) && ta == reflect.TypeOf(b) {
		return composedEqual(reflect.ValueOf(a), reflect.ValueOf(b))
	}
	return a == b
}

// recordsEqual is == of two interface values the interpreter holds as
// records: both nil, or of the same type with equal values (a value of
// a type == cannot compare panics, as in Go). toolscript patch 110.
func recordsEqual(a, b valueInterface) bool {
	if !a.value.IsValid() || !b.value.IsValid() || a.node == nil || b.node == nil {
		return !a.value.IsValid() && !b.value.IsValid()
	}
	ta, tb := a.node.typ, b.node.typ
	if ra, rb := recordType(ta), recordType(tb); ra != nil && rb != nil { // toolscript patch 112: a conversion's record
		ta, tb = ra, rb
	}
	if ta != tb && (ta == nil || tb == nil || !sameNamed(ta, tb)) { // toolscript patch 135: and one declaration
		return false
	}
	if !a.value.CanInterface() || !b.value.CanInterface() {
		return false
	}
	checkComparable(ta, a.value) // toolscript patch 164: Go's run-time error names the script's type
	return ifaceEqual(a.value.Interface(), b.value.Interface())
}
