package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fmtMethodDecls are the script types of TestFmtMethods.
const fmtMethodDecls = `type P struct{ N int }
func (p *P) String() string { return "ptr" }
type Q struct{ N int }
func (q Q) String() string { return "val" }
type E struct{ N int }
func (e *E) Error() string { return "eptr" }
type Node struct{ V int }
func (n *Node) String() string { if n == nil { return "nil" }; return fmt.Sprint("node", n.V) }
type Hex int
func (h Hex) Format(f fmt.State, verb rune) { fmt.Fprintf(f, "H%d%c", int(h), verb) }
type HP struct{ N int }
func (h *HP) Format(f fmt.State, verb rune) { fmt.Fprintf(f, "HP") }
type G struct{ A int }
func (g G) GoString() string { return "G!" }
type Boom struct{}
func (Boom) String() string { panic("kaboom") }
type BoomE struct{}
func (BoomE) Error() string { panic(errors.New("eboom")) }
type BoomF struct{}
func (BoomF) Format(fmt.State, rune) { panic("fboom") }
type V struct{ N int }
func (v V) String() string { return fmt.Sprint("V", v.N) }
type K [2]int
func (k K) String() string { return fmt.Sprint("K", k[0]+k[1]) }
type base struct{ name string }
type Cat struct{ base }
type Plain struct{ inner struct{ x int } }
type Deep struct{ list []struct{ y int }; m map[string]struct{ z int } }
type Hid struct{ g G; q Q; V Q }
type W1 struct{ *Node }
type W3 struct{ error }
type W4 struct{ fmt.Stringer }
type B uint8
func (b B) String() string { return "b" }
type O struct{ P struct{ X int; y int } }`

// TestFmtMethods checks patches 126 and 127: fmt calls Format, GoString,
// Error and String of a script value where Go's fmt does (in its method
// set only, below other values, on a nil pointer receiver, promoted from
// an embedded pointer or interface; a panic prints as fmt prints it),
// orders struct map keys, prints a []T of a uint8 kind as bytes for %s,
// %q, %x and %X, and names unexported fields below unexported fields and
// struct types with unexported fields as Go does. Each want is what go
// run prints.
func TestFmtMethods(t *testing.T) {
	tests := []struct{ body, want string }{
		{`p := P{3}; fmt.Println(p, []P{{1}}, map[string]P{"a": {2}}, struct{ X P }{}, &p, []*P{&p}, Q{}, &Q{}, []Q{{}})`, "{3} [{1}] map[a:{2}] {{0}} ptr [ptr] val val [val]\n"},
		{`fmt.Println(E{1}, &E{2}, []E{{3}}); fmt.Printf("%v %s %d\n", E{1}, &E{2}, E{4})`, "{1} eptr [{3}]\n{1} eptr {4}\n"},
		{`var np *Node; var q *Q; fmt.Println(np, []*Node{nil, {2}}, q, struct{ N *Node }{}, map[string]*Node{"k": nil})`, "nil [nil node2] <nil> {nil} map[k:nil]\n"},
		{`fmt.Printf("%v %d %s|%v|%v\n", Hex(1), []Hex{2}, map[string]Hex{"a": 3}, struct{ H Hex }{4}, [1]Hex{5})`, "H1v [H2d] map[a:H3s]|{H4v}|[H5v]\n"},
		{`h := HP{1}; fmt.Println(h, &h, []HP{{2}}, []*HP{&h})`, "{1} HP [{2}] [HP]\n"},
		{`var x any = G{1}; fmt.Printf("%#v %#v %#v %#v %v\n", G{1}, []G{{2}}, x, map[string]G{"k": {3}}, G{4})`, "G! []main.G{G!} G! map[string]main.G{\"k\":G!} {4}\n"},
		{`fmt.Printf("%#v|%+v|%#v\n", Hid{}, Hid{}, struct{ G G }{})`, "main.Hid{g:main.G{A:0}, q:main.Q{N:0}, V:main.Q{N:0}}|{g:{A:0} q:{N:0} V:val}|struct { G main.G }{G:G!}\n"},
		{`fmt.Println(Boom{}, []Boom{{}}); fmt.Printf("%s|%d|%q\n", Boom{}, Boom{}, Boom{}); fmt.Println(BoomE{}, BoomF{})`, "%!v(PANIC=String method: kaboom) [%!v(PANIC=String method: kaboom)]\n%!s(PANIC=String method: kaboom)|{}|%!q(PANIC=String method: kaboom)\n%!v(PANIC=Error method: eboom) %!v(PANIC=Format method: fboom)\n"},
		{`fmt.Println(map[V]int{{2}: 2, {1}: 1}, map[string]V{"k": {2}}, map[K]bool{{1, 2}: true, {0, 0}: false})`, "map[V1:1 V2:2] map[k:V2] map[K0:false K3:true]\n"},
		{`fmt.Printf("%+v %+v %v\n", Plain{}, Cat{base{"k"}}, Cat{base{"k"}})`, "{inner:{x:0}} {base:{name:k}} {{k}}\n"},
		{`d := Deep{list: []struct{ y int }{{1}}, m: map[string]struct{ z int }{"a": {2}}}; fmt.Printf("%+v\n", d)`, "{list:[{y:1}] m:map[a:{z:2}]}\n"},
		{`var o O; o.P.X, o.P.y = 3, 4; fmt.Printf("%#v|%T|%T\n", o, o.P, struct{ y int }{})`, "main.O{P:struct { X int; y int }{X:3, y:4}}|struct { X int; y int }|struct { y int }\n"},
		{`fmt.Println(W1{&Node{1}}, W3{errors.New("e")}, W4{Q{}}, []W1{{&Node{2}}})`, "node1 e val [node2]\n"},
		{`fmt.Println(W3{}); fmt.Println(W1{})`, "%!v(PANIC=Error method: runtime error: invalid memory address or nil pointer dereference)\nnil\n"},
		{`fmt.Printf("%s|%x|%q|%v|%X|%s\n", []B{65, 66}, []B{1, 2}, []B{67}, []B{1}, [2]B{10, 11}, [2]B{68, 69})`, "AB|0102|\"C\"|[b]|0A0B|DE\n"},
		{`fmt.Printf("%10v|%-6s|%5.1s|\n", Q{}, &P{}, Q{})`, "       val|ptr   |    v|\n"},
		{`fmt.Println(fmt.Errorf("%v|%s", E{1}, P{2}).Error(), fmt.Errorf("w %w", &E{3}))`, "{1}|{%!s(int=2)} w eptr\n"},
		{`args := []any{P{1}, Q{}, &P{}, Hex(2)}; fmt.Println(args...); fmt.Printf("%v %v %v %v\n", args...)`, "{1} val ptr H2v\n{1} val ptr H2v\n"},
		{`fmt.Println(struct{ X any }{P{1}}, struct{ X any }{Q{}}, []any{P{}, Hex(3)}, map[string]any{"a": G{}})`, "{{1}} {val} [{0} H3v] map[a:{0}]\n"},
		{`type L []int; fmt.Println(L{1})`, "[1]\n"},
		{`s := fmt.Sprintf("%v|%+v|%#v", []Q{{1}}, map[Q]int{{1}: 1}, Q{2}); fmt.Println(s)`, "[val]|map[val:1]|main.Q{N:2}\n"},
		{`var e error = &E{1}; var s fmt.Stringer = &P{}; fmt.Println(e, s, []error{e}, []fmt.Stringer{s, Q{}})`, "eptr ptr [eptr] [ptr val]\n"},
		{`fmt.Printf("%v %+v\n", struct{ b B; c []B }{66, []B{67}}, struct{ b B; c []B }{66, []B{67}})`, "{66 [67]} {b:66 c:[67]}\n"},
		{`fmt.Printf("%x %X %s\n", []V{{1}}, []Q{{}}, []*Node{{1}})`, "[5631] [76616C] [node1]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			assert.Equal(t, tt.want, runOutput(t, goMain(fmtMethodDecls, tt.body)))
		})
	}
}

