package interp

//go:generate go run ../internal/cmd/genop/genop.go

import (
	"errors"
	"fmt"
	"go/constant"
	"go/token" // toolscript patch 124
	"reflect"
	"regexp"
	"runtime" // toolscript patch 59
	"strings"
	"unicode/utf8" // toolscript patch 142
	"unsafe"       // toolscript patch 16
)

// bltn type defines functions which run at CFG execution.
type bltn func(f *frame) bltn

// bltnGenerator type defines a builtin generator function.
type bltnGenerator func(n *node)

var builtin = [...]bltnGenerator{
	aNop:          nop,
	aAddr:         addr,
	aAssign:       assign,
	aAdd:          add,
	aAddAssign:    addAssign,
	aAnd:          and,
	aAndAssign:    andAssign,
	aAndNot:       andNot,
	aAndNotAssign: andNotAssign,
	aBitNot:       bitNot,
	aCall:         call,
	aCallSlice:    call,
	aCase:         _case,
	aCompositeLit: arrayLit,
	aDec:          dec,
	aEqual:        equal,
	aGetFunc:      getFunc,
	aGreater:      greater,
	aGreaterEqual: greaterEqual,
	aInc:          inc,
	aLand:         land,
	aLor:          lor,
	aLower:        lower,
	aLowerEqual:   lowerEqual,
	aMul:          mul,
	aMulAssign:    mulAssign,
	aNeg:          neg,
	aNot:          not,
	aNotEqual:     notEqual,
	aOr:           or,
	aOrAssign:     orAssign,
	aPos:          pos,
	aQuo:          quo,
	aQuoAssign:    quoAssign,
	aRange:        _range,
	aRecv:         recv,
	aRem:          rem,
	aRemAssign:    remAssign,
	aReturn:       _return,
	aSend:         send,
	aShl:          shl,
	aShlAssign:    shlAssign,
	aShr:          shr,
	aShrAssign:    shrAssign,
	aSlice:        slice,
	aSlice0:       slice0,
	aStar:         deref,
	aSub:          sub,
	aSubAssign:    subAssign,
	aTypeAssert:   typeAssertShort,
	aXor:          xor,
	aXorAssign:    xorAssign,
}

var receiverStripperRxp *regexp.Regexp

func init() {
	re := `func\(((.*?(, |\)))(.*))`
	var err error
	receiverStripperRxp, err = regexp.Compile(re)
	if err != nil {
		panic(err)
	}
}

type valueInterface struct {
	node  *node
	value reflect.Value
}

var floatType, complexType reflect.Type

func init() {
	floatType = reflect.ValueOf(0.0).Type()
	complexType = reflect.ValueOf(complex(0, 0)).Type()
}

func (interp *Interpreter) run(n *node, cf *frame) {
	if n == nil {
		return
	}
	var f *frame
	if cf == nil {
		f = interp.frame
	} else {
		f = newFrame(cf, len(n.types), interp.runid())
	}
	interp.mutex.RLock()
	c := reflect.ValueOf(interp.done)
	interp.mutex.RUnlock()

	f.mutex.Lock()
	f.done = reflect.SelectCase{Dir: reflect.SelectRecv, Chan: c}
	f.mutex.Unlock()

	for i, t := range n.types {
		f.data[i] = reflect.New(t).Elem()
	}
	runCfg(n.start, f, n, nil)
}

func isExecNode(n *node, exec bltn) bool {
	if n == nil || n.exec == nil || exec == nil {
		return false
	}

	a1 := reflect.ValueOf(n.exec).Pointer()
	a2 := reflect.ValueOf(exec).Pointer()
	return a1 == a2
}

// originalExecNode looks in the tree of nodes for the node which has exec,
// aside from n, in order to know where n "inherited" that exec from.
func originalExecNode(n *node, exec bltn) *node {
	execAddr := reflect.ValueOf(exec).Pointer()
	var originalNode *node
	// toolscript patch 16: the node whose exec is this very closure, not
	// the first node whose closure has the same code (every call node's
	// does), which named a caller's frame in place of the callee's and
	// gave a panic's stack out of order. The first node with the same
	// code is kept for a closure no node holds.
	execID := closureID(exec)
	var sameCode *node
	seen := make(map[int64]struct{})
	root := n
	for {
		root = root.anc
		if root == nil {
			break
		}
		if _, ok := seen[root.index]; ok {
			continue
		}

		root.Walk(func(wn *node) bool {
			if _, ok := seen[wn.index]; ok {
				return true
			}
			seen[wn.index] = struct{}{}
			if wn.index == n.index {
				return true
			}
			if wn.exec == nil {
				return true
			}
			if reflect.ValueOf(wn.exec).Pointer() == execAddr {
				if execID != 0 && closureID(wn.exec) == execID { // toolscript patch 16
					originalNode = wn
					return false
				}
				if sameCode == nil {
					sameCode = wn
				}
			}
			return true
		}, nil)

		if originalNode != nil {
			break
		}
	}
	if originalNode == nil { // toolscript patch 16
		if execID != 0 && n.exec != nil && closureID(n.exec) == execID {
			return n
		}
		originalNode = sameCode
	}

	return originalNode
}

// argNow returns v as an argument evaluated now, as Go evaluates the
// arguments of a deferred call or a go statement at the statement: a copy
// when v is a variable's storage, which the deferred call or the new
// goroutine read later (toolscript patch 18; a deferred fmt.Print(i) in a
// loop printed the last i, and a go statement raced with later writes).
func argNow(v reflect.Value) reflect.Value {
	if !v.IsValid() || !v.CanAddr() || !v.CanInterface() {
		return v
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}

// callDeferred calls a deferred function and returns the value it panicked
// with, if it did (toolscript patch 53). runtime.Goexit goes on unwinding.
func callDeferred(val []reflect.Value) (p any, panicked bool) {
	returned := false
	defer func() {
		if !returned {
			p = recover()
			panicked = p != nil
		}
	}()
	callNilVariadic(val[0], val[1:]) // toolscript patch 160: defer h() of a variadic h
	returned = true
	return nil, false
}

// closureID identifies a function value: the address of its closure
// record, which differs between two closures of the same code (toolscript
// patch 16). It is 0 for nil.
func closureID(b bltn) uintptr {
	return *(*uintptr)(unsafe.Pointer(&b))
}

// cloned from net/http/server.go , so we can enforce a similar behavior:
// in the stdlib, this error is used as sentinel in panic triggered e.g. on
// request cancellation, in order to catch it and suppress it in a following defer.
// in yaegi, we use it to suppress a "panic" log message that happens in the
// same circumstances.
var errAbortHandler = errors.New("net/http: abort Handler")

// Functions set to run during execution of CFG.

func panicFunc(s *scope) string {
	if s == nil {
		return ""
	}
	def := s.def
	if def == nil {
		return s.pkgID
	}
	switch def.kind {
	case funcDecl:
		if c := def.child[1]; c.kind == identExpr {
			return s.pkgID + "." + c.ident
		}
	case funcLit:
		if def.anc != nil {
			return panicFunc(def.anc.scope) + ".func"
		}
	}
	return s.pkgID
}

// runCfg executes a node AST by walking its CFG and running node builtin at each step.
func runCfg(n *node, f *frame, funcNode, callNode *node) {
	var exec bltn
	in := n.interp
	if in.opt.maxCallDepth > 0 { // toolscript patch 31
		in.enterCall(funcNode)
	}
	defer func() {
		if in.opt.maxCallDepth > 0 { // toolscript patch 31
			in.leaveCall()
		}
		if f.runid() != in.runid() {
			// toolscript patch 30: stopped. The deferred native calls
			// still run (a wg.Done or mu.Unlock another goroutine
			// waits for), the script's do nothing, and nothing recovers:
			// a panic goes on to the goroutine's top, one panic
			// unwinding every frame in linear time (a recover and a new
			// panic per frame take time quadratic in the depth).
			f.mutex.RLock()
			deferred := f.deferred
			f.mutex.RUnlock()
			for _, val := range deferred {
				callStopped(val)
			}
			return
		}
		f.mutex.Lock()
		f.recovered = recover()
		if f.recovered != nil {
			// toolscript patch 37: Go's run-time error for reflect's
			// panic on a nil pointer, before the script may recover it.
			f.recovered = runtimePanic(f.recovered)
			f.recovered = unhashablePanic(f.recovered, originalExecNode(n, exec)) // toolscript patch 134
			f.recovered = uncomparablePanic(f.recovered, in)                      // toolscript patch 164
			// toolscript patch 3: remember where the panic started (the
			// innermost frame sees it first), before deferred functions
			// may recover it.
			n.interp.notePanicSite(f.recovered, originalExecNode(n, exec), n)
		}
		// toolscript patch 53: the deferred calls run without the frame's
		// lock (a closure of the frame returning in one of them locks it:
		// defer f() of a closure in a loop hung), and a panic in one of
		// them replaces the current panic and the next ones still run, as
		// in Go (it escaped with the lock held).
		deferred := f.deferred
		f.mutex.Unlock()
		for _, val := range deferred {
			if p, panicked := callDeferred(val); panicked {
				f.mutex.Lock()
				f.recovered = runtimePanic(p)
				f.mutex.Unlock()
			}
		}
		f.mutex.Lock()
		if f.recovered != nil {
			oNode := originalExecNode(n, exec)
			if oNode == nil {
				oNode = n
			}
			errorer, ok := f.recovered.(error)
			// in this specific case, the stdlib would/will suppress the panic, so we
			// suppress the logging here accordingly, to get a similar and consistent
			// behavior.
			if !ok || errorer.Error() != errAbortHandler.Error() {
				fmt.Fprintln(n.interp.stderr, oNode.cfgErrorf("panic: %s(...)", panicFunc(oNode.scope)))
			}
			n.interp.notePanicFrame(f.recovered, oNode) // toolscript patch 22
			f.mutex.Unlock()
			panic(f.recovered)
		}
		f.mutex.Unlock()
	}()

	dbg := n.interp.debugger
	if dbg == nil {
		// toolscript patch 2: assign the outer exec (it was shadowed), so a
		// panic is reported at the node that raised it.
		for exec = n.exec; exec != nil && f.runid() == n.interp.runid(); {
			exec = exec(f)
		}
		return
	}

	if n.exec == nil {
		return
	}

	dbg.enterCall(funcNode, callNode, f)
	defer dbg.exitCall(funcNode, callNode, f)

	for m, exec := n, n.exec; f.runid() == n.interp.runid(); {
		if dbg.exec(m, f) {
			break
		}

		exec = exec(f)
		if exec == nil {
			break
		}

		if m == nil {
			m = originalExecNode(n, exec)
			continue
		}

		switch {
		case isExecNode(m.tnext, exec):
			m = m.tnext
		case isExecNode(m.fnext, exec):
			m = m.fnext
		default:
			m = originalExecNode(m, exec)
		}
	}
}

func stripReceiverFromArgs(signature string) (string, error) {
	fields := receiverStripperRxp.FindStringSubmatch(signature)
	if len(fields) < 5 {
		return "", errors.New("error while matching method signature")
	}
	if fields[3] == ")" {
		return fmt.Sprintf("func()%s", fields[4]), nil
	}
	return fmt.Sprintf("func(%s", fields[4]), nil
}

func typeAssertShort(n *node) {
	typeAssert(n, true, false)
}

func typeAssertLong(n *node) {
	typeAssert(n, true, true)
}

func typeAssertStatus(n *node) {
	typeAssert(n, false, true)
}

func typeAssert(n *node, withResult, withOk bool) {
	c0, c1 := n.child[0], n.child[1]
	value := genValue(c0) // input value
	var value0, value1 func(*frame) reflect.Value
	setStatus := false
	switch {
	case withResult && withOk:
		value0 = genValue(n.anc.child[0])       // returned result
		value1 = genValue(n.anc.child[1])       // returned status
		setStatus = n.anc.child[1].ident != "_" // do not assign status to "_"
	case withResult && !withOk:
		value0 = genValue(n) // returned result
	case !withResult && withOk:
		value1 = genValue(n.anc.child[1])       // returned status
		setStatus = n.anc.child[1].ident != "_" // do not assign status to "_"
	}

	// toolscript patch 57: v, ok := x.(T) gives v T's zero value when
	// the assertion fails (upstream left v as it was: a loop kept the
	// previous iteration's value).
	clearFailed := withResult && withOk
	clearResult := func(f *frame, ok bool) {
		if v := value0(f); !ok && v.CanSet() {
			v.SetZero()
		}
	}

	typ := c1.typ // type to assert or convert to
	typID := typ.id()
	rtype := typ.refType(nil) // type to assert
	next := getExec(n.tnext)
	// toolscript patch 35: a failed assertion panics with Go's run-time
	// error, named as Go names its types.
	asserted := assertionTypeName(typ, rtype)
	inter := staticInterface(c0.typ)

	switch {
	case isAssertedIface(typ) && !isEmptyInterface(typ) && isInterface(c0.typ): // toolscript patch 38
		a := newIfaceAssertion(typ)
		n.exec = func(f *frame) bltn {
			res, ok, concrete, missing := a.assert(f, value(f))
			if !ok && concrete != "" {
				if err := a.standInError(n, value(f)); err != nil { // toolscript patch 178
					panic(err)
				}
			}
			if !ok && !withOk {
				if concrete == "" {
					panic(&TypeAssertionError{Asserted: asserted})
				}
				panic(&TypeAssertionError{Interface: inter, Concrete: concrete, Asserted: asserted, Missing: missing})
			}
			if setStatus {
				value1(f).SetBool(ok)
			}
			if withResult {
				if ok {
					value0(f).Set(res)
				} else if v := value0(f); v.CanSet() {
					v.SetZero()
				}
			}
			return next
		}
	case isInterfaceSrc(typ):
		n.exec = func(f *frame) bltn {
			valf := value(f)
			v, ok := valf.Interface().(valueInterface)
			if setStatus {
				defer func() {
					value1(f).SetBool(ok)
				}()
			}
			if clearFailed { // toolscript patch 57
				defer func() { clearResult(f, ok) }()
			}
			if !ok {
				if !withOk {
					// toolscript patch 35: a nil value, or a native one
					// (which has no method of the script's).
					e := &TypeAssertionError{Asserted: asserted}
					if vi := valf.Interface(); vi != nil {
						e.Concrete, e.Missing = reflect.TypeOf(vi).String(), missingMethod(nil, typ.methods())
					}
					panic(e)
				}
				return next
			}
			if c0.typ.cat == valueT {
				valf = reflect.ValueOf(v)
			}
			if v.node.typ.id() == typID {
				if withResult {
					value0(f).Set(valf)
				}
				return next
			}
			m0 := v.node.typ.methods()
			m1 := typ.methods()
			if len(m0) < len(m1) {
				ok = false
				if !withOk {
					panic(&TypeAssertionError{Concrete: v.node.typ.id(), Asserted: asserted, Missing: missingMethod(m0, m1)}) // toolscript patch 35
				}
				return next
			}

			for k, meth1 := range m1 {
				var meth0 string
				meth0, ok = m0[k]
				if !ok {
					return next
				}
				// As far as we know this equality check can fail because they are two ways to
				// represent the signature of a method: one where the receiver appears before the
				// func keyword, and one where it is just a func signature, and the receiver is
				// seen as the first argument. That's why if that equality fails, we try harder to
				// compare them afterwards. Hopefully that is the only reason this equality can fail.
				if meth0 == meth1 {
					continue
				}
				tm := lookupFieldOrMethod(v.node.typ, k)
				if tm == nil {
					ok = false
					return next
				}

				var err error
				meth0, err = stripReceiverFromArgs(meth0)
				if err != nil {
					ok = false
					return next
				}

				if meth0 != meth1 {
					ok = false
					return next
				}
			}

			if withResult {
				value0(f).Set(valf)
			}
			return next
		}
	case isInterface(typ):
		n.exec = func(f *frame) bltn {
			var leftType reflect.Type
			v := value(f)
			val, ok := v.Interface().(valueInterface)
			if setStatus {
				defer func() {
					value1(f).SetBool(ok)
				}()
			}
			if clearFailed { // toolscript patch 57
				defer func() { clearResult(f, ok) }()
			}
			if ok && val.node.typ.cat != valueT {
				m0 := val.node.typ.methods()
				m1 := typ.methods()
				if len(m0) < len(m1) {
					ok = false
					return next
				}

				for k, meth1 := range m1 {
					var meth0 string
					meth0, ok = m0[k]
					if !ok {
						return next
					}
					if meth0 != meth1 {
						ok = false
						return next
					}
				}

				if withResult {
					value0(f).Set(genInterfaceWrapper(val.node, rtype)(f))
				}
				ok = true
				return next
			}

			if ok {
				v = val.value
				leftType = val.node.typ.rtype
			} else {
				v = v.Elem()
				ok = true
			}
			ok = v.IsValid()
			if !ok {
				if !withOk {
					panic(&TypeAssertionError{Asserted: asserted}) // toolscript patch 35: "interface is nil", as Go
				}
				return next
			}
			if leftType == nil {
				leftType = v.Type() // toolscript patch 35: v.Elem() of a nil interface was invalid
			}
			ok = canAssertTypes(leftType, rtype)
			if !ok {
				if !withOk {
					method := firstMissingMethod(leftType, rtype)
					panic(&TypeAssertionError{Concrete: leftType.String(), Asserted: asserted, Missing: method}) // toolscript patch 35
				}
				return next
			}
			if withResult {
				value0(f).Set(v)
			}
			return next
		}
	case isEmptyInterface(n.child[0].typ) || !isInterface(typ) && emptyBinInterface(c0.typ): // toolscript patch 112: an any of a native function's
		concreteTyp := !isInterface(typ) // toolscript patch 217: decided once
		cache := new(assertCache)        // toolscript patch 217
		n.exec = func(f *frame) bltn {
			var ok bool
			if setStatus {
				defer func() {
					value1(f).SetBool(ok)
				}()
			}
			if clearFailed { // toolscript patch 57
				defer func() { clearResult(f, ok) }()
			}
			val := value(f)
			if concreteTyp { // toolscript patch 112: the held value's type, script types included (toolscript patch 217: concreteTyp)
				var res reflect.Value
				nod, held, hok := heldScriptValue(val)
				res, ok = heldIsCached(n.interp, nod, held, hok, typ, cache) // toolscript patch 217
				if ok {
					if withResult {
						value0(f).Set(res)
					}
					return next
				}
				if !withOk {
					e := &TypeAssertionError{Interface: "interface {}", Asserted: asserted}
					switch {
					case nod != nil:
						e.Concrete = assertionTypeName(nod, nil)
					case hok:
						e.Concrete = held.Type().String()
					}
					panic(e)
				}
				return next
			}
			concrete := val.Interface() // toolscript patch 217: after the branch above, which does not use it
			ctyp := reflect.TypeOf(concrete)

			if vv, ok := concrete.(valueInterface); ok {
				ctyp = vv.value.Type()
				concrete = vv.value.Interface()
			}
			ok = canAssertTypes(ctyp, rtype)
			if !ok {
				if !withOk {
					// TODO(mpl): think about whether this should ever happen.
					e := &TypeAssertionError{Interface: "interface {}", Asserted: asserted} // toolscript patch 35
					if ctyp != nil {
						e.Concrete = ctyp.String()
					}
					panic(e)
				}
				return next
			}
			if withResult {
				if isInterfaceSrc(typ) {
					// TODO(mpl): this requires more work. the wrapped node is not complete enough.
					value0(f).Set(reflect.ValueOf(valueInterface{n.child[0], reflect.ValueOf(concrete)}))
				} else {
					value0(f).Set(reflect.ValueOf(concrete))
				}
			}
			return next
		}
	case n.child[0].typ.cat == valueT || n.child[0].typ.cat == errorT:
		n.exec = func(f *frame) bltn {
			v := value(f).Elem()
			ok := v.IsValid()
			if setStatus {
				defer func() {
					value1(f).SetBool(ok)
				}()
			}
			if clearFailed { // toolscript patch 57
				defer func() { clearResult(f, ok) }()
			}
			if !ok {
				if !withOk {
					panic(&TypeAssertionError{Interface: inter, Asserted: asserted}) // toolscript patch 35
				}
				return next
			}
			v = valueInterfaceValue(v)
			if vt := v.Type(); vt.Kind() == reflect.Struct && vt.Field(0).Name == "IValue" {
				// Value is retrieved from an interface wrapper.
				v = v.Field(0).Elem()
			}
			ok = canAssertTypes(v.Type(), rtype)
			if !ok {
				if !withOk {
					// toolscript patch 35: with no method missing, T is not
					// an interface type ("error is *errors.errorString, not T").
					e := &TypeAssertionError{Interface: inter, Concrete: v.Type().String(), Asserted: asserted}
					if rtype.Kind() == reflect.Interface {
						e.Missing = firstMissingMethod(v.Type(), rtype)
					}
					panic(e)
				}
				return next
			}
			if withResult {
				value0(f).Set(v)
			}
			return next
		}
	default:
		n.exec = func(f *frame) bltn {
			v, ok := value(f).Interface().(valueInterface)
			if setStatus {
				defer func() {
					value1(f).SetBool(ok)
				}()
			}
			if clearFailed { // toolscript patch 57
				defer func() { clearResult(f, ok) }()
			}
			if !ok || !v.value.IsValid() {
				ok = false
				if !withOk {
					panic(&TypeAssertionError{Interface: inter, Asserted: asserted}) // toolscript patch 35
				}
				return next
			}

			ok = canAssertTypes(v.value.Type(), rtype)
			if !ok {
				if !withOk {
					panic(&TypeAssertionError{Interface: inter, Concrete: v.value.Type().String(), Asserted: asserted}) // toolscript patch 35
				}
				return next
			}
			if withResult {
				value0(f).Set(v.value)
			}
			return next
		}
	}
}

// wrappedScriptValue returns the script value that v, an interface value,
// holds in an interface wrapper (a script error returned as an error),
// so that a type switch case of its type matches (toolscript patch 64).
func wrappedScriptValue(v reflect.Value) (reflect.Value, bool) {
	if !v.IsValid() || v.Kind() != reflect.Interface || v.IsNil() {
		return reflect.Value{}, false
	}
	e := v.Elem()
	if e.Kind() != reflect.Struct || e.NumField() == 0 || e.Type().Field(0).Name != "IValue" {
		return reflect.Value{}, false
	}
	in := e.Field(0)
	if in.Kind() == reflect.Interface {
		in = in.Elem()
	}
	return in, in.IsValid()
}

func canAssertTypes(src, dest reflect.Type) bool {
	if dest == nil {
		return false
	}
	if src == dest {
		return true
	}
	if dest.Kind() == reflect.Interface && src.Implements(dest) {
		return true
	}
	if src == nil {
		return false
	}
	if src.AssignableTo(dest) {
		return true
	}
	return false
}

func firstMissingMethod(src, dest reflect.Type) string {
	for i := 0; i < dest.NumMethod(); i++ {
		m := dest.Method(i).Name
		if _, ok := src.MethodByName(m); !ok {
			return m
		}
	}
	return ""
}

func convert(n *node) {
	dest := genValue(n)
	c := n.child[1]
	typ := n.child[0].typ.frameType()
	next := getExec(n.tnext)

	if c.isNil() { // convert nil to type
		// TODO(mpl): Try to completely remove, as maybe frameType already does the job for interfaces.
		if isInterfaceSrc(n.child[0].typ) && !isEmptyInterface(n.child[0].typ) {
			typ = valueInterfaceType
		}
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.New(typ).Elem())
			return next
		}
		return
	}

	if isEmptyInterface(n.child[0].typ) && keepsMethods(c.typ) { // toolscript patch 38: any(T{}) keeps T's methods
		value := genValueInterface(c)
		n.exec = func(f *frame) bltn {
			dest(f).Set(value(f))
			return next
		}
		return
	}

	if t0 := n.child[0].typ; !isEmptyInterface(t0) && (isInterfaceBin(t0) || isInterfaceSrc(t0)) { // toolscript patch 125: the record or the wrapper of a copy
		var value func(*frame) reflect.Value
		if isInterfaceSrc(t0) {
			value = genValueInterface(c)
		} else {
			value = genInterfaceWrapper(c, typ)
		}
		n.exec = func(f *frame) bltn {
			dest(f).Set(value(f))
			return next
		}
		return
	}

	doConvert := true
	var value func(*frame) reflect.Value
	switch {
	case isFuncSrc(c.typ):
		value = genFunctionWrapper(c)
	default:
		value = genValue(c)
	}

	for _, con := range n.interp.hooks.convert {
		if c.typ.rtype == nil {
			continue
		}

		fn := con(c.typ.rtype, typ)
		if fn == nil {
			continue
		}
		n.exec = func(f *frame) bltn {
			fn(value(f), dest(f))
			return next
		}
		return
	}

	n.exec = func(f *frame) bltn {
		if doConvert {
			dest(f).Set(value(f).Convert(typ))
		} else {
			dest(f).Set(value(f))
		}
		return next
	}
}

