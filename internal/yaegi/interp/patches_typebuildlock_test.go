package interp

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNeedsTypeBuildLock checks which builds take the process-wide type
// build lock (patch 206): those that may make a recursive type, or that
// it cannot tell, and no other.
func TestNeedsTypeBuildLock(t *testing.T) {
	intT := &itype{cat: intT, name: "int", rtype: reflect.TypeOf(0)}
	str := &itype{cat: stringT, name: "string", rtype: reflect.TypeOf("")}

	// type L struct{ Next *L; V int }
	list := &itype{cat: structT, name: "L", path: "main"}
	list.field = []structField{{name: "Next", typ: &itype{cat: ptrT, val: list}}, {name: "V", typ: intT}}

	// type A struct{ B []B }; type B struct{ A map[string]A }: mutual,
	// through other instances of the same names.
	a := &itype{cat: structT, name: "A", path: "main"}
	b := &itype{cat: structT, name: "B", path: "main"}
	a.field = []structField{{name: "B", typ: &itype{cat: sliceT, val: b}}}
	b.field = []structField{{name: "A", typ: &itype{cat: mapT, key: str, val: &itype{cat: structT, name: "A", path: "main", field: a.field}}}}

	// type P struct{ X, Y int; Tags []string; M map[string]*Q }; type Q struct{ N int }
	q := &itype{cat: structT, name: "Q", path: "main", field: []structField{{name: "N", typ: intT}}}
	plain := &itype{cat: structT, name: "P", path: "main", field: []structField{
		{name: "X", typ: intT}, {name: "Y", typ: intT},
		{name: "Tags", typ: &itype{cat: sliceT, val: str}},
		{name: "M", typ: &itype{cat: mapT, key: str, val: &itype{cat: ptrT, val: q}}},
	}}
	// A shared, non-recursive field type met twice is not a recursion.
	pair := &itype{cat: structT, name: "Pair", path: "main", field: []structField{{name: "L", typ: q}, {name: "R", typ: q}}}
	fn := &itype{cat: funcT, arg: []*itype{plain, str}, ret: []*itype{intT}}
	fnRec := &itype{cat: funcT, arg: []*itype{list}}

	// A wide graph is built under the lock rather than walked for long.
	wide := &itype{cat: structT, name: "W", path: "main"}
	for range typeBuildSteps + 1 {
		wide.field = append(wide.field, structField{name: "F", typ: &itype{cat: sliceT, val: str}})
	}

	for _, c := range []struct {
		name string
		typ  *itype
		want bool
	}{
		{"built", intT, false},
		{"plain struct", plain, false},
		{"shared field type", pair, false},
		{"func of plain types", fn, false},
		{"self-recursive list", list, true},
		{"mutually recursive", a, true},
		{"func of a recursive type", fnRec, true},
		{"incomplete", &itype{cat: structT, name: "I", incomplete: true}, true},
		{"nil type", &itype{cat: nilT}, true},
		{"wide", wide, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, needsTypeBuildLock(c.typ))
		})
	}
}
