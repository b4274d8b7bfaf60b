package interp // toolscript patch 178

// toolscript patch 178: a type assertion to an interface type of a value
// of a native type the host gives scripts in place of another
// (Options.StandIns: toolscript's *os.File, which has only some of the
// methods of Go's) fails with a run-time error, naming the line, the
// types and the methods, where the value fails and one of the real type
// would pass: `w.(io.Closer)` of os.Stdout answered false, Go true.
// toolscript patch 179 (standinembed.go): so does a type switch case,
// and an assertion of a value of a script type that embeds one.

import (
	"reflect"
	"sort"
	"strings"
)

// standInError is the error of the failed assertion at n of v, a value
// of an interface type, to a's interface type when v's dynamic type is a
// stand-in (Options.StandIns) and Go's answer, with the real type, would
// be true; nil otherwise (Go's answer is false too).
func (a *ifaceAssertion) standInError(n *node, v reflect.Value) error {
	if len(n.interp.opt.standIns) == 0 || a.empty {
		return nil
	}
	nod, raw, ok := dynamicValue(v)
	if !ok {
		return nil
	}
	if nod != nil {
		return a.embeddedStandInError(n, nod.typ) // toolscript patch 179
	}
	rt, ok := n.interp.opt.standIns[raw.Type()]
	if !ok || nativeMissing(rt, a.want) != "" {
		return nil
	}
	return standInErrorf(n, "", raw.Type(), a, methodsMissing(raw.Type(), a.want))
}

// standInErrorf is the error of an assertion at n to a's interface type
// that the stand-in type st (of a value, or of a field that the value's
// type embeds: in says which) cannot answer as Go would, lacking the
// methods missing.
func standInErrorf(n *node, in string, st reflect.Type, a *ifaceAssertion, missing []string) error {
	var have []string
	for i := 0; i < st.NumMethod(); i++ {
		if m := st.Method(i); m.IsExported() {
			have = append(have, m.Name)
		}
	}
	only := "no methods"
	if len(have) > 0 {
		only = "only " + andList(have)
	}
	return n.cfgErrorf("toolscript: %s%s here has %s; asserting %s (%s) cannot be answered as Go would",
		in, st, only, assertionTypeName(a.typ, a.rtype), strings.Join(missing, ", "))
}

// andList is names joined as "a, b and c".
func andList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// methodsMissing are the methods of want that the native type rt lacks,
// sorted.
func methodsMissing(rt reflect.Type, want methodSet) []string {
	var out []string
	for name, sig := range want {
		if nativeMissing(rt, methodSet{name: sig}) != "" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