// assignFromCall assigns values from a function call.
func assignFromCall(n *node) {
	ncall := n.lastChild()
	l := len(n.child) - 1
	if n.anc.kind == varDecl && n.child[l-1].isType(n.scope) {
		// Ignore the type in the assignment if it is part of a variable declaration.
		l--
	}
	dvalue := make([]func(*frame) reflect.Value, l)
	for i := range dvalue {
		if n.child[i].ident == "_" {
			continue
		}
		dvalue[i] = genValue(n.child[i])
	}
	next := getExec(n.tnext)
	n.exec = func(f *frame) bltn {
		for i, v := range dvalue {
			if v == nil {
				continue
			}
			s := f.data[ncall.findex+i]
			c := n.child[i]
			if n.kind == defineXStmt && !c.redeclared {
				// Recreate destination value in case of define statement,
				// to preserve previous value possibly in use by a closure.
				data := getFrame(f, c.level).data
				data[c.findex] = reflect.New(data[c.findex].Type()).Elem()
				data[c.findex].Set(s)
				continue
			}
			v(f).Set(s)
		}
		return next
	}
}

func assign(n *node) {
	next := getExec(n.tnext)
	dvalue := make([]func(*frame) reflect.Value, n.nleft)
	ivalue := make([]func(*frame) reflect.Value, n.nleft)
	svalue := make([]func(*frame) reflect.Value, n.nleft)
	var sbase int
	if n.nright > 0 {
		sbase = len(n.child) - n.nright
	}

	for i := 0; i < n.nleft; i++ {
		dest, src := n.child[i], n.child[sbase+i]
		if isNamedFuncSrc(src.typ) {
			svalue[i] = genFuncValue(src)
		} else {
			svalue[i] = genDestValue(dest.typ, src)
		}
		if isMapEntry(dest) {
			if key := genMapKey(dest.child[0].typ, dest.child[1]); key != nil { // toolscript patch 112
				ivalue[i] = key
			} else if isInterfaceSrc(dest.child[1].typ) { // key
				ivalue[i] = genValueInterface(dest.child[1])
			} else {
				ivalue[i] = genValue(dest.child[1])
			}
			dvalue[i] = genValue(dest.child[0])
		} else {
			dvalue[i] = genValue(dest)
		}
	}

	if n.nleft == 1 {
		// Single assign operation.
		switch s, d, i := svalue[0], dvalue[0], ivalue[0]; {
		case n.child[0].ident == "_":
			n.exec = func(f *frame) bltn {
				return next
			}
		case i != nil:
			n.exec = func(f *frame) bltn {
				d(f).SetMapIndex(i(f), s(f))
				return next
			}
		case n.kind == defineStmt:
			l := n.level
			ind := n.findex
			n.exec = func(f *frame) bltn {
				data := getFrame(f, l).data
				data[ind] = reflect.New(data[ind].Type()).Elem()
				data[ind].Set(s(f))
				return next
			}
		default:
			n.exec = func(f *frame) bltn {
				d(f).Set(s(f))
				return next
			}
		}
		return
	}

	// Multi assign operation.
	types := make([]reflect.Type, n.nright)
	index := make([]int, n.nright)
	level := make([]int, n.nright)

	for i := range types {
		var t reflect.Type
		switch typ := n.child[sbase+i].typ; {
		case isInterfaceSrc(typ):
			t = valueInterfaceType
		default:
			t = typ.TypeOf()
		}
		types[i] = t // nil for nil: toolscript patch 54
		index[i] = n.child[i].findex
		level[i] = n.child[i].level
	}
	// toolscript patch 98: a value given to a destination of a script
	// interface type is copied as the destination holds it, not as its
	// source's type (s, n = Square{5}, 7 and a swap of two any variables
	// holding values of script types panicked in reflect.Set).
	for i := range types {
		if d := n.child[i].typ; types[i] != nil && d != nil && (isInterfaceSrc(d) || isInterfaceBin(d)) { // toolscript patch 125: a native interface too
			types[i] = d.frameType()
		}
	}

	if n.kind == defineStmt {
		// Handle a multiple var declararation / assign. It cannot be a swap.
		n.exec = func(f *frame) bltn {
			for i, s := range svalue {
				if n.child[i].ident == "_" {
					continue
				}
				data := getFrame(f, level[i]).data
				j := index[i]
				data[j] = reflect.New(data[j].Type()).Elem()
				data[j].Set(s(f))
			}
			return next
		}
		return
	}

	// To handle possible swap in multi-assign:
	// evaluate and copy all values in assign right hand side into temporary
	// then evaluate assign left hand side and copy temporary into it
	n.exec = func(f *frame) bltn {
		t := make([]reflect.Value, 3*len(svalue))
		dv, kv := t[len(svalue):2*len(svalue)], t[2*len(svalue):]
		t = t[:len(svalue)]
		for i, s := range svalue {
			if n.child[i].ident == "_" || types[i] == nil {
				continue
			}
			t[i] = reflect.New(types[i]).Elem()
			t[i].Set(s(f))
		}
		// toolscript patch 54: every destination (its index, map key
		// and pointer operands) is evaluated before the first is
		// assigned, as Go specifies (i, a[i] = 1, 2 indexed a with the
		// new i).
		for i, d := range dvalue {
			if n.child[i].ident == "_" {
				continue
			}
			dv[i] = d(f)
			if j := ivalue[i]; j != nil {
				kv[i] = argNow(j(f)) // the key now, not its variable
			}
		}
		for i := range dvalue {
			if n.child[i].ident == "_" {
				continue
			}
			if types[i] == nil { // toolscript patch 54: nil, the zero value of the destination
				if ivalue[i] != nil {
					t[i] = reflect.Zero(dv[i].Type().Elem())
				} else {
					t[i] = reflect.Zero(dv[i].Type())
				}
			}
			if ivalue[i] != nil {
				dv[i].SetMapIndex(kv[i], t[i]) // Assign a map entry
			} else {
				dv[i].Set(t[i]) // Assign a var or array/slice entry
			}
		}
		return next
	}
}

func not(n *node) {
	dest := genValue(n)
	value := genValue(n.child[0])
	tnext := getExec(n.tnext)

	if n.fnext != nil {
		fnext := getExec(n.fnext)
		n.exec = func(f *frame) bltn {
			if !value(f).Bool() {
				dest(f).SetBool(true)
				return tnext
			}
			dest(f).SetBool(false)
			return fnext
		}
	} else {
		n.exec = func(f *frame) bltn {
			dest(f).SetBool(!value(f).Bool())
			return tnext
		}
	}
}

func addr(n *node) {
	dest := genValue(n)
	next := getExec(n.tnext)
	c0 := n.child[0]
	value := genValue(c0)

	if isInterfaceSrc(c0.typ) || isPtrSrc(c0.typ) {
		i := n.findex
		l := n.level
		n.exec = func(f *frame) bltn {
			getFrame(f, l).data[i] = value(f).Addr()
			return next
		}
		return
	}

	n.exec = func(f *frame) bltn {
		dest(f).Set(value(f).Addr())
		return next
	}
}

func deref(n *node) {
	value := genValue(n.child[0])
	tnext := getExec(n.tnext)
	i := n.findex
	l := n.level

	if n.fnext != nil {
		fnext := getExec(n.fnext)
		n.exec = func(f *frame) bltn {
			r := value(f).Elem()
			if !r.IsValid() { // toolscript patch 55
				panic(&RuntimeError{Kind: KindNilDereference})
			}
			if r.Bool() {
				getFrame(f, l).data[i] = r
				return tnext
			}
			return fnext
		}
	} else {
		n.exec = func(f *frame) bltn {
			r := value(f).Elem()
			if !r.IsValid() {
				// toolscript patch 55: *p of a nil pointer is Go's nil
				// dereference (the zero reflect.Value made the next
				// use panic inside reflect, or read as a zero value).
				panic(&RuntimeError{Kind: KindNilDereference})
			}
			getFrame(f, l).data[i] = r
			return tnext
		}
	}
}

func _print(n *node) {
	child := n.child[1:]
	values := make([]func(*frame) reflect.Value, len(child))
	for i, c := range child {
		values[i] = genValue(c)
	}
	out := n.interp.stdout
	check := n.interp.opt.printCheck // toolscript patch 32

	genBuiltinDeferWrapper(n, values, nil, func(args []reflect.Value) []reflect.Value {
		if check != nil { // toolscript patch 32
			check(args)
		}
		for i, value := range args {
			if i > 0 {
				fmt.Fprintf(out, " ")
			}
			fmt.Fprintf(out, "%v", value)
		}
		return nil
	})
}

func _println(n *node) {
	child := n.child[1:]
	values := make([]func(*frame) reflect.Value, len(child))
	for i, c := range child {
		values[i] = genValue(c)
	}
	out := n.interp.stdout
	check := n.interp.opt.printCheck // toolscript patch 32

	genBuiltinDeferWrapper(n, values, nil, func(args []reflect.Value) []reflect.Value {
		if check != nil { // toolscript patch 32
			check(args)
		}
		for i, value := range args {
			if i > 0 {
				fmt.Fprintf(out, " ")
			}
			fmt.Fprintf(out, "%v", value)
		}
		fmt.Fprintln(out, "")
		return nil
	})
}

func _recover(n *node) {
	tnext := getExec(n.tnext)
	dest := genValue(n)

	n.exec = func(f *frame) bltn {
		// toolscript patch 52: a closure's frame is a clone of the
		// frame that made it; the panic is its origin's.
		rf := f.anc
		if rf.origin != nil {
			rf = rf.origin
		}
		if rf.recovered == nil {
			// TODO(mpl): maybe we don't need that special case, and we're just forgetting to unwrap the valueInterface somewhere else.
			if isEmptyInterface(n.typ) {
				return tnext
			}
			dest(f).Set(reflect.ValueOf(valueInterface{}))
			return tnext
		}

		// toolscript patch 58: the value the script passed to panic, not
		// the reflect.Value the interpreter panics with (a type
		// assertion or a type switch on recover()'s value never matched,
		// and %T printed reflect.Value).
		rec := recoveredValue(rf.recovered)
		if isEmptyInterface(n.typ) {
			dest(f).Set(reflect.ValueOf(&rec).Elem())
		} else {
			dest(f).Set(reflect.ValueOf(valueInterface{n, reflect.ValueOf(rec)}))
		}
		rf.recovered = nil
		return tnext
	}
}

// recoveredValue returns the value a script's panic was called with,
// from the reflect.Value the interpreter panicked with; another panic
// value (a run-time error, a native function's) is returned as it is
// (toolscript patch 58).
func recoveredValue(r interface{}) interface{} {
	rv, ok := r.(reflect.Value)
	if !ok {
		return r
	}
	for rv.IsValid() && rv.Kind() == reflect.Interface {
		rv = rv.Elem()
	}
	if !rv.IsValid() || !rv.CanInterface() {
		return nil
	}
	return rv.Interface()
}

// errPanicNil is what panic(nil) panics with, as in Go 1.21 and later.
var errPanicNil = reflect.ValueOf(&runtime.PanicNilError{})

func _panic(n *node) {
	value := genValue(n.child[1])
	if keepsMethods(n.child[1].typ) { // toolscript patch 112: recover() gives the value with its type
		value = genValueInterface(n.child[1])
	}

	n.exec = func(f *frame) bltn {
		v := value(f)
		// toolscript patch 59: panic with a nil interface value panics
		// with a *runtime.PanicNilError, as Go does since 1.21 (the
		// script recovered nil, and an unrecovered one read "panic:
		// <nil>").
		if isNilPanic(v) {
			panic(errPanicNil)
		}
		panic(v)
	}
}

// isNilPanic tells whether v, the argument of panic, is a nil interface
// value (toolscript patch 59).
func isNilPanic(v reflect.Value) bool {
	for v.IsValid() && v.Kind() == reflect.Interface {
		if v.IsNil() {
			return true
		}
		v = v.Elem()
	}
	if !v.IsValid() {
		return true
	}
	if vi, ok := v.Interface().(valueInterface); ok {
		return vi.node == nil || !vi.value.IsValid() || isNilPanic(vi.value)
	}
	return false
}

func genBuiltinDeferWrapper(n *node, in, out []func(*frame) reflect.Value, fn func([]reflect.Value) []reflect.Value) {
	next := getExec(n.tnext)

	if n.anc.kind == deferStmt {
		n.exec = func(f *frame) bltn {
			val := make([]reflect.Value, len(in)+1)
			inTypes := make([]reflect.Type, len(in))
			for i, v := range in {
				val[i+1] = argNow(v(f)) // toolscript patch 18
				inTypes[i] = val[i+1].Type()
			}
			outTypes := make([]reflect.Type, len(out))
			for i, v := range out {
				outTypes[i] = v(f).Type()
			}

			funcType := reflect.FuncOf(inTypes, outTypes, false)
			val[0] = reflect.MakeFunc(funcType, fn)
			f.deferred = append([][]reflect.Value{val}, f.deferred...)
			return next
		}
		return
	}

	n.exec = func(f *frame) bltn {
		val := make([]reflect.Value, len(in))
		for i, v := range in {
			val[i] = v(f)
		}

		dests := fn(val)

		for i, dest := range dests {
			out[i](f).Set(dest)
		}
		return next
	}
}

func genFunctionWrapper(n *node) func(*frame) reflect.Value {
	var def *node
	var ok bool

	if def, ok = n.val.(*node); !ok {
		return genValueAsFunctionWrapper(n)
	}
	start := def.child[3].start
	numRet := len(def.typ.ret)
	var rcvr func(*frame) reflect.Value

	if n.recv != nil {
		rcvr = genValueRecv(n)
	}
	mexpr, mindex := methodExpr(n) // toolscript patch 93
	funcType := n.typ.TypeOf()

	value := genValue(n)
	var isDefer bool
	if n.anc != nil && n.anc.anc != nil && n.anc.anc.kind == deferStmt {
		isDefer = true
	}

	// toolscript patch 52: a deferred function literal sees the
	// variables of the defer statement's time, as a closure value does
	// (it ran in the frame as it was at return: a deferred closure in a
	// loop saw the loop variable of the last iteration).
	deferLit := isDefer && n.kind == funcLit

	atCall := n.recv != nil && n.recvAtCall // toolscript patch 116

	return func(f *frame) reflect.Value {
		v := value(f)
		if !isDefer && v.Kind() == reflect.Func {
			// fixes #1634, if v is already a func, then don't re-wrap
			// because original wrapping cloned the frame but this doesn't
			return v
		}

		// toolscript patch 56: the receiver is evaluated, and a value
		// receiver copied, when the method value is (upstream read the
		// receiver's variable at each call: f := acc.m; acc = other; f()
		// called other's method, and a go x.m() raced with a later
		// assignment of x).
		var bound reflect.Value
		if rcvr != nil && !atCall {
			bound = boundReceiver(rcvr(f), def.types[numRet])
		}
		var src reflect.Value
		if rcvr != nil && atCall { // toolscript patch 116: an interface's method reads its receiver at each call
			src = rcvr(f)
		}

		af := f
		if deferLit { // toolscript patch 52
			af = f.clone()
		}
		return reflect.MakeFunc(funcType, func(in []reflect.Value) []reflect.Value {
			// Allocate and init local frame. All values to be settable and addressable.
			fr := newFrame(af, len(def.types), def.interp.callID(af)) // toolscript patch 47
			d := fr.data
			for i, t := range def.types {
				d[i] = reflect.New(t).Elem()
			}

			if mexpr != nil {
				// toolscript patch 93: a method expression's first
				// argument is the receiver.
				d[numRet].Set(methodExprRecv(in[0], mindex, d[numRet].Type()))
				d, in = d[numRet+1:], in[1:]
			} else if rcvr == nil {
				d = d[numRet:]
			} else {
				// Copy method receiver as first argument.
				if atCall { // toolscript patch 116
					d[numRet].Set(boundReceiver(src, def.types[numRet]))
				} else {
					d[numRet].Set(bound) // toolscript patch 56
				}
				d = d[numRet+1:]
			}

			// Copy function input arguments in local frame.
			for i, arg := range in {
				if i >= len(d) {
					// In case of unused arg, there may be not even a frame entry allocated, just skip.
					break
				}
				typ := def.typ.arg[i]
				switch {
				case isEmptyInterface(typ) || typ.TypeOf() == valueInterfaceType:
					d[i].Set(arg)
				case isInterfaceSrc(typ):
					d[i].Set(reflect.ValueOf(valueInterface{value: arg.Elem()}))
				default:
					d[i].Set(arg)
				}
			}

			// Interpreter code execution.
			runCallback(start, fr, def, n) // toolscript patch 23: counted by Running
			// toolscript patch 30: a stopped function fails its caller
			// (native code, often) instead of returning zero values.
			start.interp.failIfStopped(fr, fr.data[:numRet])

			return fr.data[:numRet]
		})
	}
}

// boundReceiver returns the receiver a method value binds, evaluated now
// as Go evaluates it: src with its valueInterface wrappers removed, its
// address for a pointer receiver of an addressable value, a copy of the
// value for a value receiver (dereferencing a pointer, which must not be
// nil) (toolscript patch 56).
func boundReceiver(src reflect.Value, dest reflect.Type) reflect.Value {
	for {
		// toolscript patch 189: only a record or an interface is looked
		// into; src.Interface() of a struct copied it, a read of every
		// field (an atomic.Value's, while another goroutine stores it).
		held := src
		if src.Kind() == reflect.Interface && !src.IsNil() {
			held = src.Elem()
		}
		if held.Type() != valueInterfaceType {
			break
		}
		src = held.Interface().(valueInterface).value
	}
	sk, dk := src.Kind(), dest.Kind()
	switch {
	case sk == reflect.Ptr && dk != reflect.Ptr:
		if src.IsNil() {
			panic(&RuntimeError{Kind: KindNilDereference})
		}
		src = src.Elem()
	case sk != reflect.Ptr && dk == reflect.Ptr:
		return src.Addr()
	}
	return argNow(src)
}

func genInterfaceWrapper(n *node, typ reflect.Type) func(*frame) reflect.Value {
	value := genValue(n)
	// toolscript patch 38: the conversion of a value of n's type, also
	// for a value an assertion finds at run time.
	wrapOf := interfaceWrapperOf(n, typ)
	if wrapOf == nil {
		return value
	}
	return func(f *frame) reflect.Value { return wrapOf(f, value(f)) }
}

