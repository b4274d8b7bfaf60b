package interp // toolscript patch 173

// toolscript patch 173: encoding/json decodes into the value a non-nil
// pointer held in an interface points to (`xs := []any{&S{}}` given as
// `&xs`, `v := any(&S{})` given as `&v`, a struct's `any` field holding a
// pointer), but a script value in an interface is the interpreter's
// record of it (a struct), so json replaced it with a map[string]any.
// Before json.Unmarshal and (*json.Decoder).Decode, each interface that
// the target reaches as json walks it (through pointers, slices, arrays
// and exported struct fields; json never reuses a map's values) and that
// holds a record or a wrapper of a non-nil pointer gets the pointer
// itself; after the call, an interface that still holds that pointer
// gets the record back, so the script sees the value with its type. A
// held type with a JSON method (UnmarshalJSON, UnmarshalText), which
// the pointer's reflect type does not have, fails the call naming it.

import "reflect"

// heldSlot is an interface that held orig, a record or a wrapper of the
// pointer held.
type heldSlot struct {
	slot, orig, held reflect.Value
}

// jsonSlotsCall returns callFn for the call n of json.Unmarshal or
// (*json.Decoder).Decode, giving json the pointers held in interfaces
// below its target; nil for any other call.
func jsonSlotsCall(n *node, callFn func(reflect.Value, []reflect.Value) []reflect.Value) func(reflect.Value, []reflect.Value) []reflect.Value {
	arg, _, kind := plainArgsOf(n)
	dynamic := arg < 0 && plainDynamic(n) // toolscript patch 172's function values
	if (arg < 0 || kind != plainJSON || arg+1 >= len(n.child)) && !dynamic {
		return nil
	}
	return func(v reflect.Value, in []reflect.Value) []reflect.Value {
		arg, _, kind := plainArgsAt(n, v, dynamic)
		if arg < 0 || kind != plainJSON || arg >= len(in) || !in[arg].IsValid() || !mayHoldRecord(in[arg].Type(), 0, true) && in[arg].Kind() != reflect.Interface {
			return callFn(v, in)
		}
		var slots []heldSlot
		target := in[arg]
		restore := func() {
			if len(slots) == 0 {
				return
			}
			for i := len(slots) - 1; i >= 0; i-- {
				s := slots[i]
				if cur := s.slot.Elem(); cur.IsValid() && cur.Kind() == reflect.Ptr && cur.Type() == s.held.Type() && cur.Pointer() == s.held.Pointer() {
					s.slot.Set(s.orig)
				}
			}
			// A slice json grew holds the pointers in a new array.
			origs := make(map[heldKey]reflect.Value, len(slots))
			for _, s := range slots {
				origs[heldKey{s.held.Type(), s.held.Pointer()}] = s.orig
			}
			jsonRestoreSlots(target, origs, map[uintptr]bool{}, 0)
		}
		defer restore()
		var bad *itype
		jsonHeldSlots(target, map[uintptr]bool{}, &slots, &bad, 0)
		if bad != nil {
			plainMethodCheck(n, bad, plainJSON)
		}
		return callFn(v, in)
	}
}

// heldKey is a pointer a record held.
type heldKey struct {
	t reflect.Type
	p uintptr
}

// jsonRestoreSlots gives each interface that v reaches (as
// jsonHeldSlots walks it) and that holds a pointer of origs its record.
func jsonRestoreSlots(v reflect.Value, origs map[heldKey]reflect.Value, seen map[uintptr]bool, depth int) {
	if !v.IsValid() || depth > plainDepth {
		return
	}
	switch v.Kind() {
	case reflect.Ptr:
		if v.IsNil() || seen[v.Pointer()] || !mayHoldRecord(v.Type().Elem(), 0, true) {
			return
		}
		seen[v.Pointer()] = true
		jsonRestoreSlots(v.Elem(), origs, seen, depth+1)
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		if e.Kind() != reflect.Ptr || e.IsNil() {
			return
		}
		if orig, ok := origs[heldKey{e.Type(), e.Pointer()}]; ok && v.CanSet() {
			v.Set(orig)
		}
		jsonRestoreSlots(e, origs, seen, depth+1)
	case reflect.Slice, reflect.Array:
		if !mayHoldRecord(v.Type().Elem(), 0, true) {
			return
		}
		for i := 0; i < v.Len(); i++ {
			jsonRestoreSlots(v.Index(i), origs, seen, depth+1)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() && mayHoldRecord(f.Type, 0, true) {
				jsonRestoreSlots(v.Field(i), origs, seen, depth+1)
			}
		}
	}
}

// jsonHeldSlots replaces the records and wrappers of non-nil pointers in
// the interfaces that v reaches as json decodes into it with the
// pointers, recording each in slots; bad is set to a held type with a
// JSON method.
func jsonHeldSlots(v reflect.Value, seen map[uintptr]bool, slots *[]heldSlot, bad **itype, depth int) {
	if !v.IsValid() || depth > plainDepth || *bad != nil {
		return
	}
	switch v.Kind() {
	case reflect.Ptr:
		if v.IsNil() || seen[v.Pointer()] || !mayHoldRecord(v.Type().Elem(), 0, true) {
			return
		}
		seen[v.Pointer()] = true
		jsonHeldSlots(v.Elem(), seen, slots, bad, depth+1)
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		if e.Kind() == reflect.Ptr {
			jsonHeldSlots(e, seen, slots, bad, depth+1)
			return
		}
		if !v.CanSet() || !e.CanInterface() {
			return
		}
		t, held, ok := heldScriptValue(v)
		if !ok || !held.IsValid() || held.Kind() != reflect.Ptr || held.IsNil() || !held.CanInterface() {
			return
		}
		if t != nil {
			if m, _ := jsonMethodIn(t, false, false, map[*itype]bool{}); m != "" {
				*bad = t
				return
			}
		}
		orig := reflect.New(v.Type()).Elem()
		orig.Set(v)
		v.Set(held)
		*slots = append(*slots, heldSlot{slot: v, orig: orig, held: held})
		jsonHeldSlots(held, seen, slots, bad, depth+1)
	case reflect.Slice, reflect.Array:
		if !mayHoldRecord(v.Type().Elem(), 0, true) {
			return
		}
		for i := 0; i < v.Len(); i++ {
			jsonHeldSlots(v.Index(i), seen, slots, bad, depth+1)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() && mayHoldRecord(f.Type, 0, true) {
				jsonHeldSlots(v.Field(i), seen, slots, bad, depth+1)
			}
		}
	}
}
