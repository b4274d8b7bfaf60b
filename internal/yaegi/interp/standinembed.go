package interp // toolscript patch 179

// toolscript patch 179: an assertion to an interface type of a value of a
// script type that embeds a stand-in (Options.StandIns) fails at run
// time where Go would promote a method of the real type that the
// stand-in lacks.

import (
	"reflect"
	"sort"
)

// embeddedStandInError is standInError of a value of the script type t:
// an error when each method of a's interface type that t lacks is one
// that the real type of a stand-in t embeds has (Go promotes it) and the
// stand-in lacks (toolscript patch 179).
func (a *ifaceAssertion) embeddedStandInError(n *node, t *itype) error {
	embedded := embeddedStandIns(n.interp.opt.standIns, t)
	if len(embedded) == 0 {
		return nil
	}
	var st reflect.Type
	var missing []string
	for name, sig := range a.want {
		if scriptHasMethod(t, name, sig) {
			continue
		}
		if m, _ := t.lookupMethod(name); m != nil {
			return nil // the script's method of another signature hides the stand-in's
		}
		covered := false
		for _, e := range embedded {
			one := methodSet{name: sig}
			if nativeMissing(n.interp.opt.standIns[e], one) == "" && nativeMissing(e, one) != "" {
				covered, st = true, e
				break
			}
		}
		if !covered {
			return nil
		}
		missing = append(missing, name)
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	return standInErrorf(n, t.id()+"'s embedded ", st, a, missing)
}

// embeddedStandIns are the stand-in types of the fields that the script
// type t embeds, at any depth through embedded script structs.
func embeddedStandIns(standIns map[reflect.Type]reflect.Type, t *itype) []reflect.Type {
	var out []reflect.Type
	seen := map[*itype]bool{}
	var walk func(t *itype, depth int)
	walk = func(t *itype, depth int) {
		for t != nil && (t.cat == linkedT || t.cat == ptrT) && t.val != nil {
			t = t.val
		}
		if t == nil || t.cat != structT || seen[t] || depth > 8 {
			return
		}
		seen[t] = true
		for _, f := range t.field {
			if !f.embed || f.typ == nil {
				continue
			}
			if isBin(f.typ) {
				if rt := f.typ.TypeOf(); rt != nil {
					if _, ok := standIns[rt]; ok {
						out = append(out, rt)
					}
				}
				continue
			}
			walk(f.typ, depth+1)
		}
	}
	walk(t, 0)
	return out
}