// interfaceWrapperOf returns the conversion of a value of n's type to the
// interface type typ, nil where there is none (toolscript patch 38).
func interfaceWrapperOf(n *node, typ reflect.Type) func(*frame, reflect.Value) reflect.Value {
	if typ == nil || typ.Kind() != reflect.Interface || typ.NumMethod() == 0 || n.typ.cat == valueT {
		return nil
	}
	tc := n.typ.cat
	if tc != structT {
		// Always force wrapper generation for struct types, as they may contain
		// embedded interface fields which require wrapping, even if reported as
		// implementing typ by reflect.
		if nt := n.typ.frameType(); nt != nil && nt.Implements(typ) {
			return nil // toolscript patch 38
		}
	}

	// Retrieve methods from the interface wrapper, which is a struct where all fields
	// except the first define the methods to implement.
	// As the field name was generated with a prefixed first character (in order to avoid
	// collisions with method names), this first character is ignored in comparisons.
	wrap := getWrapper(n, typ)
	mn := wrapperMethods(wrap) // toolscript patch 39: not its node field
	// toolscript patch 39: a nil pointer of a script type is wrapped.
	scriptPtr := n.typ.cat == ptrT && !isBin(n.typ)
	names := make([]string, mn)
	methods := make([]*node, mn)
	indexes := make([][]int, mn)
	embeds := make([][]int, mn) // toolscript patch 176: the embedded interface a method is promoted from
	for i := 0; i < mn; i++ {
		names[i] = wrap.Field(i + 1).Name[1:]
		methods[i], indexes[i] = n.typ.lookupMethod(names[i])
		if methods[i] == nil && n.typ.cat != nilT {
			// interpreted method not found, look for binary method, possibly embedded
			_, indexes[i], _, _ = n.typ.lookupBinMethod(names[i])
			embeds[i] = embeddedIfaceWith(n.typ, names[i], 0) // toolscript patch 176
		}
	}

	// toolscript patch 213: nil unless n's type is a script interface.
	held := heldIfaceWrapperOf(n, typ)

	return func(f *frame, v reflect.Value) reflect.Value { // toolscript patch 38
		if held != nil { // toolscript patch 213: the value held, converted as a value of its type
			if r, ok := held(f, v); ok {
				return r
			}
		}
		if tc != structT && v.Type().Implements(typ) {
			return v
		}
		switch v.Kind() {
		case reflect.Chan, reflect.Func, reflect.Interface, reflect.Map, reflect.Ptr, reflect.Slice:
			if v.IsNil() && !(v.Kind() == reflect.Ptr && scriptPtr) { // toolscript patch 39
				return reflect.New(typ).Elem()
			}
		}
		nilPtr := v.Kind() == reflect.Ptr && v.IsNil() // toolscript patch 39: a nil *T in an interface is not nil
		var n2 *node
		if vi, ok := v.Interface().(valueInterface); ok {
			n2 = vi.node
		}
		v = getConcreteValue(v)
		if v.CanAddr() { // toolscript patch 125: the wrapper holds a copy of the value converted, not the variable
			c := reflect.New(v.Type()).Elem()
			c.Set(v)
			v = c
		}
		w := reflect.New(wrap).Elem()
		w.Field(0).Set(v)
		setWrapperNode(w, wrapperScriptNode(n, n2)) // toolscript patch 152: the held value's type, for patch 39's node
		for i, m := range methods {
			if nilPtr && (m == nil || m.typ.recv == nil || m.typ.recv.cat != ptrT || len(indexes[i]) > 0) { // toolscript patch 39
				continue // a value method through a nil pointer: calling it panics, as in Go
			}
			if m == nil {
				// First direct method lookup on field.
				if r := methodByName(v, names[i], indexes[i]); r.IsValid() {
					w.Field(i + 1).Set(r)
					continue
				}
				if r := embeddedIfaceMethodFunc(f, n, v, embeds[i], names[i], w.Field(i+1).Type()); r.IsValid() { // toolscript patch 176
					w.Field(i + 1).Set(r)
					continue
				}
				if n2 == nil {
					panic(n.cfgErrorf("method not found: %s", names[i]))
				}
				// Method lookup in embedded valueInterface.
				m2, i2 := n2.typ.lookupMethod(names[i])
				if m2 != nil {
					nod := *m2
					nod.recv = &receiver{val: v, index: i2} // toolscript patch 38: the value converted, not n's
					nod.recvAtCall = true                   // toolscript patch 116
					w.Field(i + 1).Set(genFunctionWrapper(&nod)(f))
					continue
				}
				panic(n.cfgErrorf("method not found: %s", names[i]))
			}
			nod := *m
			nod.recv = &receiver{val: v, index: indexes[i]} // toolscript patch 38: the value converted, not n's
			nod.recvAtCall = true                           // toolscript patch 116
			w.Field(i + 1).Set(genFunctionWrapper(&nod)(f))
		}
		return w
	}
}

// methodByName returns the method corresponding to name on value, or nil if not found.
// The search is extended on valueInterface wrapper if present.
// If valid, the returned value is a method function with the receiver already set
// (no need to pass it at call).
func methodByName(value reflect.Value, name string, index []int) (v reflect.Value) {
	if vi, ok := value.Interface().(valueInterface); ok {
		if v = getConcreteValue(vi.value).MethodByName(name); v.IsValid() {
			return
		}
	}
	if v = value.MethodByName(name); v.IsValid() {
		return
	}
	// toolscript patch 131: through the embedded field at index of a
	// struct value too, not only of a pointer to one (reflect promotes
	// no method of a field it does not mark anonymous: a struct
	// embedding sort.Interface beside another field, given to sort.Sort,
	// had no Len).
	if len(index) > 0 {
		fv := value
		for fv.Kind() == reflect.Ptr && !fv.IsNil() {
			fv = fv.Elem()
		}
		if fv.Kind() == reflect.Struct && checkFieldIndex(fv.Type(), index) {
			if fv, err := fv.FieldByIndexErr(index); err == nil && !nilIfaceField(fv) { // toolscript patch 176: a nil one's method is read at call
				if v = fv.MethodByName(name); v.IsValid() {
					return
				}
				// toolscript patch 197: a pointer method of a field embedded
				// by value, reached through a pointer (strings.Builder's
				// WriteString for an io.StringWriter).
				if fv.CanAddr() {
					if v = fv.Addr().MethodByName(name); v.IsValid() {
						return
					}
				}
			}
		}
	}
	for value.Kind() == reflect.Ptr {
		value = value.Elem()
		if checkFieldIndex(value.Type(), index) {
			value = value.FieldByIndex(index)
		}
		if nilIfaceField(value) { // toolscript patch 176
			return
		}
		if v = value.MethodByName(name); v.IsValid() {
			return
		}
	}
	return
}

func checkFieldIndex(typ reflect.Type, index []int) bool {
	if len(index) == 0 {
		return false
	}
	t := typ
	for t.Kind() == reflect.Ptr {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return false
	}
	i := index[0]
	if i >= t.NumField() {
		return false
	}
	if len(index) > 1 {
		return checkFieldIndex(t.Field(i).Type, index[1:])
	}
	return true
}

func call(n *node) {
	goroutine := n.anc.kind == goStmt
	c0 := n.child[0]
	value := genValue(c0)
	var values []func(*frame) reflect.Value

	numRet := len(c0.typ.ret)
	variadic := variadicPos(n)
	child := n.child[1:]
	tnext := getExec(n.tnext)
	fnext := getExec(n.fnext)
	hasVariadicArgs := n.action == aCallSlice // callSlice implies variadic call with ellipsis.

	// Compute input argument value functions.
	for i, c := range child {
		var arg *itype
		if variadic >= 0 && i >= variadic {
			arg = c0.typ.arg[variadic].val
		} else {
			arg = c0.typ.arg[i]
		}
		switch {
		case isBinCall(c, c.scope):
			// Handle nested function calls: pass returned values as arguments.
			numOut := c.child[0].typ.rtype.NumOut()
			for j := 0; j < numOut; j++ {
				ind := c.findex + j
				if hasVariadicArgs || !isInterfaceSrc(arg) || isEmptyInterface(arg) {
					values = append(values, func(f *frame) reflect.Value { return f.data[ind] })
					continue
				}
				values = append(values, func(f *frame) reflect.Value {
					return reflect.ValueOf(valueInterface{value: f.data[ind]})
				})
			}
		case isRegularCall(c):
			// Arguments are return values of a nested function call.
			cc0 := c.child[0]
			for j := range cc0.typ.ret {
				ind := c.findex + j
				if hasVariadicArgs || !isInterfaceSrc(arg) || isEmptyInterface(arg) {
					values = append(values, func(f *frame) reflect.Value { return f.data[ind] })
					continue
				}
				values = append(values, func(f *frame) reflect.Value {
					return reflect.ValueOf(valueInterface{node: cc0.typ.ret[j].node, value: f.data[ind]})
				})
			}
		default:
			if c.kind == basicLit || c.rval.IsValid() {
				argType := arg.TypeOf()
				if hasVariadicArgs && i == len(child)-1 && variadic >= 0 {
					// toolscript patch 160: f(nil...) spreads a nil slice
					// of the parameter's type (it passed one zero element).
					argType = c0.typ.arg[variadic].TypeOf()
				}
				convertLiteralValue(c, argType)
			}
			switch {
			case hasVariadicArgs:
				values = append(values, genValue(c))
			case isInterfaceSrc(arg) && (!isEmptyInterface(arg) || keepsMethods(c.typ)): // toolscript patch 38
				values = append(values, genValueInterface(c))
			case isInterfaceBin(arg):
				values = append(values, genInterfaceWrapper(c, arg.rtype))
			case isFuncSrc(arg):
				values = append(values, genFuncValue(c))
			default:
				values = append(values, genValue(c))
			}
		}
	}

	// Compute output argument value functions.
	rtypes := c0.typ.ret
	rvalues := make([]func(*frame) reflect.Value, len(rtypes))
	switch n.anc.kind {
	case defineXStmt, assignXStmt:
		l := n.level
		for i := range rvalues {
			c := n.anc.child[i]
			switch {
			case c.ident == "_":
				// Skip assigning return value to blank var.
			case isInterfaceSrc(c.typ) && !isEmptyInterface(c.typ) && !isInterfaceSrc(rtypes[i]):
				rvalues[i] = genValueInterfaceValue(c)
			default:
				j := n.findex + i
				rvalues[i] = func(f *frame) reflect.Value { return getFrame(f, l).data[j] }
			}
		}
	case returnStmt:
		// Function call from a return statement: forward return values (always at frame start).
		for i := range rtypes {
			j := n.findex + i
			// Set the return value location in return value of caller frame.
			rvalues[i] = func(f *frame) reflect.Value { return f.data[j] }
		}
	default:
		// Multiple return values frame index are indexed from the node frame index.
		l := n.level
		for i := range rtypes {
			j := n.findex + i
			rvalues[i] = func(f *frame) reflect.Value { return getFrame(f, l).data[j] }
		}
	}

	if n.anc.kind == deferStmt {
		// Store function call in frame for deferred execution.
		value = genFunctionWrapper(c0)
		n.exec = func(f *frame) bltn {
			val := make([]reflect.Value, len(values)+1)
			val[0] = value(f)
			if hasVariadicArgs {
				val[0] = spreadFunc(val[0]) // toolscript patch 160
			}
			for i, v := range values {
				val[i+1] = argNow(v(f)) // toolscript patch 18
			}
			f.deferred = append([][]reflect.Value{val}, f.deferred...)
			return tnext
		}
		return
	}

	if m, index := methodExpr(c0); m != nil && len(values) > 0 {
		// toolscript patch 93: the first argument of a method
		// expression called directly is the receiver.
		arg0, retn := values[0], len(m.typ.ret)
		values[0] = func(f *frame) reflect.Value {
			return methodExprRecv(arg0(f), index, m.types[retn])
		}
	}

	n.exec = func(f *frame) bltn {
		f.mutex.Lock()
		bf := value(f)
		def, ok := bf.Interface().(*node)
		if ok {
			bf = def.rval
		}
		f.mutex.Unlock()

		// Call bin func if defined
		if bf.IsValid() {
			var callf func([]reflect.Value) []reflect.Value

			// Lambda definitions are necessary here. Due to reflect internals,
			// having `callf = bf.Call` or `callf = bf.CallSlice` does not work.
			//nolint:gocritic
			if hasVariadicArgs {
				callf = func(in []reflect.Value) []reflect.Value { return bf.CallSlice(in) }
			} else {
				callf = func(in []reflect.Value) []reflect.Value { return callNilVariadic(bf, in) } // toolscript patch 160
			}

			if goroutine {
				// Goroutine's arguments should be copied.
				in := make([]reflect.Value, len(values))
				for i, v := range values {
					value := v(f)
					in[i] = reflect.New(value.Type()).Elem()
					in[i].Set(value)
				}

				if bf.Kind() == reflect.Func && bf.IsNil() {
					// toolscript patch 15: as in Go, a go statement of a nil
					// function panics where it runs; upstream panicked in
					// the new goroutine, where nothing recovers, and the
					// whole process died.
					panic(errors.New("go of nil func value"))
				}
				n.interp.goStart()                                     // toolscript patch 47
				go n.interp.goroutine(f.runid(), func() { callf(in) }) // toolscript patch 30
				return tnext
			}

			in := make([]reflect.Value, len(values))
			for i, v := range values {
				in[i] = v(f)
			}
			out := callf(in)
			for i, v := range rvalues {
				if v != nil {
					v(f).Set(out[i])
				}
			}
			if fnext != nil && !out[0].Bool() {
				return fnext
			}
			return tnext
		}

		nf := newFrame(f, len(def.types), f.runid())
		var vararg reflect.Value

		// Init return values
		for i, v := range rvalues {
			if v != nil {
				nf.data[i] = v(f)
			} else {
				nf.data[i] = reflect.New(def.types[i]).Elem()
			}
		}

		// Init local frame values
		for i, t := range def.types[numRet:] {
			nf.data[numRet+i] = reflect.New(t).Elem()
		}

		// Init variadic argument vector
		if variadic >= 0 {
			vararg = nf.data[numRet+variadic]
		}

		// Copy input parameters from caller
		if dest := nf.data[numRet:]; len(dest) > 0 {
			for i, v := range values {
				switch {
				case variadic >= 0 && i >= variadic:
					// toolscript patch 138: only f(s...) passes a slice as
					// the variadic parameter; f(s) with s a []any is a
					// one-element slice (it was spread).
					if hasVariadicArgs && v(f).Type() == vararg.Type() {
						vararg.Set(v(f))
					} else {
						vararg.Set(reflect.Append(vararg, v(f)))
					}
				default:
					val := v(f)
					if val.IsZero() && dest[i].Kind() != reflect.Interface && val.Type() != dest[i].Type() { // toolscript patch 82
						// Work around a recursive struct zero interface issue.
						// Once there is a better way to handle this case, the dest can just be set.
						continue
					}
					if nod, ok := val.Interface().(*node); ok && nod.recv != nil {
						// An interpreted method is passed as value in a function call.
						// It must be wrapped now, otherwise the receiver will be missing
						// at the method call (#1332).
						// TODO (marc): wrapping interpreted functions should be always done
						// everywhere at runtime to simplify the whole code,
						// but it requires deeper refactoring.
						dest[i] = genFunctionWrapper(nod)(f)
						continue
					}
					dest[i].Set(val)
				}
			}
		}

		// toolscript patch 79: the results live in the caller's slots,
		// which hold what the previous call from this site returned: a
		// named result starts at its zero value, and a function that
		// recovers from a panic returns zero values, as in Go. Zeroed after
		// the arguments are copied, which may read those slots.
		for i, v := range rvalues {
			if v != nil {
				nf.data[i].SetZero()
			}
		}

		// Execute function body
		if goroutine {
			n.interp.goStart()                                                                   // toolscript patch 47
			go n.interp.goroutine(nf.runid(), func() { runCfg(def.child[3].start, nf, def, n) }) // toolscript patch 30
			return tnext
		}
		runCfg(def.child[3].start, nf, def, n)

		// Set return values
		for i, v := range rvalues {
			if v != nil {
				v(f).Set(nf.data[i])
			}
		}

		// Handle branching according to boolean result
		if fnext != nil && !nf.data[0].Bool() {
			return fnext
		}
		return tnext
	}
}

func getFrame(f *frame, l int) *frame {
	switch l {
	case globalFrame:
		return f.root
	case 0:
		return f
	case 1:
		return f.anc
	case 2:
		return f.anc.anc
	}
	for ; l > 0; l-- {
		f = f.anc
	}
	return f
}

// Callbin calls a function from a bin import, accessible through reflect.
// kwargsFuncType is the type of toolscript's tool functions (toolscript
// patch 5).
var kwargsFuncType = reflect.TypeOf((func(map[string]any) (any, error))(nil))

// ownedCall returns the function Options.OwnedCall gives for the tool
// call n, or nil: n must call a symbol of a native package with a
// composite literal as its only argument (toolscript patch 34).
func ownedCall(n *node) func(map[string]any) (any, error) {
	hook := n.interp.opt.ownedCall
	if hook == nil || len(n.child) != 2 || n.child[1].kind != compositeLitExpr {
		return nil
	}
	path, name, ok := binSymbol(n)
	if !ok {
		return nil
	}
	return hook(path, name)
}

// binSymbol returns the import path and name of the symbol of a native
// package that the call n calls (pkg.Name); ok is false for any other
// callee (toolscript patch 34).
func binSymbol(n *node) (path, name string, ok bool) {
	c0 := n.child[0]
	if c0.kind != selectorExpr || len(c0.child) != 2 {
		return "", "", false
	}
	pkg := c0.child[0]
	if pkg.sym == nil || pkg.sym.typ == nil || pkg.sym.typ.cat != binPkgT {
		return "", "", false
	}
	return pkg.sym.typ.path, c0.child[1].ident, true
}

// directCall returns the function Options.DirectCall gives for the call
// n, or nil: n must call a symbol of a native package
// (toolscript patch 51).
func directCall(n *node) func([]reflect.Value) []reflect.Value {
	hook := n.interp.opt.directCall
	if hook == nil {
		return nil
	}
	path, name, ok := binSymbol(n)
	if !ok {
		return nil
	}
	return hook(path, name)
}

