package interp

// toolscript patch 21: the interpreter's errors are values with fields
// (position, kind, symbol), so a host reads what went wrong instead of
// parsing messages; patches 22, 35, 36 and 37 add the run-time side.

import (
	"fmt"
	"go/scanner"
	"go/token"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// ErrorKind classifies an Error or a RuntimeError.
type ErrorKind int

// The kinds of errors the interpreter tells apart.
const (
	// KindOther is any error not classified below.
	KindOther ErrorKind = iota
	// KindSyntax is a source that does not parse.
	KindSyntax
	// KindUndefined is an identifier that names nothing: Name.
	KindUndefined
	// KindNoSymbol is a selector of a native package that names no
	// symbol of it: Package (the name in the source), PkgPath, Name.
	KindNoSymbol
	// KindTypeAssertion is a failed type assertion at run time; the
	// panic value is a *TypeAssertionError (toolscript patch 35).
	KindTypeAssertion
	// KindIndex is an index out of range at run time (toolscript
	// patch 36).
	KindIndex
	// KindNilDereference is a nil pointer dereference at run time
	// (toolscript patch 37).
	KindNilDereference
	// KindUnhashable is a map key of a type that cannot be hashed (a
	// slice in an interface) at run time (toolscript patch 134).
	KindUnhashable
	// KindSliceBounds is a slice expression's index out of range at run
	// time; KindMakeSlice a make of a slice with a length or a capacity
	// out of range (toolscript patch 147). Detail is the message after
	// "runtime error: ".
	KindSliceBounds
	KindMakeSlice
	// KindNegativeShift is a shift by a negative count at run time
	// (toolscript patch 182).
	KindNegativeShift
	// KindSliceToArray is a conversion of a slice to an array or a
	// pointer to an array longer than the slice at run time (toolscript
	// patch 186); Detail is the message after "runtime error: ".
	KindSliceToArray
)

// Error is an error of the interpreter at a node of the script: a compile
// error (what CompileWithContext returns, a syntax error included), or an
// error the interpreter raises at run time. Error() is the position, ": "
// and Msg.
type Error struct {
	Pos  token.Position // where; the zero Position when unknown
	Kind ErrorKind
	Msg  string // the message, without the position

	// Package, PkgPath and Name are the symbol of KindNoSymbol (Package
	// and PkgPath empty for KindUndefined).
	Package, PkgPath, Name string

	node *node
	err  error // the formatted message, wrapping the format's %w operands
}

// cfgError is the interpreter's historical name of Error.
type cfgError = Error

// Error returns the position, ": " and the message.
func (e *Error) Error() string {
	s := e.Pos.String()
	if e.Pos.Filename == DefaultSourceName {
		s = strings.TrimPrefix(s, DefaultSourceName+":")
	}
	return s + ": " + e.Msg
}

// Unwrap returns the operands of the message's %w verbs, if any (patch 25:
// a limit's error from Options.TypeCheck stays visible to errors.As).
func (e *Error) Unwrap() error { return e.err }

// withSymbol sets the kind and symbol of e and returns it.
func (e *Error) withSymbol(kind ErrorKind, pkg, pkgPath, name string) *Error {
	e.Kind, e.Package, e.PkgPath, e.Name = kind, pkg, pkgPath, name
	return e
}

// syntaxError turns the parser's error list into an *Error at the first
// error's position; the message keeps the count of the others as the
// list's Error does.
func syntaxError(err error) error {
	list, ok := err.(scanner.ErrorList)
	if !ok || len(list) == 0 {
		return err
	}
	msg := list[0].Msg
	if n := len(list); n > 1 {
		msg = fmt.Sprintf("%s (and %d more errors)", msg, n-1) // as the list's Error
	}
	return &Error{Pos: list[0].Pos, Kind: KindSyntax, Msg: msg, err: err}
}

// Frame is a function of the script that a panic went through (toolscript
// patch 22).
type Frame struct {
	// Func is the function's name as the interpreter knows it: "main.f",
	// "main.f.func" for a function literal in f, "main" for package
	// level code.
	Func string
	// Pos is where the panic was in this frame: where it started in the
	// innermost frame, the call it came out of in the others.
	Pos token.Position
}

// maxFrames bounds the frames a Panic keeps: a panic out of a deep
// recursion keeps its innermost ones.
const maxFrames = 100

// notePanicFrame adds the frame of node at to the frames of the panic with
// value v, if it is the one notePanicSite saw last (toolscript patch 22).
func (interp *Interpreter) notePanicFrame(v interface{}, at *node) {
	interp.panicMu.Lock()
	defer interp.panicMu.Unlock()
	if len(interp.panicFrames) >= maxFrames || !sameValue(interp.panicValue, v) {
		return
	}
	interp.panicFrames = append(interp.panicFrames, Frame{Func: panicFunc(at.scope), Pos: interp.fset.Position(at.pos)})
}

// framesOf returns the frames of the panic with value v, innermost first,
// if the interpreter saw it (toolscript patch 22).
func (interp *Interpreter) framesOf(v interface{}) []Frame {
	interp.panicMu.Lock()
	defer interp.panicMu.Unlock()
	if interp.panicValue == nil || !sameValue(interp.panicValue, v) {
		return nil
	}
	return append([]Frame(nil), interp.panicFrames...)
}

// TypeAssertionError is the panic of a failed type assertion x.(T)
// (toolscript patch 35): a run-time error (it implements runtime.Error)
// whose message is the one Go prints for the same assertion. The
// interpreter panicked with a message carrying its position instead.
type TypeAssertionError struct {
	// Interface is the static type of x ("interface {}", "error"), or ""
	// where Go names none: an assertion to an interface type of a nil
	// value ("interface is nil").
	Interface string
	// Concrete is the dynamic type of x, "" when x is nil.
	Concrete string
	// Asserted is T.
	Asserted string
	// Missing is a method of the interface T that Concrete lacks; "" when
	// T is not an interface type.
	Missing string
}

// RuntimeError marks a TypeAssertionError as a run-time error, as Go's.
func (*TypeAssertionError) RuntimeError() {}

// Error returns Go's message for the assertion.
func (e *TypeAssertionError) Error() string {
	inter := e.Interface
	if inter == "" {
		inter = "interface"
	}
	switch {
	case e.Concrete == "":
		return "interface conversion: " + inter + " is nil, not " + e.Asserted
	case e.Missing == "":
		return "interface conversion: " + inter + " is " + e.Concrete + ", not " + e.Asserted
	}
	return "interface conversion: " + e.Concrete + " is not " + e.Asserted + ": missing method " + e.Missing
}

// assertionTypeName is the name Go gives t in an assertion's message:
// the script's name of a type it declares, reflect's of a native type.
func assertionTypeName(t *itype, rt reflect.Type) string {
	switch {
	case t.cat == ptrT && t.val != nil && t.val.name != "" && t.val.cat != valueT:
		return "*" + t.val.id()
	case t.name != "" && t.cat != valueT:
		return t.id()
	case rt != nil && rt != valueInterfaceType:
		return rt.String()
	}
	return t.id()
}

// staticInterface is the name of the static type of an asserted operand
// of type t, for a TypeAssertionError.
func staticInterface(t *itype) string {
	if t.cat == interfaceT && len(t.field) > 0 {
		return t.id()
	}
	if rt := t.TypeOf(); rt != nil && rt.Kind() == reflect.Interface && rt.NumMethod() > 0 {
		return rt.String()
	}
	return "interface {}"
}

// missingMethod is the first method, in name order, of the method set m1
// that m0 lacks; the first of m1 if m0 has them all.
func missingMethod(m0, m1 methodSet) string {
	names := make([]string, 0, len(m1))
	for k := range m1 {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if _, ok := m0[k]; !ok {
			return k
		}
	}
	if len(names) > 0 {
		return names[0]
	}
	return ""
}

// RuntimeError is a run-time error of the script that the interpreter
// raises as Go's runtime would, with Go's message (toolscript patches 36
// and 37): it implements runtime.Error. The interpreter panicked with
// reflect's messages instead ("reflect: slice index out of range").
type RuntimeError struct {
	Kind ErrorKind // KindIndex or KindNilDereference
	// Index and Length are the index and the length of KindIndex;
	// Unsigned says the index is of an unsigned type (Index is then its
	// bits).
	Index    int64
	Length   int
	Unsigned bool
	// Type is the key's type of KindUnhashable (toolscript patch 134).
	Type string
	// Detail is the message of KindSliceBounds and KindMakeSlice
	// (toolscript patch 147).
	Detail string
}

// RuntimeError marks a RuntimeError as Go's run-time errors are marked.
func (*RuntimeError) RuntimeError() {}

// Error returns Go's message: "runtime error: index out of range [5]
// with length 3".
func (e *RuntimeError) Error() string {
	switch e.Kind {
	case KindIndex:
		if !e.Unsigned && e.Index < 0 {
			return "runtime error: index out of range [" + strconv.FormatInt(e.Index, 10) + "]"
		}
		i := strconv.FormatInt(e.Index, 10)
		if e.Unsigned {
			i = strconv.FormatUint(uint64(e.Index), 10)
		}
		return "runtime error: index out of range [" + i + "] with length " + strconv.Itoa(e.Length)
	case KindNilDereference:
		return "runtime error: invalid memory address or nil pointer dereference"
	case KindUnhashable: // toolscript patch 134
		return "runtime error: hash of unhashable type " + e.Type
	case KindSliceBounds, KindMakeSlice, KindSliceToArray: // toolscript patches 147, 186
		return "runtime error: " + e.Detail
	case KindNegativeShift: // toolscript patch 182
		return "runtime error: negative shift amount"
	}
	return "runtime error"
}

// indexOf is v.Index(i) for an array, slice or string v, raising Go's
// run-time error for an index out of range or a nil array pointer
// (toolscript patch 36).
func indexOf(v reflect.Value, i int64, unsigned bool) reflect.Value {
	if !v.IsValid() {
		panic(&RuntimeError{Kind: KindNilDereference})
	}
	if n := v.Len(); i < 0 || i >= int64(n) {
		panic(&RuntimeError{Kind: KindIndex, Index: i, Length: n, Unsigned: unsigned})
	}
	return v.Index(int(i))
}

// sliceIndex is an index of a slice expression and whether its type is
// unsigned (toolscript patch 147).
type sliceIndex struct {
	v        int64
	unsigned bool
}

// String is the index as Go's run-time error prints it.
func (x sliceIndex) String() string {
	if x.unsigned {
		return strconv.FormatUint(uint64(x.v), 10)
	}
	return strconv.FormatInt(x.v, 10)
}

// neg says the index is negative (of a signed type).
func (x sliceIndex) neg() bool { return !x.unsigned && x.v < 0 }

// sliceValue is the slice expression a[lo:hi:max] (hi absent unless hasHi,
// max unless three), raising Go's run-time error, with the message of the
// runtime's boundsError, for an index out of range where reflect panicked
// with "reflect.Value.Slice: slice index out of bounds". The indexes are
// checked in the order of compiled code: max (or hi) against the
// capacity (the length of a string or an array), then hi against max,
// then lo against hi (toolscript patch 147).
func sliceValue(a reflect.Value, lo, hi, mx sliceIndex, hasHi, three bool) reflect.Value {
	if !a.IsValid() {
		panic(&RuntimeError{Kind: KindNilDereference})
	}
	n := a.Len()
	c, what := n, " with length "
	if a.Kind() == reflect.Slice {
		c, what = a.Cap(), " with capacity "
	}
	fail := func(x sliceIndex, format, negFormat string) {
		f := format
		if x.neg() {
			f = negFormat
		}
		panic(&RuntimeError{Kind: KindSliceBounds, Detail: "slice bounds out of range " + strings.Replace(f, "%x", x.String(), 1)})
	}
	out := func(x sliceIndex, bound int64) bool { return x.v < 0 || x.v > bound }
	if !hasHi {
		hi = sliceIndex{v: int64(n)}
	}
	if three {
		if out(mx, int64(c)) {
			fail(mx, "[::%x]"+what+strconv.Itoa(c), "[::%x]")
		}
		if out(hi, mx.v) {
			fail(hi, "[:%x:"+mx.String()+"]", "[:%x:]")
		}
		if out(lo, hi.v) {
			fail(lo, "[%x:"+hi.String()+":]", "[%x::]")
		}
		return a.Slice3(int(lo.v), int(hi.v), int(mx.v))
	}
	if hasHi && out(hi, int64(c)) {
		fail(hi, "[:%x]"+what+strconv.Itoa(c), "[:%x]")
	}
	if out(lo, hi.v) {
		fail(lo, "[%x:"+hi.String()+"]", "[%x:]")
	}
	return a.Slice(int(lo.v), int(hi.v))
}

// checkMakeSlice raises Go's run-time error for make of a slice with a
// negative length, or a capacity under the length (toolscript patch 147);
// reflect.MakeSlice panicked with "reflect.MakeSlice: negative len".
func checkMakeSlice(length, capacity int) {
	if length < 0 {
		panic(&RuntimeError{Kind: KindMakeSlice, Detail: "makeslice: len out of range"})
	}
	if capacity < length {
		panic(&RuntimeError{Kind: KindMakeSlice, Detail: "makeslice: cap out of range"})
	}
}

// runtimePanic turns reflect's panic for the use of a nil pointer (the
// field or the element of a zero Value) into Go's run-time error, where a
// panic starts (toolscript patch 37).
func runtimePanic(r interface{}) interface{} {
	if ve, ok := r.(*reflect.ValueError); ok && ve.Kind == reflect.Invalid &&
		(ve.Method == "reflect.Value.Field" || ve.Method == "reflect.Value.Elem") {
		return &RuntimeError{Kind: KindNilDereference}
	}
	if s, ok := r.(string); ok && (s == reflectNilCall || s == reflectNilMethod) { // toolscript patch 185
		return &RuntimeError{Kind: KindNilDereference}
	}
	if e := sliceToArrayPanic(r); e != nil { // toolscript patch 186
		return e
	}
	return r
}

// unhashablePanic is runtimePanic for a panic that started at node n: a
// map store through reflect panics with the message of the runtime's map
// code, "hash of unhashable type: []int", where compiled code panics
// with "runtime error: hash of unhashable type []int" (a map read or
// delete gives the first in Go too) (toolscript patch 134).
func unhashablePanic(r interface{}, n *node) interface{} {
	re, ok := r.(runtime.Error)
	if !ok || n == nil {
		return r
	}
	if t, found := strings.CutPrefix(re.Error(), "runtime error: hash of unhashable type "); found { // toolscript patch 152
		if err := wrapperKeyError(n, t); err != nil {
			return err
		}
	}
	t, found := strings.CutPrefix(re.Error(), "hash of unhashable type: ")
	if !found {
		return r
	}
	if err := wrapperKeyError(n, t); err != nil { // toolscript patch 152
		return err
	}
	if n.kind == compositeLitExpr || n.kind == indexExpr && isMapStore(n) {
		return &RuntimeError{Kind: KindUnhashable, Type: t}
	}
	return r
}

// isMapStore tells whether n, an index expression, is what an assignment
// or an increment stores to.
func isMapStore(n *node) bool {
	a := n.anc
	if a == nil {
		return false
	}
	switch a.kind {
	case incDecStmt:
		return len(a.child) > 0 && a.child[0] == n
	case assignStmt, assignXStmt:
		for _, c := range a.child[:max(1, len(a.child)/2)] {
			if c == n {
				return true
			}
		}
	}
	return false
}