// TestFmtWrapPromotedError checks patch 126: %v of a struct whose Error
// method is promoted from an embedded interface prints as Go does; and
// patch 176: Errorf's %w of it wraps it as Go does, where patch 126 failed
// at run time naming the type. Each want is what go run prints.
func TestFmtWrapPromotedError(t *testing.T) {
	decls := "type W struct{ error }"
	assert.Equal(t, "w base\n", runOutput(t, goMain(decls, `fmt.Println(fmt.Errorf("w %v", W{errors.New("base")}))`)))
	assert.Equal(t, "w base true\n", runOutput(t, goMain(decls, `e := fmt.Errorf("w %w", W{errors.New("base")}); var w W; fmt.Println(e, errors.As(e, &w))`)))
}

// TestFmtHeldLostMethods checks patch 126: a value of an unnamed type
// made of script types that fmt prints through methods below it ([]V,
// V with String), held in an interface as its representation, fails at
// run time naming the type, where it printed without the methods; a
// named type for it keeps its type and prints as Go does.
func TestFmtHeldLostMethods(t *testing.T) {
	decls := "type V struct{ N int }\nfunc (v V) String() string { return fmt.Sprint(\"V\", v.N) }\ntype L []V"
	tests := []struct{ body, want, err string }{
		{body: `var a any = L{{1}}; var b any = []int{2}; fmt.Println(a, b)`, want: "[V1] [2]\n"},
		{body: `var a any = []V{{1}}; fmt.Println(a)`, err: "printing of an interface holding a value of type []struct { N int }: the interpreter cannot tell it from a value of []main.V"},
		{body: `var a any = map[V]int{{1}: 1}; fmt.Println(a)`, err: "cannot tell it from a value of map[main.V]int"},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			if tt.err == "" {
				assert.Equal(t, tt.want, runOutput(t, goMain(decls, tt.body)))
				return
			}
			it := New(Options{})
			require.NoError(t, it.Use(stdlib.Symbols))
			_, err := it.Eval(goMain(decls, tt.body))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
}