func callBin(n *node) {
	tnext := getExec(n.tnext)
	fnext := getExec(n.fnext)
	child := n.child[1:]
	c0 := n.child[0]
	value := genValue(c0)
	var values []func(*frame) reflect.Value
	funcType := c0.typ.rtype
	wt := wrappedType(c0)
	variadic := -1
	if funcType.IsVariadic() {
		variadic = funcType.NumIn() - 1
	}
	// A method signature obtained from reflect.Type includes receiver as 1st arg, except for interface types.
	rcvrOffset := 0
	if recv := c0.recv; recv != nil && !isInterface(recv.node.typ) {
		if variadic > 0 || funcType.NumIn() > len(child) {
			rcvrOffset = 1
		}
	}

	// getMapType returns a reflect type suitable for interface wrapper for functions
	// with some special processing in case of interface{} argument, i.e. fmt.Printf.
	var getMapType func(*itype) reflect.Type
	if lr := n.interp.mapTypesOf(c0.rval); lr != nil { // toolscript patch 7
		getMapType = func(typ *itype) reflect.Type {
			for _, rt := range lr {
				if typ.implements(&itype{cat: valueT, rtype: rt}) && !outOfMethodSet(typ, rt) { // toolscript patch 126: a pointer method is not a value's
					if !n.interp.hasWrapper(rt) {
						continue // toolscript patch 166: encoding.TextMarshaler (json.Marshal's mirror calls it)
					}
					return rt
				}
			}
			return nil
		}
	}

	// Determine if we should use `Call` or `CallSlice` on the function Value.
	callFn := func(v reflect.Value, in []reflect.Value) []reflect.Value { return v.Call(in) }
	var owned func(map[string]any) (any, error) // toolscript patch 34
	if n.action == aCallSlice {
		callFn = func(v reflect.Value, in []reflect.Value) []reflect.Value { return v.CallSlice(in) }
	} else if funcType == kwargsFuncType {
		// toolscript patch 34: a tool whose argument is a map literal
		// written in the call may get it as its own.
		owned = ownedCall(n)
		// toolscript patch 5: call host tools (func(map[string]any) (any,
		// error)) directly rather than through reflect.Value.Call.
		callFn = func(v reflect.Value, in []reflect.Value) []reflect.Value {
			fn, ok := owned, owned != nil // toolscript patch 34
			if !ok {
				fn, ok = v.Interface().(func(map[string]any) (any, error))
			}
			if !ok || fn == nil || in[0].Kind() != reflect.Map {
				return v.Call(in)
			}
			m, _ := in[0].Interface().(map[string]any)
			r := new(struct {
				out [2]reflect.Value
				v   any
				err error
			})
			r.v, r.err = fn(m)
			r.out[0] = reflect.ValueOf(&r.v).Elem()
			r.out[1] = reflect.ValueOf(&r.err).Elem()
			return r.out[:]
		}
	} else if direct := directCall(n); direct != nil { // toolscript patch 51
		// The host's implementation of the symbol, called with the
		// argument values, without reflect.Value.Call.
		callFn = func(_ reflect.Value, in []reflect.Value) []reflect.Value { return direct(in) }
	}

	if fix := jsonErrorFix(n); fix != nil { // toolscript patch 132
		call := callFn
		callFn = func(v reflect.Value, in []reflect.Value) []reflect.Value {
			out := call(v, in)
			fix(out)
			return out
		}
	}
	if fmtArgsStart(n) >= 1 && n.child[0].child[1].ident == "Errorf" { // toolscript patch 156: %w of a value that is no error
		callFn = errorfMarksFixed(n, callFn)
	}
	if fix := jsonMarshalErrorFix(n); fix != nil { // toolscript patch 152
		call := callFn
		callFn = func(v reflect.Value, in []reflect.Value) []reflect.Value {
			out := call(v, in)
			fix(out)
			return out
		}
	}
	if slots := jsonSlotsCall(n, callFn); slots != nil { // toolscript patch 173: json decodes into the pointers held in interfaces
		callFn = slots
	}
	if plain := plainArgsCall(n, callFn); plain != nil { // toolscript patch 172: the values held in interfaces, for natives that reflect on them
		callFn = plain
	}
	if named := jsonDecodeErrorCall(n, callFn); named != nil { // toolscript patch 174: Go's names of script types in json's errors
		callFn = named
	}

	for i, c := range child {
		switch {
		case isBinCall(c, c.scope):
			// Handle nested function calls: pass returned values as arguments
			numOut := c.child[0].typ.rtype.NumOut()
			for j := 0; j < numOut; j++ {
				ind := c.findex + j
				values = append(values, func(f *frame) reflect.Value { return valueInterfaceValue(f.data[ind]) })
			}
		case isRegularCall(c):
			// Handle nested function calls: pass returned values as arguments
			for j := range c.child[0].typ.ret {
				ind := c.findex + j
				values = append(values, func(f *frame) reflect.Value { return valueInterfaceValue(f.data[ind]) })
			}
		default:
			if c.kind == basicLit || c.rval.IsValid() {
				// Convert literal value (untyped) to function argument type (if not an interface{})
				var argType reflect.Type
				if variadic >= 0 && i+rcvrOffset >= variadic {
					argType = funcType.In(variadic).Elem()
					if n.action == aCallSlice { // toolscript patch 160: the spread slice (nil...)
						argType = funcType.In(variadic)
					}
				} else {
					argType = funcType.In(i + rcvrOffset)
				}
				convertLiteralValue(c, argType)
				if !reflect.ValueOf(c.val).IsValid() { //  Handle "nil"
					c.val = reflect.Zero(argType)
				}
			}

			if wt != nil && isInterfaceSrc(wt.arg[i]) {
				values = append(values, genValueInterface(c))
				break
			}

			// defType is the target type for a potential interface wrapper.
			var defType reflect.Type
			if variadic >= 0 && i+rcvrOffset >= variadic {
				defType = funcType.In(variadic)
				if n.action != aCallSlice { // toolscript patch 39: errors.Join(E{}) wraps each error
					defType = defType.Elem()
				}
			} else {
				defType = funcType.In(rcvrOffset + i)
			}
			if getMapType != nil && (defType.Kind() != reflect.Interface || defType.NumMethod() == 0) { // toolscript patch 175: not Fprintf's io.Writer
				if rt := getMapType(c.typ); rt != nil {
					defType = rt
				}
			}

			switch {
			case isEmptyInterface(c.typ):
				values = append(values, genValue(c))
			case isInterfaceSrc(c.typ):
				values = append(values, scriptIfaceArg(c, defType)) // toolscript patch 209: converted to defType
			case isFuncSrc(c.typ):
				values = append(values, genFunctionWrapper(c))
			case c.typ.cat == arrayT || c.typ.cat == variadicT:
				if isEmptyInterface(c.typ.val) {
					values = append(values, genValueArray(c))
				} else {
					values = append(values, genInterfaceWrapper(c, defType))
				}
			case isPtrSrc(c.typ):
				if c.typ.val.cat == valueT {
					values = append(values, genValue(c))
				} else {
					values = append(values, genInterfaceWrapper(c, defType))
				}
			case c.typ.cat == valueT:
				values = append(values, genValue(c))
			default:
				values = append(values, genInterfaceWrapper(c, defType))
			}
		}
	}
	if i, op := comparedKey(n); i >= 0 && i < len(child) && len(values) == len(child) { // toolscript patch 120
		values[i] = n.interp.checkedKey(child[i], op, values[i])
	}
	if start := fmtArgsStart(n); start >= 0 && len(values) == len(child) { // toolscript patch 61
		errorf := n.child[0].child[1].ident == "Errorf"
		for i := start; i < len(child); i++ {
			if errorf && (isWrappable(child[i].typ) || embedsErrorOnly(child[i].typ)) { // toolscript patch 176: also Error promoted from an embedded interface
				if t := child[i].typ; t != nil && !isInterface(t) && !isBin(t) && t.cat != variadicT { // toolscript patch 39
					values[i] = genInterfaceWrapper(child[i], errorRType)
				} else if conv := n.interp.fmtConv(t, n.action != aCallSlice); t != nil && isInterface(t) && conv != nil && n.action != aCallSlice {
					// toolscript patch 152: an interface's value is printed as
					// Go prints it where the verb is no %w.
					values[i] = errorfArg(genValue(child[start-1]), values[i], genValue(child[i]), conv, i-start)
				}
				continue // %w needs the error itself
			}
			conv := n.interp.fmtConv(child[i].typ, n.action != aCallSlice)
			if n.action == aCallSlice && i == len(child)-1 { // toolscript patch 153: the elements of a spread slice are arguments
				conv = n.interp.fmtSpreadConv(child[i].typ, conv)
			}
			if conv != nil {
				raw := genValue(child[i])
				values[i] = func(f *frame) reflect.Value { return conv(f, raw(f)) }
			}
			if errorf && n.action != aCallSlice && embedsErrorOnly(child[i].typ) { // toolscript patch 126
				values[i] = loudWrapVerb(n, child[start-1], child[i].typ, values[i], i-start)
			}
		}
		if name := n.child[0].child[1].ident; name[len(name)-1] == 'f' {
			n.interp.fmtTypeVerbs(n, values, child, start-1)
		}
		if errorf { // toolscript patch 156: %!w(main.Level=1)
			n.interp.errorfNonErrors(n, values, child, start)
		}
		if spacedPrint(n) { // toolscript patch 155: Go's spaces between operands, by the script values' kinds
			n.interp.fmtPrintSpaces(n, values, child, start, getMapType)
		}
	}
	if i, conv := jsonUnmarshalArg(n); i >= 0 && i < len(child) && len(values) == len(child) { // toolscript patch 190
		raw := genValue(child[i])
		values[i] = func(f *frame) reflect.Value { return conv(raw(f)) }
	}
	if i, conv, _ := n.interp.jsonMarshalArg(n); i >= 0 && i < len(child) && len(values) == len(child) { // toolscript patch 122
		raw, prior := genValue(child[i]), values[i]
		values[i] = func(f *frame) reflect.Value {
			v := prior(f)
			if conv != nil {
				v = conv(raw(f))
			}
			if reps := n.interp.jsonHeldReps(); reps != nil {
				if names := jsonHeldIn(v, reps); names != "" {
					panic(jsonHeldError(n, names))
				}
			}
			return v
		}
	}
	l := len(values)

	switch {
	case n.anc.kind == deferStmt:
		// Store function call in frame for deferred execution.
		n.exec = func(f *frame) bltn {
			val := make([]reflect.Value, l+1)
			val[0] = value(f)
			if n.action == aCallSlice {
				val[0] = spreadFunc(val[0]) // toolscript patch 160
			}
			for i, v := range values {
				val[i+1] = argNow(getBinValue(getMapType, v, f)) // toolscript patch 18
			}
			if fv := value(f); fv.IsValid() && fv.Kind() == reflect.Func && !fv.IsNil() {
				// toolscript patch 199: called as the direct call is, through
				// callFn (the values held in interfaces for json.Unmarshal,
				// sort.Slice and the others of patches 172-174), not with
				// the arguments as they are.
				in := val[1:]
				val = []reflect.Value{reflect.ValueOf(func() { callFn(fv, in) })}
			}
			f.deferred = append([][]reflect.Value{val}, f.deferred...)
			return tnext
		}
	case n.anc.kind == goStmt:
		// Execute function in a goroutine, discard results.
		n.exec = func(f *frame) bltn {
			in := make([]reflect.Value, l)
			for i, v := range values {
				in[i] = argNow(getBinValue(getMapType, v, f)) // toolscript patch 18
			}
			running.Add(1)                    // toolscript patch 23: before the goroutine starts
			go goNative(callFn, value(f), in) // toolscript patch 23
			return tnext
		}
	case fnext != nil:
		// Handle branching according to boolean result.
		index := n.findex
		level := n.level
		n.exec = func(f *frame) bltn {
			in := make([]reflect.Value, l)
			for i, v := range values {
				in[i] = getBinValue(getMapType, v, f)
			}
			res := callFn(value(f), in)
			b := res[0].Bool()
			getFrame(f, level).data[index].SetBool(b)
			if b {
				return tnext
			}
			return fnext
		}
	default:
		switch n.anc.action {
		case aAssignX:
			// The function call is part of an assign expression, store results direcly
			// to assigned location, to avoid an additional frame copy.
			// The optimization of aAssign is handled in assign(), and should not
			// be handled here.
			rvalues := make([]func(*frame) reflect.Value, funcType.NumOut())
			for i := range rvalues {
				c := n.anc.child[i]
				if c.ident == "_" {
					continue
				}
				if isInterfaceSrc(c.typ) {
					rvalues[i] = genValueInterfaceValue(c)
				} else {
					rvalues[i] = genValue(c)
				}
			}
			assign := func(f *frame, out []reflect.Value) { // toolscript patch 12
				for i, v := range rvalues {
					if v == nil {
						continue // Skip assign "_".
					}
					c := n.anc.child[i]
					if n.anc.kind == defineXStmt && !c.redeclared {
						// In case of a define statement, the destination value in the frame
						// must be recreated. This is necessary to preserve the previous value
						// which may be still used in a separate closure.
						data := getFrame(f, c.level).data
						if out[i].CanSet() && out[i].Type() == data[c.findex].Type() {
							// toolscript patch 12: the result is already a
							// fresh, settable value of the variable's type.
							data[c.findex] = out[i]
							continue
						}
						data[c.findex] = reflect.New(data[c.findex].Type()).Elem()
						data[c.findex].Set(out[i])
						continue
					}
					v(f).Set(out[i])
				}
			}
			if funcType == kwargsFuncType && n.action != aCallSlice && len(values) == 1 {
				// toolscript patch 12: a tool call assigned to its results
				// (r, err := pkg.Tool(args)) makes one allocation for
				// both results and none for the argument slice. It does
				// not go through callFn's direct path, whose result
				// slice would cost 48 bytes more per call.
				arg := values[0]
				n.exec = func(f *frame) bltn {
					fv := value(f)
					a := getBinValue(getMapType, arg, f)
					fn, ok := owned, owned != nil // toolscript patch 34
					if !ok {
						fn, ok = fv.Interface().(func(map[string]any) (any, error))
					}
					m, isMap := a.Interface().(map[string]any)
					if !ok || fn == nil || !isMap {
						assign(f, fv.Call([]reflect.Value{a}))
						return tnext
					}
					r := new(struct {
						v   any
						err error
					})
					r.v, r.err = fn(m)
					assign(f, []reflect.Value{reflect.ValueOf(&r.v).Elem(), reflect.ValueOf(&r.err).Elem()})
					return tnext
				}
				break
			}
			n.exec = func(f *frame) bltn {
				in := make([]reflect.Value, l)
				for i, v := range values {
					in[i] = getBinValue(getMapType, v, f)
				}
				assign(f, callFn(value(f), in))
				return tnext
			}
		case aReturn:
			// The function call is part of a return statement, store output results
			// directly in the frame location of outputs of the current function.
			b := childPos(n)
			n.exec = func(f *frame) bltn {
				in := make([]reflect.Value, l)
				for i, v := range values {
					in[i] = getBinValue(getMapType, v, f)
				}
				out := callFn(value(f), in)
				for i, v := range out {
					dest := f.data[b+i]
					if dest.Type() == valueInterfaceType { // toolscript patch 118: not an any that holds a record
						v = reflect.ValueOf(valueInterface{value: v})
					}
					dest.Set(v)
				}
				return tnext
			}
		default:
			n.exec = func(f *frame) bltn {
				in := make([]reflect.Value, l)
				for i, v := range values {
					in[i] = getBinValue(getMapType, v, f)
				}
				out := callFn(value(f), in)
				for i := 0; i < len(out); i++ {
					r := out[i]
					if r.Kind() == reflect.Func {
						getFrame(f, n.level).data[n.findex+i] = r
						continue
					}
					dest := getFrame(f, n.level).data[n.findex+i]
					if dest.Type() == valueInterfaceType { // toolscript patch 118: not an any that holds a record
						r = reflect.ValueOf(valueInterface{value: r})
					}
					dest.Set(r)
				}
				return tnext
			}
		}
	}
}

func getIndexBinMethod(n *node) {
	// dest := genValue(n)
	i := n.findex
	l := n.level
	m := n.val.(int)
	value := genValue(n.child[0])
	next := getExec(n.tnext)
	if t := n.child[0].typ.TypeOf(); t != nil { // toolscript patch 26
		if bind := binMethodOf(n, t); bind != nil {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = bind(value(f))
				return next
			}
			return
		}
		if t.Kind() != reflect.Ptr && t.Kind() != reflect.Interface {
			// A method of the pointer, on an addressable value.
			if bind := binMethodOf(n, reflect.PtrTo(t)); bind != nil {
				n.exec = func(f *frame) bltn {
					if v := value(f); v.CanAddr() {
						getFrame(f, l).data[i] = bind(v.Addr())
					} else {
						getFrame(f, l).data[i] = v.Method(m)
					}
					return next
				}
				return
			}
		}
	}

	n.exec = func(f *frame) bltn {
		// Can not use .Set() because dest type contains the receiver and source not
		// dest(f).Set(value(f).Method(m))
		getFrame(f, l).data[i] = value(f).Method(m)
		return next
	}
}

// toolscript patch 26: binMethodOf returns Options.BinMethod's replacement
// of the method n selects on a native value of static type t, or nil. An
// interface type has no replacement here: the value's dynamic type decides
// (see dynBinMethod).
func binMethodOf(n *node, t reflect.Type) func(reflect.Value) reflect.Value {
	h := n.interp.opt.binMethod
	if h == nil || t == nil || t.Kind() == reflect.Interface {
		return nil
	}
	if bind := h(t, n.child[1].ident); bind != nil { // toolscript patch 108
		return bind
	}
	return n.interp.syncWaitMethod(n, t, n.child[1].ident) // toolscript patch 108
}

// toolscript patch 26: seqBinMethod generates the selection of a native
// method promoted through the fields fi of a script struct, when
// Options.BinMethod replaces it, and reports whether it did. ptr is for a
// method of the pointer receiver, as in getIndexSeqPtrMethod.
func seqBinMethod(n *node, fi []int, ptr bool) bool {
	if n.interp.opt.binMethod == nil {
		return false
	}
	t := n.child[0].typ.TypeOf()
	recv := func(v reflect.Value) reflect.Value { return v }
	isPtr := t.Kind() == reflect.Ptr
	switch {
	case ptr && isPtr && len(fi) == 0:
	case ptr && isPtr:
		t = reflect.PtrTo(t.Elem().FieldByIndex(fi).Type)
		recv = func(v reflect.Value) reflect.Value { return v.Elem().FieldByIndex(fi).Addr() }
	case ptr && len(fi) == 0:
		t = reflect.PtrTo(t)
		recv = reflect.Value.Addr
	case ptr:
		t = reflect.PtrTo(t.FieldByIndex(fi).Type)
		recv = func(v reflect.Value) reflect.Value { return v.FieldByIndex(fi).Addr() }
	case isPtr && len(fi) == 0:
		t = t.Elem()
		recv = reflect.Value.Elem
	case isPtr:
		t = t.Elem().FieldByIndex(fi).Type
		recv = func(v reflect.Value) reflect.Value { return v.Elem().FieldByIndex(fi) }
	case len(fi) > 0:
		t = t.FieldByIndex(fi).Type
		recv = func(v reflect.Value) reflect.Value { return v.FieldByIndex(fi) }
	}
	bind := binMethodOf(n, t)
	if bind == nil {
		return false
	}
	value := genValue(n.child[0])
	i, l, next := n.findex, n.level, getExec(n.tnext)
	n.exec = func(f *frame) bltn {
		getFrame(f, l).data[i] = bind(recv(value(f)))
		return next
	}
	return true
}

// toolscript patch 26: dynBinMethod is met, the method name of recv found
// at run time, or its replacement by Options.BinMethod.
func dynBinMethod(n *node, recv reflect.Value, name string, met reflect.Value) reflect.Value {
	if h := n.interp.opt.binMethod; h != nil {
		if bind := h(recv.Type(), name); bind != nil {
			return bind(recv)
		}
	}
	return met
}

func getIndexBinElemMethod(n *node) {
	i := n.findex
	l := n.level
	m := n.val.(int)
	value := genValue(n.child[0])
	next := getExec(n.tnext)
	if t := n.child[0].typ.TypeOf(); t.Kind() == reflect.Ptr {
		if bind := binMethodOf(n, t.Elem()); bind != nil { // toolscript patch 26
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = bind(value(f).Elem())
				return next
			}
			return
		}
	}

	n.exec = func(f *frame) bltn {
		// Can not use .Set() because dest type contains the receiver and source not
		getFrame(f, l).data[i] = value(f).Elem().Method(m)
		return next
	}
}

func getIndexBinPtrMethod(n *node) {
	i := n.findex
	l := n.level
	m := n.val.(int)
	value := genValue(n.child[0])
	next := getExec(n.tnext)
	if bind := binMethodOf(n, reflect.PtrTo(n.child[0].typ.TypeOf())); bind != nil { // toolscript patch 26
		n.exec = func(f *frame) bltn {
			getFrame(f, l).data[i] = bind(value(f).Addr())
			return next
		}
		return
	}

	n.exec = func(f *frame) bltn {
		// Can not use .Set() because dest type contains the receiver and source not
		getFrame(f, l).data[i] = value(f).Addr().Method(m)
		return next
	}
}

// getIndexArray returns array value from index.
func getIndexArray(n *node) {
	tnext := getExec(n.tnext)
	value0 := genValueArray(n.child[0]) // array
	i := n.findex
	l := n.level
	// toolscript patch 36: indexOf raises Go's error for an index out of
	// range, whose message depends on the index's signedness.
	unsigned := isUint(n.child[1].typ.TypeOf())

	if n.child[1].rval.IsValid() { // constant array index
		ai := vInt(n.child[1].rval) // toolscript patch 36
		if n.fnext != nil {
			fnext := getExec(n.fnext)
			n.exec = func(f *frame) bltn {
				r := indexOf(value0(f), ai, unsigned) // toolscript patch 36
				getFrame(f, l).data[i] = r
				if r.Bool() {
					return tnext
				}
				return fnext
			}
		} else {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = indexOf(value0(f), ai, unsigned) // toolscript patch 36
				return tnext
			}
		}
	} else {
		value1 := genValueInt(n.child[1]) // array index

		if n.fnext != nil {
			fnext := getExec(n.fnext)
			n.exec = func(f *frame) bltn {
				_, vi := value1(f)
				r := indexOf(value0(f), vi, unsigned) // toolscript patch 36
				getFrame(f, l).data[i] = r
				if r.Bool() {
					return tnext
				}
				return fnext
			}
		} else {
			n.exec = func(f *frame) bltn {
				_, vi := value1(f)
				getFrame(f, l).data[i] = indexOf(value0(f), vi, unsigned) // toolscript patch 36
				return tnext
			}
		}
	}
}

// getIndexMap retrieves map value from index.
func getIndexMap(n *node) {
	dest := genValue(n)
	value0 := genValue(n.child[0]) // map
	tnext := getExec(n.tnext)
	z := reflect.New(n.child[0].typ.frameType().Elem()).Elem()
	key := genMapKey(n.child[0].typ, n.child[1]) // toolscript patch 112

	if n.child[1].rval.IsValid() && key == nil { // constant map index
		mi := n.child[1].rval

		switch {
		case n.fnext != nil:
			fnext := getExec(n.fnext)
			n.exec = func(f *frame) bltn {
				if v := value0(f).MapIndex(mi); v.IsValid() && v.Bool() {
					dest(f).SetBool(true)
					return tnext
				}
				dest(f).Set(z)
				return fnext
			}
		default:
			n.exec = func(f *frame) bltn {
				if v := value0(f).MapIndex(mi); v.IsValid() {
					dest(f).Set(v)
				} else {
					dest(f).Set(z)
				}
				return tnext
			}
		}
	} else {
		value1 := genValue(n.child[1]) // map index
		if key != nil {                // toolscript patch 112
			value1 = key
		}

		switch {
		case n.fnext != nil:
			fnext := getExec(n.fnext)
			n.exec = func(f *frame) bltn {
				if v := value0(f).MapIndex(value1(f)); v.IsValid() && v.Bool() {
					dest(f).SetBool(true)
					return tnext
				}
				dest(f).Set(z)
				return fnext
			}
		default:
			n.exec = func(f *frame) bltn {
				if v := value0(f).MapIndex(value1(f)); v.IsValid() {
					dest(f).Set(v)
				} else {
					dest(f).Set(z)
				}
				return tnext
			}
		}
	}
}

// getIndexMap2 retrieves map value from index and set status.
// mapKeyIsInterface tells whether t is a map type with keys of an
// interface type (toolscript patch 134).
func mapKeyIsInterface(t *itype) bool {
	if t == nil {
		return false
	}
	if t.cat == mapT {
		return t.key != nil && isInterface(t.key)
	}
	rt := t.TypeOf()
	return rt != nil && rt.Kind() == reflect.Map && rt.Key().Kind() == reflect.Interface
}

func getIndexMap2(n *node) {
	dest := genValue(n.anc.child[0])   // result
	value0 := genValue(n.child[0])     // map
	value2 := genValue(n.anc.child[1]) // status
	next := getExec(n.tnext)
	doValue := n.anc.child[0].ident != "_"
	doStatus := n.anc.child[1].ident != "_"

	if !doValue && !doStatus && !mapKeyIsInterface(n.child[0].typ) { // toolscript patch 134
		nop(n)
		return
	}
	key := genMapKey(n.child[0].typ, n.child[1]) // toolscript patch 112
	if !doValue && !doStatus {                   // toolscript patch 134: _, _ = m[k] hashes k, which may panic
		index := genValue(n.child[1])
		if key != nil {
			index = key
		}
		n.exec = func(f *frame) bltn {
			value0(f).MapIndex(index(f))
			return next
		}
		return
	}
	if n.child[1].rval.IsValid() && key == nil { // constant map index
		mi := n.child[1].rval
		switch {
		case !doValue:
			n.exec = func(f *frame) bltn {
				v := value0(f).MapIndex(mi)
				value2(f).SetBool(v.IsValid())
				return next
			}
		default:
			n.exec = func(f *frame) bltn {
				v := value0(f).MapIndex(mi)
				if v.IsValid() {
					dest(f).Set(v)
				}
				if doStatus {
					value2(f).SetBool(v.IsValid())
				}
				return next
			}
		}
	} else {
		value1 := genValue(n.child[1]) // map index
		if key != nil {                // toolscript patch 112
			value1 = key
		}
		switch {
		case !doValue:
			n.exec = func(f *frame) bltn {
				v := value0(f).MapIndex(value1(f))
				value2(f).SetBool(v.IsValid())
				return next
			}
		default:
			n.exec = func(f *frame) bltn {
				v := value0(f).MapIndex(value1(f))
				if v.IsValid() {
					dest(f).Set(v)
				}
				if doStatus {
					value2(f).SetBool(v.IsValid())
				}
				return next
			}
		}
	}
}

