package interp // toolscript patch 164

import (
	"reflect"
	"runtime"
	"strings"
)

// uncomparableError is Go's run-time error of an == of two interface
// values holding values of a type == cannot compare, naming the script's
// type as Go does ("comparing uncomparable type main.S"): the Go runtime,
// comparing the interpreter's representations, named theirs (struct {
// Xxs []int "json:\"-\"" } for a type S struct{ xs []int }, []int for a
// type L []int).
type uncomparableError string

func (e uncomparableError) Error() string {
	return "runtime error: comparing uncomparable type " + string(e)
}

// RuntimeError implements runtime.Error.
func (uncomparableError) RuntimeError() {}

// checkComparable panics with Go's run-time error when v, the value of a
// record of a value of the script type t, is of a type == cannot compare.
func checkComparable(t *itype, v reflect.Value) {
	if t != nil && v.IsValid() && !v.Type().Comparable() {
		panic(uncomparableError(t.id()))
	}
}

// checkHashable panics as the Go runtime's map code does when v, the
// value of a record of a value of the script type t, a key of a map[any],
// cannot be hashed, naming t (patch 134 makes a store's error Go's
// "runtime error: hash of unhashable type main.S"; a read or a delete
// keeps this text, as in Go).
func checkHashable(t *itype, v reflect.Value) {
	if t != nil && v.IsValid() && !v.Type().Comparable() {
		panic(unhashableKeyError("hash of unhashable type: " + t.id()))
	}
}

// uncomparablePanic names the script's type in the Go runtime's error of
// an == or a map's hash of a value of a script type held in an interface
// as its representation (a [1]S, a []L: the runtime named [1]struct {
// Xxs []int "json:\"-\"" }), when one script type held so has that
// representation; r otherwise.
func uncomparablePanic(r interface{}, interp *Interpreter) interface{} {
	switch e := r.(type) {
	case *RuntimeError:
		if e.Kind == KindUnhashable {
			if name, amb := interp.heldRepName(e.Type, "map key"); amb != nil { // toolscript patch 211
				return amb
			} else if name != "" {
				return &RuntimeError{Kind: KindUnhashable, Type: name}
			}
		}
		return r
	case uncomparableError, unhashableKeyError:
		return r
	case runtime.Error:
		msg := e.Error()
		if t, ok := strings.CutPrefix(msg, "runtime error: comparing uncomparable type "); ok {
			if name, amb := interp.heldRepName(t, "comparison"); amb != nil { // toolscript patch 211
				return amb
			} else if name != "" {
				return uncomparableError(name)
			}
		}
		if t, ok := strings.CutPrefix(msg, "hash of unhashable type: "); ok {
			if name, amb := interp.heldRepName(t, "map key"); amb != nil { // toolscript patch 211
				return amb
			} else if name != "" {
				return unhashableKeyError("hash of unhashable type: " + name)
			}
		}
		if t, ok := strings.CutPrefix(msg, "runtime error: hash of unhashable type "); ok {
			if name, amb := interp.heldRepName(t, "map key"); amb != nil { // toolscript patch 211
				return amb
			} else if name != "" {
				return &RuntimeError{Kind: KindUnhashable, Type: name}
			}
		}
	}
	return r
}

// heldTypeName returns the name of the script type whose values the
// script puts in interfaces as their representation (noteHeld), of the
// representation named rep, when there is one such type; "" otherwise.
func (interp *Interpreter) heldTypeName(rep string) (name string) {
	if interp == nil {
		return ""
	}
	interp.named.RLock()
	held := interp.named.held
	interp.named.RUnlock()
	for _, t := range held {
		if typeRepString(t) != rep {
			continue
		}
		n := t.str
		interp.named.RLock()
		if s, ok := interp.named.inst[t]; ok {
			n = s
		}
		interp.named.RUnlock()
		if name != "" && name != n {
			return "" // two types of one representation: the runtime's name stays
		}
		name = n
	}
	return name
}

// heldRepName is heldTypeName when rep, the name of the representation
// of the value the Go runtime failed to compare or hash, is the own
// representation of the held script types of that representation (made
// of a script struct type, which a native value never has): the value
// is of that type. When a native value may have rep too ([]int for a
// held []ID, map[string]int for a map[string]ID), the interpreter cannot
// tell which the value is (it has no record of it): it returns an
// AmbiguousTypeError for op (the value recovered) rather than name either (patch 164 named
// the script's type, so []int{} == []int{} in an any named []main.ID
// when the script put []ID values in interfaces anywhere); "" when no
// held type has rep, the runtime's name of a native value staying.
// toolscript patch 211.
func (interp *Interpreter) heldRepName(rep, op string) (string, *AmbiguousTypeError) {
	name := interp.heldTypeName(rep)
	if interp == nil {
		return name, nil
	}
	interp.named.RLock()
	held := interp.named.held
	interp.named.RUnlock()
	var names []string
	own := true
	for _, t := range held {
		if typeRepString(t) != rep {
			continue
		}
		n := t.str
		interp.named.RLock()
		if s, ok := interp.named.inst[t]; ok {
			n = s
		}
		interp.named.RUnlock()
		if !strings.Contains(" or "+strings.Join(names, " or ")+" or ", " or "+n+" or ") {
			names = append(names, n)
		}
		if rt := t.TypeOf(); rt == nil || !interp.ownRepresentation(t, rt) {
			own = false
		}
	}
	if len(names) == 0 || own && name != "" {
		return name, nil
	}
	return "", &AmbiguousTypeError{Representation: rep, HeldTypes: strings.Join(names, " or "), Op: op}
}

// typeRepString is the name of the representation of t, "" when it has
// none (an incomplete type).
func typeRepString(t *itype) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	if rt := t.TypeOf(); rt != nil {
		return rt.String()
	}
	return ""
}
