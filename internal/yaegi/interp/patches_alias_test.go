package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// aliasDecls are the script types the patch 125 tests use.
const aliasDecls = `type S struct{ A int }
func (s S) Get() int { return s.A }
func (s S) String() string { return fmt.Sprint("S", s.A) }
type Tri [2]int
func (t Tri) Get() int { return t[0] }
type Getter interface{ Get() int }
type E struct{ C int }
func (e E) Error() string { return fmt.Sprint("E", e.C) }
type Box struct{ G Getter }
func multi(s S) (Getter, fmt.Stringer, any) { return s, s, s }
func takeSt(x fmt.Stringer) fmt.Stringer { return x }`

// TestInterfaceHoldsACopy checks patch 125: a value of a type with methods
// converted to an interface (a script one, a native one, any), whatever
// way it goes there, is a copy of the value: a later write to the variable
// does not show through the interface, as in Go (each want is go run's
// output). Upstream's native wrappers held the variable, append to a slice
// of a script interface refused a value, a conversion to a native
// interface, an assignment of a literal into an interface element, a
// multiple assignment to native interfaces and a select's send panicked
// in reflect, and fmt dropped a nil interface map element and panicked on
// a nil interface field.
func TestInterfaceHoldsACopy(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"a native interface (assignment, argument, literal, append, map, channel)", `s := S{1}; var st fmt.Stringer = s; var st2 fmt.Stringer; st2 = s; r := takeSt(s); xs := []fmt.Stringer{s}; xs = append(xs, s); m := map[string]fmt.Stringer{}; m["k"] = s; ch := make(chan fmt.Stringer, 1); ch <- s; s.A = 9; fmt.Println(st, st2, r, xs, m, <-ch)`, "S1 S1 S1 [S1 S1] map[k:S1] S1"},
		{"a script interface and any, of a struct and of an array", `s := S{1}; t := Tri{1, 2}; var g Getter = s; var h Getter = t; xs := []Getter{t}; var a any = s; s.A = 9; t[0] = 9; fmt.Println(g.Get(), h.Get(), xs[0].Get(), a)`, "1 1 1 S1"},
		{"a reused loop variable appended", `var items []any; var strs []fmt.Stringer; var gs []Getter; var cur S; for i := 0; i < 3; i++ { cur.A = i; items = append(items, cur); strs = append(strs, cur); gs = append(gs, cur) }; fmt.Println(items, strs, gs[0].Get(), gs[2].Get())`, "[S0 S1 S2] [S0 S1 S2] 0 2"},
		{"append to a script interface's slice", `var all []Getter; for _, u := range []S{{1}, {2}} { all = append(all, u) }; all = append(all, S{3}, Tri{4}); all = append(all, all[:1]...); fmt.Println(len(all), all[1].Get(), all[3].Get(), all[4].Get())`, "5 2 4 1"},
		{"conversions to interfaces", `s := S{1}; e := E{1}; st := fmt.Stringer(s); err := error(e); g := Getter(s); var a any = Getter(s); var a2 any = fmt.Stringer(s); s.A = 9; e.C = 9; fmt.Println(st, err, g.Get(), a, a2, Getter(s).Get(), fmt.Stringer(s).String(), err == error(E{1}))`, "S1 E1 1 S1 S1 9 S9 true"},
		{"a composite literal into an interface element or field", `xs := []Getter{S{1}}; xs[0] = S{2}; m := map[string]Getter{"a": S{1}}; m["b"] = S{2}; ys := [1]fmt.Stringer{}; ys[0] = S{3}; b := &Box{}; b.G = S{4}; fmt.Println(xs[0].Get(), m["a"].Get(), m["b"].Get(), ys, b.G.Get())`, "2 1 2 [S3] 4"},
		{"multiple assignment and a select's send", `s := S{1}; g, st, a := multi(s); var x fmt.Stringer; var y Getter; x, y = s, s; ch := make(chan Getter, 1); select { case ch <- s: }; s.A = 9; fmt.Println(g.Get(), st, a, x, y.Get(), (<-ch).Get())`, "1 S1 S1 S1 1 1"},
		{"a pointer still aliases", `s := S{1}; var g Getter = &s; var st fmt.Stringer = &s; s.A = 9; fmt.Println(g.Get(), st)`, "9 S9"},
		{"nil interfaces printed in maps and fields", `m := map[int]Getter{1: nil, 2: S{1}}; b := map[int]Box{1: {}}; var a any = map[string]any{"n": nil}; fmt.Println(m, b, a, []Box{{}}, Box{}); fmt.Printf("%v %+v\n", m, b)`, "map[1:<nil> 2:S1] map[1:{<nil>}] map[n:<nil>] [{<nil>}] {<nil>}\nmap[1:<nil> 2:S1] map[1:{G:<nil>}]"},
		{"a select's send with a body", `s := S{1}; ch := make(chan fmt.Stringer, 1); done := make(chan bool); select { case ch <- s: close(done) }; <-done; s.A = 9; fmt.Println(<-ch)`, "S1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want+"\n", runOutput(t, goMain(aliasDecls, tt.body)))
		})
	}
}

// TestAppendScriptInterfaceChecked checks that patch 125's append still
// refuses, as Go does, a value whose type does not implement the slice's
// script interface.
func TestAppendScriptInterfaceChecked(t *testing.T) {
	for _, body := range []string{
		`var all []Getter; all = append(all, 3); fmt.Println(all)`,
		`var all []Getter; all = append(all, E{1}); fmt.Println(all)`,
		`var all []Getter; all = append(all, &E{1}); fmt.Println(all)`,
	} {
		t.Run(body, func(t *testing.T) {
			it := New(Options{})
			require.NoError(t, it.Use(stdlib.Symbols))
			_, err := it.Eval(goMain(aliasDecls, body))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "cannot use")
		})
	}
}