// getFunc compiles a closure function generator for anonymous functions.
func getFunc(n *node) {
	i := n.findex
	l := n.level
	next := getExec(n.tnext)
	numRet := len(n.typ.ret)

	n.exec = func(f *frame) bltn {
		fr := f.clone()
		// toolscript patch 1: read the slot under the frame's lock, as it is
		// written (concurrently, by goroutines whose closures return).
		f.mutex.Lock()
		o := getFrame(f, l).data[i]
		f.mutex.Unlock()

		var fct reflect.Value // toolscript patch 20: the closure compares itself with the slot
		fct = reflect.MakeFunc(n.typ.TypeOf(), func(in []reflect.Value) []reflect.Value {
			// Allocate and init local frame. All values to be settable and addressable.
			// toolscript patch 47: the run id of the call, for a session.
			fr2 := newFrame(fr, len(n.types), n.interp.callID(fr))
			d := fr2.data
			for i, t := range n.types {
				d[i] = reflect.New(t).Elem()
			}
			d = d[numRet:]

			// Copy function input arguments in local frame.
			for i, arg := range in {
				if i >= len(d) {
					// In case of unused arg, there may be not even a frame entry allocated, just skip.
					break
				}
				typ := n.typ.arg[i]
				switch {
				case isEmptyInterface(typ) || typ.TypeOf() == valueInterfaceType:
					d[i].Set(arg)
				case isInterfaceSrc(typ):
					d[i].Set(reflect.ValueOf(valueInterface{value: arg.Elem()}))
				default:
					d[i].Set(arg)
				}
			}

			// Interpreter code execution.
			runCallback(n.child[3].start, fr2, n, n)       // toolscript patch 23: counted by Running
			n.interp.failIfStopped(fr2, fr2.data[:numRet]) // toolscript patch 30

			// toolscript patch 20: give the slot back its earlier value
			// (so the frames of closures run one after another do not
			// chain up) only while it still holds this closure. The
			// closure can return in another goroutine after the defining
			// frame has evaluated the literal again and before it has read
			// the slot (go f(x()), g(func(){...}, h())): an unconditional
			// write handed it an earlier closure of the literal, or a nil
			// function ("go of nil func value").
			f.mutex.Lock()
			if d := getFrame(f, l).data; d[i] == fct {
				d[i] = o
			}
			f.mutex.Unlock()

			return fr2.data[:numRet]
		})

		f.mutex.Lock()
		getFrame(f, l).data[i] = fct
		f.mutex.Unlock()

		return next
	}
}

func getMethod(n *node) {
	i := n.findex
	l := n.level
	next := getExec(n.tnext)

	n.exec = func(f *frame) bltn {
		nod := *(n.val.(*node))
		nod.val = &nod
		nod.recv = n.recv
		getFrame(f, l).data[i] = genFuncValue(&nod)(f)
		return next
	}
}

func getMethodByName(n *node) {
	next := getExec(n.tnext)
	value0 := genValue(n.child[0])
	name := n.child[1].ident
	i := n.findex
	l := n.level
	// toolscript patch 131: the embedded interface field the method is
	// promoted through, by the static type: reflect marks an embedded
	// field anonymous only when it is alone in its struct, so a struct
	// embedding an interface beside another field had no such field
	// ("invalid interface value").
	embedPath := embeddedIfaceIndex(n.child[0].typ, name, 0)

	n.exec = func(f *frame) bltn {
		// The interface object must be directly accessible, or embedded in a struct (exported anonymous field).
		val0 := value0(f)
		val, ok := value0(f).Interface().(valueInterface)
		if !ok {
			// Search the first embedded valueInterface.
			for val0.Kind() == reflect.Ptr {
				val0 = val0.Elem()
			}
			for i := 0; i < val0.NumField(); i++ {
				fld := val0.Type().Field(i)
				if !fld.Anonymous || !fld.IsExported() {
					continue
				}
				if val, ok = val0.Field(i).Interface().(valueInterface); ok {
					break
					// TODO: should we keep track of all the vals that are indeed valueInterface,
					// so that later on we can call MethodByName on all of them until one matches?
				}
			}
			if !ok && embedPath != nil { // toolscript patch 131
				val, ok = embeddedIfaceValue(value0(f), embedPath)
			}
			if !ok {
				panic(n.cfgErrorf("invalid interface value %v", val0))
			}
		}
		// toolscript patch 185: a method of a nil interface value (a
		// method value i.M, evaluated) is Go's nil dereference (reflect
		// panicked on the zero Value's Interface).
		if !val.value.IsValid() {
			panic(&RuntimeError{Kind: KindNilDereference})
		}
		// Traverse nested interface values to get the concrete value.
		for {
			v, ok := val.value.Interface().(valueInterface)
			if !ok {
				break
			}
			val = v
		}

		if met := val.value.MethodByName(name); met.IsValid() {
			getFrame(f, l).data[i] = dynBinMethod(n, val.value, name, met) // toolscript patch 26
			return next
		}

		typ := val.node.typ
		if typ.node == nil && typ.cat == valueT {
			// It happens with a var of empty interface type, that has value of concrete type
			// from runtime, being asserted to "user-defined" interface.
			if _, ok := typ.rtype.MethodByName(name); !ok {
				panic(n.cfgErrorf("method not found: %s", name))
			}
			return next
		}

		// Finally search method recursively in embedded valueInterfaces.
		r, m, li := lookupMethodValue(val, name)
		if r.IsValid() {
			getFrame(f, l).data[i] = r
			return next
		}
		if m == nil {
			if recv, met := embeddedNativeMethod(val, name); met.IsValid() { // toolscript patch 221
				getFrame(f, l).data[i] = dynBinMethod(n, recv, name, met)
				return next
			}
			panic(n.cfgErrorf("method not found: %s", name))
		}

		nod := *m
		nod.val = &nod
		nod.recv = &receiver{nil, val.value, li}
		getFrame(f, l).data[i] = genFuncValue(&nod)(f)
		return next
	}
}

// lookupMethodValue recursively looks within val for the method with the given
// name. If a runtime value is found, it is returned in r, otherwise it is returned
// in m, with li as the list of recursive field indexes.
func lookupMethodValue(val valueInterface, name string) (r reflect.Value, m *node, li []int) {
	if r = val.value.MethodByName(name); r.IsValid() {
		return
	}
	if m, li = val.node.typ.lookupMethod(name); m != nil {
		return
	}
	if !isStruct(val.node.typ) {
		return
	}
	v := val.value
	for v.Type().Kind() == reflect.Ptr {
		v = v.Elem()
	}
	nf := v.NumField()
	for i := 0; i < nf; i++ {
		vi, ok := v.Field(i).Interface().(valueInterface)
		if !ok {
			continue
		}
		if r, m, li = lookupMethodValue(vi, name); m != nil {
			li = append([]int{i}, li...)
			return
		}
	}
	return
}

func getIndexSeq(n *node) {
	value := genValue(n.child[0])
	index := n.val.([]int)
	tnext := getExec(n.tnext)
	i := n.findex
	l := n.level

	// Note:
	// Here we have to store the result using
	//    f.data[i] = value(...)
	// instead of normal
	//    dest(f).Set(value(...)
	// because the value returned by FieldByIndex() must be preserved
	// for possible future Set operations on the struct field (avoid a
	// dereference from Set, resulting in setting a copy of the
	// original field).

	if n.fnext != nil {
		fnext := getExec(n.fnext)
		n.exec = func(f *frame) bltn {
			v := value(f)
			r := v.FieldByIndex(index)
			getFrame(f, l).data[i] = r
			if r.Bool() {
				return tnext
			}
			return fnext
		}
	} else {
		n.exec = func(f *frame) bltn {
			v := value(f)
			getFrame(f, l).data[i] = v.FieldByIndex(index)
			return tnext
		}
	}
}

func getPtrIndexSeq(n *node) {
	index := n.val.([]int)
	tnext := getExec(n.tnext)
	value := genValue(n.child[0])
	i := n.findex
	l := n.level

	if n.fnext != nil {
		fnext := getExec(n.fnext)
		n.exec = func(f *frame) bltn {
			r := value(f).Elem().FieldByIndex(index)
			getFrame(f, l).data[i] = r
			if r.Bool() {
				return tnext
			}
			return fnext
		}
	} else {
		n.exec = func(f *frame) bltn {
			getFrame(f, l).data[i] = value(f).Elem().FieldByIndex(index)
			return tnext
		}
	}
}

func getIndexSeqField(n *node) {
	value := genValue(n.child[0])
	index := n.val.([]int)
	i := n.findex
	l := n.level
	tnext := getExec(n.tnext)

	if n.fnext != nil {
		fnext := getExec(n.fnext)
		if n.child[0].typ.TypeOf().Kind() == reflect.Ptr {
			n.exec = func(f *frame) bltn {
				r := value(f).Elem().FieldByIndex(index)
				getFrame(f, l).data[i] = r
				if r.Bool() {
					return tnext
				}
				return fnext
			}
		} else {
			n.exec = func(f *frame) bltn {
				r := value(f).FieldByIndex(index)
				getFrame(f, l).data[i] = r
				if r.Bool() {
					return tnext
				}
				return fnext
			}
		}
	} else {
		if n.child[0].typ.TypeOf().Kind() == reflect.Ptr {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).Elem().FieldByIndex(index)
				return tnext
			}
		} else {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).FieldByIndex(index)
				return tnext
			}
		}
	}
}

func getIndexSeqPtrMethod(n *node) {
	value := genValue(n.child[0])
	index := n.val.([]int)
	fi := index[1:]
	mi := index[0]
	i := n.findex
	l := n.level
	next := getExec(n.tnext)
	if seqBinMethod(n, fi, true) { // toolscript patch 26
		return
	}

	if n.child[0].typ.TypeOf().Kind() == reflect.Ptr {
		if len(fi) == 0 {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).Method(mi)
				return next
			}
		} else {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).Elem().FieldByIndex(fi).Addr().Method(mi)
				return next
			}
		}
	} else {
		if len(fi) == 0 {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).Addr().Method(mi)
				return next
			}
		} else {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).FieldByIndex(fi).Addr().Method(mi)
				return next
			}
		}
	}
}

func getIndexSeqMethod(n *node) {
	value := genValue(n.child[0])
	index := n.val.([]int)
	fi := index[1:]
	mi := index[0]
	i := n.findex
	l := n.level
	next := getExec(n.tnext)
	if seqBinMethod(n, fi, false) { // toolscript patch 26
		return
	}
	if embeddedPtrMethod(n, fi) { // toolscript patch 214: through an embedded pointer, the method of its name
		return
	}

	if n.child[0].typ.TypeOf().Kind() == reflect.Ptr {
		if len(fi) == 0 {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).Elem().Method(mi)
				return next
			}
		} else {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).Elem().FieldByIndex(fi).Method(mi)
				return next
			}
		}
	} else {
		if len(fi) == 0 {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).Method(mi)
				return next
			}
		} else {
			n.exec = func(f *frame) bltn {
				getFrame(f, l).data[i] = value(f).FieldByIndex(fi).Method(mi)
				return next
			}
		}
	}
}

func neg(n *node) {
	dest := genValue(n)
	value := genValue(n.child[0])
	next := getExec(n.tnext)
	typ := n.typ.concrete().TypeOf()
	isInterface := n.typ.TypeOf().Kind() == reflect.Interface

	switch n.typ.TypeOf().Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if isInterface {
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.ValueOf(-value(f).Int()).Convert(typ))
				return next
			}
			return
		}
		n.exec = func(f *frame) bltn {
			dest(f).SetInt(-value(f).Int())
			return next
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if isInterface {
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.ValueOf(-value(f).Uint()).Convert(typ))
				return next
			}
			return
		}
		n.exec = func(f *frame) bltn {
			dest(f).SetUint(-value(f).Uint())
			return next
		}
	case reflect.Float32, reflect.Float64:
		if isInterface {
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.ValueOf(-value(f).Float()).Convert(typ))
				return next
			}
			return
		}
		n.exec = func(f *frame) bltn {
			dest(f).SetFloat(-value(f).Float())
			return next
		}
	case reflect.Complex64, reflect.Complex128:
		if isInterface {
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.ValueOf(-value(f).Complex()).Convert(typ))
				return next
			}
			return
		}
		n.exec = func(f *frame) bltn {
			dest(f).SetComplex(-value(f).Complex())
			return next
		}
	}
}

func pos(n *node) {
	dest := genValue(n)
	value := genValue(n.child[0])
	next := getExec(n.tnext)

	n.exec = func(f *frame) bltn {
		dest(f).Set(value(f))
		return next
	}
}

func bitNot(n *node) {
	dest := genValue(n)
	value := genValue(n.child[0])
	next := getExec(n.tnext)
	typ := n.typ.concrete().TypeOf()
	isInterface := n.typ.TypeOf().Kind() == reflect.Interface

	switch typ.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if isInterface {
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.ValueOf(^value(f).Int()).Convert(typ))
				return next
			}
			return
		}
		n.exec = func(f *frame) bltn {
			dest(f).SetInt(^value(f).Int())
			return next
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if isInterface {
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.ValueOf(^value(f).Uint()).Convert(typ))
				return next
			}
			return
		}
		n.exec = func(f *frame) bltn {
			dest(f).SetUint(^value(f).Uint())
			return next
		}
	}
}

func land(n *node) {
	value0 := genValue(n.child[0])
	value1 := genValue(n.child[1])
	tnext := getExec(n.tnext)
	dest := genValue(n)
	typ := n.typ.concrete().TypeOf()
	isInterface := n.typ.TypeOf().Kind() == reflect.Interface

	if n.fnext != nil {
		fnext := getExec(n.fnext)
		n.exec = func(f *frame) bltn {
			if value0(f).Bool() && value1(f).Bool() {
				dest(f).SetBool(true)
				return tnext
			}
			dest(f).SetBool(false)
			return fnext
		}
		return
	}
	if isInterface {
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.ValueOf(value0(f).Bool() && value1(f).Bool()).Convert(typ))
			return tnext
		}
		return
	}
	n.exec = func(f *frame) bltn {
		dest(f).SetBool(value0(f).Bool() && value1(f).Bool())
		return tnext
	}
}

func lor(n *node) {
	value0 := genValue(n.child[0])
	value1 := genValue(n.child[1])
	tnext := getExec(n.tnext)
	dest := genValue(n)
	typ := n.typ.concrete().TypeOf()
	isInterface := n.typ.TypeOf().Kind() == reflect.Interface

	if n.fnext != nil {
		fnext := getExec(n.fnext)
		n.exec = func(f *frame) bltn {
			if value0(f).Bool() || value1(f).Bool() {
				dest(f).SetBool(true)
				return tnext
			}
			dest(f).SetBool(false)
			return fnext
		}
		return
	}
	if isInterface {
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.ValueOf(value0(f).Bool() || value1(f).Bool()).Convert(typ))
			return tnext
		}
		return
	}
	n.exec = func(f *frame) bltn {
		dest(f).SetBool(value0(f).Bool() || value1(f).Bool())
		return tnext
	}
}

func nop(n *node) {
	next := getExec(n.tnext)

	n.exec = func(f *frame) bltn {
		return next
	}
}

func branch(n *node) {
	tnext := getExec(n.tnext)
	fnext := getExec(n.fnext)
	value := genValue(n)

	n.exec = func(f *frame) bltn {
		if value(f).Bool() {
			return tnext
		}
		return fnext
	}
}

func _return(n *node) {
	child := n.child
	def := n.val.(*node)
	values := make([]func(*frame) reflect.Value, len(child))
	for i, c := range child {
		switch t := def.typ.ret[i]; t.cat {
		case errorT:
			values[i] = genInterfaceWrapper(c, t.TypeOf())
		case funcT:
			values[i] = genFuncValue(c) // toolscript patch 100: a named function as the function value
		case valueT:
			switch t.rtype.Kind() {
			case reflect.Interface:
				values[i] = genInterfaceWrapper(c, t.TypeOf())
				continue
			case reflect.Func:
				values[i] = genFunctionWrapper(c)
				continue
			}
			fallthrough
		default:
			switch {
			case isInterfaceSrc(t):
				if len(t.field) == 0 {
					// empty interface case.
					// we can't let genValueInterface deal with it, because we call on c,
					// not on n, which means that the interfaceT knowledge is lost.
					values[i] = genValue(c)
					if keepsMethods(c.typ) { // toolscript patch 38: the value keeps its methods
						values[i] = genValueInterface(c)
					}
					break
				}
				values[i] = genValueInterface(c)
			case c.typ.untyped:
				values[i] = genValueAs(c, t.TypeOf())
			default:
				values[i] = genValue(c)
			}
		}
	}

	switch len(child) {
	case 0:
		n.exec = nil
	case 1:
		switch {
		case !child[0].rval.IsValid() && child[0].kind == binaryExpr && child[0].findex == 0: // toolscript patch 195: not in its own slot
			// No additional runtime operation is necessary for constants (not in frame) or
			// binary expressions (stored directly at the right location in frame).
			n.exec = nil
		case isCall(child[0]) && n.child[0].typ.id() == def.typ.ret[0].id():
			// Calls are optmized as long as no type conversion is involved.
			n.exec = nil
		default:
			// Regular return: store the value to return at to start of the frame.
			v := values[0]
			n.exec = func(f *frame) bltn {
				f.data[0].Set(v(f))
				return nil
			}
		}
	case 2:
		v0, v1 := values[0], values[1]
		n.exec = func(f *frame) bltn {
			f.data[0].Set(v0(f))
			f.data[1].Set(v1(f))
			return nil
		}
	default:
		n.exec = func(f *frame) bltn {
			for i, value := range values {
				f.data[i].Set(value(f))
			}
			return nil
		}
	}
}

func arrayLit(n *node) {
	value := valueGenerator(n, n.findex)
	next := getExec(n.tnext)
	child := n.child
	if n.nleft == 1 {
		child = n.child[1:]
	}

	values := make([]func(*frame) reflect.Value, len(child))
	index := make([]int, len(child))
	var max, prev int

	ntyp := definedUnder(n.typ.resolveAlias()) // toolscript patch 227
	for i, c := range child {
		if c.kind == keyValueExpr {
			values[i] = genDestValue(ntyp.val, c.child[1])
			index[i] = int(vInt(c.child[0].rval))
		} else {
			values[i] = genDestValue(ntyp.val, c)
			index[i] = prev
		}
		prev = index[i] + 1
		if prev > max {
			max = prev
		}
	}

	typ := n.typ.frameType()
	kind := typ.Kind()
	check := n.interp.opt.makeCheck // toolscript patch 24
	n.exec = func(f *frame) bltn {
		var a reflect.Value
		if kind == reflect.Slice {
			if check != nil { // toolscript patch 24: a keyed slice literal
				check(typ, max)
			}
			a = reflect.MakeSlice(typ, max, max)
		} else {
			a, _ = n.typ.zero()
		}
		for i, v := range values {
			a.Index(index[i]).Set(v(f))
		}
		value(f).Set(a)
		return next
	}
}

func mapLit(n *node) {
	value := valueGenerator(n, n.findex)
	next := getExec(n.tnext)
	child := n.child
	if n.nleft == 1 {
		child = n.child[1:]
	}
	typ := n.typ.frameType()
	keys := make([]func(*frame) reflect.Value, len(child))
	values := make([]func(*frame) reflect.Value, len(child))
	mt := definedUnder(n.typ) // toolscript patch 227
	for i, c := range child {
		keys[i] = genDestValue(mt.key, c.child[0])
		if key := genMapKey(mt, c.child[0]); key != nil { // toolscript patch 112
			keys[i] = key
		}
		values[i] = genDestValue(mt.val, c.child[1])
	}

	if typ == mapStringAnyType {
		// toolscript patch 12: the argument maps of tool calls are built
		// natively, not through reflect's SetMapIndex (an allocation and a
		// conversion per element).
		n.exec = func(f *frame) bltn {
			m := make(map[string]any, len(keys))
			for i, k := range keys {
				key := k(f).String()
				v := values[i](f)
				if !v.IsValid() {
					delete(m, key) // as SetMapIndex does with a zero Value
					continue
				}
				m[key] = v.Interface()
			}
			value(f).Set(reflect.ValueOf(m))
			return next
		}
		return
	}
	n.exec = func(f *frame) bltn {
		m := reflect.MakeMap(typ)
		for i, k := range keys {
			m.SetMapIndex(k(f), values[i](f))
		}
		value(f).Set(m)
		return next
	}
}

// mapStringAnyType is the type of tool arguments, map[string]any
// (toolscript patch 12).
var mapStringAnyType = reflect.TypeOf(map[string]any(nil))

func compositeBinMap(n *node) {
	value := valueGenerator(n, n.findex)
	next := getExec(n.tnext)
	child := n.child
	if n.nleft == 1 {
		child = n.child[1:]
	}
	typ := n.typ.frameType()
	keys := make([]func(*frame) reflect.Value, len(child))
	values := make([]func(*frame) reflect.Value, len(child))
	for i, c := range child {
		convertLiteralValue(c.child[0], typ.Key())
		convertLiteralValue(c.child[1], typ.Elem())
		keys[i] = genValue(c.child[0])

		if isFuncSrc(c.child[1].typ) {
			values[i] = genFunctionWrapper(c.child[1])
		} else {
			values[i] = genValue(c.child[1])
		}
	}

	n.exec = func(f *frame) bltn {
		m := reflect.MakeMap(typ)
		for i, k := range keys {
			m.SetMapIndex(k(f), values[i](f))
		}
		value(f).Set(m)
		return next
	}
}

func compositeBinSlice(n *node) {
	value := valueGenerator(n, n.findex)
	next := getExec(n.tnext)
	child := n.child
	if n.nleft == 1 {
		child = n.child[1:]
	}

	values := make([]func(*frame) reflect.Value, len(child))
	index := make([]int, len(child))
	rtype := n.typ.rtype.Elem()
	var max, prev int

	for i, c := range child {
		if c.kind == keyValueExpr {
			convertLiteralValue(c.child[1], rtype)
			values[i] = genValue(c.child[1])
			index[i] = int(vInt(c.child[0].rval))
		} else {
			convertLiteralValue(c, rtype)
			values[i] = genValue(c)
			index[i] = prev
		}
		prev = index[i] + 1
		if prev > max {
			max = prev
		}
	}

	typ := n.typ.frameType()
	kind := typ.Kind()
	check := n.interp.opt.makeCheck // toolscript patch 24
	n.exec = func(f *frame) bltn {
		var a reflect.Value
		if kind == reflect.Slice {
			if check != nil { // toolscript patch 24: a keyed slice literal
				check(typ, max)
			}
			a = reflect.MakeSlice(typ, max, max)
		} else {
			a, _ = n.typ.zero()
		}
		for i, v := range values {
			a.Index(index[i]).Set(v(f))
		}
		value(f).Set(a)
		return next
	}
}

// doCompositeBinStruct creates and populates a struct object from a binary type.
func doCompositeBinStruct(n *node, hasType bool) {
	next := getExec(n.tnext)
	value := valueGenerator(n, n.findex)
	typ := baseType(n.typ).rtype
	child := n.child
	if hasType {
		child = n.child[1:]
	}
	values := make([]func(*frame) reflect.Value, len(child))
	fieldIndex := make([][]int, len(child))
	for i, c := range child {
		if c.kind == keyValueExpr {
			if sf, ok := typ.FieldByName(c.child[0].ident); ok {
				fieldIndex[i] = sf.Index
				convertLiteralValue(c.child[1], sf.Type)
				if isFuncSrc(c.child[1].typ) {
					values[i] = genFunctionWrapper(c.child[1])
				} else {
					values[i] = genValue(c.child[1])
				}
			}
		} else {
			fieldIndex[i] = []int{i}
			if isFuncSrc(c.typ) && len(c.child) > 1 {
				convertLiteralValue(c.child[1], typ.Field(i).Type)
				values[i] = genFunctionWrapper(c.child[1])
			} else {
				convertLiteralValue(c, typ.Field(i).Type)
				values[i] = genValue(c)
			}
		}
	}

	frameIndex := n.findex
	l := n.level

	n.exec = func(f *frame) bltn {
		s := reflect.New(typ).Elem()
		for i, v := range values {
			s.FieldByIndex(fieldIndex[i]).Set(v(f))
		}
		d := value(f)
		switch {
		case d.Kind() == reflect.Ptr:
			d.Set(s.Addr())
		default:
			getFrame(f, l).data[frameIndex] = s
		}
		return next
	}
}

func compositeBinStruct(n *node)       { doCompositeBinStruct(n, true) }
func compositeBinStructNotype(n *node) { doCompositeBinStruct(n, false) }

func destType(n *node) *itype {
	switch n.anc.kind {
	case assignStmt, defineStmt:
		if n.anc.nleft > 1 {
			// toolscript patch 98: a literal of a multiple assignment
			// is written in its own slot (patch 54), and the statement
			// converts it to its destination's type (it took the first
			// destination's interface type for its own slot: var a, b
			// Shape = Square{2}, Square{3} panicked in reflect.Set).
			return n.typ
		}
		return n.anc.child[0].typ
	default:
		return n.typ
	}
}

func doComposite(n *node, hasType bool, keyed bool) {
	value := valueGenerator(n, n.findex)
	next := getExec(n.tnext)
	typ := baseType(n.typ)
	child := n.child
	if hasType {
		child = n.child[1:]
	}
	destInterface := isInterfaceSrc(destType(n))

	values := make(map[int]func(*frame) reflect.Value)
	for i, c := range child {
		var val *node
		var fieldIndex int
		if keyed {
			val = c.child[1]
			fieldIndex = typ.fieldIndex(c.child[0].ident)
		} else {
			val = c
			fieldIndex = i
		}
		ft := typ.field[fieldIndex].typ
		rft := ft.TypeOf()
		convertLiteralValue(val, rft)
		switch {
		case val.typ.cat == nilT:
			values[fieldIndex] = func(*frame) reflect.Value { return reflect.New(rft).Elem() }
		case isNamedFuncSrc(val.typ):
			values[fieldIndex] = genValueAsFunctionWrapper(val)
		case isInterfaceSrc(ft) && (!isEmptyInterface(ft) || keepsMethods(val.typ)): // toolscript patch 38
			values[fieldIndex] = genValueInterface(val)
		case isInterface(ft):
			values[fieldIndex] = genInterfaceWrapper(val, rft)
		default:
			values[fieldIndex] = genValue(val)
		}
	}

	frameIndex := n.findex
	l := n.level
	rt := typ.TypeOf()

	n.exec = func(f *frame) bltn {
		a := reflect.New(rt).Elem()
		for i, v := range values {
			a.Field(i).Set(v(f))
		}
		d := value(f)
		switch {
		case d.Kind() == reflect.Ptr:
			d.Set(a.Addr())
		case destInterface && (d.Kind() == reflect.Interface || d.Type() == valueInterfaceType):
			// toolscript patch 125: only where the literal is written in
			// its interface destination; in its own slot (xs[0] = T{},
			// m[k] = T{}: the assignment converts it) it is the value
			// (it panicked in reflect.Set).
			if len(destType(n).field) > 0 {
				d.Set(reflect.ValueOf(valueInterface{n, a}))
				break
			}
			d.Set(a)
		default:
			getFrame(f, l).data[frameIndex] = a
		}
		return next
	}
}

// doCompositeLit creates and populates a struct object.
func doCompositeLit(n *node, hasType bool) {
	doComposite(n, hasType, false)
}

func compositeLit(n *node)       { doCompositeLit(n, true) }
func compositeLitNotype(n *node) { doCompositeLit(n, false) }

// doCompositeLitKeyed creates a struct Object, filling fields from sparse key-values.
func doCompositeLitKeyed(n *node, hasType bool) {
	doComposite(n, hasType, true)
}

func compositeLitKeyed(n *node)       { doCompositeLitKeyed(n, true) }
func compositeLitKeyedNotype(n *node) { doCompositeLitKeyed(n, false) }

func empty(n *node) {}

// toolscript patch 142: rat, the []rune type a string was ranged as, is gone.

func _range(n *node) {
	index0 := n.child[0].findex // array index location in frame
	index2 := index0 - 1        // shallow array for range, always just behind index0
	index3 := index2 - 1        // additional location to store string char position
	fnext := getExec(n.fnext)
	tnext := getExec(n.tnext)

	var value func(*frame) reflect.Value
	var an *node
	if len(n.child) == 4 {
		an = n.child[2]
		index1 := n.child[1].findex // array value location in frame
		if isString(an.typ.TypeOf()) {
			// toolscript patch 142: a range over a string decodes it as
			// Go does, the index the byte position of the rune and the
			// next one after the bytes decoded (the string became a
			// []rune, and the position of a rune was the length of the
			// runes before it encoded again: an invalid byte, decoded
			// as utf8.RuneError, counted 3).
			// A value _ has no slot of its own (writing its rune panicked).
			value = rangeStringValue(an)
			blank := n.child[1].ident == "_"
			n.exec = func(f *frame) bltn {
				s := f.data[index2].String()
				v0 := f.data[index3] // the position of the next rune
				pos := int(v0.Int())
				if pos >= len(s) {
					return fnext
				}
				r, w := utf8.DecodeRuneInString(s[pos:])
				v0.SetInt(int64(pos + w))
				f.data[index0].SetInt(int64(pos))
				if !blank {
					f.data[index1].SetInt(int64(r))
				}
				return tnext
			}
		} else {
			value = genValueRangeArray(an)
			n.exec = func(f *frame) bltn {
				a := f.data[index2]
				v0 := f.data[index0]
				v0.SetInt(v0.Int() + 1)
				i := int(v0.Int())
				if i >= a.Len() {
					return fnext
				}
				f.data[index1].Set(a.Index(i))
				return tnext
			}
		}
	} else {
		an = n.child[1]
		if isString(an.typ.TypeOf()) {
			// toolscript patch 142: the key is the byte position of
			// each rune (it was the rune's index among the runes).
			value = rangeStringValue(an)
			n.exec = func(f *frame) bltn {
				s := f.data[index2].String()
				v0 := f.data[index3] // the position of the next rune
				pos := int(v0.Int())
				if pos >= len(s) {
					return fnext
				}
				_, w := utf8.DecodeRuneInString(s[pos:])
				v0.SetInt(int64(pos + w))
				f.data[index0].SetInt(int64(pos))
				return tnext
			}
		} else {
			value = genValueRangeArray(an)
			n.exec = func(f *frame) bltn {
				v0 := f.data[index0]
				v0.SetInt(v0.Int() + 1)
				if int(v0.Int()) >= f.data[index2].Len() {
					return fnext
				}
				return tnext
			}
		}
	}

	// Init sequence
	next := n.exec
	index, start := index0, int64(-1)
	if isString(an.typ.TypeOf()) { // toolscript patch 142
		index, start = index3, 0
	}
	n.child[0].exec = func(f *frame) bltn {
		f.data[index2] = value(f)   // set array shallow copy for range
		f.data[index].SetInt(start) // assing index value
		return next
	}
}

// rangeStringValue returns the string a range ranges over (toolscript patch
// 142), of type string whatever the operand's string type.
func rangeStringValue(an *node) func(*frame) reflect.Value {
	value := genValue(an)
	return func(f *frame) reflect.Value {
		return reflect.ValueOf(value(f).String())
	}
}

func rangeInt(n *node) {
	ixn := n.child[0]
	index0 := ixn.findex // array index location in frame
	index2 := index0 - 1 // max
	fnext := getExec(n.fnext)
	tnext := getExec(n.tnext)

	var value func(*frame) reflect.Value
	mxn := n.child[1]
	value = genValue(mxn)
	n.exec = func(f *frame) bltn {
		rv := f.data[index0]
		rv.SetInt(rv.Int() + 1)
		if int(rv.Int()) >= int(f.data[index2].Int()) {
			return fnext
		}
		return tnext
	}
	if k := ixn.typ.TypeOf().Kind(); k >= reflect.Uint && k <= reflect.Uintptr {
		// toolscript patch 63: an unsigned index counts from 0 up.
		n.exec = func(f *frame) bltn {
			rv := f.data[index0]
			if rv.Uint()+1 >= f.data[index2].Uint() || f.data[index2].Uint() == 0 {
				return fnext
			}
			rv.SetUint(rv.Uint() + 1)
			return tnext
		}
	}

	// Init sequence
	next := n.exec
	index := index0
	ixn.exec = func(f *frame) bltn {
		f.data[index2] = rangeOnce(value(f)) // set max; toolscript patch 180
		if v := f.data[index]; v.CanUint() {
			// toolscript patch 63: the first step of an unsigned index
			// is the test of 0 (it cannot start at -1).
			v.SetUint(0)
			if mx := f.data[index2].Uint(); mx == 0 {
				return fnext
			}
			return tnext
		}
		f.data[index].SetInt(-1) // assing index value
		return next
	}
}

// bodyKeepsRefs reports whether a loop's body (toolscript patch 13) has a
// closure, an address-of or a slicing: something that could keep a
// reference to a loop variable beyond its iteration.
func bodyKeepsRefs(body *node) bool {
	keeps := false
	body.Walk(func(c *node) bool {
		switch c.kind {
		case funcLit, addressExpr, sliceExpr:
			keeps = true
		}
		return !keeps
	}, nil)
	return keeps
}

// loopVarTypeShared reports whether a loop variable of type t cannot be
// referred to implicitly (toolscript patch 13): t has no methods that could
// take the variable's address. With a body that keeps no reference
// (bodyKeepsRefs), such a variable keeps one storage for all iterations
// (loopVarCopy, loopVarForShared); otherwise each iteration gets a fresh
// variable, as Go 1.22 specifies (loopVarKey, loopVarVal, loopVarFor).
func loopVarTypeShared(t *itype) bool {
	if t == nil || len(t.method) > 0 {
		return false
	}
	switch t.cat {
	case boolT, intT, int8T, int16T, int32T, int64T, uintT, uint8T, uint16T, uint32T, uint64T, uintptrT,
		float32T, float64T, complex64T, complex128T, stringT, interfaceT, mapT, sliceT, ptrT, chanT, funcT:
		return true
	case valueT:
		rt := t.rtype
		if rt == nil {
			return false
		}
		switch rt.Kind() {
		case reflect.Ptr, reflect.Interface:
			return true
		case reflect.Struct, reflect.Array:
			return false
		}
		return reflect.PointerTo(rt).NumMethod() == 0
	}
	return false
}

// loopVarCopy makes the generator of a range loop's key or value variable
// that keeps one storage for all iterations (toolscript patch 13): src picks
// the node the iteration writes, from the variable's node.
func loopVarCopy(src func(n *node) *node) bltnGenerator {
	return func(n *node) {
		from := src(n)
		next := getExec(n.tnext)
		n.exec = func(f *frame) bltn {
			f.data[n.findex].Set(f.data[from.findex])
			return next
		}
	}
}

func loopKeySrc(n *node) *node { return n.anc.anc.child[0] }
func loopValSrc(n *node) *node { return n.anc.anc.child[1] }

func loopVarKey(n *node) { loopVarFresh(n, loopKeySrc(n)) }
func loopVarVal(n *node) { loopVarFresh(n, loopValSrc(n)) }

// loopVarFor makes the generator of the i-th variable of a three-clause
// loop whose iterations each have their own (toolscript patch 151: the i-th,
// not only the first).
func loopVarFor(i int) bltnGenerator {
	return func(n *node) { loopVarFresh(n, n.anc.anc.child[0].child[i]) }
}

// loopVarFresh gives each iteration its own variable n, a copy of the one
// src holds.
func loopVarFresh(n, src *node) {
	next := getExec(n.tnext)
	n.exec = func(f *frame) bltn {
		rv := f.data[src.findex]
		nv := reflect.New(rv.Type()).Elem()
		nv.Set(rv)
		f.data[n.findex] = nv
		return next
	}
}

// loopVarForShared makes the generator of the i-th variable of a
// three-clause loop's body that uses the loop's own variable (toolscript
// patch 13), so a write in the body carries to the post statement and the
// next iteration, as in Go.
func loopVarForShared(i int) bltnGenerator { // toolscript patch 151
	return func(n *node) {
		ixn := n.anc.anc.child[0].child[i]
		next := getExec(n.tnext)
		n.exec = func(f *frame) bltn {
			f.data[n.findex] = f.data[ixn.findex]
			return next
		}
	}
}

// loopVarForEnd makes the generator of the body n of a three-clause loop
// whose variables of indices fresh each have their own per iteration
// (toolscript patch 13, and patch 151 for several). As Go specifies, the
// next iteration's variable starts as this iteration's at the end of its
// body, and the post statement works on it: without this, a write to the
// variable in the body was lost.
func loopVarForEnd(fresh []int) bltnGenerator {
	return func(n *node) {
		next := getExec(n.tnext)
		init := n.anc.child[0]
		lvs := make([]int, len(fresh))
		ixs := make([]int, len(fresh))
		for k, i := range fresh {
			lvs[k], ixs[k] = n.child[i].findex, init.child[i].findex
		}
		n.exec = func(f *frame) bltn {
			for k, lv := range lvs {
				f.data[ixs[k]].Set(f.data[lv])
			}
			return next
		}
	}
}

// rangeOnce returns a copy of v (toolscript patch 180): the range
// expression is evaluated once, and v may be the storage of a variable
// the body assigns.
func rangeOnce(v reflect.Value) reflect.Value {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}

func rangeChan(n *node) {
	i := n.child[0].findex        // element index location in frame
	ci := i - 1                   // toolscript patch 180: the channel, evaluated once
	value := genValue(n.child[1]) // chan
	fnext := getExec(n.fnext)
	tnext := getExec(n.tnext)

	n.exec = func(f *frame) bltn {
		f.mutex.RLock()
		done := f.done
		f.mutex.RUnlock()

		chosen, v, ok := n.interp.chanSelect(f, n, "chan receive", []reflect.SelectCase{done, {Dir: reflect.SelectRecv, Chan: f.data[ci]}}) // toolscript patch 78, 180
		if chosen == 0 {
			return nil
		}
		if !ok {
			return fnext
		}
		f.data[i].Set(v)
		return tnext
	}
	// toolscript patch 180: the init evaluates the channel once.
	next := n.exec
	n.child[0].exec = func(f *frame) bltn {
		f.data[ci] = rangeOnce(value(f))
		return next
	}
}

func rangeMap(n *node) {
	index0 := n.child[0].findex // map index location in frame
	index2 := index0 - 1        // iterator for range, always just behind index0
	fnext := getExec(n.fnext)
	tnext := getExec(n.tnext)
	value := genValue(n.child[len(n.child)-2]) // map value

	// toolscript patch 112: the key a script sees of a script value is its record.
	if keyedByEmptyInterface(n.child[len(n.child)-2].typ) {
		rangeMapRecords(n, index0, index2, value, fnext, tnext)
		return
	}

	if len(n.child) == 4 && n.child[1].ident != "_" {
		index1 := n.child[1].findex // map value location in frame
		n.exec = func(f *frame) bltn {
			iter := f.data[index2].Interface().(*reflect.MapIter)
			if !iter.Next() {
				return fnext
			}
			f.data[index0].Set(iter.Key())
			f.data[index1].Set(iter.Value())
			return tnext
		}
	} else {
		n.exec = func(f *frame) bltn {
			iter := f.data[index2].Interface().(*reflect.MapIter)
			if !iter.Next() {
				return fnext
			}
			f.data[index0].Set(iter.Key())
			return tnext
		}
	}

	// Init sequence
	next := n.exec
	n.child[0].exec = func(f *frame) bltn {
		f.data[index2].Set(reflect.ValueOf(value(f).MapRange()))
		return next
	}
}

func _case(n *node) {
	tnext := getExec(n.tnext)

	// TODO(mpl): a lot of what is done in typeAssert should probably be redone/reused here.
	switch {
	case n.anc.anc.kind == typeSwitch:
		fnext := getExec(n.fnext)
		sn := n.anc.anc // switch node
		types := make([]*itype, 0, len(n.child)-1)
		var ifaces []*ifaceAssertion // toolscript patch 38
		for i := 0; i < len(n.child)-1; i++ {
			if t := n.child[i].typ; isAssertedIface(t) {
				ifaces = append(ifaces, newIfaceAssertion(t))
			} else {
				types = append(types, t)
			}
		}
		srcValue := genValue(sn.child[1].lastChild().child[0])
		// matchIface tells whether a case of an interface type matches
		// (toolscript patch 38), with the value it gives the variable.
		matchIface := func(f *frame) (reflect.Value, bool) {
			for _, a := range ifaces {
				if res, ok, _, _ := a.assert(f, srcValue(f)); ok {
					return res, true
				}
			}
			// toolscript patch 179: no case of the clause matches, and a
			// stand-in's real type might (Options.StandIns).
			for _, a := range ifaces {
				if err := a.standInError(n, srcValue(f)); err != nil {
					for _, typ := range types {
						if _, m := holdsType(n.interp, srcValue(f), typ); m {
							return reflect.Value{}, false
						}
					}
					panic(err)
				}
			}
			return reflect.Value{}, false
		}

		exactCases := true // toolscript patch 112: holdsType decides every case
		if len(sn.child[1].child) != 2 {
			// no assign in switch guard
			if len(n.child) <= 1 {
				n.exec = func(f *frame) bltn { return tnext }
			} else {
				n.exec = func(f *frame) bltn {
					if _, ok := matchIface(f); ok { // toolscript patch 38
						return tnext
					}
					// toolscript patch 112: the held value's type, script
					// types included, decides.
					nod, held, ok := heldScriptValue(srcValue(f))
					for _, typ := range types {
						if _, m := heldIs(n.interp, nod, held, ok, typ); m {
							return tnext
						}
					}
					if exactCases {
						return fnext
					}
					ival := srcValue(f).Interface()
					val, ok := ival.(valueInterface)
					// TODO(mpl): I'm assuming here that !ok means that we're dealing with the empty
					// interface case. But maybe we should make sure by checking the relevant cat
					// instead? later. Use t := v.Type(); t.Kind() == reflect.Interface , like above.
					if !ok {
						var stype string
						if ival != nil {
							stype = strings.ReplaceAll(reflect.TypeOf(ival).String(), " {}", "{}")
						}
						inner, wrapped := wrappedScriptValue(srcValue(f)) // toolscript patch 64
						for _, typ := range types {
							// TODO(mpl): we should actually use canAssertTypes, but need to find a valid
							// rtype for typ. Plus we need to refactor with typeAssert().
							// weak check instead for now.
							if ival == nil {
								if typ.cat == nilT {
									return tnext
								}
								continue
							}
							if stype == typ.id() {
								return tnext
							}
							if wrapped && inner.Type() == typ.TypeOf() { // toolscript patch 64
								return tnext
							}
						}
						return fnext
					}
					if v := val.node; v != nil {
						for _, typ := range types {
							if sameNamed(v.typ, typ) { // toolscript patch 135: of one declaration
								return tnext
							}
						}
					}
					return fnext
				}
			}
			break
		}

		// assign in switch guard
		destValue := genValue(n.lastChild().child[0])
		switch {
		case len(ifaces) > 0: // toolscript patch 38
			concrete := &node{}
			*concrete = *n
			concrete.child = make([]*node, 0, len(types)+1)
			for _, c := range n.child[:len(n.child)-1] {
				if !isAssertedIface(c.typ) {
					concrete.child = append(concrete.child, c)
				}
			}
			concrete.child = append(concrete.child, n.lastChild())
			rest := func(*frame) bltn { return fnext }
			if len(types) > 0 {
				_case(concrete)
				rest = concrete.exec
			}
			single := len(ifaces) == 1 && len(types) == 0
			n.exec = func(f *frame) bltn {
				if res, ok := matchIface(f); ok {
					if single {
						destValue(f).Set(res)
					} else {
						destValue(f).Set(srcValue(f))
					}
					return tnext
				}
				next := rest(f)
				if len(types) == 1 {
					// A clause of several types: the variable has the
					// switch expression's type.
					destValue(f).Set(srcValue(f))
				}
				return next
			}
		case len(types) == 0:
			// default clause: assign var to interface value
			n.exec = func(f *frame) bltn {
				destValue(f).Set(srcValue(f))
				return tnext
			}
		case len(types) == 1: // toolscript patch 38
			// match against 1 type: assign var to concrete value
			typ := types[0]
			n.exec = func(f *frame) bltn {
				v := srcValue(f)
				if exactCases { // toolscript patch 112
					res, m := holdsType(n.interp, v, typ)
					if !m {
						return fnext
					}
					if res.IsValid() {
						destValue(f).Set(res)
					}
					return tnext
				}
				if !v.IsValid() {
					// match zero value against nil
					if typ.cat == nilT {
						return tnext
					}
					return fnext
				}
				if t := v.Type(); t.Kind() == reflect.Interface {
					if typ.cat == nilT && v.IsNil() {
						return tnext
					}
					rtyp := typ.TypeOf()
					if rtyp == nil {
						return fnext
					}
					elem := v.Elem()
					if rtyp.String() == t.String() && implementsInterface(v, typ) {
						destValue(f).Set(elem)
						return tnext
					}
					ival := v.Interface()
					if ival != nil && rtyp.String() == reflect.TypeOf(ival).String() {
						destValue(f).Set(elem)
						return tnext
					}
					if typ.cat == valueT && rtyp.Kind() == reflect.Interface && elem.IsValid() && elem.Type().Implements(rtyp) {
						destValue(f).Set(elem)
						return tnext
					}
					if inner, ok := wrappedScriptValue(v); ok && inner.Type() == rtyp { // toolscript patch 64
						destValue(f).Set(inner)
						return tnext
					}
					return fnext
				}
				if vi, ok := v.Interface().(valueInterface); ok {
					if vi.node != nil {
						if sameNamed(vi.node.typ, typ) { // toolscript patch 135: of one declaration
							destValue(f).Set(vi.value)
							return tnext
						}
					}
					return fnext
				}
				if v.Type() == typ.TypeOf() {
					destValue(f).Set(v)
					return tnext
				}
				return fnext
			}

		default:
			n.exec = func(f *frame) bltn {
				val := srcValue(f)
				if exactCases { // toolscript patch 112
					nod, held, ok := heldScriptValue(val)
					for _, typ := range types {
						if _, m := heldIs(n.interp, nod, held, ok, typ); m {
							destValue(f).Set(val)
							return tnext
						}
					}
					return fnext
				}
				if t := val.Type(); t.Kind() == reflect.Interface {
					for _, typ := range types {
						if typ.cat == nilT && val.IsNil() {
							return tnext
						}
						rtyp := typ.TypeOf()
						if rtyp == nil {
							continue
						}
						elem := val.Elem()
						if rtyp.String() == t.String() && implementsInterface(val, typ) {
							destValue(f).Set(elem)
							return tnext
						}
						ival := val.Interface()
						if ival != nil && rtyp.String() == reflect.TypeOf(ival).String() {
							destValue(f).Set(elem)
							return tnext
						}
						if typ.cat == valueT && rtyp.Kind() == reflect.Interface && elem.IsValid() && elem.Type().Implements(rtyp) {
							destValue(f).Set(elem)
							return tnext
						}
						if inner, ok := wrappedScriptValue(val); ok && inner.Type() == rtyp { // toolscript patch 64
							destValue(f).Set(elem)
							return tnext
						}
					}
					return fnext
				}
				if vi, ok := val.Interface().(valueInterface); ok {
					if v := vi.node; v != nil {
						for _, typ := range types {
							if sameNamed(v.typ, typ) { // toolscript patch 135: of one declaration
								destValue(f).Set(val)
								return tnext
							}
						}
					}
					return fnext
				}
				vt := val.Type()
				for _, typ := range types {
					if vt == typ.TypeOf() {
						destValue(f).Set(val)
						return tnext
					}
				}
				return fnext
			}
		}

	case len(n.child) <= 1: // default clause
		n.exec = func(f *frame) bltn { return tnext }

	default:
		fnext := getExec(n.fnext)
		l := len(n.anc.anc.child)
		value := genValue(n.anc.anc.child[l-2])
		values := make([]func(*frame) reflect.Value, len(n.child)-1)
		nils := make([]bool, len(values)) // toolscript patch 140
		for i := range values {
			values[i] = genValue(n.child[i])
			nils[i] = isNilCase(n.child[i])
		}
		n.exec = func(f *frame) bltn {
			v0 := value(f)
			for i, v := range values {
				if caseEqual(v0, v(f), nils[i]) { // toolscript patches 139 and 140
					return tnext
				}
			}
			return fnext
		}
	}
}

// caseEqual tells whether the value v0 of a tagged switch equals the value
// v1 of a case expression, nil if isNil. toolscript patch 139.
func caseEqual(v0, v1 reflect.Value, isNil bool) bool {
	if isNil {
		// toolscript patch 140: case nil matches a nil pointer, function,
		// map, slice or channel (the untyped nil, an interface{}, never
		// equalled one).
		switch v0.Kind() {
		case reflect.Pointer, reflect.Func, reflect.Map, reflect.Slice, reflect.Chan, reflect.UnsafePointer:
			return v0.IsNil()
		}
	}
	if !v0.Type().AssignableTo(v1.Type()) {
		v0 = v0.Convert(v1.Type())
	}
	return v0.Interface() == v1.Interface()
}

// isNilCase tells whether the case expression c is nil. toolscript patch
// 140.
func isNilCase(c *node) bool {
	return c.typ != nil && c.typ.cat == nilT
}

// caseTest makes the generator of the test of the expression i of the case
// clause c of a tagged switch, i not the clause's last expression: a match
// goes to the clause's body, else to the next expression, evaluated only
// then, as in Go (only a clause's first expression was evaluated, so a
// later one that is not a constant or a variable, y+1 in case y, y+1,
// never matched). toolscript patch 139.
func caseTest(c *node, i int) bltnGenerator {
	return func(n *node) {
		tnext, fnext := getExec(n.tnext), getExec(n.fnext)
		sw := c.anc.anc
		value := genValue(sw.child[len(sw.child)-2])
		v1 := genValue(c.child[i])
		isNil := isNilCase(c.child[i]) // toolscript patch 140
		n.exec = func(f *frame) bltn {
			if caseEqual(value(f), v1(f), isNil) {
				return tnext
			}
			return fnext
		}
	}
}

func implementsInterface(v reflect.Value, t *itype) bool {
	rt := v.Type()
	if t.cat == valueT {
		return rt.Implements(t.rtype)
	}
	vt := &itype{cat: valueT, rtype: rt}
	if vt.methods().contains(t.methods()) {
		return true
	}
	vi, ok := v.Interface().(valueInterface)
	if !ok {
		return false
	}
	return vi.node != nil && vi.node.typ.methods().contains(t.methods())
}

func appendSlice(n *node) {
	dest := genValueOutput(n, n.typ.rtype)
	next := getExec(n.tnext)
	value := genValue(n.child[1])
	value0 := genValue(n.child[2])

	if isString(n.child[2].typ.TypeOf()) {
		typ := reflect.TypeOf([]byte{})
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.AppendSlice(value(f), value0(f).Convert(typ)))
			return next
		}
	} else {
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.AppendSlice(value(f), value0(f)))
			return next
		}
	}
}

func _append(n *node) {
	if len(n.child) == 3 && n.action == aCallSlice && n.child[2].isNil() {
		// toolscript patch 160: append(s, nil...) appends nothing.
		n.child = n.child[:2]
	}
	if len(n.child) == 3 {
		c1, c2 := n.child[1], n.child[2]
		if (c1.typ.cat == valueT || c2.typ.cat == valueT) && c1.typ.rtype == c2.typ.rtype ||
			isArray(c2.typ) && c2.typ.elem().id() == n.typ.elem().id() ||
			isByteArray(c1.typ.TypeOf()) && isString(c2.typ.TypeOf()) {
			appendSlice(n)
			return
		}
	}

	dest := genValueOutput(n, n.typ.rtype)
	value := genValue(n.child[1])
	next := getExec(n.tnext)

	switch l := len(n.child); {
	case l == 2:
		n.exec = func(f *frame) bltn {
			dest(f).Set(value(f))
			return next
		}
	case l > 3:
		args := n.child[2:]
		l := len(args)
		values := make([]func(*frame) reflect.Value, l)
		for i, arg := range args {
			switch elem := n.typ.elem(); {
			case isInterfaceSrc(elem) && (!isEmptyInterface(elem) || keepsMethods(arg.typ)): // toolscript patch 38
				values[i] = genValueInterface(arg)
			case isInterfaceBin(elem):
				values[i] = genInterfaceWrapper(arg, elem.rtype)
			case arg.typ.untyped:
				values[i] = genValueAs(arg, n.child[1].typ.TypeOf().Elem())
			case isFuncSrc(elem) || isEmptyInterface(elem) && arg.typ != nil && arg.typ.cat == funcT: // toolscript patch 119: a named function, an instance, as the function value
				values[i] = genFuncValue(arg)
			default:
				values[i] = genValue(arg)
			}
		}

		n.exec = func(f *frame) bltn {
			sl := make([]reflect.Value, l)
			for i, v := range values {
				sl[i] = v(f)
			}
			dest(f).Set(reflect.Append(value(f), sl...))
			return next
		}
	default:
		var value0 func(*frame) reflect.Value
		switch elem := n.typ.elem(); {
		case isInterfaceSrc(elem) && (!isEmptyInterface(elem) || keepsMethods(n.child[2].typ)): // toolscript patch 38
			value0 = genValueInterface(n.child[2])
		case isInterfaceBin(elem):
			value0 = genInterfaceWrapper(n.child[2], elem.rtype)
		case n.child[2].typ.untyped:
			value0 = genValueAs(n.child[2], n.child[1].typ.TypeOf().Elem())
		case isFuncSrc(elem) || isEmptyInterface(elem) && n.child[2].typ != nil && n.child[2].typ.cat == funcT: // toolscript patch 119: a named function, an instance, as the function value
			value0 = genFuncValue(n.child[2])
		default:
			value0 = genValue(n.child[2])
		}

		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.Append(value(f), value0(f)))
			return next
		}
	}
}

func _cap(n *node) {
	dest := genValueOutput(n, reflect.TypeOf(int(0)))
	value := genValue(n.child[1])
	next := getExec(n.tnext)

	if wantEmptyInterface(n) {
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.ValueOf(value(f).Cap()))
			return next
		}
		return
	}
	n.exec = func(f *frame) bltn {
		dest(f).SetInt(int64(value(f).Cap()))
		return next
	}
}

func _copy(n *node) {
	in := []func(*frame) reflect.Value{genValueArray(n.child[1]), genValue(n.child[2])}
	out := []func(*frame) reflect.Value{genValueOutput(n, reflect.TypeOf(0))}

	genBuiltinDeferWrapper(n, in, out, func(args []reflect.Value) []reflect.Value {
		cnt := reflect.Copy(args[0], args[1])
		return []reflect.Value{reflect.ValueOf(cnt)}
	})
}

func _close(n *node) {
	in := []func(*frame) reflect.Value{genValue(n.child[1])}

	genBuiltinDeferWrapper(n, in, nil, func(args []reflect.Value) []reflect.Value {
		args[0].Close()
		return nil
	})
}

func _complex(n *node) {
	dest := genValueOutput(n, reflect.TypeOf(complex(0, 0)))
	c1, c2 := n.child[1], n.child[2]
	convertLiteralValue(c1, floatType)
	convertLiteralValue(c2, floatType)
	value0 := genValue(c1)
	value1 := genValue(c2)
	next := getExec(n.tnext)

	typ := n.typ.TypeOf()
	if isComplex(typ) {
		if wantEmptyInterface(n) {
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.ValueOf(complex(value0(f).Float(), value1(f).Float())))
				return next
			}
			return
		}
		n.exec = func(f *frame) bltn {
			dest(f).SetComplex(complex(value0(f).Float(), value1(f).Float()))
			return next
		}
		return
	}
	// Not a complex type: ignore imaginary part
	n.exec = func(f *frame) bltn {
		dest(f).Set(value0(f).Convert(typ))
		return next
	}
}

func _imag(n *node) {
	dest := genValueOutput(n, reflect.TypeOf(float64(0)))
	convertLiteralValue(n.child[1], complexType)
	value := genValue(n.child[1])
	next := getExec(n.tnext)

	if wantEmptyInterface(n) {
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.ValueOf(imag(value(f).Complex())))
			return next
		}
		return
	}
	n.exec = func(f *frame) bltn {
		dest(f).SetFloat(imag(value(f).Complex()))
		return next
	}
}

func _real(n *node) {
	dest := genValueOutput(n, reflect.TypeOf(float64(0)))
	convertLiteralValue(n.child[1], complexType)
	value := genValue(n.child[1])
	next := getExec(n.tnext)

	if wantEmptyInterface(n) {
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.ValueOf(real(value(f).Complex())))
			return next
		}
		return
	}
	n.exec = func(f *frame) bltn {
		dest(f).SetFloat(real(value(f).Complex()))
		return next
	}
}

func _delete(n *node) {
	value0 := genValue(n.child[1]) // map
	value1 := genValue(n.child[2]) // key

	// toolscript patch 112: a map[any]'s key of a script value.
	if key := genMapKey(n.child[1].typ, n.child[2]); key != nil {
		value1 = key
	}
	in := []func(*frame) reflect.Value{value0, value1}
	var z reflect.Value

	genBuiltinDeferWrapper(n, in, nil, func(args []reflect.Value) []reflect.Value {
		args[0].SetMapIndex(args[1], z)
		return nil
	})
}

func capConst(n *node) {
	// There is no Cap() method for reflect.Type, just return Len() instead.
	lenConst(n)
}

func lenConst(n *node) {
	n.rval = reflect.New(reflect.TypeOf(int(0))).Elem()
	c1 := n.child[1]
	if c1.rval.IsValid() {
		n.rval.SetInt(int64(len(vString(c1.rval))))
		return
	}
	t := c1.typ.TypeOf()
	for t.Kind() == reflect.Ptr {
		t = t.Elem()
	}
	n.rval.SetInt(int64(t.Len()))
}

func _len(n *node) {
	dest := genValueOutput(n, reflect.TypeOf(int(0)))
	value := genValue(n.child[1])
	// toolscript patch 130: len of a pointer to an array is its type's
	// length, a nil pointer's too (reflect panicked on the zero Value).
	if t := n.child[1].typ.TypeOf(); t.Kind() == reflect.Ptr && t.Elem().Kind() == reflect.Array {
		zero := reflect.Zero(t.Elem())
		value = func(*frame) reflect.Value { return zero }
	} else if isPtr(n.child[1].typ) {
		val := value
		value = func(f *frame) reflect.Value {
			v := val(f).Elem()
			for v.Kind() == reflect.Ptr {
				v = v.Elem()
			}
			return v
		}
	}
	next := getExec(n.tnext)

	if wantEmptyInterface(n) {
		n.exec = func(f *frame) bltn {
			dest(f).Set(reflect.ValueOf(value(f).Len()))
			return next
		}
		return
	}
	n.exec = func(f *frame) bltn {
		dest(f).SetInt(int64(value(f).Len()))
		return next
	}
}

// _newValue is new(expr): a pointer to a new variable holding the value of
// expr. toolscript patch 49.
func _newValue(n *node) {
	next := getExec(n.tnext)
	et := n.typ.val
	typ := et.TypeOf()
	dest := genValueOutput(n, reflect.PtrTo(typ))
	value := genDestValue(et, n.child[1])
	n.exec = func(f *frame) bltn {
		v := reflect.New(typ)
		v.Elem().Set(value(f))
		dest(f).Set(v)
		return next
	}
}

func _new(n *node) {
	next := getExec(n.tnext)
	t1 := n.child[1].typ
	typ := t1.TypeOf()
	dest := genValueOutput(n, reflect.PtrTo(typ))

	if isInterfaceSrc(t1) && (!isEmptyInterface(t1) || len(t1.method) > 0) {
		typ = zeroInterfaceValue().Type()
	}

	n.exec = func(f *frame) bltn {
		v := reflect.New(typ)
		if vi, ok := v.Interface().(*valueInterface); ok {
			vi.node = n
		}
		dest(f).Set(v)
		return next
	}
}

// _make allocates and initializes a slice, a map or a chan.
func _make(n *node) {
	next := getExec(n.tnext)
	typ := n.child[1].typ.frameType()
	dest := genValueOutput(n, typ)
	check := n.interp.opt.makeCheck // toolscript patch 24

	switch typ.Kind() {
	case reflect.Array, reflect.Slice:
		value := genValue(n.child[2])

		switch len(n.child) {
		case 3:
			n.exec = func(f *frame) bltn {
				length := int(vInt(value(f)))
				checkMakeSlice(length, length) // toolscript patch 147
				if check != nil {              // toolscript patch 24
					check(typ, length)
				}
				dest(f).Set(reflect.MakeSlice(typ, length, length))
				return next
			}
		case 4:
			value1 := genValue(n.child[3])
			n.exec = func(f *frame) bltn {
				length, capacity := int(vInt(value(f))), int(vInt(value1(f)))
				checkMakeSlice(length, capacity) // toolscript patch 147
				if check != nil {                // toolscript patch 24
					check(typ, max(length, capacity))
				}
				dest(f).Set(reflect.MakeSlice(typ, length, capacity))
				return next
			}
		}

	case reflect.Chan:
		// toolscript patch 120: make(chan<- T) and make(<-chan T) make a
		// channel of both directions, held as one of the type made (Go
		// allows them; reflect.MakeChan panicked: "unidirectional channel
		// type").
		mk := typ
		if typ.ChanDir() != reflect.BothDir {
			mk = reflect.ChanOf(reflect.BothDir, typ.Elem())
		}
		switch len(n.child) {
		case 2:
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.MakeChan(mk, 0).Convert(typ)) // toolscript patch 120
				return next
			}
		case 3:
			value := genValue(n.child[2])
			n.exec = func(f *frame) bltn {
				size := int(vInt(value(f)))
				if check != nil { // toolscript patch 24
					check(typ, size)
				}
				dest(f).Set(reflect.MakeChan(mk, size).Convert(typ)) // toolscript patch 120
				return next
			}
		}

	case reflect.Map:
		switch len(n.child) {
		case 2:
			n.exec = func(f *frame) bltn {
				dest(f).Set(reflect.MakeMap(typ))
				return next
			}
		case 3:
			value := genValue(n.child[2])
			n.exec = func(f *frame) bltn {
				size := int(vInt(value(f)))
				if check != nil { // toolscript patch 24
					check(typ, size)
				}
				dest(f).Set(reflect.MakeMapWithSize(typ, size))
				return next
			}
		}
	}
}

func reset(n *node) {
	next := getExec(n.tnext)

	switch l := len(n.child) - 1; l {
	case 1:
		typ := n.child[0].typ.frameType()
		i := n.child[0].findex
		n.exec = func(f *frame) bltn {
			f.data[i] = reflect.New(typ).Elem()
			return next
		}
	case 2:
		c0, c1 := n.child[0], n.child[1]
		i0, i1 := c0.findex, c1.findex
		t0, t1 := c0.typ.frameType(), c1.typ.frameType()
		n.exec = func(f *frame) bltn {
			f.data[i0] = reflect.New(t0).Elem()
			f.data[i1] = reflect.New(t1).Elem()
			return next
		}
	default:
		types := make([]reflect.Type, l)
		index := make([]int, l)
		for i, c := range n.child[:l] {
			index[i] = c.findex
			types[i] = c.typ.frameType()
		}
		n.exec = func(f *frame) bltn {
			for i, ind := range index {
				f.data[ind] = reflect.New(types[i]).Elem()
			}
			return next
		}
	}
}

// recv reads from a channel.
func recv(n *node) {
	value := genValue(n.child[0])
	tnext := getExec(n.tnext)
	i := n.findex
	l := n.level
	// toolscript patch 83: a receive assigned to a variable or returned
	// is stored into that variable's (or result's) slot; replacing the
	// slot's value cut it from pointers to the variable and from
	// closures that had captured it, and left a result slot that the
	// return then could not set ("Set using unaddressable value").
	store := func(f *frame, v reflect.Value) { getFrame(f, l).data[i] = v }
	if n.anc.kind == returnStmt || n.anc.kind == assignStmt && n.anc.action == aAssign && n.anc.nright == 1 {
		store = func(f *frame, v reflect.Value) {
			d := getFrame(f, l).data
			if d[i].CanSet() && v.Type().AssignableTo(d[i].Type()) {
				d[i].Set(v)
				return
			}
			d[i] = v
		}
	}

	if n.interp.cancelChan {
		// Cancellable channel read
		if n.fnext != nil {
			fnext := getExec(n.fnext)
			n.exec = func(f *frame) bltn {
				// Fast: channel read doesn't block
				ch := value(f)
				if r, ok := ch.TryRecv(); ok {
					store(f, r) // toolscript patch 83
					if r.Bool() {
						return tnext
					}
					return fnext
				}
				// Slow: channel read blocks, allow cancel
				f.mutex.RLock()
				done := f.done
				f.mutex.RUnlock()

				chosen, v, _ := n.interp.chanWait(f, n, "chan receive", []reflect.SelectCase{done, {Dir: reflect.SelectRecv, Chan: ch}}) // toolscript patch 78
				if chosen == 0 {
					return nil
				}
				// toolscript patch 17: keep the value received, as the
				// fast path does; the boolean expression around the
				// receive reads it (<-ch && x was false on a wait).
				store(f, v) // toolscript patch 83
				if v.Bool() {
					return tnext
				}
				return fnext
			}
		} else {
			n.exec = func(f *frame) bltn {
				// Fast: channel read doesn't block
				ch := value(f)
				if r, ok := ch.TryRecv(); ok {
					store(f, r) // toolscript patch 83
					return tnext
				}
				// Slow: channel is blocked, allow cancel
				f.mutex.RLock()
				done := f.done
				f.mutex.RUnlock()

				chosen, v, _ := n.interp.chanWait(f, n, "chan receive", []reflect.SelectCase{done, {Dir: reflect.SelectRecv, Chan: ch}}) // toolscript patch 78
				if chosen == 0 {
					return nil
				}
				store(f, v) // toolscript patch 83
				return tnext
			}
		}
	} else {
		// Blocking channel read (less overhead)
		if n.fnext != nil {
			fnext := getExec(n.fnext)
			n.exec = func(f *frame) bltn {
				if r, _ := value(f).Recv(); r.Bool() {
					store(f, r) // toolscript patch 83
					return tnext
				}
				return fnext
			}
		} else {
			n.exec = func(f *frame) bltn {
				v, _ := value(f).Recv() // toolscript patch 83
				store(f, v)             // toolscript patch 83
				return tnext
			}
		}
	}
}

func recv2(n *node) {
	vchan := genValue(n.child[0])    // chan
	vres := genValue(n.anc.child[0]) // result
	vok := genValue(n.anc.child[1])  // status
	tnext := getExec(n.tnext)

	if n.interp.cancelChan {
		// Cancellable channel read
		n.exec = func(f *frame) bltn {
			ch, result, status := vchan(f), vres(f), vok(f)
			//  Fast: channel read doesn't block
			if v, ok := ch.TryRecv(); ok {
				result.Set(v)
				status.SetBool(true)
				return tnext
			}
			// Slow: channel is blocked, allow cancel
			f.mutex.RLock()
			done := f.done
			f.mutex.RUnlock()

			chosen, v, ok := n.interp.chanWait(f, n, "chan receive", []reflect.SelectCase{done, {Dir: reflect.SelectRecv, Chan: ch}}) // toolscript patch 78
			if chosen == 0 {
				return nil
			}
			result.Set(v)
			status.SetBool(ok)
			return tnext
		}
	} else {
		// Blocking channel read (less overhead)
		n.exec = func(f *frame) bltn {
			v, ok := vchan(f).Recv()
			vres(f).Set(v)
			vok(f).SetBool(ok)
			return tnext
		}
	}
}

// callNilVariadic calls bf with in; a variadic function given no
// variadic argument gets a nil slice, as in Go (reflect's Call passes an
// empty one: h() of a variadic closure h saw xs != nil).
// toolscript patch 160
func callNilVariadic(bf reflect.Value, in []reflect.Value) []reflect.Value {
	if t := bf.Type(); t.IsVariadic() && len(in) == t.NumIn()-1 {
		return bf.CallSlice(append(in, reflect.Zero(t.In(len(in)))))
	}
	return bf.Call(in)
}

// spreadFunc returns the variadic function fn as a function of the same
// parameters that is not variadic, so that Call of it passes its last
// argument, a slice, as fn's variadic parameter: a deferred f(s...)
// (reflect's Call made it one element: defer fmt.Println(s...) printed
// [1 2], defer f(s...) of an f(...int) panicked).
// toolscript patch 160
func spreadFunc(fn reflect.Value) reflect.Value {
	t := fn.Type()
	if t.Kind() != reflect.Func || !t.IsVariadic() {
		return fn
	}
	in := make([]reflect.Type, t.NumIn())
	for i := range in {
		in[i] = t.In(i)
	}
	out := make([]reflect.Type, t.NumOut())
	for i := range out {
		out[i] = t.Out(i)
	}
	return reflect.MakeFunc(reflect.FuncOf(in, out, false), func(args []reflect.Value) []reflect.Value {
		return fn.CallSlice(args)
	})
}

func convertLiteralValue(n *node, t reflect.Type) {
	switch {
	case n.typ.cat == nilT:
		// Create a zero value of target type.
		n.rval = reflect.New(t).Elem()
	case !(n.kind == basicLit || n.rval.IsValid()) || t == nil || t.Kind() == reflect.Interface || t == valueInterfaceType || t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Interface:
		// Skip non-constant values, undefined target type or interface target type.
	case n.rval.IsValid():
		// Convert constant value to target type.
		convertConstantValue(n)
		n.rval = n.rval.Convert(t)
	default:
		// Create a zero value of target type.
		n.rval = reflect.New(t).Elem()
	}
}

func convertConstantValue(n *node) {
	if !n.rval.IsValid() {
		return
	}
	c, ok := n.rval.Interface().(constant.Value)
	if !ok {
		return
	}

	var v reflect.Value

	switch c.Kind() {
	case constant.Bool:
		v = reflect.ValueOf(constant.BoolVal(c))
	case constant.String:
		v = reflect.ValueOf(constant.StringVal(c))
	case constant.Int:
		i, x := constant.Int64Val(c)
		if !x {
			panic(n.cfgErrorf("constant %s overflows int64", c.ExactString()))
		}
		v = reflect.ValueOf(int(i))
	case constant.Float:
		f, _ := constant.Float64Val(c)
		v = reflect.ValueOf(f)
	case constant.Complex:
		r, _ := constant.Float64Val(constant.Real(c))
		i, _ := constant.Float64Val(constant.Imag(c))
		v = reflect.ValueOf(complex(r, i))
	}

	n.rval = v.Convert(n.typ.TypeOf())
}

// Write to a channel.
func send(n *node) {
	next := getExec(n.tnext)
	c0, c1 := n.child[0], n.child[1]
	value0 := genValue(c0) // Send channel.
	value1 := genDestValue(c0.typ.elem(), c1)

	if !n.interp.cancelChan {
		// Send is non-cancellable, has the least overhead.
		n.exec = func(f *frame) bltn {
			value0(f).Send(value1(f))
			return next
		}
		return
	}

	// Send is cancellable, may have some overhead.
	n.exec = func(f *frame) bltn {
		ch, data := value0(f), value1(f)
		// Fast: send on channel doesn't block.
		if ok := ch.TrySend(data); ok {
			return next
		}
		// Slow: send on channel blocks, allow cancel.
		f.mutex.RLock()
		done := f.done
		f.mutex.RUnlock()

		chosen, _, _ := n.interp.chanWait(f, n, "chan send", []reflect.SelectCase{done, {Dir: reflect.SelectSend, Chan: ch, Send: data}}) // toolscript patch 78
		if chosen == 0 {
			return nil
		}
		return next
	}
}

func clauseChanDir(n *node) (*node, *node, *node, reflect.SelectDir) {
	dir := reflect.SelectDefault
	var nod, assigned, ok *node
	var stop bool

	n.Walk(func(m *node) bool {
		switch m.action {
		case aRecv:
			dir = reflect.SelectRecv
			nod = m.child[0]
			switch m.anc.action {
			case aAssign:
				assigned = m.anc.child[0]
			case aAssignX:
				assigned = m.anc.child[0]
				ok = m.anc.child[1]
			}
			stop = true
		case aSend:
			dir = reflect.SelectSend
			nod = m.child[0]
			assigned = m.child[1]
			stop = true
		}
		return !stop
	}, nil)
	return nod, assigned, ok, dir
}

func _select(n *node) {
	nbClause := len(n.child)
	chans := make([]*node, nbClause)
	assigned := make([]*node, nbClause)
	ok := make([]*node, nbClause)
	clause := make([]bltn, nbClause)
	chanValues := make([]func(*frame) reflect.Value, nbClause)
	assignedValues := make([]func(*frame) reflect.Value, nbClause)
	okValues := make([]func(*frame) reflect.Value, nbClause)
	cases := make([]reflect.SelectCase, nbClause+1)
	next := getExec(n.tnext)

	for i := 0; i < nbClause; i++ {
		cl := n.child[i]
		if cl.kind == commClauseDefault {
			cases[i].Dir = reflect.SelectDefault
			if len(cl.child) == 0 {
				clause[i] = func(*frame) bltn { return next }
			} else {
				clause[i] = getExec(cl.child[0].start)
			}
			continue
		}
		// The comm clause is in send or recv direction.
		switch c0 := cl.child[0]; {
		case len(cl.child) > 1:
			// The comm clause contains a channel operation and a clause body.
			clause[i] = getExec(cl.child[1].start)
			chans[i], assigned[i], ok[i], cases[i].Dir = clauseChanDir(c0)
			chanValues[i] = genValue(chans[i])
			if assigned[i] != nil {
				assignedValues[i] = genValue(assigned[i])
				if cases[i].Dir == reflect.SelectSend { // toolscript patch 125: sent as the channel's element (a script interface's record)
					assignedValues[i] = genDestValue(chans[i].typ.elem(), assigned[i])
				}
			}
			if ok[i] != nil {
				okValues[i] = genValue(ok[i])
			}
		case c0.kind == exprStmt && len(c0.child) == 1 && c0.child[0].action == aRecv:
			// The comm clause has an empty body clause after channel receive.
			chanValues[i] = genValue(c0.child[0].child[0])
			cases[i].Dir = reflect.SelectRecv
			clause[i] = func(*frame) bltn { return next }
		case c0.kind == sendStmt:
			// The comm clause as an empty body clause after channel send.
			chanValues[i] = genValue(c0.child[0])
			cases[i].Dir = reflect.SelectSend
			assignedValues[i] = genDestValue(c0.child[0].typ.elem(), c0.child[1]) // toolscript patch 125
			clause[i] = func(*frame) bltn { return next }
		}
	}

	template := cases
	selectState := selectWaitState(template) // toolscript patch 78
	n.exec = func(f *frame) bltn {
		// toolscript patch 33: cases of this execution of the select;
		// upstream wrote one slice of the node from every goroutine
		// running the statement (a data race: select {} in goroutines).
		cases := make([]reflect.SelectCase, len(template))
		copy(cases, template)
		f.mutex.RLock()
		cases[nbClause] = f.done
		f.mutex.RUnlock()

		for i := range cases[:nbClause] {
			switch cases[i].Dir {
			case reflect.SelectRecv:
				cases[i].Chan = chanValues[i](f)
			case reflect.SelectSend:
				cases[i].Chan = chanValues[i](f)
				cases[i].Send = assignedValues[i](f)
			case reflect.SelectDefault:
				// Keep zero values for comm clause
			}
		}
		j, v, s := n.interp.selectCases(f, n, selectState, cases) // toolscript patch 78
		if j == nbClause {
			return nil
		}
		if cases[j].Dir == reflect.SelectRecv && assignedValues[j] != nil {
			assignedValues[j](f).Set(v)
			if ok[j] != nil {
				okValues[j](f).SetBool(s)
			}
		}
		return clause[j]
	}
}

// slice expression: array[low:high:max].
func slice(n *node) {
	i := n.findex
	l := n.level
	next := getExec(n.tnext)
	value0 := genValueArray(n.child[0]) // array
	value1 := genValue(n.child[1])      // low (if 2 or 3 args) or high (if 1 arg)
	// toolscript patch 147: sliceValue checks the indexes and raises Go's
	// run-time error, whose message depends on their signedness.
	u1 := isUint(n.child[1].typ.TypeOf()) // toolscript patch 147

	switch len(n.child) {
	case 2:
		n.exec = func(f *frame) bltn {
			a := value0(f)
			getFrame(f, l).data[i] = sliceValue(a, sliceIndex{vInt(value1(f)), u1}, sliceIndex{}, sliceIndex{}, false, false) // toolscript patch 147
			return next
		}
	case 3:
		value2 := genValue(n.child[2])        // max
		u2 := isUint(n.child[2].typ.TypeOf()) // toolscript patch 147

		n.exec = func(f *frame) bltn {
			a := value0(f)
			getFrame(f, l).data[i] = sliceValue(a, sliceIndex{vInt(value1(f)), u1}, sliceIndex{vInt(value2(f)), u2}, sliceIndex{}, true, false) // toolscript patch 147
			return next
		}
	case 4:
		value2 := genValue(n.child[2])
		value3 := genValue(n.child[3])
		u2, u3 := isUint(n.child[2].typ.TypeOf()), isUint(n.child[3].typ.TypeOf()) // toolscript patch 147

		n.exec = func(f *frame) bltn {
			a := value0(f)
			getFrame(f, l).data[i] = sliceValue(a, sliceIndex{vInt(value1(f)), u1}, sliceIndex{vInt(value2(f)), u2}, sliceIndex{vInt(value3(f)), u3}, true, true) // toolscript patch 147
			return next
		}
	}
}

// slice expression, no low value: array[:high:max].
func slice0(n *node) {
	i := n.findex
	l := n.level
	next := getExec(n.tnext)
	value0 := genValueArray(n.child[0])

	switch len(n.child) {
	case 1:
		n.exec = func(f *frame) bltn {
			a := value0(f)
			getFrame(f, l).data[i] = sliceValue(a, sliceIndex{}, sliceIndex{}, sliceIndex{}, false, false) // toolscript patch 147
			return next
		}
	case 2:
		value1 := genValue(n.child[1])
		u1 := isUint(n.child[1].typ.TypeOf()) // toolscript patch 147
		n.exec = func(f *frame) bltn {
			a := value0(f)
			getFrame(f, l).data[i] = sliceValue(a, sliceIndex{}, sliceIndex{vInt(value1(f)), u1}, sliceIndex{}, true, false) // toolscript patch 147
			return next
		}
	case 3:
		value1 := genValue(n.child[1])
		value2 := genValue(n.child[2])
		u1, u2 := isUint(n.child[1].typ.TypeOf()), isUint(n.child[2].typ.TypeOf()) // toolscript patch 147
		n.exec = func(f *frame) bltn {
			a := value0(f)
			getFrame(f, l).data[i] = sliceValue(a, sliceIndex{}, sliceIndex{vInt(value1(f)), u1}, sliceIndex{vInt(value2(f)), u2}, true, true) // toolscript patch 147
			return next
		}
	}
}

func isNilChild(child int) func(n *node) {
	return func(n *node) {
		var value func(*frame) reflect.Value
		child := n.child[child]
		value = genValue(child)
		typ := n.typ.concrete().TypeOf()
		isInterface := n.typ.TypeOf().Kind() == reflect.Interface
		tnext := getExec(n.tnext)
		dest := genValue(n)
		if n.fnext == nil {
			if !isInterfaceSrc(child.typ) {
				if isInterface {
					n.exec = func(f *frame) bltn {
						dest(f).Set(reflect.ValueOf(value(f).IsNil()).Convert(typ))
						return tnext
					}
					return
				}
				n.exec = func(f *frame) bltn {
					dest(f).SetBool(value(f).IsNil())
					return tnext
				}
				return
			}
			if isInterface {
				n.exec = func(f *frame) bltn {
					v := value(f)
					var r bool
					if vi, ok := v.Interface().(valueInterface); ok {
						r = (vi == valueInterface{} || vi.node.kind == basicLit && vi.node.typ.cat == nilT)
					} else {
						r = v.IsNil()
					}
					dest(f).Set(reflect.ValueOf(r).Convert(typ))
					return tnext
				}
				return
			}
			n.exec = func(f *frame) bltn {
				v := value(f)
				var r bool
				if vi, ok := v.Interface().(valueInterface); ok {
					r = (vi == valueInterface{} || vi.node.kind == basicLit && vi.node.typ.cat == nilT)
				} else {
					r = v.IsNil()
				}
				dest(f).SetBool(r)
				return tnext
			}
			return
		}

		fnext := getExec(n.fnext)

		if !isInterfaceSrc(child.typ) {
			n.exec = func(f *frame) bltn {
				if value(f).IsNil() {
					dest(f).SetBool(true)
					return tnext
				}
				dest(f).SetBool(false)
				return fnext
			}
			return
		}

		n.exec = func(f *frame) bltn {
			v := value(f)
			if vi, ok := v.Interface().(valueInterface); ok {
				if (vi == valueInterface{} || vi.node.kind == basicLit && vi.node.typ.cat == nilT) {
					dest(f).SetBool(true)
					return tnext
				}
				dest(f).SetBool(false)
				return fnext
			}
			if v.IsNil() {
				dest(f).SetBool(true)
				return tnext
			}
			dest(f).SetBool(false)
			return fnext
		}
	}
}

func isNotNil(n *node) {
	var value func(*frame) reflect.Value
	c0 := n.child[0]
	value = genValue(c0)
	typ := n.typ.concrete().TypeOf()
	isInterface := n.typ.TypeOf().Kind() == reflect.Interface
	tnext := getExec(n.tnext)
	dest := genValue(n)

	if n.fnext == nil {
		if isInterfaceSrc(c0.typ) && c0.typ.TypeOf() != valueInterfaceType {
			if isInterface {
				n.exec = func(f *frame) bltn {
					dest(f).Set(reflect.ValueOf(!value(f).IsNil()).Convert(typ))
					return tnext
				}
				return
			}
			n.exec = func(f *frame) bltn {
				dest(f).SetBool(!value(f).IsNil())
				return tnext
			}
			return
		}

		if isInterface {
			n.exec = func(f *frame) bltn {
				v := value(f)
				var r bool
				if vi, ok := v.Interface().(valueInterface); ok {
					r = (vi == valueInterface{} || vi.node.kind == basicLit && vi.node.typ.cat == nilT)
				} else {
					r = v.IsNil()
				}
				dest(f).Set(reflect.ValueOf(!r).Convert(typ))
				return tnext
			}
			return
		}
		n.exec = func(f *frame) bltn {
			v := value(f)
			var r bool
			if vi, ok := v.Interface().(valueInterface); ok {
				r = (vi == valueInterface{} || vi.node.kind == basicLit && vi.node.typ.cat == nilT)
			} else {
				r = v.IsNil()
			}
			dest(f).SetBool(!r)
			return tnext
		}
		return
	}

	fnext := getExec(n.fnext)

	if isInterfaceSrc(c0.typ) && c0.typ.TypeOf() != valueInterfaceType {
		n.exec = func(f *frame) bltn {
			if value(f).IsNil() {
				dest(f).SetBool(false)
				return fnext
			}
			dest(f).SetBool(true)
			return tnext
		}
		return
	}

	n.exec = func(f *frame) bltn {
		v := value(f)
		if vi, ok := v.Interface().(valueInterface); ok {
			if (vi == valueInterface{} || vi.node.kind == basicLit && vi.node.typ.cat == nilT) {
				dest(f).SetBool(false)
				return fnext
			}
			dest(f).SetBool(true)
			return tnext
		}
		if v.IsNil() {
			dest(f).SetBool(false)
			return fnext
		}
		dest(f).SetBool(true)
		return tnext
	}
}

// complexConst computes complex of constant arguments at compile time:
// exactly, as an untyped constant, if both are untyped, or in the result's
// type. toolscript patch 124.
func complexConst(n *node) {
	if v0, v1 := n.child[1].rval, n.child[2].rval; v0.IsValid() && v1.IsValid() {
		if c0, c1 := vConstantValue(v0), vConstantValue(v1); c0 != nil && c1 != nil && n.typ.untyped {
			n.rval = reflect.ValueOf(constant.BinaryOp(constant.ToFloat(c0), token.ADD, constant.MakeImag(constant.ToFloat(c1))))
		} else if c := complex(vFloat(v0), vFloat(v1)); v0.Kind() == reflect.Float32 || v1.Kind() == reflect.Float32 {
			n.rval = reflect.ValueOf(complex64(c))
		} else {
			n.rval = reflect.ValueOf(c)
		}
		n.gen = nop
	}
}

// imagConst computes imag of a constant at compile time: an untyped
// constant of an untyped one (upstream called reflect's Complex on the
// go/constant value, a compiler panic), or a value of the result's type.
// toolscript patch 124.
func imagConst(n *node) {
	if v := n.child[1].rval; v.IsValid() {
		if c := vConstantValue(v); c != nil {
			n.rval = reflect.ValueOf(constant.ToFloat(constant.Imag(c)))
		} else if x := imag(v.Complex()); v.Kind() == reflect.Complex64 {
			n.rval = reflect.ValueOf(float32(x))
		} else {
			n.rval = reflect.ValueOf(x)
		}
		n.gen = nop
	}
}

// realConst computes real of a constant at compile time, as imagConst
// does imag. toolscript patch 124.
func realConst(n *node) {
	if v := n.child[1].rval; v.IsValid() {
		if c := vConstantValue(v); c != nil {
			n.rval = reflect.ValueOf(constant.ToFloat(constant.Real(c)))
		} else if x := real(v.Complex()); v.Kind() == reflect.Complex64 {
			n.rval = reflect.ValueOf(float32(x))
		} else {
			n.rval = reflect.ValueOf(x)
		}
		n.gen = nop
	}
}

// embeddedIfaceIndex returns the index path, in the struct t or the
// struct t points to, of the embedded field of an interface type through
// which the method name is promoted, or nil. toolscript patch 131
func embeddedIfaceIndex(t *itype, name string, depth int) []int {
	for t != nil && (t.cat == ptrT || t.cat == linkedT) {
		t = t.val
	}
	if t == nil || t.cat != structT || depth > 16 {
		return nil
	}
	for i, f := range t.field {
		if !f.embed || f.typ == nil {
			continue
		}
		ft := f.typ
		for ft.cat == linkedT && ft.val != nil {
			ft = ft.val
		}
		switch {
		case ft.cat == interfaceT && ft.interfaceMethod(name) != nil:
			return []int{i}
		case ft.cat == valueT && ft.rtype != nil && ft.rtype.Kind() == reflect.Interface:
			if _, ok := ft.rtype.MethodByName(name); ok {
				return []int{i}
			}
		}
	}
	for i, f := range t.field {
		if !f.embed || f.typ == nil {
			continue
		}
		if p := embeddedIfaceIndex(f.typ, name, depth+1); p != nil {
			return append([]int{i}, p...)
		}
	}
	return nil
}

// embeddedIfaceValue reads the embedded interface field at path in the
// struct v (or the struct v points to). A nil pointer on the way, or a
// nil interface, is Go's nil dereference. toolscript patch 131
func embeddedIfaceValue(v reflect.Value, path []int) (valueInterface, bool) {
	for _, i := range path {
		for v.Kind() == reflect.Ptr {
			if v.IsNil() {
				panic(&RuntimeError{Kind: KindNilDereference})
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct || i >= v.NumField() {
			return valueInterface{}, false
		}
		v = v.Field(i)
	}
	vi, ok := v.Interface().(valueInterface)
	if ok && vi.node == nil {
		panic(&RuntimeError{Kind: KindNilDereference})
	}
	return vi, ok
}
